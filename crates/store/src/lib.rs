//! The SQLite database every feature keeps its tables in.
//!
//! [`Db`] holds one writer connection behind a mutex and a small pool of reader
//! connections, all opened with the same pragmas (WAL, `synchronous=NORMAL`,
//! foreign keys, busy timeout). Writes run in `IMMEDIATE` transactions on the
//! writer, so they never fail with `SQLITE_BUSY` half-way; reads never wait for
//! the writer thanks to WAL.
//!
//! Each feature crate owns its tables and hands its append-only list of
//! [`Migration`]s to [`Db::migrate`]. What was applied is recorded per feature
//! with a checksum, so editing an applied migration is a start-up error rather
//! than a silently diverging schema.
//!
//! Connections also memory-map the file (up to 1 GiB): a big board read
//! outgrows the page cache, and reading through the map instead of one
//! `pread` per page keeps the full read linear in the board's size.
//!
//! The WAL is checkpointed by a thread of its own (`checkpoint.rs`), never
//! inside a commit, so no write waits for another's checkpoint.
//!
//! `synchronous=NORMAL` is chosen on purpose: in WAL mode a commit is in the
//! OS's hands when the call returns, so a killed process (SIGKILL) loses
//! nothing acknowledged; only a power loss could roll back the last commits.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};
use sha2::{Digest, Sha256};

pub use rusqlite;

mod checkpoint;

use checkpoint::Checkpointer;

/// One schema step of one feature. `sql` may hold several statements.
#[derive(Debug, Clone, Copy)]
pub struct Migration {
    pub feature: &'static str,
    pub sql: &'static str,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open database {path}")]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("database {path} is not a usable SQLite database: {detail}")]
    Corrupt { path: PathBuf, detail: String },
    #[error(
        "migration {index} of feature {feature} was changed after it was applied; refusing to start"
    )]
    MigrationChanged { feature: String, index: usize },
    #[error(
        "the database has {applied} migrations of feature {feature} but this build knows only {known}: it was written by a newer Switchboard"
    )]
    MigrationFromTheFuture {
        feature: String,
        applied: usize,
        known: usize,
    },
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

const READERS: usize = 4;

pub struct Db {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
    checkpointer: Checkpointer,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db").field("path", &self.path).finish()
    }
}

impl Db {
    /// Opens (creating if missing) the database at `path` and checks it is one.
    pub fn open(path: &Path) -> Result<Self> {
        Self::open_with_wal_cap(path, checkpoint::WAL_CAP)
    }

    fn open_with_wal_cap(path: &Path, wal_cap: u64) -> Result<Self> {
        let writer = open_connection(path, true)?;
        check_is_database(&writer, path)?;
        let readers = (0..READERS)
            .map(|_| open_connection(path, false).map(Mutex::new))
            .collect::<Result<Vec<_>>>()?;
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        let checkpointer = Checkpointer::start(open_connection(path, false)?, wal.into(), wal_cap)
            .map_err(|e| StoreError::Corrupt {
                path: path.to_owned(),
                detail: format!("cannot start the checkpoint thread: {e}"),
            })?;
        Ok(Self {
            path: path.to_owned(),
            writer: Mutex::new(writer),
            readers,
            next_reader: AtomicUsize::new(0),
            checkpointer,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Applies the given migrations that are not applied yet, in order, in
    /// one transaction: a feature the database has more migrations of than
    /// `migrations` (a newer Switchboard wrote it) fails the whole call
    /// before anything changes.
    pub fn migrate(&self, migrations: &[Migration]) -> Result<()> {
        self.write(|tx| {
            tx.execute_batch(
                "CREATE TABLE IF NOT EXISTS schema_migrations (
                    feature TEXT NOT NULL,
                    idx INTEGER NOT NULL,
                    checksum TEXT NOT NULL,
                    applied_at TEXT NOT NULL,
                    PRIMARY KEY (feature, idx)
                ) STRICT;",
            )?;
            check_not_newer(&applied_migrations(tx)?, migrations)?;
            let mut features: Vec<&str> = migrations.iter().map(|m| m.feature).collect();
            features.dedup();
            for feature in features {
                let steps: Vec<&Migration> =
                    migrations.iter().filter(|m| m.feature == feature).collect();
                apply_feature(tx, feature, &steps)?;
            }
            Ok(())
        })
    }

    /// Runs `f` in an `IMMEDIATE` transaction on the writer and commits when it
    /// returns `Ok`. The commit has happened when this returns.
    pub fn write<T, E>(&self, f: impl FnOnce(&Transaction<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let mut conn = lock(&self.writer);
        self.checkpointer.cut_if_too_long(&conn);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        self.checkpointer.wrote();
        Ok(value)
    }

    /// Runs `f` on a reader connection inside a deferred transaction, so that
    /// everything it reads comes from one snapshot.
    pub fn read<T, E>(&self, f: impl FnOnce(&Transaction<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let mut conn = self.reader();
        let tx = conn.transaction()?;
        let value = f(&tx)?;
        tx.finish()?;
        Ok(value)
    }

    fn reader(&self) -> MutexGuard<'_, Connection> {
        for reader in &self.readers {
            if let Ok(guard) = reader.try_lock() {
                return guard;
            }
        }
        let pick = self.next_reader.fetch_add(1, Ordering::Relaxed) % self.readers.len();
        lock(&self.readers[pick])
    }
}

/// A poisoned lock only means another thread panicked while holding a
/// connection; SQLite rolled its transaction back, so the connection is usable.
fn lock(mutex: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn open_connection(path: &Path, writer: bool) -> Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(path, flags).map_err(|source| StoreError::Open {
        path: path.to_owned(),
        source,
    })?;
    let corrupt = |e: rusqlite::Error| StoreError::Corrupt {
        path: path.to_owned(),
        detail: e.to_string(),
    };
    conn.busy_timeout(checkpoint::BUSY_TIMEOUT)
        .map_err(corrupt)?;
    // The domain crates cache the statements of their hot paths (output,
    // session reads, settings); rusqlite's default of 16 a connection would
    // evict them in turn and parse them again.
    conn.set_prepared_statement_cache_capacity(256);
    if writer {
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(corrupt)?;
        // The checkpoint thread's work (`checkpoint.rs`); a WAL a burst grew
        // is cut back to 64 MiB once it starts over.
        conn.execute_batch("PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = 67108864;")
            .map_err(corrupt)?;
    }
    conn.execute_batch(
        "PRAGMA synchronous = NORMAL;
         PRAGMA foreign_keys = ON;
         PRAGMA temp_store = MEMORY;
         PRAGMA cache_size = -16000;
         PRAGMA mmap_size = 1073741824;",
    )
    .map_err(corrupt)?;
    Ok(conn)
}

/// Reads the header and the schema, which a file that is not a SQLite
/// database fails at once. A full `quick_check` would read every page and
/// make each start-up as slow as the database is big.
fn check_is_database(conn: &Connection, path: &Path) -> Result<()> {
    conn.query_row("SELECT count(*) FROM sqlite_schema", [], |row| {
        row.get::<_, i64>(0)
    })
    .map(drop)
    .map_err(|e| StoreError::Corrupt {
        path: path.to_owned(),
        detail: e.to_string(),
    })
}

fn checksum(sql: &str) -> String {
    let digest = Sha256::digest(sql.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// How many migrations of each feature a database has applied (none when it
/// has no `schema_migrations` table yet).
pub fn applied_migrations(conn: &Connection) -> Result<BTreeMap<String, usize>> {
    let exists: bool = conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'",
        [],
        |row| row.get(0),
    )?;
    if !exists {
        return Ok(BTreeMap::new());
    }
    let mut stmt =
        conn.prepare("SELECT feature, count(*) FROM schema_migrations GROUP BY feature")?;
    let rows = stmt.query_map([], |row| {
        Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)? as usize))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Refuses a schema that has more migrations of a feature of `known` than
/// `known` holds: a newer Switchboard wrote it. Features `known` leaves out
/// pass, since several crates migrate their own tables (the sessions
/// supervisor does) apart from the start-up list.
pub fn check_not_newer(applied: &BTreeMap<String, usize>, known: &[Migration]) -> Result<()> {
    for (feature, &count) in applied {
        let steps = known.iter().filter(|m| m.feature == feature).count();
        if steps > 0 && count > steps {
            return Err(StoreError::MigrationFromTheFuture {
                feature: feature.clone(),
                applied: count,
                known: steps,
            });
        }
    }
    Ok(())
}

fn apply_feature(tx: &Transaction<'_>, feature: &str, steps: &[&Migration]) -> Result<()> {
    let applied: Vec<(usize, String)> = {
        let mut stmt = tx.prepare(
            "SELECT idx, checksum FROM schema_migrations WHERE feature = ?1 ORDER BY idx",
        )?;
        stmt.query_map([feature], |row| {
            Ok((row.get::<_, i64>(0)? as usize, row.get(1)?))
        })?
        .collect::<rusqlite::Result<_>>()?
    };
    if applied.len() > steps.len() {
        return Err(StoreError::MigrationFromTheFuture {
            feature: feature.to_owned(),
            applied: applied.len(),
            known: steps.len(),
        });
    }
    for (index, sum) in &applied {
        if steps.get(*index).map(|m| checksum(m.sql)).as_deref() != Some(sum.as_str()) {
            return Err(StoreError::MigrationChanged {
                feature: feature.to_owned(),
                index: *index,
            });
        }
    }
    for (index, step) in steps.iter().enumerate().skip(applied.len()) {
        tx.execute_batch(step.sql)?;
        tx.execute(
            "INSERT INTO schema_migrations (feature, idx, checksum, applied_at) VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![feature, index as i64, checksum(step.sql), now_rfc3339()],
        )?;
    }
    Ok(())
}

/// The current UTC time as RFC 3339 with milliseconds, the one timestamp
/// format every table uses (it sorts as text).
pub fn now_rfc3339() -> String {
    let now = time::OffsetDateTime::now_utc();
    let millis = now.millisecond();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second(),
        millis
    )
}

/// A secret for a login or a link: 256 bits from the OS random source, URL-safe base64 without
/// padding. Only its `secret_digest` is stored.
pub fn new_secret() -> std::io::Result<String> {
    use base64::Engine;
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(std::io::Error::other)?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// What is kept of a secret: its SHA-256, so a copy of the database holds no usable secret.
pub fn secret_digest(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// A fresh, time-ordered identifier for a row.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().simple().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: Migration = Migration {
        feature: "demo",
        sql: "CREATE TABLE t (x INTEGER NOT NULL) STRICT;",
    };

    #[test]
    fn bundled_sqlite_has_the_wal_reset_fix() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        let version: String = db
            .read(|tx| tx.query_row("SELECT sqlite_version()", [], |r| r.get(0)))
            .unwrap();
        let parts: Vec<u32> = version.split('.').map(|p| p.parse().unwrap()).collect();
        assert!(
            parts >= vec![3, 51, 3],
            "sqlite {version} predates the WAL-reset fix"
        );
    }

    #[test]
    fn migrations_apply_once_and_changes_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        let db = Db::open(&path).unwrap();
        db.migrate(&[FIRST]).unwrap();
        db.migrate(&[FIRST]).unwrap();
        db.write(|tx| tx.execute("INSERT INTO t VALUES (1)", []))
            .unwrap();
        let changed = Migration {
            feature: "demo",
            sql: "CREATE TABLE t (y TEXT) STRICT;",
        };
        assert!(matches!(
            db.migrate(&[changed]),
            Err(StoreError::MigrationChanged { index: 0, .. })
        ));
        assert!(matches!(db.migrate(&[]), Ok(())));
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        std::fs::write(
            &path,
            b"this is not a database, just some text that is long enough",
        )
        .unwrap();
        assert!(Db::open(&path).is_err());
    }

    #[test]
    fn journal_mode_is_wal() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        let mode: String = db
            .read(|tx| tx.query_row("PRAGMA journal_mode", [], |r| r.get(0)))
            .unwrap();
        assert_eq!(mode, "wal");
    }

    #[test]
    fn the_wal_reaches_the_database_file_off_the_write_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        let db = Db::open(&path).unwrap();
        let automatic: i64 = db
            .write(|tx| tx.query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0)))
            .unwrap();
        assert_eq!(automatic, 0, "no commit checkpoints");
        db.write(|tx| {
            tx.execute_batch("CREATE TABLE t (v BLOB NOT NULL) STRICT;")?;
            for _ in 0..1000 {
                tx.execute("INSERT INTO t VALUES (zeroblob(1000))", [])?;
            }
            Ok::<_, rusqlite::Error>(())
        })
        .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::fs::metadata(&path).unwrap().len() < 1_000_000 {
            assert!(
                std::time::Instant::now() < deadline,
                "the pages never left the WAL"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let rows: i64 = db
            .read(|tx| tx.query_row("SELECT count(*) FROM t", [], |r| r.get(0)))
            .unwrap();
        assert_eq!(rows, 1000);
    }

    #[test]
    fn writes_that_never_pause_under_readers_that_never_stop_keep_the_wal_bounded() {
        const CAP: u64 = 2 << 20;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        let wal = dir.path().join("db.sqlite-wal");
        let db = std::sync::Arc::new(Db::open_with_wal_cap(&path, CAP).unwrap());
        db.write(|tx| tx.execute_batch("CREATE TABLE t (v BLOB NOT NULL) STRICT;"))
            .unwrap();
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        // Two readers always inside a snapshot, as a busy server's listeners are.
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let (db, done) = (std::sync::Arc::clone(&db), std::sync::Arc::clone(&done));
                std::thread::spawn(move || {
                    while !done.load(Ordering::Relaxed) {
                        db.read(|tx| {
                            let last: Option<i64> =
                                tx.query_row("SELECT max(rowid) FROM t", [], |r| r.get(0))?;
                            std::thread::sleep(std::time::Duration::from_millis(2));
                            Ok::<_, rusqlite::Error>(last)
                        })
                        .unwrap();
                    }
                })
            })
            .collect();
        let (mut last, mut cuts) = (0, 0);
        let started = std::time::Instant::now();
        // Past the cap many times over, with no pause a quiet-time truncate
        // could use: without the cut the WAL only ever grows.
        while started.elapsed() < std::time::Duration::from_secs(3) {
            db.write(|tx| {
                for _ in 0..16 {
                    tx.execute("INSERT INTO t VALUES (zeroblob(4000))", [])?;
                }
                Ok::<_, rusqlite::Error>(())
            })
            .unwrap();
            let now = std::fs::metadata(&wal).map_or(0, |m| m.len());
            if now < last {
                cuts += 1;
            }
            last = now;
        }
        done.store(true, Ordering::Relaxed);
        for reader in readers {
            reader.join().unwrap();
        }
        assert!(
            cuts >= 2,
            "the WAL was cut back {cuts} times while writes went on"
        );
    }
}
