//! Running apps: the dev servers sessions run, each on a port of its own
//! and a name under `.localhost`, whether Switchboard started it or found it
//! listening.
//!
//! - [`names`]: the DNS labels an app's name is made of, and the name a
//!   request's `Host` asks for.
//! - [`ports`]: the range of ports handed to sessions, one per holder.
//! - [`config`]: the commands `apps.toml` declares.
//! - [`frameworks`]: the flags that make a framework that ignores `PORT`
//!   listen where it was told.
//! - [`listeners`]: what the processes of sessions listen on, read from
//!   `/proc`.
//! - [`Registry`]: the live apps, started (the registry owns the process,
//!   restarts a crash with backoff) or detected, and the route the proxy
//!   asks for per request.
//!
//! This crate knows nothing of HTTP, settings, sessions or runners: the
//! application layer names apps, gives them their environment and feeds
//! what runners report into the registry.

pub mod config;
mod error;
pub mod frameworks;
pub mod listeners;
mod model;
pub mod names;
mod output;
pub mod ports;
mod registry;
mod sock_diag;
mod supervise;
mod table;

pub use config::{Declared, read_declared};
pub use error::AppsError;
pub use listeners::Listener;
pub use model::{
    App, CRASH_LOOP_STARTS, DetectedApp, KEPT_AFTER_END, LOCAL_RUNNER, Launch, Origin, QUICK_EXIT,
    Route, StartSpec, State,
};
pub use output::{KEPT_LINES, LINE_MAX};
pub use ports::{PortRange, Ports};
pub use registry::Registry;
pub use table::FailingCallback;
