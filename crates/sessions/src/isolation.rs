//! Worktree isolation for sessions: the worktree is made before the session
//! row is written (so a repository problem is the caller's 400 and the engine
//! never starts in the wrong place), taken back if the spawn is then refused,
//! and removed on archive only when nothing in it would be lost.
//!
//! The git work itself is the `worktrees` crate's; this module chooses the
//! place (`DIR/worktrees/<session id>`) and the branch name, runs git off the
//! async runtime, and records the outcome.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use store::rusqlite::{Transaction, params};

use crate::db;
use crate::error::{Result, SessionError};
use crate::model::Worktree;
use crate::state::Inner;

/// A worktree made for a session that is not yet recorded.
pub(crate) struct Made {
    pub(crate) record: Worktree,
    /// Where the engine runs: the worktree's mirror of the asked-for folder.
    pub(crate) cwd: String,
    made: Where,
}

/// Where a worktree was made: here, or on a runner host.
enum Where {
    Local(worktrees::Worktree),
    Runner(runners::Runners, String),
}

/// Makes session `id`'s worktree on runner `runner` (docs/runners.md),
/// of the repository `cwd`, a path there, is in.
pub(crate) async fn create_remote(
    runners: &runners::Runners,
    runner: &str,
    id: &str,
    cwd: &str,
) -> Result<Made> {
    let made = runners
        .add_worktree(runner, id, cwd)
        .await
        .map_err(|reason| {
            SessionError::InvalidInput(format!(
                "no worktree could be made on runner `{runner}`: {reason}"
            ))
        })?;
    Ok(Made {
        record: Worktree {
            path: made.path,
            branch: made.branch,
            base: made.base,
            repository: made.repository,
            removed: false,
            kept_reason: None,
        },
        cwd: made.cwd,
        made: Where::Runner(runners.clone(), runner.to_owned()),
    })
}

/// Adds the worktree of session `id` for the repository `cwd` is in.
pub(crate) async fn create(data_dir: &Path, id: &str, cwd: PathBuf) -> Result<Made> {
    let path = data_dir.join("worktrees").join(id);
    let branch = worktrees::branch_for(id);
    let made = blocking(move || {
        let checkout = worktrees::find_repository(&cwd)?;
        worktrees::add(&checkout, &path, &branch)
    })
    .await?;
    if !made.copied.is_empty() {
        tracing::info!(
            session = id,
            files = made.copied.len(),
            "copied included files into the worktree"
        );
    }
    Ok(Made {
        record: Worktree {
            path: made.path.to_string_lossy().into_owned(),
            branch: made.branch.clone(),
            base: made.base.clone(),
            repository: made.repository.to_string_lossy().into_owned(),
            removed: false,
            kept_reason: None,
        },
        cwd: made.cwd.to_string_lossy().into_owned(),
        made: Where::Local(made),
    })
}

/// Takes back the worktree of a spawn that was refused after it was made.
pub(crate) async fn discard(made: Made) {
    let path = made.record.path.clone();
    let failed = match made.made {
        Where::Local(worktree) => blocking(move || worktrees::discard(&worktree))
            .await
            .err()
            .map(|e| e.to_string()),
        // Just made, it has no changes: removing it if clean removes it.
        Where::Runner(runners, runner) => runners
            .remove_worktree(&runner, &made.record.repository, &path)
            .await
            .err(),
    };
    if let Some(error) = failed {
        tracing::warn!(
            path,
            error,
            "could not take back the worktree of a refused spawn"
        );
    }
}

/// On archive: removes the session's worktree if it has no uncommitted
/// changes, else keeps it and records why. A worktree already removed (an
/// archive repeated) is left alone; one kept is tried again, so archiving
/// once more after committing removes it.
pub(crate) async fn release(inner: &Arc<Inner>, account: &str, id: &str) -> Result<()> {
    let account = account.to_owned();
    let owned = id.to_owned();
    let session = inner
        .read(move |tx| db::get_session(tx, &account, &owned)?.ok_or(SessionError::NotFound))
        .await?;
    let Some(worktree) = session.worktree.filter(|w| !w.removed) else {
        return Ok(());
    };
    let outcome = if session.runner == runners::LOCAL {
        let repository = PathBuf::from(&worktree.repository);
        let path = PathBuf::from(&worktree.path);
        blocking(move || worktrees::remove_if_clean(&repository, &path)).await
    } else {
        remove_remote(inner, &session.runner, &worktree).await
    };
    let (removed, kept) = match outcome {
        Ok(worktrees::Removal::Removed) => (true, None),
        Ok(worktrees::Removal::Kept { changes }) => (
            false,
            Some(format!(
                "it has uncommitted changes ({changes} {} in git status); commit or discard them and archive again to remove it",
                if changes == 1 { "entry" } else { "entries" }
            )),
        ),
        Err(e) => {
            tracing::warn!(session = id, error = %e, "could not remove a session's worktree");
            (
                false,
                Some("git could not remove it; the server log says why".to_owned()),
            )
        }
    };
    let owned = id.to_owned();
    inner
        .write(move |tx| set_worktree_outcome(tx, &owned, removed, kept.as_deref()))
        .await
}

/// Git runs as a child process and waits for it: off the async runtime.
/// Archiving a session on a runner removes its worktree there, under the
/// same rule: never one with uncommitted changes.
async fn remove_remote(
    inner: &Arc<Inner>,
    runner: &str,
    worktree: &Worktree,
) -> Result<worktrees::Removal> {
    let Some(runners) = &inner.runners else {
        return Err(SessionError::InvalidInput(format!(
            "the worktree is on runner `{runner}`, but runners are off on this server"
        )));
    };
    match runners
        .remove_worktree(runner, &worktree.repository, &worktree.path)
        .await
    {
        Ok(removal) if removal.removed => Ok(worktrees::Removal::Removed),
        Ok(removal) => Ok(worktrees::Removal::Kept {
            changes: removal.kept,
        }),
        Err(reason) => Err(SessionError::InvalidInput(format!(
            "runner `{runner}` could not remove the worktree: {reason}"
        ))),
    }
}

pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> worktrees::Result<T> + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| SessionError::ShuttingDown)?
        .map_err(SessionError::from)
}

/// Records the worktree a session runs in (in the session's own insert transaction).
pub(crate) fn insert_worktree(tx: &Transaction<'_>, id: &str, w: &Worktree) -> Result<()> {
    tx.execute(
        "INSERT INTO session_worktrees (session_id, path, branch, base, repository)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, w.path, w.branch, w.base, w.repository],
    )?;
    Ok(())
}

/// Records what archiving did with the worktree: removed, or kept and why.
pub(crate) fn set_worktree_outcome(
    tx: &Transaction<'_>,
    id: &str,
    removed: bool,
    kept_reason: Option<&str>,
) -> Result<()> {
    tx.execute(
        "UPDATE session_worktrees SET removed = ?2, kept_reason = ?3 WHERE session_id = ?1",
        params![id, removed, kept_reason],
    )?;
    Ok(())
}
