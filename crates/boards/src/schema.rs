//! The tables of the project-board module and their append-only migrations.
//!
//! Accounts belong to another crate, so `account_id` is plain text here.
//! Workspaces, members and boards carry it; columns, groups, items and events
//! reach it through their board. `groups` and `columns` are SQL keywords, hence
//! the `board_` prefix.

use store::{Db, Migration, StoreError};

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        feature: "boards",
        sql: "
CREATE TABLE workspaces (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE INDEX workspaces_by_account ON workspaces (account_id, created_at);

CREATE TABLE members (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT,
    created_at TEXT NOT NULL
) STRICT;
CREATE INDEX members_by_account ON members (account_id, created_at);

-- version: bumped in the same transaction by any change to the board, its
-- columns, groups or items; the full read's ETag is derived from it.
CREATE TABLE boards (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    views TEXT NOT NULL DEFAULT '[]',
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX boards_by_workspace ON boards (workspace_id, created_at);
CREATE INDEX boards_by_account ON boards (account_id);

CREATE TABLE board_columns (
    board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    position INTEGER NOT NULL,
    title TEXT NOT NULL,
    type TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (board_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE board_groups (
    board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    position INTEGER NOT NULL,
    title TEXT NOT NULL,
    PRIMARY KEY (board_id, id)
) STRICT, WITHOUT ROWID;
-- Unique (it holds the key) so that SQLite knows the groups come one by one in
-- order and streams the full read without sorting.
CREATE UNIQUE INDEX board_groups_order ON board_groups (board_id, position, id);

-- vals: the item's values as a JSON object text keyed by column id, already
-- validated, spliced raw into the full-board read. The table is clustered in
-- display order (board, group, position), so the full read is one sequential
-- range scan instead of an index walk with a lookup per row.
CREATE TABLE items (
    board_id TEXT NOT NULL,
    group_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    vals TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (board_id, group_id, position, id),
    FOREIGN KEY (board_id, group_id) REFERENCES board_groups (board_id, id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX items_by_id ON items (id);

CREATE TABLE item_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL,
    board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    actor TEXT NOT NULL,
    kind TEXT NOT NULL,
    column_id TEXT NOT NULL,
    member_id TEXT,
    before TEXT NOT NULL,
    after TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE INDEX item_events_by_account ON item_events (account_id, seq);
CREATE INDEX item_events_by_board ON item_events (board_id);
",
    },
    // The account's own member ("self"), so that "assigned to me" has a
    // meaning; at most one per account. The server makes it for every account
    // (existing ones at start-up), since accounts live in another crate.
    Migration {
        feature: "boards",
        sql: "
ALTER TABLE members ADD COLUMN is_self INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX members_self ON members (account_id) WHERE is_self = 1;
",
    },
    // An event's account is its board's: not stored a second time, nor
    // indexed, on every one of a 100,000-item batch's events (a quarter of
    // the table's size with its index).
    Migration {
        feature: "boards",
        sql: "
DROP INDEX item_events_by_account;
ALTER TABLE item_events DROP COLUMN account_id;
",
    },
];

/// Applies this crate's migrations; call once at start-up.
pub fn migrate(db: &Db) -> Result<(), StoreError> {
    db.migrate(MIGRATIONS)
}
