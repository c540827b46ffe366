//! The running apps as the registry shows them, and what it is given to
//! start or list one.

use serde::Serialize;

/// [`App::runner`] of an app on this machine.
pub const LOCAL_RUNNER: &str = "local";

/// How many quick exits in a row make an app `Failing`: it is no longer
/// restarted after this many.
pub const CRASH_LOOP_STARTS: u32 = 5;

/// A run shorter than this that ends is a crash to restart; a longer one
/// that ends is an app that finished.
pub const QUICK_EXIT: time::Duration = time::Duration::seconds(10);

/// How long an exited or failing app stays listed, so its status and last
/// lines can still be read.
pub const KEPT_AFTER_END: time::Duration = time::Duration::minutes(10);

/// One app, started by the registry or found listening.
#[derive(Clone, Debug, Serialize)]
pub struct App {
    /// What it is reached by: `<name>.localhost`.
    pub name: String,
    pub session_id: String,
    /// [`LOCAL_RUNNER`], or the runner it runs on.
    pub runner: String,
    /// The command as a person reads it.
    pub command: String,
    pub port: u16,
    /// The process group's leader while it runs; the listening process for
    /// a detected app.
    pub pid: Option<u32>,
    pub state: State,
    /// When its current run started ([`clock::timestamp`]).
    pub started_at: String,
    /// How its last run ended: the exit code, or 128 + the signal.
    pub exit_status: Option<i32>,
    pub origin: Origin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Running,
    /// Ended, or waiting out a crash's backoff before it is started again.
    Exited,
    /// Crashed [`CRASH_LOOP_STARTS`] times in a row; no longer restarted.
    Failing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// The registry started it and owns its process.
    Started,
    /// Found listening in a session's processes.
    Detected,
}

/// Makes the command of a started app, fully prepared (program, folder,
/// environment, sandbox), again at every restart.
pub type Launch = Box<dyn Fn() -> std::io::Result<tokio::process::Command> + Send + Sync>;

/// What starting an app takes.
pub struct StartSpec {
    pub name: String,
    pub session_id: String,
    pub runner: String,
    /// Shown; what runs is what [`StartSpec::launch`] makes.
    pub command: String,
    pub port: u16,
    pub launch: Launch,
}

/// One app found listening, named by the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DetectedApp {
    pub name: String,
    pub session_id: String,
    pub command: String,
    pub port: u16,
    pub pid: Option<u32>,
}

/// Where the proxy sends a request for a running app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub port: u16,
    pub runner: String,
    pub session_id: String,
    pub name: String,
}
