//! Finding a folder's repository, adding a worktree for a session, and
//! removing it again only when nothing in it would be lost.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

use crate::error::{Result, WorktreeError};
use crate::git;
use crate::include;

/// A folder inside a repository, as git sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkout {
    /// The working tree's root (`git rev-parse --show-toplevel`).
    pub root: PathBuf,
    /// The folder relative to `root` (empty at the root itself).
    pub subfolder: PathBuf,
    /// The commit `HEAD` names now: a new worktree branches from it.
    pub head: String,
}

/// A worktree made for a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worktree {
    pub path: PathBuf,
    pub branch: String,
    /// The commit the branch starts from.
    pub base: String,
    /// The root of the checkout it was made from.
    pub repository: PathBuf,
    /// Where the session runs: the same subfolder as the folder it was asked for.
    pub cwd: PathBuf,
    /// The ignored files copied in from the include file, relative to `path`.
    pub copied: Vec<PathBuf>,
}

/// What removing a worktree came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    Removed,
    /// It has uncommitted changes (`changes` entries of `git status --porcelain`)
    /// and stays where it is.
    Kept {
        changes: usize,
    },
}

/// The repository `folder` is in.
pub fn find_repository(folder: &Path) -> Result<Checkout> {
    if !folder.is_dir() {
        return Err(WorktreeError::NoSuchFolder {
            path: folder.to_path_buf(),
        });
    }
    let args = ["rev-parse", "--show-toplevel", "--show-prefix"];
    let output = git::run(folder, args)?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        // A bare repository or a `.git` folder has no working tree to mirror.
        if stderr.contains("not a git repository") || stderr.contains("must be run in a work tree")
        {
            return Err(WorktreeError::NotARepository {
                path: folder.to_path_buf(),
            });
        }
        return Err(git::failure(&args, &output));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut lines = stdout.lines();
    let root = PathBuf::from(lines.next().unwrap_or_default());
    let subfolder = PathBuf::from(lines.next().unwrap_or_default());
    if root.as_os_str().is_empty() {
        return Err(WorktreeError::NotARepository {
            path: folder.to_path_buf(),
        });
    }
    let head = git::run(&root, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])?;
    if !head.status.success() {
        return Err(WorktreeError::NoCommit { path: root });
    }
    Ok(Checkout {
        head: String::from_utf8_lossy(&head.stdout).trim().to_owned(),
        root,
        subfolder,
    })
}

/// A short, distinct name for a session id. Session ids are UUIDv7, whose
/// leading digits are the creation time (shared by sessions made within a
/// minute), so the short id takes the last eight digits, which are random.
pub fn short_id(id: &str) -> String {
    let chars: Vec<char> = id.chars().filter(char::is_ascii_alphanumeric).collect();
    chars[chars.len().saturating_sub(8)..]
        .iter()
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The branch a session's worktree is on.
pub fn branch_for(id: &str) -> String {
    format!("switchboard/{}", short_id(id))
}

/// The folder in `worktree` that mirrors `subfolder` of the original checkout.
pub fn mirror(worktree: &Path, subfolder: &Path) -> PathBuf {
    // By components, so git's `web/` prefix gives `…/web`, not `…/web/`.
    let mut path = worktree.to_path_buf();
    path.extend(subfolder.components());
    path
}

/// Adds a worktree at `path` on a new `branch` from `checkout.head`, copies
/// the include file's files in, and makes sure the mirrored subfolder exists
/// (an ignored folder is not checked out, but the session still runs there).
/// One lock per repository, for the commands that change its list of
/// worktrees.
static LOCKS: LazyLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = LazyLock::new(Mutex::default);

/// Holds `repository`'s worktree lock until dropped. Two `git worktree
/// add`s at once in one repository can read each other's half-made
/// `.git/worktrees/<name>` and fail, so everything in this process that
/// adds, removes or prunes worktrees of one repository takes turns.
pub fn lock_repository(repository: &Path) -> RepositoryLock {
    let lock = LOCKS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(repository.to_path_buf())
        .or_default()
        .clone();
    RepositoryLock { lock }
}

/// See [`lock_repository`]; [`RepositoryLock::hold`] waits for the turn.
pub struct RepositoryLock {
    lock: Arc<Mutex<()>>,
}

impl RepositoryLock {
    pub fn hold(&self) -> MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

pub fn add(checkout: &Checkout, path: &Path, branch: &str) -> Result<Worktree> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|source| WorktreeError::Copy {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    let args = [
        "worktree".as_ref(),
        "add".as_ref(),
        "--quiet".as_ref(),
        "-b".as_ref(),
        branch.as_ref(),
        path.as_os_str(),
        checkout.head.as_ref(),
    ];
    {
        let lock = lock_repository(&checkout.root);
        let _turn = lock.hold();
        git::checked(&checkout.root, args)?;
    }
    let made = Worktree {
        path: path.to_path_buf(),
        branch: branch.to_owned(),
        base: checkout.head.clone(),
        repository: checkout.root.clone(),
        cwd: mirror(path, &checkout.subfolder),
        copied: Vec::new(),
    };
    let finish = || -> Result<Vec<PathBuf>> {
        let copied = include::copy_included(&checkout.root, path)?;
        std::fs::create_dir_all(&made.cwd).map_err(|source| WorktreeError::Copy {
            path: checkout.subfolder.clone(),
            source,
        })?;
        Ok(copied)
    };
    match finish() {
        Ok(copied) => Ok(Worktree { copied, ..made }),
        Err(e) => {
            // Half a worktree helps nobody: take it back before reporting.
            let _ = discard(&made);
            Err(e)
        }
    }
}

/// Removes `path` if `git status --porcelain` shows nothing (no tracked
/// change, no untracked file that is not ignored); otherwise keeps it. The
/// branch stays either way: its commits are the session's work. A worktree
/// already deleted by hand is pruned from git's records and counts as removed.
pub fn remove_if_clean(repository: &Path, path: &Path) -> Result<Removal> {
    let lock = lock_repository(repository);
    let _turn = lock.hold();
    if !path.exists() {
        git::checked(repository, ["worktree", "prune"])?;
        return Ok(Removal::Removed);
    }
    let status = git::checked(path, ["status", "--porcelain"])?;
    let changes = status.lines().filter(|l| !l.trim().is_empty()).count();
    if changes > 0 {
        return Ok(Removal::Kept { changes });
    }
    // Without --force git checks once more, so a change made since the status survives.
    git::checked(
        repository,
        ["worktree".as_ref(), "remove".as_ref(), path.as_os_str()],
    )?;
    Ok(Removal::Removed)
}

/// Takes back a worktree nobody used (its session was refused after it was
/// made): the folder and the branch both go.
pub fn discard(worktree: &Worktree) -> Result<()> {
    let lock = lock_repository(&worktree.repository);
    let _turn = lock.hold();
    let remove = [
        "worktree".as_ref(),
        "remove".as_ref(),
        "--force".as_ref(),
        worktree.path.as_os_str(),
    ];
    git::checked(&worktree.repository, remove)?;
    git::checked(&worktree.repository, ["branch", "-D", &worktree.branch])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_id_is_the_random_tail_of_a_uuid() {
        assert_eq!(short_id("019a8f3c5d2e7b41a3c4d5e6f708192a"), "f708192a");
        assert_eq!(short_id("019A8F3C-5D2E-7B41-A3C4-D5E6F708192A"), "f708192a");
        assert_eq!(short_id("abc"), "abc");
        assert_eq!(
            branch_for("019a8f3c5d2e7b41a3c4d5e6f708192a"),
            "switchboard/f708192a"
        );
    }

    #[test]
    fn a_subfolder_maps_to_the_same_subfolder_of_the_worktree() {
        let worktree = Path::new("/data/worktrees/s1");
        assert_eq!(mirror(worktree, Path::new("")), worktree);
        let mapped = mirror(worktree, Path::new("crates/api/"));
        assert_eq!(mapped.to_str(), Some("/data/worktrees/s1/crates/api"));
    }
}
