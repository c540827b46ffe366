//! What can go wrong syncing instruction files or keeping the record of
//! what was written.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// A setting named a file outside [`crate::FILE_NAMES`]; refused before
    /// anything is written.
    #[error("{name:?} is not an instruction file name Switchboard knows")]
    UnknownName { name: String },
    #[error("cannot open the folder {path}")]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {path}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A worktree's `.git` file that does not say `gitdir: <path>`.
    #[error("{path} is not a git link file (expected a line `gitdir: <path>`)")]
    GitLink { path: PathBuf },
    #[error(transparent)]
    Ledger(#[from] LedgerError),
}

/// The ledger (what Switchboard last wrote to each mirror) could not be read
/// or updated.
#[derive(Debug, thiserror::Error)]
#[error("cannot use the record of written instruction mirrors")]
pub struct LedgerError(#[from] store::StoreError);

impl From<store::rusqlite::Error> for LedgerError {
    fn from(e: store::rusqlite::Error) -> Self {
        LedgerError(e.into())
    }
}
