//! Git worktrees for isolated agent sessions.
//!
//! [`find_repository`] says which repository a folder is in (and which
//! subfolder of it), [`add`] puts a worktree for a session on a new branch
//! from that repository's `HEAD` and copies in the ignored files listed in
//! `.switchboard/worktree-include` ([`INCLUDE_FILE`]), and
//! [`remove_if_clean`] takes it away again only when `git status` shows
//! nothing that would be lost; branches always stay. [`changes`] lists what
//! a worktree changed against its base commit (committed, uncommitted and
//! untracked alike, without touching the index) and [`file_diff`] gives one
//! of those files' unified diff, each git run under a time limit.
//!
//! The crate runs the real `git` program (argument lists, never a shell) and
//! knows nothing of HTTP or sessions: its callers choose the paths and names
//! ([`branch_for`] gives the conventional `switchboard/<short id>`).
//!
//! ```no_run
//! # fn demo() -> Result<(), worktrees::WorktreeError> {
//! use std::path::Path;
//! let checkout = worktrees::find_repository(Path::new("/src/app/crates/api"))?;
//! let id = "019a8f3c5d2e7b41a3c4d5e6f708192a";
//! let made = worktrees::add(&checkout, &Path::new("/data/worktrees").join(id), &worktrees::branch_for(id))?;
//! assert!(made.cwd.ends_with("crates/api"));
//! let outcome = worktrees::remove_if_clean(&made.repository, &made.path)?;
//! # let _ = outcome; Ok(()) }
//! ```

mod changes;
mod error;
pub mod git;
mod include;
mod worktree;

pub use changes::{Change, ChangeKind, FileDiff, GIT_TIMEOUT, MAX_DIFF_BYTES, changes, file_diff};
pub use error::{Result, WorktreeError};
pub use include::{INCLUDE_FILE, copy_included, patterns};
pub use worktree::{
    Checkout, Removal, RepositoryLock, Worktree, add, branch_for, discard, find_repository,
    lock_repository, mirror, remove_if_clean, short_id,
};
