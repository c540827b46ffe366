//! The fleet's side of sessions: pausing and resuming, the governor's
//! revives, and what the governor reads to decide (the dormant sessions, how
//! many work, what revived turns cost).

use std::sync::atomic::Ordering;

use store::rusqlite::{Transaction, params};

use crate::actor::Start;
use crate::db;
use crate::error::{Result, SessionError};
use crate::model::{Caller, Session, Status};
use crate::state::EndRequest;
use crate::supervisor::Supervisor;

const REVIVE_NUDGE: &str = "Switchboard's governor restarted this session after it was interrupted. Continue where you left off.";
const RESUME_NUDGE: &str = "The user resumed this session. Continue where you left off.";

impl Supervisor {
    /// Pauses an active session: its process tree ends and it is `paused`
    /// until resumed. A session that is not active is refused.
    pub async fn pause(&self, caller: &Caller, id: &str) -> Result<Session> {
        let session = self.get(&caller.account_id, id).await?;
        if !session.status.is_active() || session.archived {
            return Err(SessionError::SessionEnded {
                status: session.status,
            });
        }
        self.end(&caller.account_id, id, EndRequest::Pause).await?;
        self.get(&caller.account_id, id).await
    }

    /// The user continues a paused or interrupted session at once, with a
    /// continue nudge.
    pub async fn resume(&self, caller: &Caller, id: &str) -> Result<Session> {
        self.bring_back(
            &caller.account_id,
            id,
            "resumed by the user",
            RESUME_NUDGE,
            "nudge",
            Start::Now,
        )
        .await
    }

    /// The governor brings a dormant session back: reopened if it was
    /// closed, nudged, and started paced with the others returning. A
    /// session that is no longer dormant is refused.
    pub async fn revive(&self, account_id: &str, id: &str) -> Result<Session> {
        self.bring_back(
            account_id,
            id,
            "revived by the governor",
            REVIVE_NUDGE,
            "revive",
            Start::Returning,
        )
        .await
    }

    async fn bring_back(
        &self,
        account_id: &str,
        id: &str,
        reason: &'static str,
        nudge: &'static str,
        kind: &'static str,
        start: Start,
    ) -> Result<Session> {
        if self.inner.shutting_down.load(Ordering::SeqCst) {
            return Err(SessionError::ShuttingDown);
        }
        // Interrupted but waiting for its own `resumeAt`: the user's resume
        // wakes it now; the governor leaves it to come back by itself.
        let waiting = self.inner.live().get(id).map(|live| live.wake.clone());
        if let Some(wake) = waiting {
            let session = self.get(account_id, id).await?;
            if start != Start::Now || session.status != Status::Interrupted {
                return Err(SessionError::SessionEnded {
                    status: session.status,
                });
            }
            wake.notify_one();
            return Ok(session);
        }
        let (account, owned) = (account_id.to_owned(), id.to_owned());
        let now = self.inner.clock.timestamp();
        let to = if start == Start::Now {
            Status::Starting
        } else {
            Status::Queued
        };
        let session = self
            .inner
            .write(move |tx| {
                let session =
                    db::get_session(tx, &account, &owned)?.ok_or(SessionError::NotFound)?;
                if !matches!(session.status, Status::Interrupted | Status::Paused) {
                    return Err(SessionError::SessionEnded {
                        status: session.status,
                    });
                }
                reopen(tx, &owned, &now)?;
                if db::pending_inputs(tx, &owned)? == 0 {
                    db::push_input(tx, &owned, kind, nudge, None, &now)?;
                }
                db::set_status(tx, &owned, to, reason, &now)?;
                db::get_session(tx, &account, &owned)?.ok_or(SessionError::NotFound)
            })
            .await?;
        self.inner.send_moved(&session.id, &session.account_id, to);
        self.launch(session.id.clone(), session.account_id.clone(), start);
        Ok(session)
    }

    /// Every interrupted or paused session, most recently active first.
    pub async fn dormant(&self) -> Result<Vec<Dormant>> {
        self.inner.read(dormant).await
    }

    /// The folders where sessions are active now, per account, each once.
    pub async fn active_folders(&self) -> Result<Vec<(String, String)>> {
        self.inner.read(active_folders).await
    }

    /// Sessions queued, starting or running now, over every account.
    pub async fn working_count(&self) -> Result<usize> {
        self.inner.read(count_working).await
    }

    /// What the turns the governor started since `since` (a timestamp) cost.
    pub async fn revive_spend_since(&self, since: &str) -> Result<f64> {
        let since = since.to_owned();
        self.inner
            .read(move |tx| revive_spend_since(tx, &since))
            .await
    }
}

/// A session the governor may revive: interrupted or paused, archived or not.
#[derive(Debug, Clone, PartialEq)]
pub struct Dormant {
    pub id: String,
    pub account_id: String,
    pub status: Status,
    /// The user closed (archived) it.
    pub archived: bool,
    /// When its latest turn began (its creation, before any): when it last
    /// worked, which a crash's interruption time would not say.
    pub last_active_at: String,
    pub resume_at: Option<String>,
    /// Its engine reports a dollar cost (some turn has one).
    pub reports_cost: bool,
}

/// Every dormant session, most recently active first: one walk of the
/// partial index `sessions_dormant` (the last turn's start and whether a
/// turn reported dollars are kept on the session row for this).
fn dormant(tx: &Transaction<'_>) -> Result<Vec<Dormant>> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, account_id, status, archived, COALESCE(last_turn_at, created_at) AS last_active,
                resume_at, reports_cost
         FROM sessions INDEXED BY sessions_dormant
         WHERE status IN ('interrupted', 'paused')
         ORDER BY last_active DESC, id DESC",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Dormant {
            id: r.get(0)?,
            account_id: r.get(1)?,
            status: Status::parse(&r.get::<_, String>(2)?).unwrap_or(Status::Interrupted),
            archived: r.get(3)?,
            last_active_at: r.get(4)?,
            resume_at: r.get(5)?,
            reports_cost: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<store::rusqlite::Result<_>>()?)
}

/// Sessions working now (queued, starting or running), archived ones aside.
fn count_working(tx: &Transaction<'_>) -> Result<usize> {
    let count: i64 = tx.query_row(
        "SELECT COUNT(*) FROM sessions INDEXED BY sessions_by_status
         WHERE status IN ('queued', 'starting', 'running') AND archived = 0",
        [],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(count).unwrap_or_default())
}

/// What the turns the governor started (kind `revive`) since `since` cost.
fn revive_spend_since(tx: &Transaction<'_>, since: &str) -> Result<f64> {
    Ok(tx.query_row(
        "SELECT COALESCE(SUM(cost_usd), 0) FROM session_turns
         WHERE kind = 'revive' AND started_at >= ?1",
        [since],
        |r| r.get(0),
    )?)
}

/// Takes a session back from the archive (a reopened closed session), and
/// clears a resume time it no longer waits for.
fn reopen(tx: &Transaction<'_>, id: &str, now: &str) -> Result<()> {
    tx.execute(
        "UPDATE sessions SET archived = 0, archived_at = NULL, resume_at = NULL, updated_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

fn active_folders(tx: &Transaction<'_>) -> Result<Vec<(String, String)>> {
    let mut stmt = tx.prepare_cached(
        "SELECT DISTINCT account_id, cwd FROM sessions INDEXED BY sessions_by_status
         WHERE status IN ('queued', 'starting', 'running', 'waiting_for_input') AND archived = 0",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<store::rusqlite::Result<_>>()?)
}
