//! The docs the binary carries (every `docs/*.md` at build time) and the
//! folder they are laid out in for the tutor: `DIR/ask/docs`, a git
//! repository with one commit per change of the bundle. The sandbox hides
//! the data directory from every engine but for a session's own worktree,
//! so each Ask session runs in a worktree of that repository
//! (`DIR/worktrees/<id>`), which holds the docs before its engine starts.

use std::path::{Path, PathBuf};

use rust_embed::RustEmbed;

use crate::error::AskError;

/// Where the docs repository lives, under the data directory.
pub const DOCS_FOLDER: &str = "ask/docs";

#[derive(RustEmbed)]
#[folder = "../../docs/"]
struct Docs;

/// The bundled docs, by file name: the Markdown files at the top of `docs/`.
pub fn bundled() -> Vec<(String, Vec<u8>)> {
    Docs::iter()
        .filter(|name| name.ends_with(".md") && !name.contains('/'))
        .filter_map(|name| Docs::get(&name).map(|file| (name.to_string(), file.data.into_owned())))
        .collect()
}

/// The bundled docs' file names, sorted: what the tutor is told it has.
pub fn doc_names() -> Vec<String> {
    let mut names: Vec<String> = Docs::iter()
        .filter(|name| name.ends_with(".md") && !name.contains('/'))
        .map(|name| name.to_string())
        .collect();
    names.sort();
    names
}

/// Writes the bundled docs into `DIR/ask/docs`, removes Markdown files the
/// bundle no longer has, and commits what changed; returns the folder.
/// Blocking (it runs git): call it off the async workers. Two calls at once
/// must be kept apart by the caller.
pub fn prepare_docs(data_dir: &Path) -> Result<PathBuf, AskError> {
    let folder = data_dir.join(DOCS_FOLDER);
    let written = |source| AskError::Write {
        path: folder.clone(),
        source,
    };
    std::fs::create_dir_all(&folder).map_err(written)?;
    let docs = bundled();
    for entry in std::fs::read_dir(&folder).map_err(written)? {
        let path = entry.map_err(written)?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let stale = name.ends_with(".md") && !docs.iter().any(|(doc, _)| doc == name);
        if stale {
            std::fs::remove_file(&path).map_err(written)?;
        }
    }
    for (name, bytes) in &docs {
        let path = folder.join(name);
        if std::fs::read(&path).ok().as_deref() != Some(bytes.as_slice()) {
            std::fs::write(&path, bytes).map_err(written)?;
        }
    }
    if !folder.join(".git").exists() {
        worktrees::git::checked(&folder, ["init", "--quiet"])?;
    }
    worktrees::git::checked(&folder, ["add", "--all"])?;
    let changed = !worktrees::git::checked(&folder, ["status", "--porcelain"])?
        .trim()
        .is_empty();
    if changed {
        // The user's own identity, signing and hooks have no business here.
        worktrees::git::checked(
            &folder,
            [
                "-c",
                "user.name=Switchboard",
                "-c",
                "user.email=switchboard@localhost",
                "-c",
                "commit.gpgsign=false",
                "commit",
                "--quiet",
                "--no-verify",
                "-m",
                concat!("The docs of Switchboard ", env!("CARGO_PKG_VERSION")),
            ],
        )?;
    }
    Ok(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundle_holds_the_docs_the_tutor_is_told_about() {
        let names: Vec<String> = bundled().into_iter().map(|(name, _)| name).collect();
        for wanted in ["ask.md", "sessions.md", "runners.md", "settings.md"] {
            assert!(names.iter().any(|n| n == wanted), "{wanted} in {names:?}");
        }
        assert!(names.iter().all(|n| n.ends_with(".md")));
    }

    #[test]
    fn the_docs_are_committed_once_and_stale_files_leave() {
        let dir = tempfile::tempdir().unwrap();
        let folder = prepare_docs(dir.path()).unwrap();
        assert!(folder.join("sessions.md").is_file());
        let head = |folder: &Path| worktrees::git::checked(folder, ["rev-parse", "HEAD"]).unwrap();
        let first = head(&folder);
        std::fs::write(folder.join("gone.md"), "old").unwrap();
        let again = prepare_docs(dir.path()).unwrap();
        assert!(!again.join("gone.md").exists());
        assert_eq!(head(&again), first, "an unchanged bundle makes no commit");
        let status = worktrees::git::checked(&again, ["status", "--porcelain"]).unwrap();
        assert!(status.trim().is_empty(), "{status}");
    }
}
