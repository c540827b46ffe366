//! Where a session in a plain folder (no worktree of its own) started: the
//! repository, the branch checked out and its commit then. Recorded at
//! spawn, so the commits it made on that branch are a piece of work like a
//! worktree's branch. A session in another session's worktree (a
//! follow-up) records that worktree's branch, and joins its work.

use std::path::{Path, PathBuf};

use store::Db;
use store::rusqlite::{Transaction, params};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The repository's main working tree.
    pub repository: PathBuf,
    pub branch: String,
    pub base: String,
    /// The working tree the session ran in (the repository's own, or a
    /// linked worktree).
    pub checkout: PathBuf,
}

fn text(dir: &Path, args: &[&str]) -> Option<String> {
    crate::facts::text(dir, args).filter(|t| !t.is_empty())
}

/// Where `folder` is: `None` outside a repository, on a detached HEAD or
/// in a repository without a commit.
pub fn find(folder: &Path) -> Option<Origin> {
    let checkout = PathBuf::from(text(folder, &["rev-parse", "--show-toplevel"])?);
    let common = PathBuf::from(text(
        &checkout,
        &["rev-parse", "--path-format=absolute", "--git-common-dir"],
    )?);
    let repository = if common.file_name().is_some_and(|n| n == ".git") {
        common.parent()?.to_path_buf()
    } else {
        checkout.clone()
    };
    Some(Origin {
        branch: text(&checkout, &["symbolic-ref", "--quiet", "--short", "HEAD"])?,
        base: text(
            &checkout,
            &["rev-parse", "--verify", "--quiet", "HEAD^{commit}"],
        )?,
        repository,
        checkout,
    })
}

pub fn record(db: &Db, session_id: &str, origin: &Origin) -> store::Result<()> {
    db.write(|tx: &Transaction<'_>| {
        tx.execute(
            "INSERT OR IGNORE INTO work_origins (session_id, repository, branch, base, checkout)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                session_id,
                origin.repository.display().to_string(),
                origin.branch,
                origin.base,
                origin.checkout.display().to_string()
            ],
        )?;
        Ok(())
    })
}

/// Every recorded origin, by session id.
pub fn all(db: &Db) -> store::Result<std::collections::HashMap<String, Origin>> {
    db.read(|tx: &Transaction<'_>| {
        let mut statement =
            tx.prepare("SELECT session_id, repository, branch, base, checkout FROM work_origins")?;
        let rows = statement.query_map([], |row| {
            Ok((
                row.get::<_, String>(0)?,
                Origin {
                    repository: PathBuf::from(row.get::<_, String>(1)?),
                    branch: row.get(2)?,
                    base: row.get(3)?,
                    checkout: PathBuf::from(row.get::<_, String>(4)?),
                },
            ))
        })?;
        Ok(rows.collect::<store::rusqlite::Result<_>>()?)
    })
}
