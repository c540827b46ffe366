//! What can go wrong with running apps, in words a person reads.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum AppsError {
    #[error(
        "every port of {start}-{end} is taken, by sessions or by other programs on this machine: stop an app or free a port of the range"
    )]
    RangeExhausted { start: u16, end: u16 },
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    #[error(
        "{}: `{name}` is not a valid app name: use 1 to 40 lowercase letters, digits and `-`, neither first nor last",
        path.display()
    )]
    InvalidName { name: String, path: PathBuf },
    #[error("an app named `{0}` is already running")]
    NameTaken(String),
    #[error("no app is named `{0}`")]
    NotFound(String),
    #[error(
        "`{0}` was found listening, not started by Switchboard, so there is no command to start it again"
    )]
    NotStarted(String),
    /// What a runner answered when asked to start or stop an app there.
    #[error("{0}")]
    Runner(String),
    #[error("the app could not be started: {0}")]
    Spawn(String),
}
