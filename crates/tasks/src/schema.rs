//! The crate's tables, as one append-only list of migrations.
//!
//! A list is `(account_id, workspace_id)` with `''` for the personal list, so
//! the key columns are never NULL and equality finds every list. Subtasks
//! hang off their parent with `ON DELETE CASCADE`, so deleting a task takes
//! its subtree in the same statement. The reminder columns keep the due date
//! and the snooze end last told, so each moment is told once.

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "tasks",
    sql: "CREATE TABLE tasks (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            parent_id TEXT REFERENCES tasks (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            text TEXT NOT NULL,
            notes TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('open', 'done', 'dropped')),
            due TEXT,
            snoozed_until TEXT,
            source_session_id TEXT,
            conflict INTEGER NOT NULL DEFAULT 0,
            reminded_due TEXT,
            reminded_snooze TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            done_at TEXT
          ) STRICT;
          CREATE INDEX tasks_by_list ON tasks (account_id, workspace_id, parent_id, position);
          CREATE INDEX tasks_by_parent ON tasks (parent_id);
          CREATE INDEX tasks_open_due ON tasks (due) WHERE state = 'open' AND due IS NOT NULL;
          CREATE INDEX tasks_open_snoozed ON tasks (snoozed_until)
            WHERE state = 'open' AND snoozed_until IS NOT NULL;

          CREATE TABLE tasks_caught (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            session_title TEXT,
            text TEXT NOT NULL,
            quote TEXT NOT NULL,
            created_at TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('staged', 'kept', 'dismissed')),
            task_id TEXT
          ) STRICT;
          CREATE INDEX tasks_caught_staged ON tasks_caught (account_id, created_at)
            WHERE state = 'staged';

          CREATE TABLE tasks_scanned_sessions (
            session_id TEXT PRIMARY KEY,
            scanned_at TEXT NOT NULL
          ) STRICT;

          CREATE TABLE tasks_mirrors (
            account_id TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            folder TEXT NOT NULL,
            PRIMARY KEY (account_id, workspace_id)
          ) STRICT;

          CREATE TABLE tasks_mirror_state (
            path TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            base_text TEXT NOT NULL,
            base_hash TEXT NOT NULL,
            file_mtime_ns INTEGER,
            file_size INTEGER,
            synced_at TEXT NOT NULL
          ) STRICT;",
}];
