//! When a summary falls due, in the person's zone. Each rule answers for one
//! moment: the period to summarise now, if any, and the next moment worth
//! waking for. Local arithmetic goes through jiff's zone rules, so Monday
//! 08:00 is 08:00 on the wall clock across a daylight-saving change.

use jiff::civil::{Date, Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};

/// The local hour the archive digest is written at.
pub const DIGEST_HOUR: i8 = 9;

/// The span a summary covers, `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub start: Timestamp,
    pub end: Timestamp,
}

/// The weekly period due at `now`: the week that ended at the latest
/// Monday's scheduled hour in `zone`, on that Monday from the hour, or on
/// any later day when the scheduler's previous look (`previous_look`, kept
/// across restarts) came before that hour: the server was down at it, so
/// the Monday it missed is written on the day it returns. A scheduler that
/// was running (or never ran before) at the hour owes nothing on a later
/// day. The caller skips a period it already summarised, which makes each
/// week once; only the latest week is ever due, never a backlog.
pub fn weekly_due(
    zone: &TimeZone,
    hour: i8,
    now: Timestamp,
    previous_look: Option<Timestamp>,
) -> Option<Period> {
    let latest = latest_week(zone, hour, now)?;
    let on_its_monday =
        now.to_zoned(zone.clone()).date() == latest.end.to_zoned(zone.clone()).date();
    let missed = previous_look.is_some_and(|look| look < latest.end);
    (on_its_monday || missed).then_some(latest)
}

/// The week that ended at the latest Monday's `hour` at or before `now`.
fn latest_week(zone: &TimeZone, hour: i8, now: Timestamp) -> Option<Period> {
    let today = now.to_zoned(zone.clone()).date();
    let since_monday = i64::from(today.weekday().to_monday_zero_offset());
    let mut monday = today.checked_sub(since_monday.days()).ok()?;
    let mut end = at(zone, monday, hour)?;
    if now < end {
        monday = monday.checked_sub(7.days()).ok()?;
        end = at(zone, monday, hour)?;
    }
    let start = at(zone, monday.checked_sub(7.days()).ok()?, hour)?;
    Some(Period { start, end })
}

/// The archive digest's period when one is due at `now`: `daily`, the day
/// before today from [`DIGEST_HOUR`] on; `weekly`, the week before this
/// Monday from [`DIGEST_HOUR`] on Mondays.
pub fn archive_due(zone: &TimeZone, weekly: bool, now: Timestamp) -> Option<Period> {
    let local = now.to_zoned(zone.clone());
    let today = local.date();
    if weekly && today.weekday() != Weekday::Monday {
        return None;
    }
    if now < at(zone, today, DIGEST_HOUR)? {
        return None;
    }
    let days = if weekly { 7 } else { 1 };
    let end = at(zone, today, 0)?;
    let start = at(zone, today.checked_sub(days.days()).ok()?, 0)?;
    Some(Period { start, end })
}

/// The next moment after `now` at which some summary may fall due: the
/// next top of `hour` or of [`DIGEST_HOUR`], whichever comes first. A
/// scheduler sleeps until then (and looks again when a setting changes).
pub fn next_moment(zone: &TimeZone, hour: i8, now: Timestamp) -> Timestamp {
    let local = now.to_zoned(zone.clone());
    let mut best: Option<Timestamp> = None;
    for offset in 0..=1 {
        let Ok(day) = local.date().checked_add(offset.days()) else {
            continue;
        };
        for hour in [hour, DIGEST_HOUR] {
            if let Some(moment) = at(zone, day, hour).filter(|m| *m > now) {
                best = Some(best.map_or(moment, |b: Timestamp| b.min(moment)));
            }
        }
    }
    best.unwrap_or_else(|| now.checked_add(1.hour()).unwrap_or(now))
}

/// `hour`:00 local on `date`; a time a gap skipped is taken as jiff's
/// compatible reading (the moment after the gap).
fn at(zone: &TimeZone, date: Date, hour: i8) -> Option<Timestamp> {
    let time = Time::new(hour.clamp(0, 23), 0, 0, 0).ok()?;
    date.to_datetime(time)
        .to_zoned(zone.clone())
        .ok()
        .map(|zoned| zoned.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    fn berlin() -> TimeZone {
        TimeZone::get("Europe/Berlin").unwrap()
    }

    #[test]
    fn the_weekly_summary_is_due_on_monday_from_its_hour_or_later_when_the_hour_was_missed() {
        let zone = berlin();
        let watching = Some(t("2026-11-23T06:45:00Z"));
        // Monday 2026-11-23, 08:00 in Berlin is 07:00 UTC.
        assert_eq!(
            weekly_due(&zone, 8, t("2026-11-23T06:59:59Z"), watching),
            None
        );
        let due = weekly_due(&zone, 8, t("2026-11-23T07:00:00Z"), watching).unwrap();
        assert_eq!(due.end, t("2026-11-23T07:00:00Z"));
        assert_eq!(due.start, t("2026-11-16T07:00:00Z"));
        // Later that Monday: the same period, whatever the last look.
        let late_monday = t("2026-11-23T22:00:00Z");
        assert_eq!(
            weekly_due(&zone, 8, late_monday, Some(t("2026-11-23T21:45:00Z"))),
            Some(due)
        );
        // Tuesday in Berlin (23:30 UTC) and Sunday night: due only when the
        // last look came before the hour (the server was down at it).
        for later in ["2026-11-23T23:30:00Z", "2026-11-29T22:59:59Z"] {
            let missed = Some(t("2026-11-20T12:00:00Z"));
            assert_eq!(weekly_due(&zone, 8, t(later), missed), Some(due), "{later}");
            let seen = Some(t("2026-11-23T07:00:00Z"));
            assert_eq!(weekly_due(&zone, 8, t(later), seen), None, "{later}");
            assert_eq!(weekly_due(&zone, 8, t(later), None), None, "{later}");
        }
        // The next Monday's hour starts the next week.
        let next = weekly_due(&zone, 8, t("2026-11-30T07:00:00Z"), None).unwrap();
        assert_eq!(next.start, due.end);
    }

    #[test]
    fn local_hours_survive_a_daylight_saving_change() {
        let zone = berlin();
        // Monday 2026-03-30, the first after the spring change: 08:00 is 06:00 UTC.
        let due = weekly_due(&zone, 8, t("2026-03-30T06:00:00Z"), None).unwrap();
        assert_eq!(due.start, t("2026-03-23T07:00:00Z"));
        assert_eq!(due.end, t("2026-03-30T06:00:00Z"));
    }

    #[test]
    fn archive_digests_cover_yesterday_or_last_week() {
        let zone = TimeZone::UTC;
        assert_eq!(archive_due(&zone, false, t("2026-11-24T08:59:00Z")), None);
        let daily = archive_due(&zone, false, t("2026-11-24T09:00:00Z")).unwrap();
        assert_eq!(
            (daily.start, daily.end),
            (t("2026-11-23T00:00:00Z"), t("2026-11-24T00:00:00Z"))
        );
        assert_eq!(archive_due(&zone, true, t("2026-11-24T10:00:00Z")), None);
        let weekly = archive_due(&zone, true, t("2026-11-23T09:30:00Z")).unwrap();
        assert_eq!(
            (weekly.start, weekly.end),
            (t("2026-11-16T00:00:00Z"), t("2026-11-23T00:00:00Z"))
        );
    }

    #[test]
    fn the_next_moment_is_the_nearest_scheduled_hour() {
        let zone = TimeZone::UTC;
        assert_eq!(
            next_moment(&zone, 8, t("2026-11-24T07:10:00Z")),
            t("2026-11-24T08:00:00Z")
        );
        assert_eq!(
            next_moment(&zone, 8, t("2026-11-24T08:00:00Z")),
            t("2026-11-24T09:00:00Z")
        );
        assert_eq!(
            next_moment(&zone, 8, t("2026-11-24T10:00:00Z")),
            t("2026-11-25T08:00:00Z")
        );
    }
}
