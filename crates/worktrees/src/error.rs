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
    #[error("could not copy {path} into the worktree")]
    Copy {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

pub type Result<T, E = WorktreeError> = std::result::Result<T, E>;
