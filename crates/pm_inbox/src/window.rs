//! The time rules, in the user's zone and nothing else: whether a moment is
//! inside the quiet-hours window (which may cross midnight), when that window
//! ends, where the next local hour and day begin. All arithmetic goes through
//! jiff's zone rules, so a daylight-saving change moves the local clock, not
//! the rules (a window from 22:00 to 08:00 ends at 08:00 local time whether
//! the night had 23, 24 or 25 hours).

use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

/// The zone a setting names: the system's for the empty string. An unknown
/// name cannot be stored (the settings refuse it), so UTC is only the last
/// resort of a zone database that lost a name.
pub fn zone(name: &str) -> TimeZone {
    if name.is_empty() {
        return TimeZone::try_system().unwrap_or(TimeZone::UTC);
    }
    TimeZone::get(name).unwrap_or_else(|error| {
        tracing::warn!(%error, zone = name, "unknown time zone; using UTC");
        TimeZone::UTC
    })
}

/// A daily window in local time, `[start, end)`. A start after the end
/// crosses midnight (22:00 to 08:00); a start equal to the end is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuietHours {
    pub start: Time,
    pub end: Time,
}

impl QuietHours {
    /// From two `HH:MM` times; `None` if either is not one.
    pub fn parse(start: &str, end: &str) -> Option<Self> {
        Some(Self {
            start: time_of_day(start)?,
            end: time_of_day(end)?,
        })
    }

    pub fn contains(&self, tz: &TimeZone, at: Timestamp) -> bool {
        let now = at.to_zoned(tz.clone()).time();
        if self.start < self.end {
            self.start <= now && now < self.end
        } else if self.start > self.end {
            now >= self.start || now < self.end
        } else {
            false
        }
    }

    /// The first moment after `at` when the local clock reads the window's
    /// end. An end inside a spring-forward gap (02:30 on the night 02:00 jumps
    /// to 03:00) is read as jiff's (and RFC 5545's) "compatible" does: the
    /// same time after the gap began, 03:30, so the window keeps its length.
    pub fn end_after(&self, tz: &TimeZone, at: Timestamp) -> Timestamp {
        let mut date = at.to_zoned(tz.clone()).date();
        for _ in 0..3 {
            if let Some(end) = moment(tz, date, self.end)
                && end > at
            {
                return end;
            }
            match date.tomorrow() {
                Ok(next) => date = next,
                Err(_) => break,
            }
        }
        plus(at, SignedDuration::from_hours(24))
    }
}

/// `HH:MM`, two digits each, 00:00 to 23:59.
fn time_of_day(text: &str) -> Option<Time> {
    let (h, m) = text.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m) = (h.parse::<i8>().ok()?, m.parse::<i8>().ok()?);
    Time::new(h, m, 0, 0).ok()
}

/// The local date of `at`.
pub fn local_day(tz: &TimeZone, at: Timestamp) -> Date {
    at.to_zoned(tz.clone()).date()
}

/// When `date` begins in `tz` (its first moment, should midnight be skipped).
pub fn start_of_day(tz: &TimeZone, date: Date) -> Option<Timestamp> {
    tz.to_ambiguous_zoned(date.to_datetime(Time::midnight()))
        .compatible()
        .ok()
        .map(|z| z.timestamp())
}

/// The start of the local day after the one `at` is in.
pub fn next_day_start(tz: &TimeZone, at: Timestamp) -> Timestamp {
    local_day(tz, at)
        .tomorrow()
        .ok()
        .and_then(|d| start_of_day(tz, d))
        .unwrap_or_else(|| plus(at, SignedDuration::from_hours(24)))
}

/// The next top of a local hour strictly after `at`. Counted in absolute
/// time from the offset in force at `at`, so the repeated hour of a
/// fall-back night has its own top instead of jumping back to the first.
pub fn next_hour_top(tz: &TimeZone, at: Timestamp) -> Timestamp {
    let offset = i64::from(tz.to_offset(at).seconds());
    let local = at.as_second() + offset;
    let top = local.div_euclid(3600) * 3600 + 3600 - offset;
    Timestamp::from_second(top).unwrap_or_else(|_| plus(at, SignedDuration::from_hours(1)))
}

fn moment(tz: &TimeZone, date: Date, time: Time) -> Option<Timestamp> {
    tz.to_ambiguous_zoned(date.to_datetime(time))
        .compatible()
        .ok()
        .map(|z| z.timestamp())
}

/// `at + by`, or `at` itself at the end of representable time.
pub(crate) fn plus(at: Timestamp, by: SignedDuration) -> Timestamp {
    at.checked_add(by).unwrap_or(at)
}

/// The clock's instant as jiff's.
pub fn instant(at: time::OffsetDateTime) -> Timestamp {
    Timestamp::from_nanosecond(at.unix_timestamp_nanos()).unwrap_or(Timestamp::UNIX_EPOCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    fn berlin() -> TimeZone {
        TimeZone::get("Europe/Berlin").unwrap()
    }

    fn new_york() -> TimeZone {
        TimeZone::get("America/New_York").unwrap()
    }

    #[test]
    fn a_window_across_midnight_holds_late_evening_and_early_morning() {
        let night = QuietHours::parse("22:00", "08:00").unwrap();
        let tz = berlin();
        // Winter: Berlin is UTC+1.
        assert!(night.contains(&tz, at("2026-01-05T21:00:00Z"))); // 22:00 local
        assert!(night.contains(&tz, at("2026-01-05T23:30:00Z"))); // 00:30
        assert!(night.contains(&tz, at("2026-01-06T06:59:59Z"))); // 07:59:59
        assert!(!night.contains(&tz, at("2026-01-06T07:00:00Z"))); // 08:00
        assert!(!night.contains(&tz, at("2026-01-05T20:59:00Z"))); // 21:59
        assert!(!night.contains(&tz, at("2026-01-05T11:00:00Z"))); // noon
        // It ends the next morning when it began in the evening, and the
        // same morning when it is already past midnight.
        assert_eq!(
            night.end_after(&tz, at("2026-01-05T22:00:00Z")),
            at("2026-01-06T07:00:00Z")
        );
        assert_eq!(
            night.end_after(&tz, at("2026-01-06T03:00:00Z")),
            at("2026-01-06T07:00:00Z")
        );
    }

    #[test]
    fn a_daytime_window_and_an_empty_one() {
        let lunch = QuietHours::parse("12:00", "13:30").unwrap();
        assert!(lunch.contains(&TimeZone::UTC, at("2026-01-05T12:00:00Z")));
        assert!(lunch.contains(&TimeZone::UTC, at("2026-01-05T13:29:00Z")));
        assert!(!lunch.contains(&TimeZone::UTC, at("2026-01-05T13:30:00Z")));
        let none = QuietHours::parse("09:00", "09:00").unwrap();
        assert!(!none.contains(&TimeZone::UTC, at("2026-01-05T09:00:00Z")));
        assert_eq!(QuietHours::parse("9:00", "10:00"), None);
        assert_eq!(QuietHours::parse("24:00", "10:00"), None);
    }

    #[test]
    fn the_spring_forward_night_is_an_hour_shorter_in_new_york() {
        // 2026-03-08: 02:00 EST jumps to 03:00 EDT.
        let night = QuietHours::parse("22:00", "08:00").unwrap();
        let tz = new_york();
        let start = at("2026-03-08T03:00:00Z"); // 22:00 EST on the 7th
        assert!(night.contains(&tz, start));
        let end = night.end_after(&tz, start);
        assert_eq!(end, at("2026-03-08T12:00:00Z")); // 08:00 EDT
        assert_eq!(end.duration_since(start), SignedDuration::from_hours(9));
        assert!(night.contains(&tz, at("2026-03-08T11:59:00Z")));
        assert!(!night.contains(&tz, end));
        // A window ending inside the gap keeps its length: 02:30 is 03:30 EDT.
        let gap = QuietHours::parse("01:00", "02:30").unwrap();
        assert_eq!(
            gap.end_after(&tz, at("2026-03-08T06:30:00Z")), // 01:30 EST
            at("2026-03-08T07:30:00Z")                      // 03:30 EDT
        );
    }

    #[test]
    fn the_fall_back_night_is_an_hour_longer_in_berlin() {
        // 2026-10-25: 03:00 CEST falls back to 02:00 CET.
        let night = QuietHours::parse("22:00", "08:00").unwrap();
        let tz = berlin();
        let start = at("2026-10-24T20:00:00Z"); // 22:00 CEST
        let end = night.end_after(&tz, start);
        assert_eq!(end, at("2026-10-25T07:00:00Z")); // 08:00 CET
        assert_eq!(end.duration_since(start), SignedDuration::from_hours(11));
        // Each of the two 02:00-03:00 hours has its own top.
        assert_eq!(
            next_hour_top(&tz, at("2026-10-25T00:30:00Z")), // 02:30 CEST
            at("2026-10-25T01:00:00Z")                      // 02:00 CET
        );
        assert_eq!(
            next_hour_top(&tz, at("2026-10-25T01:30:00Z")), // 02:30 CET
            at("2026-10-25T02:00:00Z")                      // 03:00 CET
        );
    }

    #[test]
    fn hour_tops_and_day_starts_are_local() {
        let tz = TimeZone::get("Asia/Kolkata").unwrap(); // UTC+05:30
        assert_eq!(
            next_hour_top(&tz, at("2026-01-05T10:15:00Z")), // 15:45 local
            at("2026-01-05T10:30:00Z")                      // 16:00 local
        );
        // Exactly on a top, the next one is an hour later.
        assert_eq!(
            next_hour_top(&TimeZone::UTC, at("2026-01-05T11:00:00Z")),
            at("2026-01-05T12:00:00Z")
        );
        let ny = new_york();
        assert_eq!(
            next_day_start(&ny, at("2026-03-07T12:00:00Z")),
            at("2026-03-08T05:00:00Z") // midnight EST
        );
        assert_eq!(
            next_day_start(&ny, at("2026-03-08T12:00:00Z")),
            at("2026-03-09T04:00:00Z") // midnight EDT: the day had 23 hours
        );
        assert_eq!(
            local_day(&ny, at("2026-03-08T04:59:00Z")).to_string(),
            "2026-03-07"
        );
    }
}
