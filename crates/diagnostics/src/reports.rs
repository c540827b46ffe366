//! The kept reports: feedback, crashes and digests, each sent at most once
//! ([`Diagnostics::due`], [`Diagnostics::sent`]). A crash recorded while its
//! mail was off is kept unsendable, so turning the switch on later never
//! sends it. The digest is due a week after the last one.

use std::sync::Arc;

use clock::Clock;
use serde::Serialize;
use store::Db;
use store::rusqlite::{Row, params};
use time::OffsetDateTime;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::crashes::Crash;
use crate::texts::{Usage, crash_mail, digest_mail, feedback_mail};

/// The longest feedback taken.
pub const MAX_FEEDBACK_CHARS: usize = 10_000;

/// How long a report taken for sending stays taken: a round that died
/// mid-send leaves it to the next round after this.
pub const CLAIM_FOR: time::Duration = time::Duration::minutes(5);

/// How often the usage digest goes out.
pub const DIGEST_EVERY: time::Duration = time::Duration::days(7);

#[derive(Debug, thiserror::Error)]
pub enum DiagnosticsError {
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for DiagnosticsError {
    fn from(e: store::rusqlite::Error) -> Self {
        DiagnosticsError::Store(e.into())
    }
}

type Result<T> = std::result::Result<T, DiagnosticsError>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "DiagnosticKind")]
#[schema(as = DiagnosticKind)]
pub enum Kind {
    Feedback,
    Crash,
    Digest,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Feedback => "feedback",
            Kind::Crash => "crash",
            Kind::Digest => "digest",
        }
    }

    fn parse(text: &str) -> Kind {
        match text {
            "crash" => Kind::Crash,
            "digest" => Kind::Digest,
            _ => Kind::Feedback,
        }
    }
}

/// One kept report, as it is (or was) sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DiagnosticReport")]
#[schema(as = DiagnosticReport)]
pub struct Report {
    pub id: String,
    pub kind: Kind,
    pub subject: String,
    pub body: String,
    pub created_at: String,
    /// When it was sent; `null` while it waits (sending off, no address,
    /// or the mail server refused: `lastFailure` says why).
    pub sent_at: Option<String>,
    pub last_failure: Option<String>,
}

#[derive(Clone)]
pub struct Diagnostics {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

const COLUMNS: &str = "id, kind, subject, body, created_at, sent_at, last_failure";

fn report(r: &Row<'_>) -> store::rusqlite::Result<Report> {
    let kind: String = r.get(1)?;
    Ok(Report {
        id: r.get(0)?,
        kind: Kind::parse(&kind),
        subject: r.get(2)?,
        body: r.get(3)?,
        created_at: r.get(4)?,
        sent_at: r.get(5)?,
        last_failure: r.get(6)?,
    })
}

impl Diagnostics {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Diagnostics { db, clock }
    }

    /// Keeps a report; with `unless_one_since`, only when no report of its
    /// kind was kept after that moment (judged in the write itself, so two
    /// rounds at once keep one).
    fn keep(
        &self,
        kind: Kind,
        account: Option<&str>,
        (subject, body): (String, String),
        sendable: bool,
        unless_one_since: Option<&str>,
    ) -> Result<Option<Report>> {
        let id = store::new_id();
        let now = self.clock.timestamp();
        let kept = self.db.write(|tx| {
            Ok::<_, DiagnosticsError>(tx.execute(
                "INSERT INTO diagnostic_reports
                   (id, kind, account_id, subject, body, created_at, sendable)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
                 WHERE ?8 IS NULL OR NOT EXISTS (
                   SELECT 1 FROM diagnostic_reports WHERE kind = ?2 AND created_at > ?8)",
                params![
                    id,
                    kind.as_str(),
                    account,
                    subject,
                    body,
                    now,
                    sendable,
                    unless_one_since
                ],
            )?)
        })?;
        if kept == 0 {
            return Ok(None);
        }
        self.get(&id).map(Some)
    }

    fn keep_one(
        &self,
        kind: Kind,
        account: Option<&str>,
        mail: (String, String),
        sendable: bool,
    ) -> Result<Report> {
        self.keep(kind, account, mail, sendable, None)?
            .ok_or_else(|| DiagnosticsError::Invalid("the report was not kept".to_owned()))
    }

    fn get(&self, id: &str) -> Result<Report> {
        self.db.read(|tx| {
            Ok(tx.query_row(
                &format!("SELECT {COLUMNS} FROM diagnostic_reports WHERE id = ?1"),
                params![id],
                report,
            )?)
        })
    }

    /// Keeps the user's feedback about the app: 1 to
    /// [`MAX_FEEDBACK_CHARS`] characters.
    pub fn feedback(&self, account: &str, text: &str, version: &str) -> Result<Report> {
        let count = text.trim().chars().count();
        if count == 0 || count > MAX_FEEDBACK_CHARS {
            return Err(DiagnosticsError::Invalid(format!(
                "Feedback must be 1 to {MAX_FEEDBACK_CHARS} characters long."
            )));
        }
        self.keep_one(
            Kind::Feedback,
            Some(account),
            feedback_mail(text.trim(), version),
            true,
        )
    }

    /// The account's feedback, newest first.
    pub fn feedback_of(&self, account: &str) -> Result<Vec<Report>> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM diagnostic_reports
                 WHERE kind = 'feedback' AND account_id = ?1 ORDER BY created_at DESC, id"
            ))?;
            let rows = stmt.query_map(params![account], report)?;
            Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
        })
    }

    /// Keeps a crash; `sendable` when its mail was allowed at the time.
    pub fn crash(&self, crash: &Crash, version: &str, sendable: bool) -> Result<Report> {
        let at = self.clock.timestamp();
        let mail = crash_mail(&crash.message, &crash.location, &at, version);
        self.keep_one(Kind::Crash, None, mail, sendable)
    }

    /// The start of the week the digest covers, when one is due: a week
    /// after the last digest's end, or at once for the first (covering the
    /// week before).
    pub fn digest_due(&self) -> Result<Option<OffsetDateTime>> {
        let now = self.clock.now();
        let last: Option<String> = self.db.read(|tx| {
            Ok::<_, DiagnosticsError>(tx.query_row(
                "SELECT MAX(created_at) FROM diagnostic_reports WHERE kind = 'digest'",
                [],
                |r| r.get(0),
            )?)
        })?;
        let last = last.and_then(|at| {
            OffsetDateTime::parse(&at, &time::format_description::well_known::Rfc3339).ok()
        });
        Ok(match last {
            None => Some(now - DIGEST_EVERY),
            Some(at) if at + DIGEST_EVERY <= now => Some(at),
            Some(_) => None,
        })
    }

    /// Crashes kept since `from`, for the digest.
    pub fn crashes_since(&self, from: &str) -> Result<u64> {
        let count: i64 = self.db.read(|tx| {
            Ok::<_, DiagnosticsError>(tx.query_row(
                "SELECT COUNT(*) FROM diagnostic_reports WHERE kind = 'crash' AND created_at >= ?1",
                params![from],
                |r| r.get(0),
            )?)
        })?;
        Ok(count.unsigned_abs())
    }

    /// Keeps the week's digest, to be sent; `None` when a digest was kept
    /// after the week's start meanwhile (another round made it).
    pub fn digest(&self, usage: &Usage) -> Result<Option<Report>> {
        self.keep(
            Kind::Digest,
            None,
            digest_mail(usage),
            true,
            Some(&usage.from),
        )
    }

    /// The sendable reports of `kind` not sent yet, oldest first.
    pub fn due(&self, kind: Kind) -> Result<Vec<Report>> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM diagnostic_reports
                 WHERE kind = ?1 AND sent_at IS NULL AND sendable = 1 ORDER BY created_at, id"
            ))?;
            let rows = stmt.query_map(params![kind.as_str()], report)?;
            Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
        })
    }

    /// Takes report `id` for sending, unless it was sent or another round
    /// took it in the last [`CLAIM_FOR`]: two rounds never send it twice.
    pub fn claim(&self, id: &str) -> Result<bool> {
        let now = self.clock.now();
        let (stamp, stale) = (clock::timestamp(now), clock::timestamp(now - CLAIM_FOR));
        self.db.write(|tx| {
            let taken = tx.execute(
                "UPDATE diagnostic_reports SET claimed_at = ?2
                 WHERE id = ?1 AND sent_at IS NULL AND (claimed_at IS NULL OR claimed_at < ?3)",
                params![id, stamp, stale],
            )?;
            Ok(taken == 1)
        })
    }

    pub fn sent(&self, id: &str) -> Result<()> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            tx.execute(
                "UPDATE diagnostic_reports SET sent_at = ?2, last_failure = NULL,
                   attempts = attempts + 1 WHERE id = ?1 AND sent_at IS NULL",
                params![id, now],
            )?;
            Ok(())
        })
    }

    pub fn failed(&self, id: &str, reason: &str) -> Result<()> {
        self.db.write(|tx| {
            tx.execute(
                "UPDATE diagnostic_reports SET last_failure = ?2, attempts = attempts + 1,
                   claimed_at = NULL WHERE id = ?1",
                params![id, reason],
            )?;
            Ok(())
        })
    }
}
