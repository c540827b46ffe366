//! The unified inbox: persistent rows that agents, sessions, boards and
//! webhooks drop for the user, saying what needs them.
//!
//! One table holds every category the contract names (alerts, sessions
//! needing attention, pending approvals, project events, digests, webhooks,
//! alarms, notes), so a later source is a new [`Category`] value, not a new
//! table. Rows belong to an account like everything else.
//!
//! - [`Inbox::add`] never repeats itself: a row with a dedup key (category,
//!   source and reason, [`NewRow::dedup`]) that matches an unread row bumps
//!   that row's `count` and time instead; once read or archived, the next
//!   occurrence is a new row.
//! - [`Inbox::list`] pages newest first by keyset (`before` a row's id), so a
//!   page costs the same at row 100,000 as at row 1.
//! - Read rows go [`RETENTION_DAYS`] after their latest occurrence
//!   ([`Inbox::prune_read`]); unread rows stay however old.
//! - Hiding a category (its `inboxShow*` setting) is the caller's filter
//!   ([`ListQuery::hidden`]): nothing is deleted.
//!
//! Knows nothing of HTTP or settings.

mod inbox;
mod row;

pub use inbox::Inbox;
pub use row::{
    Action, Added, Category, InboxError, InboxRow, ListQuery, MAX_BODY_CHARS, MAX_PAGE,
    MAX_TITLE_CHARS, NewRow, RowChange, Source, StateFilter, clip,
};

use store::Migration;

/// How long a read row, and the notices and events behind project rows, are
/// kept: long enough to look back over a month, short enough that the
/// database holds what is live rather than everything that ever happened.
pub const RETENTION_DAYS: i64 = 30;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        feature: "inbox",
        sql: "CREATE TABLE inbox_rows (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            category TEXT NOT NULL,
            title TEXT NOT NULL,
            body TEXT,
            source_session_id TEXT,
            payload TEXT,
            created_at TEXT NOT NULL,
            read_at TEXT,
            dismissed_at TEXT
          ) STRICT;
          CREATE INDEX inbox_by_account ON inbox_rows (account_id, seq);",
    },
    // Rows get the contract's shape (count, source, actions, archive), the
    // dedup key, snake_case categories, and one index per listing filter.
    // `state` (0 unread, 1 read, 2 archived) is computed, never stored, so
    // it cannot disagree with the times it is derived from.
    Migration {
        feature: "inbox",
        sql: "ALTER TABLE inbox_rows RENAME COLUMN dismissed_at TO archived_at;
          ALTER TABLE inbox_rows ADD COLUMN updated_at TEXT NOT NULL DEFAULT '';
          UPDATE inbox_rows SET updated_at = created_at;
          ALTER TABLE inbox_rows ADD COLUMN count INTEGER NOT NULL DEFAULT 1;
          ALTER TABLE inbox_rows ADD COLUMN source TEXT NOT NULL DEFAULT '{}';
          ALTER TABLE inbox_rows ADD COLUMN actions TEXT NOT NULL DEFAULT '[]';
          UPDATE inbox_rows SET
            source = json_object('sessionId', source_session_id),
            actions = json_array(json_object('kind', 'open_session', 'sessionId', source_session_id))
            WHERE source_session_id IS NOT NULL;
          ALTER TABLE inbox_rows DROP COLUMN source_session_id;
          ALTER TABLE inbox_rows DROP COLUMN payload;
          ALTER TABLE inbox_rows ADD COLUMN dedup_key TEXT;
          ALTER TABLE inbox_rows ADD COLUMN state INTEGER GENERATED ALWAYS AS (
            CASE WHEN archived_at IS NOT NULL THEN 2 WHEN read_at IS NOT NULL THEN 1 ELSE 0 END
          ) VIRTUAL;
          UPDATE inbox_rows SET category = replace(category, '-', '_');
          CREATE UNIQUE INDEX inbox_unread_dedup ON inbox_rows (account_id, dedup_key)
            WHERE dedup_key IS NOT NULL AND read_at IS NULL AND archived_at IS NULL;
          CREATE INDEX inbox_open ON inbox_rows (account_id, seq) WHERE archived_at IS NULL;
          CREATE INDEX inbox_by_state ON inbox_rows (account_id, state, seq);
          CREATE INDEX inbox_by_category ON inbox_rows (account_id, category, seq);
          CREATE INDEX inbox_open_by_category ON inbox_rows (account_id, category, seq)
            WHERE archived_at IS NULL;
          CREATE INDEX inbox_by_category_state ON inbox_rows (account_id, category, state, seq);",
    },
    // Why a source raised a row (a session's `question`, `failed`, `routine`).
    Migration {
        feature: "inbox",
        sql: "ALTER TABLE inbox_rows ADD COLUMN reason TEXT;",
    },
];

#[cfg(test)]
mod tests;
