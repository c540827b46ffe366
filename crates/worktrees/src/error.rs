//! The crate's one error type: which git step failed, on which path, and why.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum WorktreeError {
    #[error("{path} does not exist or is not a folder.")]
    NoSuchFolder { path: PathBuf },
    #[error("{path} is not inside a git repository.")]
    NotARepository { path: PathBuf },
    #[error("The repository at {path} has no commit yet, so there is nothing to branch from.")]
    NoCommit { path: PathBuf },
    #[error("Line {line} of {file} is not a usable pattern: {reason}")]
    InvalidInclude {
        file: PathBuf,
        line: usize,
        reason: String,
    },
    #[error("could not run git")]
    Spawn(#[source] std::io::Error),
    #[error("`git {args}` failed ({status}): {stderr}")]
    Git {
        args: String,
        status: String,
        stderr: String,
    },
    #[error("`git {args}` took longer than {seconds} s and was stopped.")]
    Timeout { args: String, seconds: u64 },
    /// A file asked for by path that the worktree's changes do not hold, or
    /// a path that could not name one (absolute, or reaching out with `..`).
    #[error("{path}: {reason}")]
    NotAChangedFile { path: String, reason: String },
    #[error("could not copy {path} into the worktree")]
    Copy {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

pub type Result<T, E = WorktreeError> = std::result::Result<T, E>;
