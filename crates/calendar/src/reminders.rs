//! What a reminder loop asks of the calendars: the accounts' events that
//! start inside a span, when the next one starts, and a record of what was
//! told, so each occurrence is reminded once (per owner, UID and start) and
//! each owner's day has one agenda, across ticks and restarts. An event
//! moved to another start is a new occurrence and is reminded again.

use jiff::tz::TimeZone;
use store::rusqlite::{OptionalExtension, params};
use time::OffsetDateTime;

use crate::error::Result;
use crate::{Calendars, Occurrence};

/// Records of reminders are kept this long after their start: longer than
/// any lead, so a reminder is never sent twice.
const KEEP_REMINDED: time::Duration = time::Duration::days(2);
/// Records of agendas are kept this long.
const KEEP_AGENDAS: time::Duration = time::Duration::days(14);

impl Calendars {
    /// The installation's zone: where floating times and days are read.
    pub fn zone(&self) -> &TimeZone {
        &self.options.floating_zone
    }

    /// The owners that have at least one account.
    pub fn owners(&self) -> Result<Vec<String>> {
        self.db.read(|tx| {
            let mut stmt =
                tx.prepare_cached("SELECT DISTINCT owner FROM calendar_accounts ORDER BY owner")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// The owner's accounts' timed occurrences (not all-day ones) that
    /// start in `[from, to)`, earliest first.
    pub fn starting(
        &self,
        owner: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> Result<Vec<Occurrence>> {
        let rows = self.db.read(|tx| {
            crate::book::occurrences_starting(tx, owner, from.unix_timestamp(), to.unix_timestamp())
        })?;
        self.screened(owner, rows)
    }

    /// The earliest start of a timed occurrence of any owner strictly
    /// after `after`.
    pub fn next_start_after(&self, after: OffsetDateTime) -> Result<Option<OffsetDateTime>> {
        let first: Option<i64> = self.db.read(|tx| {
            Ok::<_, crate::CalendarError>(
                tx.prepare_cached(
                    "SELECT min(start_at) FROM calendar_occurrences
                     WHERE start_at > ?1 AND all_day = 0",
                )?
                .query_row([after.unix_timestamp()], |r| r.get(0))
                .optional()?
                .flatten(),
            )
        })?;
        Ok(first.and_then(|s| OffsetDateTime::from_unix_timestamp(s).ok()))
    }

    /// Records that `occurrence` was reminded to `owner`: true the first
    /// time, false when it already was (the caller then tells nothing).
    /// Records of occurrences long started go.
    pub fn claim_reminder(&self, owner: &str, occurrence: &Occurrence) -> Result<bool> {
        let start = occurrence
            .start
            .parse::<jiff::Timestamp>()
            .map(|t| t.as_second())
            .unwrap_or_default();
        let now = self.clock.now();
        let forget = (now - KEEP_REMINDED).unix_timestamp();
        let sent_at = clock::timestamp(now);
        self.db.write(|tx| {
            tx.prepare_cached("DELETE FROM calendar_reminded WHERE start_at < ?1")?
                .execute([forget])?;
            let added = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO calendar_reminded (owner, uid, start_at, sent_at)
                     VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![owner, occurrence.uid, start, sent_at])?;
            Ok(added == 1)
        })
    }

    /// Records that `owner`'s agenda of `day` (`YYYY-MM-DD`) was
    /// considered: true the first time.
    pub fn claim_agenda(&self, owner: &str, day: &str) -> Result<bool> {
        let now = self.clock.now();
        let forget = clock::timestamp(now - KEEP_AGENDAS);
        let sent_at = clock::timestamp(now);
        self.db.write(|tx| {
            tx.prepare_cached("DELETE FROM calendar_agendas WHERE sent_at < ?1")?
                .execute([forget])?;
            let added = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO calendar_agendas (owner, day, sent_at)
                     VALUES (?1, ?2, ?3)",
                )?
                .execute(params![owner, day, sent_at])?;
            Ok(added == 1)
        })
    }
}
