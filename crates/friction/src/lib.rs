//! The session friction scan: free (no model is asked) and deterministic.
//! Over the transcripts of recently active sessions it finds failing shell
//! commands repeated, loops and stalls the watchdog broke, denied tool
//! calls, approvals that waited long, and sessions that ended without a
//! final message (`rules.rs`, pure). Each finding is kept under a
//! fingerprint (kind, session, subject), so a scan that finds the same
//! friction again updates it rather than reporting it as new. Knows nothing
//! of HTTP or settings: the caller passes the sessions' transcripts and the
//! approvals' waits, and the time.

mod rules;

use std::collections::HashMap;

use serde::Serialize;
use store::Db;
use store::rusqlite::{OptionalExtension, params};
use ts_rs::TS;
use utoipa::ToSchema;

pub use rules::{ApprovalWait, Found, REPEATED_FAILURES, SLOW_APPROVAL_SECS, frictions, normalize};

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "friction",
    sql: "CREATE TABLE friction_findings (
            fingerprint TEXT PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            account_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            session_title TEXT,
            detail TEXT NOT NULL,
            count INTEGER NOT NULL,
            first_seen_at TEXT NOT NULL,
            last_seen_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX friction_by_account ON friction_findings (account_id, last_seen_at);
          CREATE TABLE friction_scans (
            ran_at TEXT NOT NULL,
            scanned INTEGER NOT NULL,
            new_findings INTEGER NOT NULL
          ) STRICT;
          CREATE TABLE friction_triage (
            session_id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            finding_id TEXT NOT NULL,
            started_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX friction_triage_by_account ON friction_triage (account_id, started_at);",
}];

/// What kind of friction a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "FrictionKind")]
#[schema(as = FrictionKind)]
pub enum Kind {
    RepeatedFailingCommand,
    LoopBroken,
    Stall,
    DeniedToolCall,
    SlowApproval,
    NoFinalMessage,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::RepeatedFailingCommand => "repeated_failing_command",
            Kind::LoopBroken => "loop_broken",
            Kind::Stall => "stall",
            Kind::DeniedToolCall => "denied_tool_call",
            Kind::SlowApproval => "slow_approval",
            Kind::NoFinalMessage => "no_final_message",
        }
    }

    fn parse(text: &str) -> Option<Kind> {
        [
            Kind::RepeatedFailingCommand,
            Kind::LoopBroken,
            Kind::Stall,
            Kind::DeniedToolCall,
            Kind::SlowApproval,
            Kind::NoFinalMessage,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == text)
    }
}

/// A finding as `GET /forensics` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FrictionFinding")]
#[schema(as = FrictionFinding)]
pub struct Finding {
    pub id: String,
    pub kind: Kind,
    pub session_id: String,
    pub session_title: Option<String>,
    pub detail: String,
    pub count: u32,
    pub first_seen_at: String,
    pub last_seen_at: String,
}

/// The account's findings and when the scan last ran.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FrictionReport")]
#[schema(as = FrictionReport)]
pub struct Report {
    pub last_scan_at: Option<String>,
    pub findings: Vec<Finding>,
}

/// What one scan did.
#[derive(Debug, Clone, PartialEq)]
pub struct Scanned {
    pub transcripts: usize,
    /// The findings first seen by this scan, per account.
    pub new: HashMap<String, Vec<Finding>>,
}

#[derive(Debug, thiserror::Error)]
pub enum FrictionError {
    #[error("no such finding")]
    NotFound,
    #[error(transparent)]
    Sessions(#[from] sessions::SessionError),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for FrictionError {
    fn from(e: store::rusqlite::Error) -> Self {
        FrictionError::Store(e.into())
    }
}

/// The most sessions one scan reads.
pub const MAX_SESSIONS: usize = 5_000;

/// Scans the sessions active since `since` (stored timestamps), with each
/// session's approval waits from `approvals`, and keeps what it finds at
/// `now`.
pub fn scan(
    db: &Db,
    since: &str,
    now: &str,
    approvals: &HashMap<String, Vec<ApprovalWait>>,
) -> Result<Scanned, FrictionError> {
    let transcripts = sessions::recent_transcripts(db, since, MAX_SESSIONS)?;
    let mut found = Vec::new();
    for transcript in &transcripts {
        let session = &transcript.session;
        let waits = approvals.get(&session.id).map_or(&[][..], Vec::as_slice);
        for friction in frictions(session.status, &transcript.entries, waits) {
            found.push((session, friction));
        }
    }
    let new = db.write(|tx| {
        let mut new: HashMap<String, Vec<Finding>> = HashMap::new();
        for (session, friction) in &found {
            let fingerprint = format!(
                "{}\u{1f}{}\u{1f}{}",
                friction.kind.as_str(),
                session.id,
                friction.subject
            );
            let known: Option<String> = tx
                .query_row(
                    "SELECT id FROM friction_findings WHERE fingerprint = ?1",
                    params![fingerprint],
                    |row| row.get(0),
                )
                .optional()?;
            match known {
                Some(id) => {
                    tx.execute(
                        "UPDATE friction_findings SET detail = ?2, count = ?3, last_seen_at = ?4,
                            session_title = ?5
                         WHERE id = ?1",
                        params![id, friction.detail, friction.count, now, session.title],
                    )?;
                }
                None => {
                    let finding = Finding {
                        id: store::new_id(),
                        kind: friction.kind,
                        session_id: session.id.clone(),
                        session_title: session.title.clone(),
                        detail: friction.detail.clone(),
                        count: friction.count,
                        first_seen_at: now.to_owned(),
                        last_seen_at: now.to_owned(),
                    };
                    tx.execute(
                        "INSERT INTO friction_findings (fingerprint, id, kind, account_id, session_id,
                            session_title, detail, count, first_seen_at, last_seen_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
                        params![
                            fingerprint,
                            finding.id,
                            finding.kind.as_str(),
                            session.account_id,
                            finding.session_id,
                            finding.session_title,
                            finding.detail,
                            finding.count,
                            now
                        ],
                    )?;
                    new.entry(session.account_id.clone()).or_default().push(finding);
                }
            }
        }
        let new_count: usize = new.values().map(Vec::len).sum();
        tx.execute(
            "INSERT INTO friction_scans (ran_at, scanned, new_findings) VALUES (?1, ?2, ?3)",
            params![
                now,
                i64::try_from(transcripts.len()).unwrap_or(i64::MAX),
                i64::try_from(new_count).unwrap_or(i64::MAX)
            ],
        )?;
        Ok::<_, FrictionError>(new)
    })?;
    Ok(Scanned {
        transcripts: transcripts.len(),
        new,
    })
}

/// When the scan last ran.
pub fn last_scan_at(db: &Db) -> Result<Option<String>, FrictionError> {
    db.read(|tx| {
        Ok(
            tx.query_row("SELECT MAX(ran_at) FROM friction_scans", [], |row| {
                row.get(0)
            })?,
        )
    })
}

/// The account's findings, the most recently seen first.
pub fn report(db: &Db, account_id: &str) -> Result<Report, FrictionError> {
    let last_scan_at = last_scan_at(db)?;
    let findings = db.read(|tx| {
        let mut statement = tx.prepare_cached(
            "SELECT id, kind, session_id, session_title, detail, count, first_seen_at, last_seen_at
             FROM friction_findings WHERE account_id = ?1
             ORDER BY last_seen_at DESC, first_seen_at DESC, id",
        )?;
        let rows = statement.query_map(params![account_id], |row| {
            let kind: String = row.get(1)?;
            Ok(Kind::parse(&kind).map(|kind| Finding {
                id: row.get(0).unwrap_or_default(),
                kind,
                session_id: row.get(2).unwrap_or_default(),
                session_title: row.get(3).unwrap_or_default(),
                detail: row.get(4).unwrap_or_default(),
                count: row.get(5).unwrap_or_default(),
                first_seen_at: row.get(6).unwrap_or_default(),
                last_seen_at: row.get(7).unwrap_or_default(),
            }))
        })?;
        Ok::<_, FrictionError>(rows.filter_map(Result::ok).flatten().collect())
    })?;
    Ok(Report {
        last_scan_at,
        findings,
    })
}

/// One of the account's findings.
pub fn finding(db: &Db, account_id: &str, id: &str) -> Result<Finding, FrictionError> {
    report(db, account_id)?
        .findings
        .into_iter()
        .find(|f| f.id == id)
        .ok_or(FrictionError::NotFound)
}

/// Records a triage session started from a finding.
pub fn record_triage(
    db: &Db,
    account_id: &str,
    finding_id: &str,
    session_id: &str,
    at: &str,
) -> Result<(), FrictionError> {
    db.write(|tx| {
        tx.execute(
            "INSERT INTO friction_triage (session_id, account_id, finding_id, started_at)
             VALUES (?1, ?2, ?3, ?4)",
            params![session_id, account_id, finding_id, at],
        )?;
        Ok(())
    })
}

/// The triage sessions the account started at or after `since`.
pub fn triage_sessions(
    db: &Db,
    account_id: &str,
    since: &str,
) -> Result<Vec<String>, FrictionError> {
    db.read(|tx| {
        let mut statement = tx.prepare_cached(
            "SELECT session_id FROM friction_triage WHERE account_id = ?1 AND started_at >= ?2",
        )?;
        let rows = statement.query_map(params![account_id, since], |row| row.get(0))?;
        Ok(rows.collect::<Result<Vec<String>, _>>()?)
    })
}

#[cfg(test)]
mod tests;
