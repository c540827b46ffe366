//! Where to sync and how to keep mirrors out of git: the repository's top
//! level (found by walking up to a `.git` folder or a worktree's `.git`
//! file), and the `info/exclude` file of its common git directory.

use std::fs;
use std::path::{Path, PathBuf};

use crate::atomic;
use crate::error::SyncError;

/// The comment above the lines Switchboard adds to `info/exclude`.
pub const EXCLUDE_HEADER: &str = "# Switchboard instruction mirrors";

/// The folder to sync in, and its `.git` entry when it is a repository.
#[derive(Debug)]
pub struct Root {
    pub path: PathBuf,
    pub dot_git: Option<PathBuf>,
}

/// The nearest ancestor of `folder` (itself included) holding a repository's
/// `.git`, else `folder`. The path is canonical, so the ledger sees one
/// spelling of it.
pub fn find_root(folder: &Path) -> Result<Root, SyncError> {
    let folder = fs::canonicalize(folder).map_err(|source| SyncError::Folder {
        path: folder.to_owned(),
        source,
    })?;
    for dir in folder.ancestors() {
        let dot_git = dir.join(".git");
        if is_repository(&dot_git) {
            return Ok(Root {
                path: dir.to_owned(),
                dot_git: Some(dot_git),
            });
        }
    }
    Ok(Root {
        path: folder,
        dot_git: None,
    })
}

/// A folder in a main checkout (one with a `HEAD`, as git itself requires:
/// an empty `.git` folder, such as Codex's sandbox leaves as a mount point
/// in `/tmp`, is no repository), a file in a worktree or submodule.
fn is_repository(dot_git: &Path) -> bool {
    match fs::metadata(dot_git) {
        Ok(meta) if meta.is_dir() => dot_git.join("HEAD").is_file(),
        Ok(_) => true,
        Err(_) => false,
    }
}

/// The `info/exclude` git reads for the checkout whose `.git` entry is
/// `dot_git`. A worktree's `.git` file names its own git directory, whose
/// `commondir` names the main one; `info/` is shared and lives there (see
/// gitrepository-layout).
pub fn exclude_file(dot_git: &Path) -> Result<PathBuf, SyncError> {
    let git_dir = if dot_git.is_dir() {
        dot_git.to_owned()
    } else {
        let text = read_text(dot_git)?;
        let target = text
            .lines()
            .find_map(|line| line.strip_prefix("gitdir:"))
            .map(str::trim)
            .filter(|target| !target.is_empty())
            .ok_or_else(|| SyncError::GitLink {
                path: dot_git.to_owned(),
            })?;
        // A relative `gitdir` is relative to the folder holding the `.git` file.
        let base = dot_git.parent().unwrap_or(Path::new("."));
        base.join(target)
    };
    let commondir = git_dir.join("commondir");
    let common = match fs::read_to_string(&commondir) {
        Ok(text) => git_dir.join(text.trim()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => git_dir,
        Err(source) => {
            return Err(SyncError::Read {
                path: commondir,
                source,
            });
        }
    };
    Ok(common.join("info").join("exclude"))
}

/// Makes sure each of `lines` is in `exclude`, adding the missing ones under
/// [`EXCLUDE_HEADER`]; leaves the file untouched when nothing is missing.
pub fn ensure_excluded(exclude: &Path, lines: &[String]) -> Result<(), SyncError> {
    let text = match fs::read_to_string(exclude) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(SyncError::Read {
                path: exclude.to_owned(),
                source,
            });
        }
    };
    let mut existing: Vec<&str> = text.lines().collect();
    let mut missing: Vec<&str> = Vec::new();
    for line in lines {
        if !existing.iter().any(|l| l.trim_end() == line) && !missing.contains(&line.as_str()) {
            missing.push(line);
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    match existing.iter().position(|l| l.trim_end() == EXCLUDE_HEADER) {
        // Keep Switchboard's lines together: add after the block under the header.
        Some(header) => {
            let mut end = header + 1;
            while existing.get(end).is_some_and(|l| l.starts_with('/')) {
                end += 1;
            }
            existing.splice(end..end, missing);
        }
        None => {
            existing.push(EXCLUDE_HEADER);
            existing.extend(missing);
        }
    }
    let mut updated = existing.join("\n");
    updated.push('\n');
    atomic::write(exclude, updated.as_bytes())
}

fn read_text(path: &Path) -> Result<String, SyncError> {
    fs::read_to_string(path).map_err(|source| SyncError::Read {
        path: path.to_owned(),
        source,
    })
}
