//! Summaries written on a schedule, and kept.
//!
//! - The **weekly summary** falls due every Monday at the scheduled local
//!   hour and covers the seven days before that moment. A Monday the server
//!   missed (it was down at the hour) is caught up once when it returns,
//!   on whatever day that is: each scheduler's last look is kept
//!   ([`look`]), so a restart tells a missed hour from one it watched.
//! - The **archive digest** (`daily` or `weekly`) falls due at
//!   [`DIGEST_HOUR`] local time, daily for the day before or on Mondays for
//!   the week before, with the same same-day catch-up.
//!
//! A period is summarised at most once per account (the table's key), so
//! the scheduler may ask as often as it likes. Times are the caller's (the
//! application's one clock) and zones jiff's; nothing here reads the time.
//! Knows nothing of HTTP, settings or sessions.

mod schedule;

use serde::Serialize;
use store::Db;
use store::rusqlite::{OptionalExtension, params};
use ts_rs::TS;
use utoipa::ToSchema;

pub use schedule::{DIGEST_HOUR, Period, archive_due, next_moment, weekly_due};

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[
    store::Migration {
        feature: "digests",
        sql: "CREATE TABLE summaries (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            period_start TEXT NOT NULL,
            period_end TEXT NOT NULL,
            text TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (account_id, kind, period_end)
          ) STRICT;
          CREATE INDEX summaries_by_account ON summaries (account_id, created_at);",
    },
    // Each scheduler's last look, so a restart knows whether the server
    // was up at a scheduled hour it is past.
    store::Migration {
        feature: "digests",
        sql: "CREATE TABLE schedule_looks (
            scheduler TEXT PRIMARY KEY,
            looked_at TEXT NOT NULL
          ) STRICT;",
    },
];

/// Records that `scheduler` looks at `now`, and returns when it looked
/// before (none the first time): what [`weekly_due`] tells a missed hour by.
pub fn look(
    db: &Db,
    scheduler: &str,
    now: jiff::Timestamp,
) -> Result<Option<jiff::Timestamp>, DigestError> {
    let previous: Option<String> = db.write(|tx| {
        let previous = tx
            .query_row(
                "SELECT looked_at FROM schedule_looks WHERE scheduler = ?1",
                params![scheduler],
                |row| row.get(0),
            )
            .optional()?;
        tx.execute(
            "INSERT INTO schedule_looks (scheduler, looked_at) VALUES (?1, ?2)
             ON CONFLICT (scheduler) DO UPDATE SET looked_at = excluded.looked_at",
            params![scheduler, stamp(now)],
        )?;
        Ok::<_, store::rusqlite::Error>(previous)
    })?;
    Ok(previous.and_then(|at| at.parse().ok()))
}

/// What a summary is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SummaryKind")]
#[schema(as = SummaryKind)]
pub enum Kind {
    Weekly,
    ArchiveDaily,
    ArchiveWeekly,
    /// The utility model's weekly analysis of the friction scan's findings.
    ForensicsWeekly,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Weekly => "weekly",
            Kind::ArchiveDaily => "archive_daily",
            Kind::ArchiveWeekly => "archive_weekly",
            Kind::ForensicsWeekly => "forensics_weekly",
        }
    }

    fn parse(text: &str) -> Option<Kind> {
        [
            Kind::Weekly,
            Kind::ArchiveDaily,
            Kind::ArchiveWeekly,
            Kind::ForensicsWeekly,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == text)
    }
}

/// A summary kept, as `GET /summaries` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub id: String,
    pub kind: Kind,
    pub period_start: String,
    pub period_end: String,
    /// Markdown, as the utility model wrote it.
    pub text: String,
    pub created_at: String,
}

#[derive(Debug, thiserror::Error)]
pub enum DigestError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for DigestError {
    fn from(e: store::rusqlite::Error) -> Self {
        DigestError::Store(e.into())
    }
}

/// Whether the account's summary of this kind and period exists.
pub fn exists(db: &Db, account_id: &str, kind: Kind, period: &Period) -> Result<bool, DigestError> {
    db.read(|tx| {
        Ok(tx
            .query_row(
                "SELECT 1 FROM summaries WHERE account_id = ?1 AND kind = ?2 AND period_end = ?3",
                params![account_id, kind.as_str(), stamp(period.end)],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    })
}

/// Keeps a summary; `None` when one for the period was kept first.
pub fn keep(
    db: &Db,
    account_id: &str,
    kind: Kind,
    period: &Period,
    text: &str,
    now: jiff::Timestamp,
) -> Result<Option<Summary>, DigestError> {
    let summary = Summary {
        id: uuid::Uuid::now_v7().to_string(),
        kind,
        period_start: stamp(period.start),
        period_end: stamp(period.end),
        text: text.to_owned(),
        created_at: stamp(now),
    };
    let added = db.write(|tx| {
        tx.execute(
            "INSERT INTO summaries (id, account_id, kind, period_start, period_end, text, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING",
            params![
                summary.id,
                account_id,
                kind.as_str(),
                summary.period_start,
                summary.period_end,
                summary.text,
                summary.created_at
            ],
        )
    })?;
    Ok((added == 1).then_some(summary))
}

/// The account's summaries, newest first.
pub fn list(db: &Db, account_id: &str) -> Result<Vec<Summary>, DigestError> {
    db.read(|tx| {
        let mut statement = tx.prepare_cached(
            "SELECT id, kind, period_start, period_end, text, created_at FROM summaries
             WHERE account_id = ?1 ORDER BY created_at DESC, id DESC",
        )?;
        let rows = statement.query_map(params![account_id], |row| {
            let kind: String = row.get(1)?;
            Ok(Kind::parse(&kind).map(|kind| Summary {
                id: row.get(0).unwrap_or_default(),
                kind,
                period_start: row.get(2).unwrap_or_default(),
                period_end: row.get(3).unwrap_or_default(),
                text: row.get(4).unwrap_or_default(),
                created_at: row.get(5).unwrap_or_default(),
            }))
        })?;
        Ok(rows.filter_map(Result::ok).flatten().collect())
    })
}

/// The stored form of a moment: RFC 3339 in UTC with milliseconds, as the
/// clock crate writes every stored time, so times sort as text.
pub fn stamp(at: jiff::Timestamp) -> String {
    at.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

#[cfg(test)]
mod tests;
