//! The inbox's Stats (`inboxAnalyticsEnabled`): how rows of each category
//! behave, kept on this machine so the user can see where their attention
//! goes without anything leaving it.
//!
//! What is kept is deliberately poor: per account, UTC day and [`Category`],
//! counts and durations only. No title, body, phone number or row id is ever
//! stored, so clearing a day loses nothing a person wrote.
//!
//! - [`InboxStats::record_action`]: a row was first read, archived or
//!   answered; the wait since it arrived is added to its day.
//! - [`InboxStats::record_unread`]: the unread counts as they stand, the
//!   day's pile-up (the latest sample of the day wins).
//! - [`InboxStats::record_views`]: what the web page saw (rows looked at,
//!   rows looked at and left without action, visible time).
//! - [`InboxStats::week`] reads the last [`WEEK_DAYS`] days; older days are
//!   dropped as new ones are written. [`InboxStats::clear`] forgets it all.
//!
//! Whether to record at all is the caller's decision (the setting); this
//! crate knows nothing of settings or HTTP.

use std::collections::BTreeMap;
use std::sync::Arc;

use clock::Clock;
use inbox::Category;
use serde::{Deserialize, Serialize};
use store::Db;
use store::Migration;
use store::rusqlite::{self, Transaction, params};
use time::format_description::well_known::Rfc3339;
use time::{Date, Duration, OffsetDateTime};
use ts_rs::TS;
use utoipa::ToSchema;

/// How many days the Stats tab shows, and how many are kept.
pub const WEEK_DAYS: i64 = 7;

/// The most one view report may claim for a category: a page reports at
/// least every few minutes, so more than this is a broken or hostile client.
pub const MAX_REPORT_LOOKS: u32 = 10_000;
/// A day's worth of visible time, the most one report may carry.
pub const MAX_REPORT_VISIBLE_MS: u64 = 86_400_000;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "inbox_stats",
    sql: "CREATE TABLE inbox_stats_days (
        account_id TEXT NOT NULL,
        day TEXT NOT NULL,
        category TEXT NOT NULL,
        actions INTEGER NOT NULL DEFAULT 0,
        wait_ms INTEGER NOT NULL DEFAULT 0,
        looks INTEGER NOT NULL DEFAULT 0,
        idle_looks INTEGER NOT NULL DEFAULT 0,
        visible_ms INTEGER NOT NULL DEFAULT 0,
        unread INTEGER,
        PRIMARY KEY (account_id, day, category)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX inbox_stats_by_day ON inbox_stats_days (day);",
}];

/// What the web page saw of one category since its last report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ViewReport {
    pub category: Category,
    /// Rows that were on screen long enough to be read.
    pub looks: u32,
    /// Of those, rows that left the screen with nothing done to them.
    pub idle_looks: u32,
    /// Time the inbox's rows of this category were visible, in milliseconds.
    pub visible_ms: u64,
}

/// One category's figures on one UTC day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatsDay {
    /// `YYYY-MM-DD`, UTC.
    pub day: String,
    pub category: Category,
    /// Rows first read, archived or answered that day.
    pub actions: i64,
    /// Their waits since arrival, summed, in milliseconds.
    pub wait_ms: i64,
    pub looks: i64,
    pub idle_looks: i64,
    pub visible_ms: i64,
    /// Unread rows at the day's last sample; `null` when none was taken.
    pub unread: Option<i64>,
}

/// The last [`WEEK_DAYS`] days, oldest first, and what was recorded in them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatsWeek {
    pub days: Vec<String>,
    pub rows: Vec<StatsDay>,
}

#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    #[error(
        "a view report needs idleLooks <= looks <= {MAX_REPORT_LOOKS} and visibleMs <= {MAX_REPORT_VISIBLE_MS}"
    )]
    InvalidReport,
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<rusqlite::Error> for StatsError {
    fn from(e: rusqlite::Error) -> Self {
        StatsError::Store(e.into())
    }
}

pub struct InboxStats {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

impl InboxStats {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    /// A row of `category` that arrived at `created_at` (the inbox's stored
    /// form) was acted on now. A time that does not parse counts the action
    /// with no wait rather than losing it.
    pub fn record_action(
        &self,
        account_id: &str,
        category: Category,
        created_at: &str,
    ) -> Result<(), StatsError> {
        let now = self.clock.now();
        let wait = OffsetDateTime::parse(created_at, &Rfc3339)
            .map(|created| (now - created).max(Duration::ZERO))
            .unwrap_or(Duration::ZERO);
        let wait_ms = i64::try_from(wait.whole_milliseconds()).unwrap_or(i64::MAX);
        self.add(account_id, now, category, |tx, key| {
            tx.execute(
                "UPDATE inbox_stats_days SET actions = actions + 1, wait_ms = wait_ms + ?4
                 WHERE account_id = ?1 AND day = ?2 AND category = ?3",
                params![key.0, key.1, key.2, wait_ms],
            )
        })
    }

    /// The unread counts as they stand now, per category.
    pub fn record_unread(
        &self,
        account_id: &str,
        counts: &BTreeMap<Category, i64>,
    ) -> Result<(), StatsError> {
        let now = self.clock.now();
        for (&category, &count) in counts {
            self.add(account_id, now, category, |tx, key| {
                tx.execute(
                    "UPDATE inbox_stats_days SET unread = ?4
                     WHERE account_id = ?1 AND day = ?2 AND category = ?3",
                    params![key.0, key.1, key.2, count],
                )
            })?;
        }
        Ok(())
    }

    /// Adds the page's reports to today; refuses the whole batch if one of
    /// them claims the impossible.
    pub fn record_views(&self, account_id: &str, reports: &[ViewReport]) -> Result<(), StatsError> {
        if reports.iter().any(|r| {
            r.idle_looks > r.looks
                || r.looks > MAX_REPORT_LOOKS
                || r.visible_ms > MAX_REPORT_VISIBLE_MS
        }) {
            return Err(StatsError::InvalidReport);
        }
        let now = self.clock.now();
        for report in reports {
            self.add(account_id, now, report.category, |tx, key| {
                tx.execute(
                    "UPDATE inbox_stats_days SET looks = looks + ?4,
                       idle_looks = idle_looks + ?5, visible_ms = visible_ms + ?6
                     WHERE account_id = ?1 AND day = ?2 AND category = ?3",
                    params![
                        key.0,
                        key.1,
                        key.2,
                        report.looks,
                        report.idle_looks,
                        i64::try_from(report.visible_ms).unwrap_or(i64::MAX)
                    ],
                )
            })?;
        }
        Ok(())
    }

    /// The account's last [`WEEK_DAYS`] days, today included.
    pub fn week(&self, account_id: &str) -> Result<StatsWeek, StatsError> {
        let today = self.clock.now().date();
        let days: Vec<String> = (0..WEEK_DAYS)
            .rev()
            .filter_map(|back| today.checked_sub(Duration::days(back)))
            .map(day_key)
            .collect();
        let first = days.first().cloned().unwrap_or_default();
        let rows = self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT day, category, actions, wait_ms, looks, idle_looks, visible_ms, unread
                 FROM inbox_stats_days WHERE account_id = ?1 AND day >= ?2
                 ORDER BY day, category",
            )?;
            let rows = stmt.query_map(params![account_id, first], |r| {
                let category: String = r.get(1)?;
                let Some(category) = Category::parse(&category) else {
                    return Ok(None);
                };
                Ok(Some(StatsDay {
                    day: r.get(0)?,
                    category,
                    actions: r.get(2)?,
                    wait_ms: r.get(3)?,
                    looks: r.get(4)?,
                    idle_looks: r.get(5)?,
                    visible_ms: r.get(6)?,
                    unread: r.get(7)?,
                }))
            })?;
            // A category a later version wrote is left out, not misfiled.
            rows.filter_map(Result::transpose)
                .collect::<rusqlite::Result<Vec<_>>>()
        })?;
        Ok(StatsWeek { days, rows })
    }

    /// Forgets everything recorded, for every account (the switch went off).
    pub fn clear(&self) -> Result<usize, StatsError> {
        self.db
            .write(|tx| Ok(tx.execute("DELETE FROM inbox_stats_days", [])?))
    }

    /// [`InboxStats::clear`] when anything is kept: only a read otherwise,
    /// so it may be asked at every settings change.
    pub fn clear_if_any(&self) -> Result<usize, StatsError> {
        let any = self.db.read(|tx| {
            tx.query_row("SELECT EXISTS (SELECT 1 FROM inbox_stats_days)", [], |r| {
                r.get::<_, bool>(0)
            })
        })?;
        if any { self.clear() } else { Ok(0) }
    }

    /// Makes sure the day's row exists, applies `change` to it and drops
    /// days that fell out of the week, in one transaction.
    fn add(
        &self,
        account_id: &str,
        now: OffsetDateTime,
        category: Category,
        change: impl FnOnce(&Transaction<'_>, (&str, &str, &str)) -> rusqlite::Result<usize>,
    ) -> Result<(), StatsError> {
        let today = now.date();
        let day = day_key(today);
        let oldest = today
            .checked_sub(Duration::days(WEEK_DAYS - 1))
            .map(day_key)
            .unwrap_or_default();
        self.db.write(|tx| {
            tx.execute(
                "INSERT OR IGNORE INTO inbox_stats_days (account_id, day, category)
                 VALUES (?1, ?2, ?3)",
                params![account_id, day, category.as_str()],
            )?;
            change(tx, (account_id, &day, category.as_str()))?;
            tx.execute(
                "DELETE FROM inbox_stats_days WHERE day < ?1",
                params![oldest],
            )?;
            Ok(())
        })
    }
}

fn day_key(day: Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        day.year(),
        u8::from(day.month()),
        day.day()
    )
}

#[cfg(test)]
mod tests;
