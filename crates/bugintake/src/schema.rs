//! The crate's tables, as one append-only list of migrations.
//!
//! One row per report; a duplicate (same account, source and normalised
//! title within a day of the row's `created_at`) is no row of its own but
//! `count` and `last_seen_at` on the original. `dedup_key` is the
//! normalised title, indexed with the account and source for that lookup.
//! `session_id` is set once, by `mark_triaging`, and no two reports share
//! one. `labels` holds the labels one a line (a label is one line by
//! construction). `reason` says why a listed report did not start.

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "bugintake",
    sql: "CREATE TABLE bug_reports (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            source TEXT NOT NULL
              CHECK (source IN ('github', 'sentry', 'generic', 'email', 'form')),
            title TEXT NOT NULL,
            body TEXT NOT NULL,
            url TEXT,
            external_id TEXT,
            reporter TEXT,
            origin TEXT,
            labels TEXT NOT NULL,
            folder TEXT,
            engine TEXT,
            state TEXT NOT NULL
              CHECK (state IN ('new', 'held', 'triaging', 'triaged', 'dismissed', 'unrouted')),
            reason TEXT CHECK (reason IN ('intake_off', 'held', 'unrouted', 'start_failed')),
            session_id TEXT UNIQUE,
            dedup_key TEXT NOT NULL,
            count INTEGER NOT NULL DEFAULT 1,
            created_at TEXT NOT NULL,
            last_seen_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX bug_reports_dedup ON bug_reports (account_id, source, dedup_key, created_at);
          CREATE INDEX bug_reports_by_account ON bug_reports (account_id, created_at);",
}];
