//! The carve-out walk. Landlock only grants: a rule on a folder covers its
//! whole hierarchy, and nothing can be taken back below it. So to hide a path
//! we grant nothing above it, and instead grant, at every level from the root
//! down to it, each sibling that neither is a hidden path nor holds one.
//!
//! The cost: the folders on the way down (the "carved" ones: `/`, `$HOME`,
//! `$HOME/.local`, ...) are themselves not granted. An engine can use every
//! entry they had when the walk ran, but cannot list them, nor create,
//! rename or remove entries directly in them, nor use an entry made after
//! the walk. The walk runs before every turn, so that is at most one turn
//! stale.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// `path` made absolute with symbolic links resolved as far as it exists, so
/// a hidden path is carved where it really lives; the missing rest is kept
/// as written (it may be made later, and must stay hidden then too).
pub fn resolve(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_owned()
    } else {
        std::env::current_dir().map_or_else(|_| path.to_owned(), |cwd| cwd.join(path))
    };
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            return rest.iter().rev().fold(real, |acc, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return normalize(&absolute),
        }
    }
}

/// `.` and `..` folded without the file system: `resolve`'s answer for a
/// path with no existing prefix at all, and the permission broker's first
/// step for the paths a tool call names.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The hierarchies to grant below `root` so that everything there is reachable
/// except `hidden` (absolute, resolved paths), plus each exception that holds
/// no hidden path. `root` is always carved, never granted whole: `/dev` below
/// `/` is filtered (see `dev`), and tests walk a folder of their own.
pub fn plan(root: &Path, hidden: &[PathBuf], exceptions: &[PathBuf]) -> Vec<PathBuf> {
    let hidden: BTreeSet<&Path> = hidden.iter().map(PathBuf::as_path).collect();
    let carved: BTreeSet<&Path> = hidden
        .iter()
        .flat_map(|path| path.ancestors().skip(1))
        .filter(|dir| dir.starts_with(root))
        .collect();
    let mut grants = Vec::new();
    walk(root, &hidden, &carved, &mut grants);
    for exception in exceptions {
        let holds_hidden = hidden.iter().any(|h| h.starts_with(exception));
        if !holds_hidden && exception.exists() {
            grants.push(exception.clone());
        }
    }
    grants
}

fn walk(dir: &Path, hidden: &BTreeSet<&Path>, carved: &BTreeSet<&Path>, grants: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        // A symbolic link is never granted: what it points to is judged where
        // it really is, so a link to a hidden folder leads nowhere.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_symlink() || hidden.contains(path.as_path()) {
            continue;
        }
        if carved.contains(path.as_path()) {
            walk(&path, hidden, carved, grants);
        } else if path == Path::new("/dev") {
            dev(&path, grants);
        } else {
            grants.push(path);
        }
    }
}

/// `/dev` by its entries: character devices (terminals, `null`, `urandom`,
/// ...) and the folders of terminals, shared memory and queues. Never block
/// devices, whose raw blocks would show hidden files to a root engine, nor
/// the memory devices.
fn dev(dir: &Path, grants: &mut Vec<PathBuf>) {
    use std::os::unix::fs::FileTypeExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let wanted = (kind.is_char_device() && !matches!(&*name, "mem" | "kmem" | "port"))
            || (kind.is_dir() && matches!(&*name, "pts" | "shm" | "mqueue"));
        if wanted {
            grants.push(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(paths: &[&str]) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        for path in paths {
            let full = root.path().join(path);
            if path.ends_with('/') {
                std::fs::create_dir_all(&full).unwrap();
            } else {
                std::fs::create_dir_all(full.parent().unwrap()).unwrap();
                std::fs::write(&full, "x").unwrap();
            }
        }
        root
    }

    fn relative(root: &Path, grants: Vec<PathBuf>) -> Vec<String> {
        let mut out: Vec<String> = grants
            .into_iter()
            .map(|g| g.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        out.sort();
        out
    }

    #[test]
    fn the_walk_grants_every_sibling_on_the_way_down_and_nothing_above() {
        let dir = tree(&[
            "home/.ssh/id_rsa",
            "home/.local/share/switchboard/cli-token",
            "home/.local/share/other/",
            "home/.local/bin/",
            "home/code/",
            "home/.bashrc",
            "usr/bin/",
            "etc/passwd",
        ]);
        let root = resolve(dir.path());
        let hidden = [
            root.join("home/.ssh"),
            root.join("home/.local/share/switchboard"),
        ];
        let grants = plan(&root, &hidden, &[]);
        assert_eq!(
            relative(&root, grants),
            [
                "etc",
                "home/.bashrc",
                "home/.local/bin",
                "home/.local/share/other",
                "home/code",
                "usr"
            ]
        );
    }

    #[test]
    fn an_exception_inside_a_hidden_folder_is_granted_but_one_holding_it_is_not() {
        let dir = tree(&["data/cli-token", "data/worktrees/s1/", "data/worktrees/s2/"]);
        let root = resolve(dir.path());
        let data = root.join("data");
        let exceptions = [
            data.join("worktrees/s1"),
            root.clone(),
            data.join("worktrees/gone"),
        ];
        let grants = plan(&root, std::slice::from_ref(&data), &exceptions);
        assert_eq!(
            relative(&root, grants),
            ["worktrees/s1"].map(|s| format!("data/{s}"))
        );
    }

    #[test]
    fn links_are_never_granted_and_hidden_paths_resolve_through_them() {
        let dir = tree(&["real/secret/key", "open/file"]);
        let root = resolve(dir.path());
        std::os::unix::fs::symlink(root.join("real/secret"), root.join("alias")).unwrap();
        // Hiding the link's name hides the folder it points to.
        let hidden = [resolve(&root.join("alias"))];
        assert_eq!(hidden[0], root.join("real/secret"));
        assert_eq!(relative(&root, plan(&root, &hidden, &[])), ["open"]);
    }

    #[test]
    fn a_missing_hidden_path_still_carves_its_existing_parents() {
        let dir = tree(&["home/.config/other/", "home/notes"]);
        let root = resolve(dir.path());
        let hidden = [resolve(&root.join("home/.config/gcloud/creds"))];
        assert_eq!(hidden[0], root.join("home/.config/gcloud/creds"));
        assert_eq!(
            relative(&root, plan(&root, &hidden, &[])),
            ["home/.config/other", "home/notes"]
        );
    }
}
