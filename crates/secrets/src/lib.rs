//! Secrets the model never sees.
//!
//! - An **input request**: a session asks the user for a value it cannot set
//!   itself (an API key). The user's answer is written straight into a
//!   dotenv file in the session's folder ([`dotenv`]), owner-only; the value
//!   is never stored in the database, and nothing this crate returns about a
//!   request holds it.
//! - A **key proposal**: a session offers a key it holds; it waits, sealed,
//!   until the user saves it (perhaps edited) or discards it.
//! - **Saved keys**: sealed with XChaCha20-Poly1305 under a key kept in a
//!   file beside the database ([`Cipher`]), reusable by name to answer later
//!   requests.
//!
//! Knows nothing of HTTP, settings or the inbox: the server checks the
//! switches and tokens and makes the inbox rows.

mod cipher;
mod dotenv;
mod error;
mod keys;
mod requests;

use std::sync::Arc;

use clock::Clock;
use store::{Db, Migration};

pub use cipher::Cipher;
pub use error::{MAX_NAME_CHARS, MAX_PROMPT_CHARS, MAX_VALUE_BYTES, SecretsError};
pub use keys::{KeyProposal, NewProposal, ProposalDecision, ProposalState, Reviewed, SavedKey};
pub use requests::{Answer, INPUT_WAIT, InputRequest, NewInputRequest, RequestState};

/// The key file's name in the data directory.
pub const KEY_FILE: &str = "secrets.key";

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "secrets",
    sql: "CREATE TABLE input_requests (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            name TEXT NOT NULL,
            prompt TEXT NOT NULL,
            file TEXT NOT NULL,
            folder TEXT NOT NULL,
            state TEXT NOT NULL,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            answered_at TEXT
          ) STRICT;
          CREATE INDEX input_requests_by_account ON input_requests (account_id, state, created_at);
          CREATE TABLE saved_keys (
            account_id TEXT NOT NULL,
            name TEXT NOT NULL,
            sealed BLOB NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (account_id, name)
          ) STRICT;
          CREATE TABLE key_proposals (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            name TEXT NOT NULL,
            sealed BLOB,
            state TEXT NOT NULL,
            created_at TEXT NOT NULL,
            decided_at TEXT
          ) STRICT;
          CREATE INDEX key_proposals_by_account ON key_proposals (account_id, state, created_at);",
}];

pub struct Secrets {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
    cipher: Cipher,
}

impl Secrets {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>, cipher: Cipher) -> Self {
        Self { db, clock, cipher }
    }
}

#[cfg(test)]
mod tests;
