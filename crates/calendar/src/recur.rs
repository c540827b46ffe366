//! Walking an RRULE through the workspace's `rrule` crate, in civil time.
//!
//! RFC 5545 repeats a rule in the wall time of its DTSTART's zone: a
//! weekly 09:00 stays 09:00 across a daylight-saving change. So the rule is
//! walked with the civil times written as if they were UTC (where no day
//! has a gap or a fold) and each civil occurrence is placed in the event's
//! own zone afterwards (`zone.rs`), which also makes zones that only a
//! VTIMEZONE defines work, where the `rrule` crate knows only IANA names.
//! A civil time "as UTC" is a plain number of seconds: [`civil_secs`].

use std::cell::Cell;
use std::rc::Rc;
use std::str::FromStr;

use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use rrule::RRuleSet;

use crate::ics::{Stamp, parse_stamp};

/// Past this many occurrences a walk stops, whatever the rule says: a
/// FREQ=MINUTELY rule started years ago would otherwise walk for minutes.
pub(crate) const MAX_STEPS: usize = 200_000;

/// The most steps all the walks of one read (a subscription's file, a
/// CalDAV resource, a multistatus answer) take together: [`MAX_STEPS`]
/// bounds one rule, but a file of many rules that never end would
/// otherwise cost that many times over.
pub(crate) const MAX_STEPS_PER_READ: usize = 5 * MAX_STEPS;

/// The steps one read has left, shared by every walk of it: its events'
/// rules and its VTIMEZONEs' (a clone is the same budget).
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    total: usize,
    left: Rc<Cell<usize>>,
}

impl Budget {
    /// A read's whole budget, [`MAX_STEPS_PER_READ`].
    pub(crate) fn per_read() -> Budget {
        Budget::of(MAX_STEPS_PER_READ)
    }

    pub(crate) fn of(total: usize) -> Budget {
        Budget {
            total,
            left: Rc::new(Cell::new(total)),
        }
    }

    /// The steps walked so far.
    pub(crate) fn spent(&self) -> usize {
        self.total - self.left.get()
    }

    /// Whether a walk stopped because nothing was left.
    pub(crate) fn ran_out(&self) -> bool {
        self.left.get() == 0
    }
}

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

/// Why a walk stopped before the end asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cut {
    /// The rule walked [`MAX_STEPS`].
    Rule,
    /// The read's [`Budget`] ran out, maybe before this rule took a step.
    Read,
}

/// What a walk found.
#[derive(Debug, Default)]
pub(crate) struct Walk {
    /// The occurrences up to the end asked for, as [`civil_secs`].
    pub civil: Vec<i64>,
    pub cut: Option<Cut>,
}

/// The occurrences of `rule` (the RRULE's value) from `start` up to `end`
/// (civil seconds, inclusive). `until` turns the rule's UNTIL into the same
/// civil time as `start` (UNTIL is UTC when DTSTART has a zone). Each
/// occurrence the rule yields is a step taken from `budget`.
pub(crate) fn walk(
    start: DateTime,
    rule: &str,
    until: impl Fn(Stamp) -> DateTime,
    end: i64,
    budget: &Budget,
) -> Result<Walk, String> {
    if budget.ran_out() {
        return Ok(Walk {
            civil: Vec::new(),
            cut: Some(Cut::Read),
        });
    }
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
            walk.cut = Some(Cut::Rule);
            break;
        }
        if budget.ran_out() {
            walk.cut = Some(Cut::Read);
            break;
        }
        budget.left.set(budget.left.get() - 1);
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
            &Budget::per_read(),
        );
        assert_eq!(found.unwrap_err(), "the rule is not ASCII");
        let found = walk(
            start,
            "FREQ=WEEKLY;BYDAY=\u{4e8}MO",
            |s| s.civil(),
            i64::MAX,
            &Budget::per_read(),
        );
        assert_eq!(found.unwrap_err(), "the rule is not ASCII");
    }

    #[test]
    fn a_weekly_rule_keeps_its_wall_time() {
        let start = date(2026, 3, 20).at(9, 0, 0, 0);
        let walk = walk(
            start,
            "FREQ=WEEKLY;COUNT=3",
            |s| s.civil(),
            i64::MAX,
            &Budget::per_read(),
        )
        .unwrap();
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
    fn the_walks_of_one_read_share_its_budget() {
        let start = date(2026, 1, 1).at(10, 0, 0, 0);
        let budget = Budget::of(5);
        let first = walk(
            start,
            "FREQ=DAILY;COUNT=3",
            |s| s.civil(),
            i64::MAX,
            &budget,
        )
        .unwrap();
        assert_eq!((first.civil.len(), first.cut), (3, None));
        let second = walk(start, "FREQ=MINUTELY", |s| s.civil(), i64::MAX, &budget).unwrap();
        assert_eq!((second.civil.len(), second.cut), (2, Some(Cut::Read)));
        let third = walk(start, "FREQ=DAILY", |s| s.civil(), i64::MAX, &budget).unwrap();
        assert_eq!((third.civil.len(), third.cut), (0, Some(Cut::Read)));
        assert_eq!(budget.spent(), 5);
        assert!(budget.ran_out());
    }

    #[test]
    fn a_rule_that_never_ends_stops_at_its_own_limit_first() {
        let start = date(2000, 1, 1).at(0, 0, 0, 0);
        let budget = Budget::per_read();
        let found = walk(start, "FREQ=MINUTELY", |s| s.civil(), i64::MAX, &budget).unwrap();
        assert_eq!((found.civil.len(), found.cut), (MAX_STEPS, Some(Cut::Rule)));
        assert_eq!(budget.spent(), MAX_STEPS);
    }

    #[test]
    fn a_date_until_includes_its_day_and_a_bad_rule_is_an_error() {
        let start = date(2026, 1, 1).at(10, 0, 0, 0);
        let walk = walk(
            start,
            "FREQ=DAILY;UNTIL=20260103",
            |s| s.civil(),
            i64::MAX,
            &Budget::per_read(),
        )
        .unwrap();
        assert_eq!(walk.civil.len(), 3);
        let bad = super::walk(
            start,
            "FREQ=SOMETIMES",
            |s| s.civil(),
            i64::MAX,
            &Budget::per_read(),
        );
        assert!(bad.is_err());
    }
}
