//! Writes a backup archive: the online copy of the database, the keys and
//! config files, and the manifest that describes them.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};
use time::OffsetDateTime;

use crate::{BackupError, DATABASE_FILE, FORMAT, MANIFEST_FILE, Manifest};

/// Files kept beside the database that a restore needs: the key that opens
/// the saved secrets and the owner's token.
const KEY_FILES: [&str; 2] = ["secrets.key", "cli-token"];
const CONFIG_DIR: &str = "config";
/// How long one backup step waits for a lock a checkpoint holds.
const BUSY_WAIT: Duration = Duration::from_millis(50);
const BUSY_TRIES: u32 = 200;
const ZSTD_LEVEL: i32 = 3;

/// Writes a backup of `data_dir` to `out`, stamped `now`. The archive
/// appears under its name only once it is complete.
pub fn create(data_dir: &Path, out: &Path, now: OffsetDateTime) -> Result<Manifest, BackupError> {
    let database = data_dir.join(DATABASE_FILE);
    if !database.is_file() {
        return Err(BackupError::NoDatabase(database));
    }
    let copy = sibling(out, ".db-copy");
    let partial = sibling(out, ".partial");
    let written = copy_database(&database, &copy).and_then(|schema| {
        let mut files = vec![DATABASE_FILE.to_owned()];
        files.extend(side_files(data_dir)?);
        let manifest = Manifest {
            format: FORMAT,
            app_version: env!("CARGO_PKG_VERSION").to_owned(),
            created_at: clock::timestamp(now),
            schema,
            files,
        };
        write_archive(data_dir, &copy, &manifest, &partial)?;
        std::fs::rename(&partial, out).map_err(|source| BackupError::Write {
            path: out.to_owned(),
            source,
        })?;
        Ok(manifest)
    });
    // Both are ours and only scratch; a leftover would only waste space.
    let _ = std::fs::remove_file(&copy);
    let _ = std::fs::remove_file(&partial);
    written
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Copies the live database in a single backup step: one read transaction,
/// so the copy is the database at one moment, and a WAL-mode writer (the
/// running server) is never blocked by it.
fn copy_database(
    database: &Path,
    copy: &Path,
) -> Result<std::collections::BTreeMap<String, usize>, BackupError> {
    let source = Connection::open_with_flags(
        database,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    source.busy_timeout(Duration::from_secs(5))?;
    let _ = std::fs::remove_file(copy);
    let mut target = Connection::open(copy)?;
    {
        let backup = Backup::new(&source, &mut target)?;
        let mut tries = 0;
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More => {}
                StepResult::Busy | StepResult::Locked if tries < BUSY_TRIES => {
                    tries += 1;
                    std::thread::sleep(BUSY_WAIT);
                }
                StepResult::Busy | StepResult::Locked => {
                    return Err(BackupError::Copy(rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                        Some("the database stayed locked".to_owned()),
                    )));
                }
                _ => {}
            }
        }
    }
    // One self-contained file: no -wal beside it to lose.
    let _: String = target.query_row("PRAGMA journal_mode = DELETE", [], |row| row.get(0))?;
    let schema = store::applied_migrations(&target)?;
    target.close().map_err(|(_, e)| BackupError::Copy(e))?;
    Ok(schema)
}

/// The key files and config files present, relative to `data_dir`, sorted.
fn side_files(data_dir: &Path) -> Result<Vec<String>, BackupError> {
    let mut files: Vec<String> = KEY_FILES
        .iter()
        .filter(|name| data_dir.join(name).is_file())
        .map(|name| (*name).to_owned())
        .collect();
    files.extend(toml_files(data_dir, "")?);
    files.extend(toml_files(&data_dir.join(CONFIG_DIR), CONFIG_DIR)?);
    Ok(files)
}

fn toml_files(dir: &Path, prefix: &str) -> Result<Vec<String>, BackupError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(BackupError::Read {
                path: dir.to_owned(),
                source,
            });
        }
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| BackupError::Read {
            path: dir.to_owned(),
            source,
        })?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".toml") && entry.path().is_file() {
            names.push(if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            });
        }
    }
    names.sort();
    Ok(names)
}

fn write_archive(
    data_dir: &Path,
    copy: &Path,
    manifest: &Manifest,
    partial: &Path,
) -> Result<(), BackupError> {
    let write_error = |source| BackupError::Write {
        path: partial.to_owned(),
        source,
    };
    let file = File::create(partial).map_err(write_error)?;
    let encoder = zstd::Encoder::new(file, ZSTD_LEVEL).map_err(write_error)?;
    let mut tar = tar::Builder::new(encoder);
    let manifest_json =
        serde_json::to_vec_pretty(manifest).map_err(|e| write_error(std::io::Error::other(e)))?;
    let mtime = u64::try_from(
        time::OffsetDateTime::parse(
            &manifest.created_at,
            &time::format_description::well_known::Rfc3339,
        )
        .map_or(0, OffsetDateTime::unix_timestamp),
    )
    .unwrap_or(0);
    append(&mut tar, MANIFEST_FILE, &manifest_json, mtime).map_err(write_error)?;
    for name in &manifest.files {
        let source = if name == DATABASE_FILE {
            copy.to_owned()
        } else {
            data_dir.join(name)
        };
        let bytes = std::fs::read(&source).map_err(|e| BackupError::Read {
            path: source.clone(),
            source: e,
        })?;
        append(&mut tar, name, &bytes, mtime).map_err(write_error)?;
    }
    let encoder = tar.into_inner().map_err(write_error)?;
    let mut file = encoder.finish().map_err(write_error)?;
    file.flush().map_err(write_error)?;
    file.sync_all().map_err(write_error)
}

fn append(
    tar: &mut tar::Builder<zstd::Encoder<'static, File>>,
    name: &str,
    bytes: &[u8],
    mtime: u64,
) -> std::io::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_size(bytes.len() as u64);
    // Every file of a data directory is private to its user.
    header.set_mode(0o600);
    header.set_mtime(mtime);
    header.set_entry_type(tar::EntryType::Regular);
    tar.append_data(&mut header, name, bytes)
}
