//! Backs up and restores the state of a data directory (docs/backup.md).
//!
//! A backup is one zstd-compressed tar: `manifest.json` first, then a copy of
//! `switchboard.db` made with SQLite's online backup API (one step, so it is
//! one consistent snapshot even while a running server keeps writing), then
//! the saved keys (`secrets.key`), the owner's `cli-token` and the config
//! files (every `*.toml` of the data directory and of its `config/`).
//!
//! - [`create`] writes an archive ([`archive.rs`](archive)).
//! - [`restore`] unpacks one into an empty data directory, after checking its
//!   manifest and refusing a schema newer than this build's ([`unpack.rs`](unpack)).
//! - [`daily`] runs the optional daily backup with a retention count, on the
//!   injectable clock.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

mod archive;
pub mod daily;
mod unpack;

pub use archive::create;
pub use unpack::restore;

/// The database's file name in a data directory and in an archive.
pub const DATABASE_FILE: &str = "switchboard.db";
/// The manifest's name in an archive; it is always the first entry.
pub const MANIFEST_FILE: &str = "manifest.json";
/// The archive layout this build writes and reads.
pub const FORMAT: u32 = 1;

/// What an archive says about itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: u32,
    /// The Switchboard version that wrote it.
    pub app_version: String,
    /// The moment of the database snapshot, RFC 3339 UTC.
    pub created_at: String,
    /// Migrations applied per feature: the schema version of the copy.
    pub schema: BTreeMap<String, usize>,
    /// Every file of the archive besides the manifest, as paths relative to
    /// the data directory.
    pub files: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("there is no database at {0}: is this a Switchboard data directory?")]
    NoDatabase(PathBuf),
    #[error("cannot copy the database: {0}")]
    Copy(#[from] rusqlite::Error),
    #[error("cannot read the schema of the copy: {0}")]
    Schema(#[from] store::StoreError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the data directory {0} is not empty: restore into a new or empty directory")]
    NotEmpty(PathBuf),
    #[error("{0} is not a Switchboard backup: {1}")]
    NotABackup(PathBuf, String),
    #[error(
        "the backup was made by a newer Switchboard ({app_version}, format {format}): this build reads format {FORMAT}"
    )]
    NewerFormat { app_version: String, format: u32 },
    #[error(
        "the backup's database was written by a newer Switchboard ({app_version}): {detail}; upgrade Switchboard to restore it"
    )]
    NewerSchema { app_version: String, detail: String },
    #[error("the backup is damaged: {0}")]
    Damaged(String),
}
