//! The reports an account received and the states they move through.
//!
//! `receive` decides in one `IMMEDIATE` write transaction whether a report
//! is a duplicate, where it goes and whether it starts a triage session;
//! a report that starts one is stored as `triaging` without a session (the
//! claim), so of two deliveries racing only the first is told
//! [`Action::StartTriage`] and the second is its duplicate. The app then
//! starts the session and calls `mark_triaging` (or `start_failed`).
//!
//! ```text
//! receive ─┬─> triaging ──mark_triaging──> triaging + session ──mark_triaged──> triaged
//!          │       └──start_failed──> new
//!          ├─> held ──release──> triaging (or new / unrouted)
//!          ├─> new (intake off) ──hold──> held
//!          └─> unrouted ──release──> …        any state ──dismiss──> dismissed
//! ```

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use store::Db;
use store::rusqlite::{OptionalExtension, Row, Transaction, params};
use time::Duration;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::config::{Config, Route, route_for};
use crate::report::{Report, Source, from_stored, normalized_title};

/// A report with the same account, source and normalised title within this
/// long after an earlier one's arrival is that report again. A rolling
/// window rather than a calendar day, so a bug reported at 23:59 and again
/// at 00:01 is one report whatever the zone.
pub const DEDUP_WINDOW: Duration = Duration::hours(24);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BugReportState")]
#[schema(as = BugReportState)]
pub enum ReportState {
    /// Listed and not started: received while intake was off, or its start failed.
    New,
    /// The user holds it; `release` starts it.
    Held,
    /// A triage session is starting (no session id yet) or running.
    Triaging,
    /// Its triage session finished.
    Triaged,
    Dismissed,
    /// No route names a project for it.
    Unrouted,
}

impl ReportState {
    pub fn as_str(self) -> &'static str {
        match self {
            ReportState::New => "new",
            ReportState::Held => "held",
            ReportState::Triaging => "triaging",
            ReportState::Triaged => "triaged",
            ReportState::Dismissed => "dismissed",
            ReportState::Unrouted => "unrouted",
        }
    }
}

impl std::fmt::Display for ReportState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a report is listed rather than triaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BugReportReason")]
#[schema(as = BugReportReason)]
pub enum Reason {
    /// `bugIntakeEnabled` was off.
    IntakeOff,
    /// The user holds new reports, or this one.
    Held,
    /// No route names a project for it.
    Unrouted,
    /// The app could not start its triage session.
    StartFailed,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::IntakeOff => "intake_off",
            Reason::Held => "held",
            Reason::Unrouted => "unrouted",
            Reason::StartFailed => "start_failed",
        }
    }
}

/// A stored report as the app lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BugReport {
    pub id: String,
    pub source: Source,
    pub title: String,
    pub body: String,
    pub url: Option<String>,
    pub external_id: Option<String>,
    pub reporter: Option<String>,
    /// The repository, Sentry project, `project` or address it came with.
    pub origin: Option<String>,
    pub labels: Vec<String>,
    /// The project folder it was routed to.
    pub folder: Option<String>,
    pub engine: Option<String>,
    pub state: ReportState,
    pub reason: Option<Reason>,
    pub session_id: Option<String>,
    /// How many times it arrived within the deduplication window.
    pub count: i64,
    pub created_at: String,
    pub last_seen_at: String,
}

/// What the app does with a report it just received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Start a triage session at this route, then `mark_triaging`.
    StartTriage(Route),
    /// Nothing to start; the report is listed.
    Listed(Reason),
    /// The report arrived before (the id of that report, now counted once more).
    Duplicate { of: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// The stored report (for a duplicate, the original).
    pub report: BugReport,
    pub action: Action,
}

/// The settings' say at the moment a report arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// `bugIntakeEnabled`: off, nothing starts a session.
    pub enabled: bool,
    /// The user holds new reports until they release each.
    pub hold_new: bool,
}

pub struct BugIntake {
    db: Arc<Db>,
}

const COLUMNS: &str = "id, source, title, body, url, external_id, reporter, origin, labels, \
     folder, engine, state, reason, session_id, count, created_at, last_seen_at";

impl BugIntake {
    pub fn new(db: Arc<Db>) -> Self {
        Self { db }
    }

    /// Takes a report for `account_id`. The moment is the report's
    /// `received_at`, which the caller set from its clock. A duplicate
    /// within [`DEDUP_WINDOW`] is counted on the original, whatever the
    /// policy; otherwise the report is routed and stored, and starts a
    /// triage session only when intake is on, it has a route and new
    /// reports are not held.
    pub fn receive(
        &self,
        account_id: &str,
        report: &Report,
        config: &Config,
        policy: Policy,
    ) -> Result<Received, IntakeError> {
        let now = clock::timestamp(report.received_at);
        let window_start = clock::timestamp(report.received_at - DEDUP_WINDOW);
        let key = normalized_title(&report.title);
        self.db.write(|tx| {
            let original: Option<String> = tx
                .query_row(
                    "SELECT id FROM bug_reports
                     WHERE account_id = ?1 AND source = ?2 AND dedup_key = ?3 AND created_at > ?4
                     ORDER BY created_at DESC LIMIT 1",
                    params![account_id, report.source.as_str(), key, window_start],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(id) = original {
                tx.execute(
                    "UPDATE bug_reports SET count = count + 1, last_seen_at = max(last_seen_at, ?2)
                     WHERE id = ?1",
                    params![id, now],
                )?;
                return Ok(Received {
                    report: get_tx(tx, account_id, &id)?,
                    action: Action::Duplicate { of: id },
                });
            }
            let route = route_for(report.source, report.origin.as_deref(), config);
            let (state, reason, action) = decide(route.clone(), policy.enabled, policy.hold_new);
            let id = store::new_id();
            tx.execute(
                "INSERT INTO bug_reports (id, account_id, source, title, body, url, external_id,
                   reporter, origin, labels, folder, engine, state, reason, dedup_key,
                   created_at, last_seen_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?16)",
                params![
                    id,
                    account_id,
                    report.source.as_str(),
                    report.title,
                    report.body,
                    report.url,
                    report.external_id,
                    report.reporter,
                    report.origin,
                    report.labels.join("\n"),
                    route.as_ref().map(|r| r.folder.display().to_string()),
                    route.as_ref().and_then(|r| r.engine.clone()),
                    state.as_str(),
                    reason.map(Reason::as_str),
                    key,
                    now,
                ],
            )?;
            Ok(Received {
                report: get_tx(tx, account_id, &id)?,
                action,
            })
        })
    }

    /// The account's reports, newest first, optionally in one state only.
    pub fn list(
        &self,
        account_id: &str,
        state: Option<ReportState>,
        limit: usize,
    ) -> Result<Vec<BugReport>, IntakeError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM bug_reports
                 WHERE account_id = ?1 AND (?2 IS NULL OR state = ?2)
                 ORDER BY created_at DESC, id DESC LIMIT ?3"
            ))?;
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            let rows = stmt.query_map(
                params![account_id, state.map(ReportState::as_str), limit],
                read_row,
            )?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    pub fn get(&self, account_id: &str, id: &str) -> Result<BugReport, IntakeError> {
        self.db.read(|tx| get_tx(tx, account_id, id))
    }

    /// Holds a report that has not started (`new`).
    pub fn hold(&self, account_id: &str, id: &str) -> Result<BugReport, IntakeError> {
        self.step(
            account_id,
            id,
            "held",
            |r| r.state == ReportState::New,
            |tx| set_state(tx, id, ReportState::Held, Some(Reason::Held)),
        )
    }

    /// Lets a held, new or unrouted report go: routed again with the
    /// configuration in effect now, and claimed for triage as `receive`
    /// would (a held report is not held again).
    pub fn release(
        &self,
        account_id: &str,
        id: &str,
        config: &Config,
        enabled: bool,
    ) -> Result<Received, IntakeError> {
        self.db.write(|tx| {
            let current = get_tx(tx, account_id, id)?;
            if !matches!(
                current.state,
                ReportState::New | ReportState::Held | ReportState::Unrouted
            ) {
                return Err(IntakeError::WrongState {
                    state: current.state,
                    step: "released",
                });
            }
            let route = route_for(current.source, current.origin.as_deref(), config);
            let (state, reason, action) = decide(route.clone(), enabled, false);
            tx.execute(
                "UPDATE bug_reports SET state = ?2, reason = ?3, folder = ?4, engine = ?5
                 WHERE id = ?1",
                params![
                    id,
                    state.as_str(),
                    reason.map(Reason::as_str),
                    route.as_ref().map(|r| r.folder.display().to_string()),
                    route.and_then(|r| r.engine),
                ],
            )?;
            Ok(Received {
                report: get_tx(tx, account_id, id)?,
                action,
            })
        })
    }

    /// Dismisses a report in any state; its session, if any, is the app's.
    pub fn dismiss(&self, account_id: &str, id: &str) -> Result<BugReport, IntakeError> {
        self.step(
            account_id,
            id,
            "dismissed",
            |_| true,
            |tx| set_state(tx, id, ReportState::Dismissed, None),
        )
    }

    /// Records the session the app started for a claimed report; a report
    /// takes one session, once.
    pub fn mark_triaging(
        &self,
        account_id: &str,
        id: &str,
        session_id: &str,
    ) -> Result<BugReport, IntakeError> {
        self.step(
            account_id,
            id,
            "given a session",
            |r| r.state == ReportState::Triaging && r.session_id.is_none(),
            |tx| {
                tx.execute(
                    "UPDATE bug_reports SET session_id = ?2 WHERE id = ?1",
                    params![id, session_id],
                )
                .map(drop)
            },
        )
    }

    /// Gives back a claim the app could not start a session for: the report
    /// is `new` again (with reason `start_failed`), for the user to release.
    pub fn start_failed(&self, account_id: &str, id: &str) -> Result<BugReport, IntakeError> {
        self.step(
            account_id,
            id,
            "given back",
            |r| r.state == ReportState::Triaging && r.session_id.is_none(),
            |tx| set_state(tx, id, ReportState::New, Some(Reason::StartFailed)),
        )
    }

    /// The report's triage session finished.
    pub fn mark_triaged(&self, account_id: &str, id: &str) -> Result<BugReport, IntakeError> {
        self.step(
            account_id,
            id,
            "marked triaged",
            |r| r.state == ReportState::Triaging && r.session_id.is_some(),
            |tx| set_state(tx, id, ReportState::Triaged, None),
        )
    }

    /// The triage session `session_id` ended its turn: its report, while
    /// triaging, is triaged. True when a report moved.
    pub fn triaged_by_session(&self, session_id: &str) -> Result<bool, IntakeError> {
        self.db.write(|tx| {
            let moved = tx.execute(
                "UPDATE bug_reports SET state = 'triaged', reason = NULL
                 WHERE session_id = ?1 AND state = 'triaging'",
                params![session_id],
            )?;
            Ok(moved == 1)
        })
    }

    /// One state change: read, check, write and read back in one transaction.
    fn step(
        &self,
        account_id: &str,
        id: &str,
        step: &'static str,
        allowed: impl FnOnce(&BugReport) -> bool,
        apply: impl FnOnce(&Transaction<'_>) -> store::rusqlite::Result<()>,
    ) -> Result<BugReport, IntakeError> {
        self.db.write(|tx| {
            let current = get_tx(tx, account_id, id)?;
            if !allowed(&current) {
                return Err(IntakeError::WrongState {
                    state: current.state,
                    step,
                });
            }
            apply(tx)?;
            get_tx(tx, account_id, id)
        })
    }
}

/// Off: nothing starts. No route: nothing can. Held: the user starts it.
fn decide(
    route: Option<Route>,
    enabled: bool,
    hold: bool,
) -> (ReportState, Option<Reason>, Action) {
    let listed = |state, reason| (state, Some(reason), Action::Listed(reason));
    match route {
        _ if !enabled => {
            let state = if route.is_some() {
                ReportState::New
            } else {
                ReportState::Unrouted
            };
            listed(state, Reason::IntakeOff)
        }
        None => listed(ReportState::Unrouted, Reason::Unrouted),
        Some(_) if hold => listed(ReportState::Held, Reason::Held),
        Some(route) => (ReportState::Triaging, None, Action::StartTriage(route)),
    }
}

fn set_state(
    tx: &Transaction<'_>,
    id: &str,
    state: ReportState,
    reason: Option<Reason>,
) -> store::rusqlite::Result<()> {
    tx.execute(
        "UPDATE bug_reports SET state = ?2, reason = ?3 WHERE id = ?1",
        params![id, state.as_str(), reason.map(Reason::as_str)],
    )
    .map(drop)
}

fn get_tx(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<BugReport, IntakeError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM bug_reports WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        read_row,
    )
    .optional()?
    .ok_or(IntakeError::NotFound)
}

fn read_row(r: &Row<'_>) -> store::rusqlite::Result<BugReport> {
    // The columns' CHECKs keep the names known; anything else reads as a
    // plain value rather than failing a whole list.
    let source: String = r.get(1)?;
    let labels: String = r.get(8)?;
    let state: String = r.get(11)?;
    let reason: Option<String> = r.get(12)?;
    Ok(BugReport {
        id: r.get(0)?,
        source: from_stored(&source).unwrap_or(Source::Generic),
        title: r.get(2)?,
        body: r.get(3)?,
        url: r.get(4)?,
        external_id: r.get(5)?,
        reporter: r.get(6)?,
        origin: r.get(7)?,
        labels: labels
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect(),
        folder: r.get(9)?,
        engine: r.get(10)?,
        state: from_stored(&state).unwrap_or(ReportState::New),
        reason: reason.as_deref().and_then(from_stored),
        session_id: r.get(13)?,
        count: r.get(14)?,
        created_at: r.get(15)?,
        last_seen_at: r.get(16)?,
    })
}

#[derive(Debug, thiserror::Error)]
pub enum IntakeError {
    #[error("no such bug report")]
    NotFound,
    /// The report is not in a state the step applies to (someone else moved it first).
    #[error("the bug report is {state}; it cannot be {step}")]
    WrongState {
        state: ReportState,
        step: &'static str,
    },
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for IntakeError {
    fn from(e: store::rusqlite::Error) -> Self {
        IntakeError::Store(e.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_states_and_reasons_read_back() {
        use ReportState::*;
        for state in [New, Held, Triaging, Triaged, Dismissed, Unrouted] {
            assert_eq!(from_stored(state.as_str()), Some(state));
        }
        for reason in [
            Reason::IntakeOff,
            Reason::Held,
            Reason::Unrouted,
            Reason::StartFailed,
        ] {
            assert_eq!(from_stored(reason.as_str()), Some(reason));
        }
        assert_eq!(from_stored::<ReportState>("closed"), None);
    }
}
