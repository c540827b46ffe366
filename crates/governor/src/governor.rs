//! One check: read the fleet, plan with [`crate::refill::plan`], revive,
//! record.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use clock::Clock;
use serde::Serialize;
use sessions::Supervisor;
use store::Db;
use store::rusqlite::params;
use time::{Duration, OffsetDateTime};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::refill::{History, Rules, Skipped, plan};

/// How often the server runs a check.
pub const CHECK_EVERY: Duration = Duration::minutes(5);
/// How many checks `GET /governor` shows.
pub const KEPT_CHECKS: usize = 20;

#[derive(Debug, thiserror::Error)]
pub enum GovernorError {
    #[error(transparent)]
    Sessions(#[from] sessions::SessionError),
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error("a governor database task stopped before it finished")]
    Task,
}

impl From<store::rusqlite::Error> for GovernorError {
    fn from(e: store::rusqlite::Error) -> Self {
        GovernorError::Store(e.into())
    }
}

/// One check as `POST /governor/check` answers it and `GET /governor` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Check {
    pub at: String,
    /// Sessions queued, starting or running when the check began.
    pub running: usize,
    pub target: usize,
    /// Dormant sessions the check looked at.
    pub candidates: usize,
    pub revived: Vec<String>,
    pub skipped: Vec<Skipped>,
    /// What revived turns cost since local midnight, before this check.
    pub spent_today_usd: f64,
    /// Each listed session's account, so that an account sees only its own.
    #[serde(skip)]
    #[ts(skip)]
    pub accounts: HashMap<String, String>,
}

impl Check {
    /// The check as `account_id` may see it: fleet-wide counts, its own sessions.
    pub fn for_account(&self, account_id: &str) -> Check {
        let mine = |id: &String| self.accounts.get(id).is_some_and(|a| a == account_id);
        Check {
            revived: self.revived.iter().filter(|id| mine(id)).cloned().collect(),
            skipped: self
                .skipped
                .iter()
                .filter(|s| mine(&s.id))
                .cloned()
                .collect(),
            candidates: self.accounts.values().filter(|a| *a == account_id).count(),
            at: self.at.clone(),
            running: self.running,
            target: self.target,
            spent_today_usd: self.spent_today_usd,
            accounts: HashMap::new(),
        }
    }
}

pub struct Governor {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
    sessions: Supervisor,
    /// The zone whose midnight starts a new day for the budgets.
    zone: jiff::tz::TimeZone,
    checks: Mutex<VecDeque<Check>>,
    /// One check at a time: two at once would both see room for the same revives.
    running: tokio::sync::Mutex<()>,
}

impl Governor {
    pub fn new(
        db: Arc<Db>,
        clock: Arc<dyn Clock>,
        sessions: Supervisor,
        zone: jiff::tz::TimeZone,
    ) -> Self {
        Self {
            db,
            clock,
            sessions,
            zone,
            checks: Mutex::new(VecDeque::new()),
            running: tokio::sync::Mutex::new(()),
        }
    }

    /// The last checks, newest first, as `account_id` may see them.
    pub fn checks_for(&self, account_id: &str) -> Vec<Check> {
        self.lock_checks()
            .iter()
            .map(|check| check.for_account(account_id))
            .collect()
    }

    /// How many times each of the account's sessions was revived since
    /// local midnight (sessions not revived today are left out).
    pub fn revives_today(&self, account_id: &str) -> Result<HashMap<String, u32>, GovernorError> {
        let since = self.day_start(self.clock.now());
        Ok(self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT session_id, COUNT(*) FROM governor_revives
                 WHERE at >= ?1 AND account_id = ?2 GROUP BY session_id",
            )?;
            let rows =
                stmt.query_map(params![since, account_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<Result<HashMap<_, _>, _>>()
        })?)
    }

    /// Runs one check now. A check already under way makes this one return
    /// `None` rather than revive the same sessions twice.
    pub async fn check(&self, rules: &Rules) -> Result<Option<Check>, GovernorError> {
        let Ok(_held) = self.running.try_lock() else {
            return Ok(None);
        };
        let now = self.clock.now();
        let day_start = self.day_start(now);
        let working = self.sessions.working_count().await?;
        let dormant = self.sessions.dormant().await?;
        let spent = self.sessions.revive_spend_since(&day_start).await?;
        let (db, since, cooldown) = (self.db.clone(), day_start.clone(), rules.cooldown);
        let histories = off_runtime(move || histories(&db, now, &since, cooldown)).await?;
        let plan = plan(now, working, rules, spent, &dormant, |id| {
            histories.get(id).cloned().unwrap_or_default()
        });
        let accounts: HashMap<String, String> = dormant
            .iter()
            .map(|d| (d.id.clone(), d.account_id.clone()))
            .collect();
        let reviving: Vec<(String, String)> = plan
            .revive
            .into_iter()
            .filter_map(|id| accounts.get(&id).map(|account| (id, account.clone())))
            .collect();
        // Recorded first: a revive that fails half-way still counts against
        // the budgets, so a failing session is not retried in a loop.
        let (db, at, records) = (self.db.clone(), self.clock.timestamp(), reviving.clone());
        off_runtime(move || {
            db.write(|tx| {
                for (id, account) in &records {
                    tx.execute(
                        "INSERT INTO governor_revives (session_id, account_id, at) VALUES (?1, ?2, ?3)",
                        params![id, account, at],
                    )?;
                }
                Ok::<_, GovernorError>(())
            })
        })
        .await?;
        let mut revived = Vec::with_capacity(reviving.len());
        for (id, account) in reviving {
            match self.sessions.revive(&account, &id).await {
                Ok(_) => revived.push(id),
                Err(error) => {
                    tracing::warn!(%error, session = %id, "the governor could not revive a session")
                }
            }
        }
        let check = Check {
            at: clock::timestamp(now),
            running: working,
            target: rules.target,
            candidates: dormant.len(),
            revived,
            skipped: plan.skipped,
            spent_today_usd: spent,
            accounts,
        };
        let mut checks = self.lock_checks();
        checks.push_front(check.clone());
        checks.truncate(KEPT_CHECKS);
        Ok(Some(check))
    }

    /// Local midnight before `now`, in the stored form.
    fn day_start(&self, now: OffsetDateTime) -> String {
        let midnight = jiff::Timestamp::from_nanosecond(now.unix_timestamp_nanos())
            .ok()
            .map(|at| at.to_zoned(self.zone.clone()))
            .and_then(|zoned| zoned.start_of_day().ok())
            .and_then(|start| {
                OffsetDateTime::from_unix_timestamp_nanos(start.timestamp().as_nanosecond()).ok()
            });
        // Outside jiff's range (never on a real clock): count from now.
        clock::timestamp(midnight.unwrap_or(now))
    }

    fn lock_checks(&self) -> std::sync::MutexGuard<'_, VecDeque<Check>> {
        self.checks.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Each recently revived session's revives today and its last revive.
fn histories(
    db: &Db,
    now: OffsetDateTime,
    day_start: &str,
    cooldown: Duration,
) -> Result<HashMap<String, History>, GovernorError> {
    let cooldown_start = clock::timestamp(now - cooldown);
    let since = day_start.min(cooldown_start.as_str()).to_owned();
    let rows: Vec<(String, u32, String)> = db.read(|tx| {
        let mut stmt = tx.prepare_cached(
            "SELECT session_id, SUM(at >= ?2), MAX(at) FROM governor_revives
             WHERE at >= ?1 GROUP BY session_id",
        )?;
        let rows = stmt.query_map(params![since, day_start], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?;
        rows.collect::<Result<Vec<_>, _>>()
    })?;
    Ok(rows
        .into_iter()
        .map(|(id, today, last)| {
            let last =
                OffsetDateTime::parse(&last, &time::format_description::well_known::Rfc3339).ok();
            (
                id,
                History {
                    revives_today: today,
                    last_revived_at: last,
                },
            )
        })
        .collect())
}

/// Runs SQLite work on the blocking pool, off the async threads.
async fn off_runtime<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, GovernorError> + Send + 'static,
) -> Result<T, GovernorError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| GovernorError::Task)?
}
