//! One sync: the canonical file at the root copied into each mirror that is
//! missing or still holds what Switchboard last wrote, hand edits spared,
//! and (in local git mode) the mirrors kept out of git.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::atomic;
use crate::error::SyncError;
use crate::git;
use crate::ledger::Ledger;
use crate::names::real_name;

/// Whether the mirrors are for git to track.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GitMode {
    /// Kept out of git through the repository's `info/exclude`.
    Local,
    /// Left for git to track (or not) like any other file.
    Committed,
}

/// What to sync, in the spec's neutral names.
#[derive(Debug, Clone)]
pub struct SyncRequest<'a> {
    /// The folder a session runs in; the sync happens at its repository's
    /// top level, or in the folder itself outside a repository.
    pub folder: PathBuf,
    /// The source of truth, e.g. `PRIMARY.md`.
    pub canonical: &'a str,
    /// The files to write it to; the canonical one among them is skipped.
    pub mirrors: &'a [String],
    pub git_mode: GitMode,
}

/// What a sync did. Paths are absolute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncReport {
    /// Where the canonical file was looked for and the mirrors live.
    pub root: PathBuf,
    /// Mirrors written with the canonical content.
    pub written: Vec<PathBuf>,
    /// Mirrors that already held the canonical content.
    pub unchanged: Vec<PathBuf>,
    /// Mirrors a person changed since Switchboard last wrote them, left as
    /// they are: the caller tells the user.
    pub hand_edited: Vec<PathBuf>,
    /// There was no canonical file, so nothing was done.
    pub canonical_missing: bool,
}

/// Mirrors the canonical instruction file as `request` says, consulting and
/// updating `ledger`. Every name is checked before any file is touched.
pub fn sync(request: &SyncRequest<'_>, ledger: &mut dyn Ledger) -> Result<SyncReport, SyncError> {
    let canonical = real_name(request.canonical)?;
    let mut mirrors: Vec<&'static str> = Vec::new();
    for neutral in request.mirrors {
        let name = real_name(neutral)?;
        // Never write the canonical file as its own mirror.
        if name != canonical && !mirrors.contains(&name) {
            mirrors.push(name);
        }
    }
    let root = git::find_root(&request.folder)?;
    let mut report = SyncReport {
        root: root.path.clone(),
        written: Vec::new(),
        unchanged: Vec::new(),
        hand_edited: Vec::new(),
        canonical_missing: false,
    };
    let Some(content) = read_if_present(&root.path.join(canonical))? else {
        report.canonical_missing = true;
        return Ok(report);
    };
    let digest: [u8; 32] = Sha256::digest(&content).into();
    let mut ours: Vec<&str> = Vec::new();
    for name in mirrors {
        let path = root.path.join(name);
        match read_mirror(&path)? {
            Mirror::Absent => {
                write_mirror(&path, &content, digest, ledger)?;
                report.written.push(path);
            }
            Mirror::Content(current) if current == content => {
                // Adopt an identical copy (say one made before sync was on), so
                // that it follows the next change of the canonical file.
                if ledger.last_written(&path)? != Some(digest) {
                    ledger.record(&path, digest)?;
                }
                report.unchanged.push(path);
            }
            Mirror::Content(current) => {
                let current: [u8; 32] = Sha256::digest(&current).into();
                if ledger.last_written(&path)? == Some(current) {
                    write_mirror(&path, &content, digest, ledger)?;
                    report.written.push(path);
                } else {
                    report.hand_edited.push(path);
                    continue;
                }
            }
            Mirror::Blocked => {
                report.hand_edited.push(path);
                continue;
            }
        }
        ours.push(name);
    }
    if let (GitMode::Local, Some(dot_git)) = (request.git_mode, &root.dot_git) {
        // Only files holding Switchboard's copy: a hand-edited one is the person's.
        let lines: Vec<String> = ours.iter().map(|name| format!("/{name}")).collect();
        if !lines.is_empty() {
            git::ensure_excluded(&git::exclude_file(dot_git)?, &lines)?;
        }
    }
    Ok(report)
}

/// The canonical file's size and modification time under `root` (the
/// [`SyncReport::root`] of an earlier sync), to be compared between polls: a
/// change means it is time to sync again. `None` when the file is absent or
/// the name unknown (which [`sync`] reports as an error).
pub fn fingerprint(root: &Path, canonical: &str) -> Option<(u64, SystemTime)> {
    let name = real_name(canonical).ok()?;
    let meta = fs::metadata(root.join(name)).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

fn write_mirror(
    path: &Path,
    content: &[u8],
    digest: [u8; 32],
    ledger: &mut dyn Ledger,
) -> Result<(), SyncError> {
    atomic::write(path, content)?;
    ledger.record(path, digest)?;
    Ok(())
}

/// What sits where a mirror goes.
enum Mirror {
    Absent,
    Content(Vec<u8>),
    /// A folder, or a file where the mirror's folder should be (Cline's older
    /// single `.clinerules` file): the person's, so left alone like a hand edit.
    Blocked,
}

fn read_mirror(path: &Path) -> Result<Mirror, SyncError> {
    match fs::read(path) {
        Ok(content) => Ok(Mirror::Content(content)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Mirror::Absent),
        Err(e) if matches!(e.kind(), ErrorKind::NotADirectory | ErrorKind::IsADirectory) => {
            Ok(Mirror::Blocked)
        }
        Err(source) => Err(SyncError::Read {
            path: path.to_owned(),
            source,
        }),
    }
}

fn read_if_present(path: &Path) -> Result<Option<Vec<u8>>, SyncError> {
    match fs::read(path) {
        Ok(content) => Ok(Some(content)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(source) => Err(SyncError::Read {
            path: path.to_owned(),
            source,
        }),
    }
}
