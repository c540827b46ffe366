//! What a code host (GitHub, GitLab; the `codehosts` crate) last said of
//! each piece of work: its pull request, the ETag that makes the next
//! poll free when nothing changed, or why the host could not be asked.
//! Kept in the database so a restart polls with the ETags it had, and
//! read with every page of work; [`crate::state::decide`] weighs it.

use std::collections::HashMap;

use codehosts::PullRequest;
use store::Db;
use store::rusqlite::{OptionalExtension, Transaction, params};

/// The last answer about one piece of work.
#[derive(Debug, Clone, PartialEq)]
pub struct Hosted {
    /// The host's name in `codehosts.toml` (or a built-in: `github`,
    /// `gitlab`).
    pub host: String,
    /// The project on it (`acme/app`).
    pub project: String,
    pub etag: Option<String>,
    /// The branch's pull request, or none (as of the last good answer).
    pub pull_request: Option<PullRequest>,
    /// Why the last poll failed (401, 404, 5xx, rate limited); cleared by
    /// the next good answer.
    pub error: Option<String>,
    /// When it was last asked (Unix seconds).
    pub checked_at: i64,
}

pub fn all(db: &Db) -> store::Result<HashMap<String, Hosted>> {
    db.read(|tx: &Transaction<'_>| {
        let mut statement = tx.prepare(
            "SELECT work_id, host, project, etag, pull_request, error, checked_at
             FROM work_pull_requests",
        )?;
        let rows = statement.query_map([], |row| {
            let pull_request: Option<String> = row.get(4)?;
            Ok((
                row.get::<_, String>(0)?,
                Hosted {
                    host: row.get(1)?,
                    project: row.get(2)?,
                    etag: row.get(3)?,
                    pull_request: pull_request.and_then(|p| serde_json::from_str(&p).ok()),
                    error: row.get(5)?,
                    checked_at: row.get(6)?,
                },
            ))
        })?;
        Ok(rows.collect::<store::rusqlite::Result<_>>()?)
    })
}

/// What the host last said of one piece of work.
pub fn one(db: &Db, work_id: &str) -> store::Result<Option<Hosted>> {
    db.read(|tx: &Transaction<'_>| {
        Ok(tx
            .query_row(
                "SELECT host, project, etag, pull_request, error, checked_at
                 FROM work_pull_requests WHERE work_id = ?1",
                [work_id],
                |row| {
                    let pull_request: Option<String> = row.get(3)?;
                    Ok(Hosted {
                        host: row.get(0)?,
                        project: row.get(1)?,
                        etag: row.get(2)?,
                        pull_request: pull_request.and_then(|p| serde_json::from_str(&p).ok()),
                        error: row.get(4)?,
                        checked_at: row.get(5)?,
                    })
                },
            )
            .optional()?)
    })
}

pub fn save(db: &Db, work_id: &str, hosted: &Hosted) -> store::Result<()> {
    let pull_request = hosted
        .pull_request
        .as_ref()
        .and_then(|p| serde_json::to_string(p).ok());
    db.write(|tx: &Transaction<'_>| {
        tx.execute(
            "INSERT OR REPLACE INTO work_pull_requests
               (work_id, host, project, etag, pull_request, error, checked_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                work_id,
                hosted.host,
                hosted.project,
                hosted.etag,
                pull_request,
                hosted.error,
                hosted.checked_at
            ],
        )?;
        Ok(())
    })
}
