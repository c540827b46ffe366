//! What an isolated session changed in its worktree against the commit it
//! started from, and one changed file's diff: the `worktrees` crate reads
//! git, this module finds the session's worktree and says why there is none.

use std::path::PathBuf;

use serde::Serialize;
use utoipa::ToSchema;

use crate::db;
use crate::error::{Result, SessionError};
use crate::isolation;
use crate::model::Worktree;
use crate::supervisor::Supervisor;

/// `GET /sessions/<id>/changes`: the worktree against its base commit,
/// committed, staged, unstaged and untracked work alike (ignored files left out).
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionChanges {
    /// The commit the worktree started from (the session's `worktree.base`).
    pub base: String,
    /// By path.
    pub files: Vec<ChangedFile>,
}

/// One file the session changed.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangedFile {
    /// Relative to the worktree's root, `/`-separated.
    pub path: String,
    pub status: ChangeStatus,
    /// Lines added and removed; both 0 for a binary file.
    #[ts(type = "number")]
    pub additions: u64,
    #[ts(type = "number")]
    pub deletions: u64,
    /// Where a renamed file was; `null` otherwise.
    pub old_path: Option<String>,
    pub binary: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChangeStatus {
    Added,
    Modified,
    Deleted,
    Renamed,
}

/// `GET /sessions/<id>/changes/file?path=`: one changed file's unified diff.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangedFileDiff {
    pub path: String,
    /// `git diff` output against the base (an untracked file against nothing).
    pub diff: String,
    /// The diff was longer than 1 MiB and stops at the last whole line before it.
    pub truncated: bool,
}

impl Supervisor {
    /// What the session's worktree changed against its base. A session of
    /// another account is `NotFound`; one without a worktree `NotIsolated`,
    /// one whose folder is gone `WorktreeRemoved`.
    pub async fn changes(&self, account_id: &str, id: &str) -> Result<SessionChanges> {
        let (path, worktree) = self.worktree_of(account_id, id).await?;
        let base = worktree.base.clone();
        let files = isolation::blocking(move || worktrees::changes(&path, &base)).await?;
        Ok(SessionChanges {
            base: worktree.base,
            files: files.into_iter().map(changed_file).collect(),
        })
    }

    /// The diff of `path`, one of [`Supervisor::changes`]' files; any other
    /// path is a `Worktree(NotAChangedFile)` error.
    pub async fn changed_file(
        &self,
        account_id: &str,
        id: &str,
        path: &str,
    ) -> Result<ChangedFileDiff> {
        let (folder, worktree) = self.worktree_of(account_id, id).await?;
        let path = path.to_owned();
        let diff =
            isolation::blocking(move || worktrees::file_diff(&folder, &worktree.base, &path))
                .await?;
        Ok(ChangedFileDiff {
            path: diff.path,
            diff: diff.diff,
            truncated: diff.truncated,
        })
    }

    async fn worktree_of(&self, account_id: &str, id: &str) -> Result<(PathBuf, Worktree)> {
        let (account, owned) = (account_id.to_owned(), id.to_owned());
        let session = self
            .inner
            .read(move |tx| db::get_session(tx, &account, &owned)?.ok_or(SessionError::NotFound))
            .await?;
        let worktree = session.worktree.ok_or(SessionError::NotIsolated)?;
        let path = PathBuf::from(&worktree.path);
        if worktree.removed || !path.is_dir() {
            return Err(SessionError::WorktreeRemoved {
                branch: worktree.branch,
            });
        }
        Ok((path, worktree))
    }
}

fn changed_file(change: worktrees::Change) -> ChangedFile {
    ChangedFile {
        path: change.path,
        status: match change.kind {
            worktrees::ChangeKind::Added => ChangeStatus::Added,
            worktrees::ChangeKind::Modified => ChangeStatus::Modified,
            worktrees::ChangeKind::Deleted => ChangeStatus::Deleted,
            worktrees::ChangeKind::Renamed => ChangeStatus::Renamed,
        },
        additions: change.additions,
        deletions: change.deletions,
        old_path: change.old_path,
        binary: change.binary,
    }
}
