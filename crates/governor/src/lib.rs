//! The fleet governor: brings interrupted work back within budgets.
//!
//! Every check (the server runs one every [`CHECK_EVERY`] on its clock, and
//! the owner can ask for one now) counts the sessions working, lists the
//! dormant ones (interrupted, paused; closed ones too), and revives the most
//! recently active first, up to `sessionRefillTargetCount` working and
//! `sessionRefillBatch` per check, skipping what [`refill::plan`] rules out.
//! Each revive is recorded in `governor_revives`, which the cooldown, the
//! per-session daily budget and the local day's dollar cap read; the
//! revived session starts paced with the others returning (the sessions
//! crate's pacer). The last checks are kept in memory for `GET /governor`.
//!
//! Knows nothing of HTTP or settings: the server reads the settings into
//! [`Rules`].

mod governor;
mod refill;

pub use governor::{CHECK_EVERY, Check, Governor, GovernorError, KEPT_CHECKS};
pub use refill::{History, Plan, Rules, SkipReason, Skipped, plan};

use store::Migration;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        feature: "governor",
        sql: "CREATE TABLE governor_revives (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL,
            at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX governor_revives_by_time ON governor_revives (at, session_id);",
    },
    Migration {
        feature: "governor",
        // Each account reads its own revives today without joining the
        // sessions (whose table may not exist yet when this runs). Revives
        // recorded before it belong to no account's count, for that day
        // only; the budgets read revives by session, not by account.
        sql: "ALTER TABLE governor_revives ADD COLUMN account_id TEXT NOT NULL DEFAULT '';",
    },
];
