//! The memory of what Switchboard last wrote to each mirror (a SHA-256 per
//! absolute path), which tells a mirror it may refresh from one a person
//! edited by hand.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clock::Clock;
use store::rusqlite::{OptionalExtension, params};
use store::{Db, Migration};

use crate::error::LedgerError;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "instructions",
    sql: "CREATE TABLE instruction_mirrors (
            path TEXT PRIMARY KEY,
            digest BLOB NOT NULL,
            written_at TEXT NOT NULL
          ) STRICT;",
}];

/// What was last written where. Paths are absolute.
pub trait Ledger {
    /// The digest of the content last written to `path`, if any was.
    fn last_written(&self, path: &Path) -> Result<Option<[u8; 32]>, LedgerError>;
    /// Remembers that content with `digest` is now Switchboard's at `path`.
    fn record(&mut self, path: &Path, digest: [u8; 32]) -> Result<(), LedgerError>;
    /// Forgets the mirrors whose folder no longer exists (a deleted
    /// worktree, a removed checkout), so the ledger holds live folders only;
    /// says how many it forgot. A folder that comes back is synced afresh.
    fn forget_missing(&mut self) -> Result<usize, LedgerError>;
}

/// Whether the folder a mirror sits in is gone.
fn folder_is_gone(path: &Path) -> bool {
    path.parent()
        .is_some_and(|folder| !folder.try_exists().unwrap_or(true))
}

/// A ledger kept in the `instruction_mirrors` table, so that hand edits are
/// recognised across restarts.
pub struct SqliteLedger {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

impl SqliteLedger {
    /// `db` must have had [`MIGRATIONS`] applied.
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }
}

/// The key a path is stored under. A path that is not UTF-8 is stored lossily;
/// two such paths colliding would only make a mirror look hand-edited, which
/// leaves it alone.
fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

impl Ledger for SqliteLedger {
    fn last_written(&self, path: &Path) -> Result<Option<[u8; 32]>, LedgerError> {
        let stored: Option<Vec<u8>> = self.db.read(|tx| {
            tx.query_row(
                "SELECT digest FROM instruction_mirrors WHERE path = ?1",
                params![key(path)],
                |row| row.get(0),
            )
            .optional()
        })?;
        // A digest of the wrong length cannot match any content: treat it as no record.
        Ok(stored.and_then(|bytes| bytes.try_into().ok()))
    }

    fn record(&mut self, path: &Path, digest: [u8; 32]) -> Result<(), LedgerError> {
        let at = self.clock.timestamp();
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO instruction_mirrors (path, digest, written_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (path) DO UPDATE SET digest = excluded.digest,
                                                  written_at = excluded.written_at",
                params![key(path), digest.as_slice(), at],
            )
        })?;
        Ok(())
    }

    fn forget_missing(&mut self) -> Result<usize, LedgerError> {
        let paths: Vec<String> = self.db.read(|tx| {
            tx.prepare("SELECT path FROM instruction_mirrors")?
                .query_map([], |row| row.get(0))?
                .collect()
        })?;
        let gone: Vec<String> = paths
            .into_iter()
            .filter(|path| folder_is_gone(Path::new(path)))
            .collect();
        if gone.is_empty() {
            return Ok(0);
        }
        self.db.write(|tx| {
            let mut delete = tx.prepare("DELETE FROM instruction_mirrors WHERE path = ?1")?;
            for path in &gone {
                delete.execute([path])?;
            }
            Ok::<_, store::rusqlite::Error>(())
        })?;
        Ok(gone.len())
    }
}

/// A ledger that lives as long as the value: for tests and one-off syncs.
#[derive(Debug, Default)]
pub struct MemoryLedger {
    digests: HashMap<PathBuf, [u8; 32]>,
}

impl Ledger for MemoryLedger {
    fn last_written(&self, path: &Path) -> Result<Option<[u8; 32]>, LedgerError> {
        Ok(self.digests.get(path).copied())
    }

    fn record(&mut self, path: &Path, digest: [u8; 32]) -> Result<(), LedgerError> {
        self.digests.insert(path.to_owned(), digest);
        Ok(())
    }

    fn forget_missing(&mut self) -> Result<usize, LedgerError> {
        let before = self.digests.len();
        self.digests.retain(|path, _| !folder_is_gone(path));
        Ok(before - self.digests.len())
    }
}
