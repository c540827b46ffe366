//! Restores an archive into an empty data directory. Everything is unpacked
//! and checked in a scratch folder first, so a refused or damaged archive
//! leaves the directory as it was.

use std::fs::File;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use crate::{BackupError, DATABASE_FILE, FORMAT, MANIFEST_FILE, Manifest};

const SCRATCH: &str = ".restoring";

/// Restores `archive` into `data_dir`, which must be missing or empty.
/// `known` is this build's whole schema: an archive with more migrations of
/// one of its features is refused.
pub fn restore(
    archive: &Path,
    data_dir: &Path,
    known: &[store::Migration],
) -> Result<Manifest, BackupError> {
    ensure_empty(data_dir)?;
    let scratch = data_dir.join(SCRATCH);
    let unpacked = unpack(archive, &scratch, known).and_then(|manifest| {
        check_database(&scratch.join(DATABASE_FILE), &manifest, known)?;
        move_into_place(&scratch, data_dir, &manifest)?;
        Ok(manifest)
    });
    // Scratch only: what was worth keeping has been moved out of it.
    let _ = std::fs::remove_dir_all(&scratch);
    unpacked
}

fn ensure_empty(data_dir: &Path) -> Result<(), BackupError> {
    use std::os::unix::fs::DirBuilderExt;
    let write_error = |source| BackupError::Write {
        path: data_dir.to_owned(),
        source,
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(data_dir)
        .map_err(write_error)?;
    let mut entries = std::fs::read_dir(data_dir).map_err(write_error)?;
    if entries.next().is_some() {
        return Err(BackupError::NotEmpty(data_dir.to_owned()));
    }
    Ok(())
}

fn unpack(
    archive: &Path,
    scratch: &Path,
    known: &[store::Migration],
) -> Result<Manifest, BackupError> {
    let not_a_backup = |why: String| BackupError::NotABackup(archive.to_owned(), why);
    let file = File::open(archive).map_err(|source| BackupError::Read {
        path: archive.to_owned(),
        source,
    })?;
    let decoder = zstd::Decoder::new(file).map_err(|e| not_a_backup(e.to_string()))?;
    let mut tar = tar::Archive::new(decoder);
    let mut entries = tar.entries().map_err(|e| not_a_backup(e.to_string()))?;
    let manifest = {
        let mut first = entries
            .next()
            .ok_or_else(|| not_a_backup("it is empty".to_owned()))?
            .map_err(|e| not_a_backup(e.to_string()))?;
        let name = first
            .path()
            .map_err(|e| not_a_backup(e.to_string()))?
            .into_owned();
        if name != Path::new(MANIFEST_FILE) {
            return Err(not_a_backup(format!(
                "it does not start with {MANIFEST_FILE}"
            )));
        }
        let mut text = Vec::new();
        first
            .read_to_end(&mut text)
            .map_err(|e| not_a_backup(e.to_string()))?;
        serde_json::from_slice::<Manifest>(&text)
            .map_err(|e| not_a_backup(format!("its manifest is unreadable: {e}")))?
    };
    check_manifest(&manifest, known)?;
    std::fs::create_dir_all(scratch).map_err(|source| BackupError::Write {
        path: scratch.to_owned(),
        source,
    })?;
    let mut seen = Vec::new();
    for entry in entries {
        let mut entry = entry.map_err(|e| BackupError::Damaged(e.to_string()))?;
        let name = entry
            .path()
            .map_err(|e| BackupError::Damaged(e.to_string()))?
            .to_string_lossy()
            .into_owned();
        if !manifest.files.contains(&name) || !is_plain_relative(Path::new(&name)) {
            return Err(BackupError::Damaged(format!(
                "{name} is not a file the manifest lists"
            )));
        }
        let target = scratch.join(&name);
        write_private(&target, &mut entry)?;
        seen.push(name);
    }
    if let Some(missing) = manifest.files.iter().find(|name| !seen.contains(name)) {
        return Err(BackupError::Damaged(format!("{missing} is missing")));
    }
    Ok(manifest)
}

fn check_manifest(manifest: &Manifest, known: &[store::Migration]) -> Result<(), BackupError> {
    if manifest.format > FORMAT {
        return Err(BackupError::NewerFormat {
            app_version: manifest.app_version.clone(),
            format: manifest.format,
        });
    }
    store::check_not_newer(&manifest.schema, known).map_err(|e| BackupError::NewerSchema {
        app_version: manifest.app_version.clone(),
        detail: e.to_string(),
    })?;
    if !manifest.files.iter().any(|name| name == DATABASE_FILE) {
        return Err(BackupError::Damaged(format!("it holds no {DATABASE_FILE}")));
    }
    Ok(())
}

/// Only `name` or `config/name`: an archive never writes outside the
/// directory it is restored into.
fn is_plain_relative(path: &Path) -> bool {
    let parts: Vec<Component<'_>> = path.components().collect();
    !parts.is_empty()
        && parts.len() <= 2
        && parts
            .iter()
            .all(|part| matches!(part, Component::Normal(_)))
}

fn write_private(target: &Path, from: &mut impl Read) -> Result<(), BackupError> {
    use std::os::unix::fs::OpenOptionsExt;
    let write_error = |source| BackupError::Write {
        path: target.to_owned(),
        source,
    };
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(write_error)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(target)
        .map_err(write_error)?;
    std::io::copy(from, &mut file).map_err(write_error)?;
    file.sync_all().map_err(write_error)
}

/// The copy must be a sound database whose schema is the manifest's.
fn check_database(
    database: &Path,
    manifest: &Manifest,
    known: &[store::Migration],
) -> Result<(), BackupError> {
    let conn = Connection::open_with_flags(database, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| BackupError::Damaged(e.to_string()))?;
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .map_err(|e| BackupError::Damaged(e.to_string()))?;
    if check != "ok" {
        return Err(BackupError::Damaged(format!(
            "the database fails its integrity check: {check}"
        )));
    }
    let schema = store::applied_migrations(&conn)?;
    if schema != manifest.schema {
        return Err(BackupError::Damaged(
            "the database's schema is not the one its manifest gives".to_owned(),
        ));
    }
    store::check_not_newer(&schema, known).map_err(|e| BackupError::NewerSchema {
        app_version: manifest.app_version.clone(),
        detail: e.to_string(),
    })
}

fn move_into_place(
    scratch: &Path,
    data_dir: &Path,
    manifest: &Manifest,
) -> Result<(), BackupError> {
    for name in &manifest.files {
        let target: PathBuf = data_dir.join(name);
        let write_error = |source| BackupError::Write {
            path: target.clone(),
            source,
        };
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(write_error)?;
        }
        std::fs::rename(scratch.join(name), &target).map_err(write_error)?;
    }
    Ok(())
}
