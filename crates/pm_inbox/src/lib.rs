//! Project events into the inbox: which board events become `pm_event` rows
//! for which account, when (quiet hours, the hourly digest), due-today and
//! overdue notices, and the project events of a day for the daily briefing.
//!
//! - [`window`]: the time rules in the user's zone (jiff): quiet-hours
//!   windows across midnight and daylight-saving changes, hour tops, days.
//! - [`Prefs`]: the user's choices as plain data (the server reads the
//!   settings; this crate knows nothing of them, nor of HTTP or sessions).
//! - [`Notifier`]: reads the boards' events by sequence number after they
//!   commit and turns them into rows; [`Notifier::tick`] does the
//!   time-driven work at a moment the caller's clock gives, and
//!   [`Notifier::next_wake`] says when the next one is due, so a scheduler on
//!   an injected clock drives it and tests move time instead of waiting.
//!
//! Nobody is told of their own work: a change made by a member (the web app,
//! the CLI, the owner's cli token) notices nothing. A change made by an agent
//! session is noticed for the board's account, folded: one notice per
//! session and board for every pass over the events, one inbox row per
//! session and board while it is unread, its `count` the items changed.
//! Due-today and overdue notices go only to the account whose own member
//! (`"self": true`) an item's people columns name, folded per board, kind and
//! day ("27 items overdue on Ops"); a dated item that nobody is assigned
//! notifies nobody.
//!
//! A board's preference (`all`, `assigned-only`, `none`) filters both:
//! assigned-only keeps an agent's changes only of the items assigned to the
//! account's own member; none keeps nothing. During quiet hours notices are
//! held and released when the window ends; in digest mode they are held to
//! the next local hour and released as one `digest` row per account listing
//! them by board (and one when quiet hours end). An overdue notice is never
//! held.
//!
//! What is read and old goes: [`Notifier::prune`] deletes notices and due
//! records past [`inbox::RETENTION_DAYS`] and the item events the notifier
//! has read that are as old.

mod notifier;
mod prefs;
mod text;
pub mod window;

pub use notifier::{DayRange, Delivered, Notifier, NotifierError, Tick};
pub use prefs::{BoardPreference, Prefs};
pub use window::QuietHours;

use store::Migration;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        feature: "pm_inbox",
        // pm_inbox_state: `cursor` (the last item event read) and `day` (the
        // local day of the last tick, to see a new one begin).
        // pm_notices: every notice, by the local day it was made on (the daily
        // digest lists them); `held` ('quiet' or 'digest') until released, with
        // `release_at` in Unix seconds for the digest's hour.
        // pm_due_sent: which due-today and overdue notices went out, so each is
        // sent at most once per item, column and day.
        sql: "CREATE TABLE pm_inbox_state (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
          ) STRICT;
          CREATE TABLE pm_notices (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            account_id TEXT NOT NULL,
            day TEXT NOT NULL,
            board_id TEXT NOT NULL,
            board_name TEXT NOT NULL,
            item_id TEXT NOT NULL,
            summary TEXT NOT NULL,
            actor TEXT NOT NULL,
            session_id TEXT,
            reason TEXT NOT NULL,
            held TEXT,
            release_at INTEGER
          ) STRICT;
          CREATE INDEX pm_notices_held ON pm_notices (held) WHERE held IS NOT NULL;
          CREATE INDEX pm_notices_by_day ON pm_notices (account_id, day);
          CREATE TABLE pm_due_sent (
            item_id TEXT NOT NULL,
            column_id TEXT NOT NULL,
            day TEXT NOT NULL,
            kind TEXT NOT NULL,
            PRIMARY KEY (item_id, column_id, day, kind)
          ) STRICT, WITHOUT ROWID;",
    },
    // A notice folds many items (an agent's batch, a board's overdue items
    // of a day): how many it stands for.
    Migration {
        feature: "pm_inbox",
        sql: "ALTER TABLE pm_notices ADD COLUMN count INTEGER NOT NULL DEFAULT 1;",
    },
];

#[cfg(test)]
mod tests;
