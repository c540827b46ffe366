//! Where's my work (docs/work.md): what became of every change an agent
//! made. A piece of work is a branch of a repository that sessions worked
//! on: a session's worktree branch, or the branch of a plain folder a
//! session committed on ([`origins`]). [`facts::inspect`] asks git where it
//! is (ahead, behind, landed by merge, rebase or squash, uncommitted,
//! unpushed, its upstream gone), [`state::decide`] turns that and its
//! sessions into one of `in_progress`, `stranded`, `waiting_on_review`,
//! `landed`, `turned_down` (or `unknown` with the reason), and [`Index`]
//! keeps the facts cached behind a fingerprint of the refs and indexes, so
//! a page of hundreds costs file stats, not git runs. [`act`] prunes,
//! discards and pushes, each checked again against fresh facts;
//! [`remotes`] says where a remote takes a pull request, so one is offered
//! only there.
//! [`reviews`] keeps what reviewer engines found in work that came back,
//! [`hosted`] what a code host last said of its pull request.
//!
//! Runs the real `git` (through `worktrees::git`); knows nothing of HTTP
//! or of how sessions run.

pub mod act;
pub mod facts;
pub mod hosted;
mod index;
pub mod landing;
pub mod merges;
pub mod notices;
pub mod origins;
pub mod remotes;
pub mod reviews;
pub mod state;

pub use act::WorkError;
pub use index::{
    Commit, Entry, Group, Index, RECHECK_AFTER, Source, Uncommitted, entry, group, id_of,
    id_on_runner, sessions_fingerprint,
};
pub use landing::Landing;
pub use state::{Action, Activity, State};

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[
    store::Migration {
        feature: "work",
        sql: "CREATE TABLE work_origins (
            session_id TEXT PRIMARY KEY,
            repository TEXT NOT NULL,
            branch TEXT NOT NULL,
            base TEXT NOT NULL,
            checkout TEXT NOT NULL
          ) STRICT;",
    },
    store::Migration {
        feature: "work",
        sql: "CREATE TABLE work_merges (
            session_id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            repository TEXT NOT NULL,
            branches TEXT NOT NULL,
            started_at INTEGER NOT NULL
          ) STRICT;",
    },
    store::Migration {
        feature: "work",
        sql: "CREATE TABLE work_notices (
            work_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            noticed_at INTEGER NOT NULL,
            PRIMARY KEY (work_id, kind)
          ) STRICT;",
    },
    store::Migration {
        feature: "work",
        sql: "CREATE TABLE work_reviews (
            work_id TEXT NOT NULL,
            reviewer TEXT NOT NULL,
            head TEXT NOT NULL,
            at TEXT NOT NULL,
            findings TEXT NOT NULL,
            error TEXT,
            PRIMARY KEY (work_id, reviewer, head)
          ) STRICT;",
    },
    store::Migration {
        feature: "work",
        sql: "CREATE TABLE work_pull_requests (
            work_id TEXT PRIMARY KEY,
            host TEXT NOT NULL,
            project TEXT NOT NULL,
            etag TEXT,
            pull_request TEXT,
            error TEXT,
            checked_at INTEGER NOT NULL
          ) STRICT;",
    },
];
