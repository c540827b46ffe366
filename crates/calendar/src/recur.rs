//! Walking an RRULE through the workspace's `rrule` crate, in civil time.
//!
//! RFC 5545 repeats a rule in the wall time of its DTSTART's zone: a
//! weekly 09:00 stays 09:00 across a daylight-saving change. So the rule is
//! walked with the civil times written as if they were UTC (where no day
//! has a gap or a fold) and each civil occurrence is placed in the event's
//! own zone afterwards (`zone.rs`), which also makes zones that only a
//! VTIMEZONE defines work, where the `rrule` crate knows only IANA names.
//! A civil time "as UTC" is a plain number of seconds: [`civil_secs`].

use std::str::FromStr;

use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use rrule::RRuleSet;

use crate::ics::{Stamp, parse_stamp};

/// Past this many occurrences a walk stops, whatever the rule says: a
/// FREQ=MINUTELY rule started years ago would otherwise walk for minutes.
pub(crate) const MAX_STEPS: usize = 200_000;

/// A civil time as seconds, as if it were UTC.
pub(crate) fn civil_secs(civil: DateTime) -> i64 {
    civil
        .to_zoned(TimeZone::UTC)
        .map_or(0, |z| z.timestamp().as_second())
}

/// The civil time [`civil_secs`] made `secs` from.
pub(crate) fn from_civil_secs(secs: i64) -> DateTime {
    jiff::Timestamp::from_second(secs)
        .map(|t| TimeZone::UTC.to_datetime(t))
        .unwrap_or_default()
}

/// What a walk found.
#[derive(Debug, Default)]
pub(crate) struct Walk {
    /// The occurrences up to the end asked for, as [`civil_secs`].
    pub civil: Vec<i64>,
    /// Whether [`MAX_STEPS`] cut the walk short.
    pub truncated: bool,
}

/// The occurrences of `rule` (the RRULE's value) from `start` up to `end`
/// (civil seconds, inclusive). `until` turns the rule's UNTIL into the same
/// civil time as `start` (UNTIL is UTC when DTSTART has a zone).
pub(crate) fn walk(
    start: DateTime,
    rule: &str,
    until: impl Fn(Stamp) -> DateTime,
    end: i64,
) -> Result<Walk, String> {
    // RFC 5545's rule grammar is ASCII, and the `rrule` crate slices its
    // parts by byte (a BYDAY of `1É` panicked inside it).
    if !rule.is_ascii() {
        return Err("the rule is not ASCII".to_owned());
    }
    let mut parts = Vec::new();
    for part in rule.trim().split(';').filter(|p| !p.is_empty()) {
        match part.split_once('=') {
            Some((key, value)) if key.trim().eq_ignore_ascii_case("UNTIL") => {
                let stamp =
                    parse_stamp(value).ok_or_else(|| format!("UNTIL={value} is not a date"))?;
                let civil = match stamp {
                    // A date UNTIL includes that whole day.
                    Stamp::Date(d) => d.to_datetime(jiff::civil::time(23, 59, 59, 0)),
                    other => until(other),
                };
                parts.push(format!("UNTIL={}Z", stamp_text(civil)));
            }
            _ => parts.push(part.trim().to_ascii_uppercase()),
        }
    }
    let text = format!("DTSTART:{}Z\nRRULE:{}", stamp_text(start), parts.join(";"));
    let set = RRuleSet::from_str(&text)
        .map_err(|e| e.to_string())?
        .limit();
    let mut walk = Walk::default();
    for (step, at) in set.into_iter().enumerate() {
        if step >= MAX_STEPS {
            walk.truncated = true;
            break;
        }
        let secs = at.timestamp();
        if secs > end {
            break;
        }
        walk.civil.push(secs);
    }
    Ok(walk)
}

fn stamp_text(civil: DateTime) -> String {
    format!(
        "{:04}{:02}{:02}T{:02}{:02}{:02}",
        civil.year(),
        civil.month(),
        civil.day(),
        civil.hour(),
        civil.minute(),
        civil.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn a_rule_that_is_not_ascii_is_refused_not_a_panic() {
        let start = date(2026, 3, 20).at(9, 0, 0, 0);
        // Found by fuzzing (fuzz/artifacts/ical): the `rrule` crate sliced
        // the BYDAY value inside a character.
        let found = walk(
            start,
            "FREQ=WEEKLY;BYDAY=1\u{c9}MO",
            |s| s.civil(),
            i64::MAX,
        );
        assert_eq!(found.unwrap_err(), "the rule is not ASCII");
        let found = walk(
            start,
            "FREQ=WEEKLY;BYDAY=\u{4e8}MO",
            |s| s.civil(),
            i64::MAX,
        );
        assert_eq!(found.unwrap_err(), "the rule is not ASCII");
    }

    #[test]
    fn a_weekly_rule_keeps_its_wall_time() {
        let start = date(2026, 3, 20).at(9, 0, 0, 0);
        let walk = walk(start, "FREQ=WEEKLY;COUNT=3", |s| s.civil(), i64::MAX).unwrap();
        let civil: Vec<DateTime> = walk.civil.iter().map(|s| from_civil_secs(*s)).collect();
        assert_eq!(
            civil,
            [
                date(2026, 3, 20).at(9, 0, 0, 0),
                date(2026, 3, 27).at(9, 0, 0, 0),
                date(2026, 4, 3).at(9, 0, 0, 0)
            ]
        );
    }

    #[test]
    fn a_date_until_includes_its_day_and_a_bad_rule_is_an_error() {
        let start = date(2026, 1, 1).at(10, 0, 0, 0);
        let walk = walk(start, "FREQ=DAILY;UNTIL=20260103", |s| s.civil(), i64::MAX).unwrap();
        assert_eq!(walk.civil.len(), 3);
        assert!(super::walk(start, "FREQ=SOMETIMES", |s| s.civil(), i64::MAX).is_err());
    }
}
