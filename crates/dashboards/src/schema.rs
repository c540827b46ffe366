//! The tables of dashboards and their publish-to-web links, and their append-only migrations.

use store::{Db, Migration, StoreError};

pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "dashboards",
    sql: "
-- config: the client's JSON object as text, checked on the way in.
-- version: bumped by every update; the ETag is derived from it.
CREATE TABLE dashboards (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX dashboards_by_workspace ON dashboards (workspace_id, created_at);

-- A link is live while withdrawn_at is NULL; at most one live link per
-- dashboard. Only the SHA-256 digest of the token is kept.
CREATE TABLE dashboard_publications (
    token_sha256 BLOB PRIMARY KEY,
    dashboard_id TEXT NOT NULL REFERENCES dashboards (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    withdrawn_at TEXT
) STRICT, WITHOUT ROWID;
CREATE INDEX dashboard_publications_by_dashboard ON dashboard_publications (dashboard_id);
CREATE UNIQUE INDEX dashboard_publications_live
    ON dashboard_publications (dashboard_id) WHERE withdrawn_at IS NULL;
",
}];

/// Applies this crate's migrations; call once at start-up, after `boards::migrate`.
pub fn migrate(db: &Db) -> Result<(), StoreError> {
    db.migrate(MIGRATIONS)
}
