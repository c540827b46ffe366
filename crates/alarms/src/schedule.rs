//! The schedule rules: reading a requested `at`, and the next occurrence of
//! a local time of day in a time zone, pure functions of their inputs.
//!
//! Local times go through jiff's zone rules with its "compatible"
//! disambiguation, so daylight-saving changes do what a wall clock does: a
//! time the spring-forward gap skips (02:30 in Berlin on the last Sunday of
//! March) rings at the same distance past the gap (03:30), and a time the
//! fall-back fold repeats rings once, the first time.

use jiff::civil::{Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};

use crate::alarm::{AlarmError, Repeat};

/// When a new alarm rings first, and the local time of day it keeps when it
/// repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstRing {
    pub at: Timestamp,
    pub time_of_day: Option<Time>,
}

/// Reads `at` as the API takes it: RFC 3339 with an offset, or `HH:MM` for
/// the next such local time after `now`. A repeating alarm keeps the local
/// time of day of its first ring, and a first ring in the past (or on a
/// weekend, for `weekdays`) moves to the next occurrence.
pub fn first_ring(
    at: &str,
    repeat: Option<Repeat>,
    now: Timestamp,
    zone: &TimeZone,
) -> Result<FirstRing, AlarmError> {
    let at = at.trim();
    if let Some(time) = parse_hh_mm(at) {
        return Ok(FirstRing {
            at: next_occurrence(time, repeat, now, zone).ok_or(AlarmError::InvalidTime)?,
            time_of_day: repeat.map(|_| time),
        });
    }
    let stamp: Timestamp = at.parse().map_err(|_| AlarmError::InvalidTime)?;
    match repeat {
        None if stamp <= now => Err(AlarmError::InPast),
        None => Ok(FirstRing {
            at: stamp,
            time_of_day: None,
        }),
        Some(_) => {
            let time = stamp.to_zoned(zone.clone()).time();
            // The first occurrence at or after `at` that is still to come.
            let after = now.max(stamp.checked_sub(1.nanosecond()).unwrap_or(stamp));
            Ok(FirstRing {
                at: next_occurrence(time, repeat, after, zone).ok_or(AlarmError::InvalidTime)?,
                time_of_day: Some(time),
            })
        }
    }
}

/// `HH:MM` (one or two digits of hour), or `None`.
fn parse_hh_mm(text: &str) -> Option<Time> {
    let (hour, minute) = text.split_once(':')?;
    let digits = |s: &str, max_len| {
        (!s.is_empty() && s.len() <= max_len && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<i8>().ok())
            .flatten()
    };
    if minute.len() != 2 {
        return None;
    }
    Time::new(digits(hour, 2)?, digits(minute, 2)?, 0, 0).ok()
}

/// The first moment strictly after `after` whose local time in `zone` is
/// `time` (on a weekday, for `weekdays`; any day without a repeat); `None`
/// only at the end of representable time (year 9999).
pub fn next_occurrence(
    time: Time,
    repeat: Option<Repeat>,
    after: Timestamp,
    zone: &TimeZone,
) -> Option<Timestamp> {
    let start = after.to_zoned(zone.clone()).date();
    // Eight days always reach a weekday strictly after any moment.
    for days in 0..8_i64 {
        let Ok(date) = start.checked_add(days.days()) else {
            break;
        };
        if repeat == Some(Repeat::Weekdays)
            && matches!(date.weekday(), Weekday::Saturday | Weekday::Sunday)
        {
            continue;
        }
        let Ok(candidate) = date.to_datetime(time).to_zoned(zone.clone()) else {
            continue;
        };
        if candidate.timestamp() > after {
            return Some(candidate.timestamp());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn berlin() -> TimeZone {
        TimeZone::get("Europe/Berlin").unwrap()
    }

    fn ts(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    fn t(h: i8, m: i8) -> Time {
        Time::new(h, m, 0, 0).unwrap()
    }

    #[test]
    fn hh_mm_is_today_when_still_ahead_and_tomorrow_when_past() {
        // 09:00 in Berlin (winter, UTC+1).
        let now = ts("2026-01-05T08:00:00Z");
        let today = first_ring("10:30", None, now, &berlin()).unwrap();
        assert_eq!(today.at, ts("2026-01-05T09:30:00Z"));
        assert_eq!(today.time_of_day, None);
        let tomorrow = first_ring("8:15", None, now, &berlin()).unwrap();
        assert_eq!(tomorrow.at, ts("2026-01-06T07:15:00Z"));
        // Exactly now is not "next": it is tomorrow's.
        let exact = first_ring("09:00", None, now, &berlin()).unwrap();
        assert_eq!(exact.at, ts("2026-01-06T08:00:00Z"));
    }

    #[test]
    fn malformed_and_past_times_are_refused() {
        let now = ts("2026-01-05T08:00:00Z");
        for bad in ["", "25:00", "10:60", "10:5", "noon", "2026-01-05T10:00:00"] {
            assert!(
                matches!(
                    first_ring(bad, None, now, &berlin()),
                    Err(AlarmError::InvalidTime)
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            first_ring("2026-01-05T07:00:00Z", None, now, &berlin()),
            Err(AlarmError::InPast)
        ));
        let ahead = first_ring("2026-01-05T10:00:00+01:00", None, now, &berlin()).unwrap();
        assert_eq!(ahead.at, ts("2026-01-05T09:00:00Z"));
    }

    #[test]
    fn a_repeating_alarm_from_the_past_keeps_its_local_time() {
        let now = ts("2026-01-05T08:00:00Z");
        let first = first_ring(
            "2025-12-01T07:00:00+01:00",
            Some(Repeat::Daily),
            now,
            &berlin(),
        )
        .unwrap();
        assert_eq!(first.at, ts("2026-01-06T06:00:00Z"));
        assert_eq!(first.time_of_day, Some(t(7, 0)));
    }

    #[test]
    fn weekdays_skip_the_weekend() {
        // Friday 2026-01-09, 18:00 in Berlin.
        let friday_evening = ts("2026-01-09T17:00:00Z");
        let next =
            next_occurrence(t(7, 0), Some(Repeat::Weekdays), friday_evening, &berlin()).unwrap();
        assert_eq!(next, ts("2026-01-12T06:00:00Z"), "Monday 07:00");
        let daily =
            next_occurrence(t(7, 0), Some(Repeat::Daily), friday_evening, &berlin()).unwrap();
        assert_eq!(daily, ts("2026-01-10T06:00:00Z"), "Saturday 07:00");
        // A first ring given on a Sunday moves to Monday.
        let first = first_ring(
            "2026-01-11T07:00:00+01:00",
            Some(Repeat::Weekdays),
            friday_evening,
            &berlin(),
        )
        .unwrap();
        assert_eq!(first.at, ts("2026-01-12T06:00:00Z"));
    }

    #[test]
    fn daily_keeps_the_wall_time_across_spring_forward() {
        // Berlin moves from 02:00 CET to 03:00 CEST on 2026-03-29.
        let zone = berlin();
        let saturday = next_occurrence(
            t(7, 0),
            Some(Repeat::Daily),
            ts("2026-03-27T12:00:00Z"),
            &zone,
        )
        .unwrap();
        assert_eq!(saturday, ts("2026-03-28T06:00:00Z"), "07:00 CET");
        let sunday = next_occurrence(t(7, 0), Some(Repeat::Daily), saturday, &zone).unwrap();
        assert_eq!(sunday, ts("2026-03-29T05:00:00Z"), "07:00 CEST");
        // 02:30 does not exist that night: it rings as the clock reads 03:30.
        let gap = next_occurrence(t(2, 30), Some(Repeat::Daily), saturday, &zone).unwrap();
        assert_eq!(gap, ts("2026-03-29T01:30:00Z"));
        assert_eq!(gap.to_zoned(zone.clone()).time(), t(3, 30));
        // And the day after it is back at 02:30.
        let after_gap = next_occurrence(t(2, 30), Some(Repeat::Daily), gap, &zone).unwrap();
        assert_eq!(after_gap, ts("2026-03-30T00:30:00Z"));
    }

    #[test]
    fn daily_keeps_the_wall_time_across_fall_back_and_rings_once_in_the_fold() {
        // Berlin moves from 03:00 CEST back to 02:00 CET on 2026-10-25.
        let zone = berlin();
        let saturday = next_occurrence(
            t(7, 0),
            Some(Repeat::Daily),
            ts("2026-10-23T12:00:00Z"),
            &zone,
        )
        .unwrap();
        assert_eq!(saturday, ts("2026-10-24T05:00:00Z"), "07:00 CEST");
        let sunday = next_occurrence(t(7, 0), Some(Repeat::Daily), saturday, &zone).unwrap();
        assert_eq!(sunday, ts("2026-10-25T06:00:00Z"), "07:00 CET");
        // 02:30 happens twice that night: the alarm rings the first time only.
        let fold = next_occurrence(t(2, 30), Some(Repeat::Daily), saturday, &zone).unwrap();
        assert_eq!(fold, ts("2026-10-25T00:30:00Z"), "02:30 CEST");
        let next = next_occurrence(t(2, 30), Some(Repeat::Daily), fold, &zone).unwrap();
        assert_eq!(
            next,
            ts("2026-10-26T01:30:00Z"),
            "not 02:30 CET the same night"
        );
    }
}
