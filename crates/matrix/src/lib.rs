//! The messenger (issue 69, docs/phone.md "Messenger"): the user's own
//! Matrix account, through the client-server API. Not the agents' Telegram
//! bot (`crates/messenger`): this is the person's conversations.
//!
//! - [`config`]: `DIR/matrix.toml` (homeserver, user, the saved key that
//!   keeps the access token).
//! - [`client`]: login, `/sync`, sends; 429 waited out on the clock; a
//!   revoked token told apart.
//! - [`Matrix`] (`service.rs`, `book.rs`): a sync round stores the rooms,
//!   their names and new messages and the next `since` token in one
//!   transaction, so a message is never fetched (or shown) twice; sends
//!   carry a transaction id stored first, so a retry is the same event.
//!   `messengerEngine` is [`Engine`]: switching signs out.
//!
//! Knows nothing of HTTP servers, settings, saved keys or the inbox.

mod book;
pub mod client;
pub mod config;
mod error;
mod service;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

pub use client::{Client, Login, MAX_RATE_RETRIES};
pub use config::{CONFIG_FILE, Config};
pub use error::MatrixError;
pub use service::{Matrix, SyncReport};

/// The longest message sent.
pub const MAX_TEXT_CHARS: usize = 16_000;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "matrix",
    sql: "CREATE TABLE matrix_accounts (
            account_id TEXT PRIMARY KEY,
            engine TEXT NOT NULL,
            user_id TEXT,
            since TEXT,
            state TEXT NOT NULL,
            failure TEXT,
            synced_at TEXT
          ) STRICT;
          CREATE TABLE matrix_rooms (
            account_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            name TEXT,
            last_at TEXT NOT NULL,
            PRIMARY KEY (account_id, room_id)
          ) STRICT;
          CREATE TABLE matrix_messages (
            account_id TEXT NOT NULL,
            event_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            sender TEXT NOT NULL,
            body TEXT NOT NULL,
            sent_at TEXT NOT NULL,
            own INTEGER NOT NULL,
            PRIMARY KEY (account_id, event_id)
          ) STRICT;
          CREATE INDEX matrix_messages_room ON matrix_messages (account_id, room_id, sent_at);
          CREATE TABLE matrix_outbox (
            account_id TEXT NOT NULL,
            txn_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            body TEXT NOT NULL,
            event_id TEXT,
            created_at TEXT NOT NULL,
            PRIMARY KEY (account_id, txn_id)
          ) STRICT;",
}];

/// `messengerEngine`: which sync API the client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// The current client-server API (`/_matrix/client/v3`).
    Maintained,
    /// The older `r0` paths, for homeservers that predate v3.
    Legacy,
}

impl Engine {
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Maintained => "maintained",
            Engine::Legacy => "legacy",
        }
    }

    pub(crate) fn prefix(self) -> &'static str {
        match self {
            Engine::Maintained => "/_matrix/client/v3",
            Engine::Legacy => "/_matrix/client/r0",
        }
    }
}

/// Where the account stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MessengerState {
    /// No token yet, or signed out by an engine switch.
    SignedOut,
    Connected,
    /// The homeserver revoked the token: sign in again.
    Revoked,
    /// The last sync failed (away, rate limited); `failure` says why.
    Failing,
}

impl MessengerState {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            MessengerState::SignedOut => "signed_out",
            MessengerState::Connected => "connected",
            MessengerState::Revoked => "revoked",
            MessengerState::Failing => "failing",
        }
    }

    pub(crate) fn parse(text: &str) -> Self {
        match text {
            "connected" => MessengerState::Connected,
            "revoked" => MessengerState::Revoked,
            "failing" => MessengerState::Failing,
            _ => MessengerState::SignedOut,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessengerStatus {
    pub state: MessengerState,
    pub user_id: Option<String>,
    pub failure: Option<String>,
    pub synced_at: Option<String>,
}

/// A joined room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatrixRoom {
    pub id: String,
    /// `m.room.name`, else the room id.
    pub name: String,
    pub last_at: String,
    pub last_text: Option<String>,
}

/// A text message in a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatrixMessage {
    pub event_id: String,
    pub room_id: String,
    pub sender: String,
    pub body: String,
    pub sent_at: String,
    /// Sent by this account (from here or another of its devices).
    pub own: bool,
}

/// A message to send to a room.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewMatrixMessage {
    pub text: String,
}
