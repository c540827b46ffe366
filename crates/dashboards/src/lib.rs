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
pub mod demo;
mod error;
pub mod model;
pub mod publish;
mod schema;

pub use dashboards::{create, delete, get, list, update};
pub use error::{DashboardsError, Result};
pub use model::*;
pub use publish::{public_view, publication, publish, unpublish};
pub use schema::{MIGRATIONS, migrate};
