//! Cross-board dashboards: stored configs, account isolation, If-Match saves and publish-to-web.
//!
//! `dashboards` knows nothing about HTTP. Every owner-facing function takes the
//! [`store::Db`] and then the caller's `account_id`, and treats a resource of
//! another account exactly like a missing one: [`DashboardsError::NotFound`]
//! naming only the kind of resource, so ids cannot be probed.
//!
//! - [`dashboards`]: create, list, get, update (with `If-Match`), delete.
//! - [`config`]: the checks a config must pass; everything else in it is the
//!   client's and is stored as given (key order kept).
//! - [`publish`]: read-only links and the reduced public read behind them.
//!
//! Rules chosen where the contract is silent:
//! - A dashboard may connect any board of its account, not only boards of its
//!   own workspace: the account is the isolation boundary the contract names,
//!   and dashboards that span workspaces are what people build in tools like
//!   this. Every `boardIds` entry is checked on every save that carries a
//!   config, so a board deleted since must leave the config before it saves.
//! - The ETag is strong, `"<id>.<version>"`; every successful update bumps the version.
//! - Publish tokens are stored as SHA-256 digests, like every other token of
//!   the application, so the link is shown once, when it is made; the owner
//!   gets a fresh one by publishing again. [`publication`] tells whether a
//!   dashboard is published and since when.
//!
//! This crate reads the `workspaces`, `boards` and `members` tables of the
//! `boards` feature inside its own transactions (so a check and the write it
//! guards see one snapshot), and its tables reference `workspaces`, so its
//! migrations run after [`boards::MIGRATIONS`]. Deleting a workspace deletes
//! its dashboards and their links.

pub mod config;
pub mod dashboards;
pub mod model;
pub mod publish;
mod schema;

pub use dashboards::{create, delete, get, list, update};
pub use model::*;
pub use publish::{public_view, publication, publish, unpublish};
pub use schema::{MIGRATIONS, migrate};

use store::rusqlite;

/// What every function of this crate can fail with. The server maps
/// `NotFound` to 404, `Invalid` to 400, `Stale` to 412 and the rest to 500.
#[derive(Debug, thiserror::Error)]
pub enum DashboardsError {
    /// Missing, or belonging to another account: the two are indistinguishable.
    #[error("The {what} does not exist.")]
    NotFound { what: &'static str },
    /// Malformed or invalid input; nothing was stored.
    #[error("{message}")]
    Invalid { message: String },
    /// `If-Match` named a version other than the current one; nothing was stored.
    #[error("The dashboard was changed since you read it; reload it and apply your change again.")]
    Stale,
    /// The operating system's random source failed, so no token was made.
    #[error("cannot read the system random source: {0}")]
    Random(#[from] std::io::Error),
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    /// A failure of the boards module other than a missing board.
    #[error(transparent)]
    Boards(boards::BoardsError),
}

/// A board or workspace the boards module did not find is missing here too.
impl From<boards::BoardsError> for DashboardsError {
    fn from(error: boards::BoardsError) -> Self {
        match error {
            boards::BoardsError::NotFound { what } => DashboardsError::NotFound { what },
            other => DashboardsError::Boards(other),
        }
    }
}

pub type Result<T, E = DashboardsError> = std::result::Result<T, E>;

pub(crate) fn invalid(message: impl Into<String>) -> DashboardsError {
    DashboardsError::Invalid {
        message: message.into(),
    }
}

pub(crate) fn not_found(what: &'static str) -> DashboardsError {
    DashboardsError::NotFound { what }
}
