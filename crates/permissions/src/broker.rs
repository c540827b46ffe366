//! The broker's storage and waiting: decisions on record, approvals, session
//! grants, and the hook's wait for the user's answer on the injected clock.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use clock::Clock;
use serde::{Deserialize, Serialize};
use store::rusqlite::{OptionalExtension, Row, Transaction, params};
use store::{Db, Migration};
use time::OffsetDateTime;
use tokio::sync::watch;
use utoipa::ToSchema;

use crate::APPROVAL_WAIT;

pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "permissions",
    sql: "
CREATE TABLE permission_decisions (
    id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    target TEXT,
    level TEXT NOT NULL,
    rule TEXT NOT NULL,
    decision TEXT NOT NULL,
    approval_id TEXT,
    at TEXT NOT NULL
) STRICT;
CREATE INDEX permission_decisions_by_session ON permission_decisions (session_id, id);
CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    target TEXT,
    input TEXT NOT NULL,
    reason TEXT NOT NULL,
    rule TEXT NOT NULL,
    grant_key TEXT NOT NULL,
    state TEXT NOT NULL,
    remember TEXT,
    created_at TEXT NOT NULL,
    decided_at TEXT
) STRICT;
CREATE INDEX approvals_by_account ON approvals (account_id, state, created_at);
CREATE TABLE permission_grants (
    session_id TEXT NOT NULL,
    grant_key TEXT NOT NULL,
    approval_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (session_id, grant_key)
) STRICT;
",
}];

#[derive(Debug, thiserror::Error)]
pub enum PermissionError {
    #[error("approval not found")]
    NotFound,
    #[error("the approval was already answered")]
    AlreadyDecided,
    #[error("permission storage failed")]
    Store(#[from] store::StoreError),
    #[error("permission storage failed")]
    Sqlite(#[from] store::rusqlite::Error),
}

type Result<T> = std::result::Result<T, PermissionError>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalState {
    Pending,
    Allowed,
    Denied,
    /// Nobody answered within ten minutes, or the server restarted meanwhile.
    Expired,
}

impl ApprovalState {
    fn as_str(self) -> &'static str {
        match self {
            ApprovalState::Pending => "pending",
            ApprovalState::Allowed => "allowed",
            ApprovalState::Denied => "denied",
            ApprovalState::Expired => "expired",
        }
    }

    /// How a settled approval ended; `None` while it is pending.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            ApprovalState::Pending => None,
            ApprovalState::Allowed => Some(Outcome::Allowed),
            ApprovalState::Denied => Some(Outcome::Denied),
            ApprovalState::Expired => Some(Outcome::TimedOut),
        }
    }

    fn parse(text: &str) -> ApprovalState {
        match text {
            "pending" => ApprovalState::Pending,
            "allowed" => ApprovalState::Allowed,
            "denied" => ApprovalState::Denied,
            _ => ApprovalState::Expired,
        }
    }
}

/// How long an answer holds: this call only, or the rest of the session for
/// the same tool and target class.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ts_rs::TS, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Remember {
    #[default]
    Once,
    Session,
}

/// A tool call waiting for (or answered by) the user.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Approval {
    pub id: String,
    pub session_id: String,
    pub tool: String,
    pub target: Option<String>,
    /// The tool's input as the engine sent it (an `ExitPlanMode` call's `plan`).
    #[ts(type = "unknown")]
    pub input: serde_json::Value,
    /// Why it asks.
    pub reason: String,
    pub rule: String,
    pub state: ApprovalState,
    pub remember: Option<Remember>,
    pub created_at: String,
    pub decided_at: Option<String>,
}

/// One decision on record, as `GET /sessions/<id>/permissions` lists them.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PermissionRecord {
    #[ts(type = "number")]
    pub id: i64,
    pub tool: String,
    pub target: Option<String>,
    pub level: String,
    pub rule: String,
    /// `allow` or `deny`: what the engine was told.
    pub decision: String,
    pub approval_id: Option<String>,
    pub at: String,
}

/// A decision to put on record.
pub struct NewRecord<'a> {
    pub account_id: &'a str,
    pub session_id: &'a str,
    pub tool: &'a str,
    pub target: Option<&'a str>,
    pub level: &'a str,
    pub rule: &'a str,
    /// `allow` or `deny`.
    pub decision: &'a str,
    pub approval_id: Option<&'a str>,
}

pub struct NewApproval<'a> {
    pub account_id: &'a str,
    pub session_id: &'a str,
    pub tool: &'a str,
    pub target: Option<&'a str>,
    pub input: &'a serde_json::Value,
    pub reason: &'a str,
    pub rule: &'a str,
    pub grant_key: &'a str,
}

/// How a wait for the user ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Allowed,
    Denied,
    TimedOut,
}

type Waiters = HashMap<String, (watch::Sender<Option<Outcome>>, OffsetDateTime)>;

#[derive(Clone)]
pub struct Broker {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
    /// One channel per pending approval, and the moment it expires: ten
    /// minutes after it was opened, however late anyone starts waiting.
    waiters: Arc<Mutex<Waiters>>,
}

impl Broker {
    /// Opens the tables; approvals a previous server left pending expire,
    /// since no hook is waiting for them any more.
    pub fn open(db: Arc<Db>, clock: Arc<dyn Clock>) -> Result<Broker> {
        db.migrate(MIGRATIONS)?;
        let now = clock.timestamp();
        db.write(|tx| {
            tx.execute(
                "UPDATE approvals SET state = 'expired', decided_at = ?1 WHERE state = 'pending'",
                [&now],
            )
        })?;
        Ok(Broker {
            db,
            clock,
            waiters: Arc::default(),
        })
    }

    fn waiters(&self) -> MutexGuard<'_, Waiters> {
        // A poisoned map only means a panic elsewhere; its entries are still whole.
        self.waiters.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn is_granted(&self, session_id: &str, grant_key: &str) -> Result<bool> {
        Ok(self
            .db
            .read(|tx| {
                tx.query_row(
                    "SELECT 1 FROM permission_grants WHERE session_id = ?1 AND grant_key = ?2",
                    [session_id, grant_key],
                    |_| Ok(()),
                )
                .optional()
            })?
            .is_some())
    }

    /// Records what the engine was told.
    pub fn record(&self, new: &NewRecord<'_>) -> Result<PermissionRecord> {
        let at = self.clock.timestamp();
        let id = self.db.write(|tx| {
            tx.execute(
                "INSERT INTO permission_decisions
                    (account_id, session_id, tool, target, level, rule, decision, approval_id, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    new.account_id,
                    new.session_id,
                    new.tool,
                    new.target,
                    new.level,
                    new.rule,
                    new.decision,
                    new.approval_id,
                    at
                ],
            )?;
            Ok::<_, PermissionError>(tx.last_insert_rowid())
        })?;
        Ok(PermissionRecord {
            id,
            tool: new.tool.to_owned(),
            target: new.target.map(str::to_owned),
            level: new.level.to_owned(),
            rule: new.rule.to_owned(),
            decision: new.decision.to_owned(),
            approval_id: new.approval_id.map(str::to_owned),
            at,
        })
    }

    pub fn decisions(&self, account_id: &str, session_id: &str) -> Result<Vec<PermissionRecord>> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, tool, target, level, rule, decision, approval_id, at
                 FROM permission_decisions WHERE session_id = ?1 AND account_id = ?2 ORDER BY id",
            )?;
            let rows = stmt.query_map([session_id, account_id], |row| {
                Ok(PermissionRecord {
                    id: row.get(0)?,
                    tool: row.get(1)?,
                    target: row.get(2)?,
                    level: row.get(3)?,
                    rule: row.get(4)?,
                    decision: row.get(5)?,
                    approval_id: row.get(6)?,
                    at: row.get(7)?,
                })
            })?;
            Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
        })
    }

    /// Stores a pending approval; [`Broker::wait`] then waits for its answer.
    pub fn open_approval(&self, new: &NewApproval<'_>) -> Result<Approval> {
        let id = store::new_id();
        let now = self.clock.timestamp();
        let input = new.input.to_string();
        let deadline = self.clock.now() + APPROVAL_WAIT;
        self.waiters()
            .insert(id.clone(), (watch::channel(None).0, deadline));
        let stored = self.db.write(|tx| {
            tx.execute(
                "INSERT INTO approvals (id, account_id, session_id, tool, target, input, reason,
                    rule, grant_key, state, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'pending', ?10)",
                params![
                    id,
                    new.account_id,
                    new.session_id,
                    new.tool,
                    new.target,
                    input,
                    new.reason,
                    new.rule,
                    new.grant_key,
                    now
                ],
            )?;
            get_tx(tx, new.account_id, &id)?.ok_or(PermissionError::NotFound)
        });
        if stored.is_err() {
            self.waiters().remove(&id);
        }
        stored
    }

    /// Waits until the user answers or ten minutes pass on the clock; a
    /// timeout marks the approval expired.
    pub async fn wait(&self, account_id: &str, id: &str) -> Result<Outcome> {
        let waiting = self
            .waiters()
            .get(id)
            .map(|(sender, deadline)| (sender.subscribe(), *deadline));
        let Some((mut answer, deadline)) = waiting else {
            let state = self.get(account_id, id)?.state;
            return Ok(state.outcome().unwrap_or(Outcome::TimedOut));
        };
        let outcome = tokio::select! {
            answered = answer.wait_for(Option::is_some) => match answered {
                Ok(outcome) => outcome.unwrap_or(Outcome::Denied),
                Err(_) => Outcome::Denied,
            },
            () = self.clock.sleep_until(deadline) => Outcome::TimedOut,
        };
        let settled = match outcome {
            Outcome::TimedOut => self.expire(account_id, id),
            answered => Ok(answered),
        };
        // Pollers hear the outcome only once it is stored, so a user's answer
        // in the same instant as the timeout is what the hook is told too.
        if let (Some((waiter, _)), Ok(outcome)) = (self.waiters().remove(id), &settled) {
            waiter.send_replace(Some(*outcome));
        }
        settled
    }

    /// Marks a pending approval expired; one the user answered in the same
    /// instant keeps the answer.
    fn expire(&self, account_id: &str, id: &str) -> Result<Outcome> {
        let now = self.clock.timestamp();
        let expired = self.db.write(|tx| {
            tx.execute(
                "UPDATE approvals SET state = 'expired', decided_at = ?2
                 WHERE id = ?1 AND state = 'pending'",
                params![id, now],
            )
        })?;
        if expired == 1 {
            return Ok(Outcome::TimedOut);
        }
        let state = self.get(account_id, id)?.state;
        Ok(state.outcome().unwrap_or(Outcome::Denied))
    }

    /// The user's answer. `Remember::Session` also grants the same tool and
    /// target class for the rest of the session.
    pub fn decide(
        &self,
        account_id: &str,
        id: &str,
        allow: bool,
        remember: Remember,
    ) -> Result<Approval> {
        let now = self.clock.timestamp();
        let state = if allow {
            ApprovalState::Allowed
        } else {
            ApprovalState::Denied
        };
        let remember_text = match remember {
            Remember::Once => "once",
            Remember::Session => "session",
        };
        let approval = self.db.write(|tx| {
            let current = get_tx(tx, account_id, id)?.ok_or(PermissionError::NotFound)?;
            if current.state != ApprovalState::Pending {
                return Err(PermissionError::AlreadyDecided);
            }
            tx.execute(
                "UPDATE approvals SET state = ?2, remember = ?3, decided_at = ?4 WHERE id = ?1",
                params![id, state.as_str(), remember_text, now],
            )?;
            if allow && remember == Remember::Session {
                tx.execute(
                    "INSERT OR IGNORE INTO permission_grants (session_id, grant_key, approval_id, created_at)
                     SELECT session_id, grant_key, id, ?2 FROM approvals WHERE id = ?1",
                    params![id, now],
                )?;
            }
            get_tx(tx, account_id, id)?.ok_or(PermissionError::NotFound)
        })?;
        if let Some((waiter, _)) = self.waiters().get(id) {
            let outcome = if allow {
                Outcome::Allowed
            } else {
                Outcome::Denied
            };
            waiter.send_replace(Some(outcome));
        }
        Ok(approval)
    }

    /// Watches a pending approval's outcome (`None` once it is settled: read
    /// its state instead). Any number of hooks may watch; only the clock
    /// ends the wait.
    pub fn subscribe(&self, id: &str) -> Option<watch::Receiver<Option<Outcome>>> {
        self.waiters().get(id).map(|(sender, _)| sender.subscribe())
    }

    pub fn get(&self, account_id: &str, id: &str) -> Result<Approval> {
        self.db
            .read(|tx| get_tx(tx, account_id, id))?
            .ok_or(PermissionError::NotFound)
    }

    /// The account's approvals, newest first: the pending ones, or all.
    pub fn list(&self, account_id: &str, pending_only: bool) -> Result<Vec<Approval>> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(&format!(
                "SELECT {COLUMNS} FROM approvals WHERE account_id = ?1 {}
                 ORDER BY created_at DESC, id DESC LIMIT 500",
                if pending_only {
                    "AND state = 'pending'"
                } else {
                    ""
                }
            ))?;
            let rows = stmt.query_map([account_id], approval_from_row)?;
            Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
        })
    }
}

const COLUMNS: &str =
    "id, session_id, tool, target, input, reason, rule, state, remember, created_at, decided_at";

fn get_tx(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<Option<Approval>> {
    Ok(tx
        .query_row(
            &format!("SELECT {COLUMNS} FROM approvals WHERE id = ?1 AND account_id = ?2"),
            [id, account_id],
            approval_from_row,
        )
        .optional()?)
}

fn approval_from_row(row: &Row<'_>) -> store::rusqlite::Result<Approval> {
    Ok(Approval {
        id: row.get(0)?,
        session_id: row.get(1)?,
        tool: row.get(2)?,
        target: row.get(3)?,
        // Written by us from a JSON value; an unreadable one shows as null.
        input: serde_json::from_str(&row.get::<_, String>(4)?).unwrap_or_default(),
        reason: row.get(5)?,
        rule: row.get(6)?,
        state: ApprovalState::parse(&row.get::<_, String>(7)?),
        remember: row.get::<_, Option<String>>(8)?.map(|r| {
            if r == "session" {
                Remember::Session
            } else {
                Remember::Once
            }
        }),
        created_at: row.get(9)?,
        decided_at: row.get(10)?,
    })
}
