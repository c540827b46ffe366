//! A schedule's rule made ready to ask: a five-field cron pattern (through
//! `croner`, on jiff) or an RFC 5545 RRULE (through `rrule`, on chrono,
//! met only here and only through Unix time), read in an IANA time zone.
//!
//! Daylight-saving changes follow each syntax's own standard:
//!
//! - cron, as Vixie cron does: a fixed time (`30 2 * * *`) that the
//!   spring-forward gap skips runs once, at the first instant after the gap
//!   (03:00 in Berlin); a fixed time the fall-back fold repeats runs once,
//!   the first time. A pattern with a wildcard, range or step in its minute
//!   or hour (`*/15 * * * *`, `0 * * * *`) keeps to real time: nothing in
//!   the gap, both halves of the fold.
//! - RRULE, as RFC 5545 (3.3.5) says: a local time in the gap is read with
//!   the offset before it (02:30 runs at 03:30), a repeated one as its first
//!   occurrence.

use croner::Cron;
use croner::parser::{CronParser, Seconds, Year};
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::error::AutomationError;
use crate::ical::Recurrence;
use crate::problems::{FieldProblem, one};

/// How many due ticks are counted one by one before the count stops
/// growing: a catch-up run stands for all of them, whatever their number.
pub const MAX_COUNTED: u64 = 1_000;

/// A schedule's rule, compiled, in its time zone.
#[derive(Debug, Clone)]
pub struct Rule {
    kind: Kind,
    zone: TimeZone,
}

#[derive(Debug, Clone)]
enum Kind {
    Cron(Cron),
    Rrule(Recurrence),
}

/// What the ticks from a schedule's `next_at` up to now look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// Ticks at or after `from` and at or before now (at most [`MAX_COUNTED`]).
    pub due: u64,
    /// The last of them.
    pub latest: Option<Timestamp>,
    /// The first tick strictly after now; `None` when the rule has ended.
    pub next: Option<Timestamp>,
}

/// The IANA time zone of that name (letter case aside), and its name as
/// the database spells it.
pub fn time_zone(name: &str) -> Result<(String, TimeZone), AutomationError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(one(
            "timeZone",
            "Choose a time zone, such as Europe/Berlin.",
        ));
    }
    let zone = TimeZone::get(name).map_err(|_| {
        one(
            "timeZone",
            format!("No time zone is called {name}: use a name such as Europe/Berlin."),
        )
    })?;
    let canonical = zone.iana_name().unwrap_or(name).to_owned();
    Ok((canonical, zone))
}

/// One part of a cron pattern: what it is called and the values it takes.
struct CronPart {
    noun: &'static str,
    min: u32,
    max: u32,
    /// Names for its values, the first standing for `names_from`.
    names: &'static [&'static str],
    names_from: u32,
    range: &'static str,
}

const CRON_PARTS: [CronPart; 5] = [
    CronPart {
        noun: "The minute",
        min: 0,
        max: 59,
        names: &[],
        names_from: 0,
        range: "0–59",
    },
    CronPart {
        noun: "The hour",
        min: 0,
        max: 23,
        names: &[],
        names_from: 0,
        range: "0–23",
    },
    CronPart {
        noun: "The day of the month",
        min: 1,
        max: 31,
        names: &[],
        names_from: 0,
        range: "1–31",
    },
    CronPart {
        noun: "The month",
        min: 1,
        max: 12,
        names: &[
            "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
        ],
        names_from: 1,
        range: "1–12 or JAN–DEC",
    },
    CronPart {
        noun: "The day of the week",
        min: 0,
        max: 7,
        names: &["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"],
        names_from: 0,
        range: "0–7 or SUN–SAT",
    },
];

/// What is wrong with a five-field cron pattern, part by part, in words
/// ("The minute must be 0–59, not 61."); empty when every part reads. The
/// rarer forms (`L`, `W`, `#`, `?`) are left to the parser.
pub fn cron_problems(pattern: &str) -> Vec<String> {
    let pattern = pattern.trim();
    if pattern.is_empty() {
        return vec!["Write a cron pattern, such as 30 2 * * * for 02:30 every day.".to_owned()];
    }
    if pattern.starts_with('@') {
        return Vec::new();
    }
    let parts: Vec<&str> = pattern.split_whitespace().collect();
    if parts.len() != 5 {
        return vec![format!(
            "A cron pattern has five parts (minute, hour, day of the month, month, day of the \
             week); this one has {}.",
            parts.len()
        )];
    }
    parts
        .iter()
        .zip(CRON_PARTS.iter())
        .filter_map(|(text, part)| part_problem(part, text))
        .collect()
}

fn part_problem(part: &CronPart, text: &str) -> Option<String> {
    let noun = part.noun;
    let value = |v: &str| -> Option<u32> {
        let n = match v.parse::<u32>() {
            Ok(n) => Some(n),
            Err(_) => part
                .names
                .iter()
                .position(|name| name.eq_ignore_ascii_case(v))
                .and_then(|i| u32::try_from(i).ok())
                .map(|i| i + part.names_from),
        }?;
        (part.min..=part.max).contains(&n).then_some(n)
    };
    for item in text.split(',') {
        if item.is_empty() {
            return Some(format!("{noun} has an empty place in its list {text}."));
        }
        if item.contains(['L', 'l', 'W', 'w', '#', '?']) {
            continue;
        }
        let (base, step) = match item.split_once('/') {
            Some((base, step)) => (base, Some(step)),
            None => (item, None),
        };
        if let Some(step) = step
            && !step.parse::<u32>().is_ok_and(|n| n >= 1)
        {
            return Some(format!(
                "The step after / in {item} must be a whole number above 0."
            ));
        }
        if base == "*" {
            continue;
        }
        let (from, to) = match base.split_once('-') {
            Some((from, to)) => (from, Some(to)),
            None => (base, None),
        };
        let Some(start) = value(from) else {
            return Some(format!("{noun} must be {}, not {from}.", part.range));
        };
        if let Some(to) = to {
            let Some(end) = value(to) else {
                return Some(format!("{noun} must be {}, not {to}.", part.range));
            };
            if start > end {
                return Some(format!(
                    "{noun} range {base} runs backwards: write the smaller end first."
                ));
            }
        }
    }
    None
}

impl Rule {
    /// A five-field cron pattern (minute, hour, day of month, month, day of
    /// week: `*`, lists, ranges, steps, `JAN`..`DEC`, `SUN`..`SAT`), or a
    /// nickname such as `@daily`.
    pub fn cron(pattern: &str, zone: &TimeZone) -> Result<Rule, AutomationError> {
        let problems = cron_problems(pattern);
        if !problems.is_empty() {
            return Err(AutomationError::Fields(
                problems
                    .into_iter()
                    .map(|message| FieldProblem {
                        field: "cron",
                        message,
                    })
                    .collect(),
            ));
        }
        let pattern = pattern.trim();
        // The parser's own words name its internals: say what to write.
        let cron = CronParser::builder()
            .seconds(Seconds::Disallowed)
            .year(Year::Disallowed)
            .build()
            .parse(pattern)
            .map_err(|_| {
                one(
                    "cron",
                    if pattern.starts_with('@') {
                        "A cron nickname is one of @hourly, @daily, @weekly, @monthly and @yearly."
                    } else {
                        "The cron pattern cannot be read: write each part as a number, a range \
                         (1-5), a list (1,3,5), a step (*/15) or *."
                    },
                )
            })?;
        Ok(Rule {
            kind: Kind::Cron(cron),
            zone: zone.clone(),
        })
    }

    /// An RRULE as [`crate::ical::normalize_rrule`] writes it (a
    /// `DTSTART;TZID=` line in `zone`, then the `RRULE:` line).
    pub fn rrule(normalized: &str, zone: &TimeZone) -> Result<Rule, AutomationError> {
        Ok(Rule {
            kind: Kind::Rrule(Recurrence::parse(normalized)?),
            zone: zone.clone(),
        })
    }

    /// The first tick strictly after `after`.
    pub fn next_after(&self, after: Timestamp) -> Option<Timestamp> {
        match &self.kind {
            Kind::Cron(cron) => cron_next(cron, &self.zone, after),
            Kind::Rrule(recurrence) => recurrence.ticks_from(after).find(|t| *t > after),
        }
    }

    /// The ticks at or after `from` up to `now`, and the first after `now`.
    pub fn scan(&self, from: Timestamp, now: Timestamp) -> Scan {
        let mut scan = Scan {
            due: 0,
            latest: None,
            next: None,
        };
        match &self.kind {
            Kind::Cron(cron) => {
                // Searching from a second before: an inclusive search from
                // `from` itself misses a tick moved out of the gap (02:30
                // run at 03:00 does not read 02:30 on the wall).
                let before = from
                    .checked_sub(jiff::SignedDuration::from_secs(1))
                    .unwrap_or(from);
                let mut tick = cron_next(cron, &self.zone, before);
                while let Some(at) = tick.filter(|t| *t <= now) {
                    if scan.due == MAX_COUNTED {
                        // Enough counted: find the ends directly.
                        scan.latest = cron_previous(cron, &self.zone, now).or(scan.latest);
                        scan.next = cron_next(cron, &self.zone, now);
                        return scan;
                    }
                    scan.due += 1;
                    scan.latest = Some(at);
                    tick = cron_next(cron, &self.zone, at);
                }
                scan.next = tick;
            }
            Kind::Rrule(recurrence) => {
                for at in recurrence.ticks_from(from).skip_while(|t| *t < from) {
                    if at > now {
                        scan.next = Some(at);
                        break;
                    }
                    if scan.due == MAX_COUNTED {
                        // Enough counted: walk from near now for the ends.
                        for at in recurrence.ticks_from(now) {
                            if at > now {
                                scan.next = Some(at);
                                break;
                            }
                            scan.latest = Some(at);
                        }
                        return scan;
                    }
                    scan.due += 1;
                    scan.latest = Some(at);
                }
            }
        }
        scan
    }
}

/// The first tick strictly after `at`.
fn cron_next(cron: &Cron, zone: &TimeZone, at: Timestamp) -> Option<Timestamp> {
    let zoned = at.to_zoned(zone.clone());
    // An error is croner's search limit (a pattern such as `0 0 30 2 *`
    // that no date matches): no next tick.
    cron.find_next_occurrence(&zoned, false)
        .ok()
        .map(|z| z.timestamp())
}

fn cron_previous(cron: &Cron, zone: &TimeZone, at: Timestamp) -> Option<Timestamp> {
    cron.find_previous_occurrence(&at.to_zoned(zone.clone()), true)
        .ok()
        .map(|z| z.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    fn berlin() -> TimeZone {
        TimeZone::get("Europe/Berlin").unwrap()
    }

    #[test]
    fn time_zones_must_exist_and_take_their_canonical_name() {
        assert_eq!(time_zone(" europe/berlin ").unwrap().0, "Europe/Berlin");
        for bad in ["", "Mars/Olympus_Mons", "UTC+1", "Europe/Berlinn"] {
            let error = time_zone(bad).unwrap_err();
            assert_eq!(error.field(), Some("timeZone"), "{bad}: {error}");
        }
    }

    #[test]
    fn cron_takes_five_fields_with_names_lists_ranges_and_steps() {
        let zone = berlin();
        for good in [
            "*/15 * * * *",
            "0 9 * * MON-FRI",
            "30 2 1,15 JAN,jul *",
            "0 8-18/2 * * 1-5",
            "@daily",
        ] {
            assert!(Rule::cron(good, &zone).is_ok(), "{good}");
        }
        for bad in [
            "",
            "* * * *",
            "0 0 * * * *",
            "61 * * * *",
            "0 25 * * *",
            "0 9 * * FUNDAY",
            "x * * * *",
        ] {
            let error = Rule::cron(bad, &zone).unwrap_err();
            assert_eq!(error.field(), Some("cron"), "{bad}: {error}");
        }
        // Monday to Friday at 09:00 Berlin, from a Friday evening.
        let rule = Rule::cron("0 9 * * MON-FRI", &zone).unwrap();
        let friday_evening = ts("2026-01-09T18:00:00Z");
        assert_eq!(
            rule.next_after(friday_evening),
            Some(ts("2026-01-12T08:00:00Z"))
        );
        assert_eq!(
            Rule::cron("0 0 30 2 *", &zone)
                .unwrap()
                .next_after(friday_evening),
            None
        );
    }

    #[test]
    fn a_tick_moved_out_of_the_gap_is_found_when_it_is_due() {
        let rule = Rule::cron("30 2 * * *", &berlin()).unwrap();
        // 02:30 runs at 03:00 CEST on the spring-forward night.
        let moved = ts("2026-03-29T01:00:00Z");
        let scan = rule.scan(moved, moved);
        assert_eq!((scan.due, scan.latest), (1, Some(moved)));
        assert_eq!(scan.next, Some(ts("2026-03-30T00:30:00Z")));
    }

    #[test]
    fn a_long_cron_downtime_is_counted_up_to_the_cap() {
        let zone = berlin();
        let rule = Rule::cron("* * * * *", &zone).unwrap();
        let from = ts("2026-01-05T00:00:00Z");
        let scan = rule.scan(from, ts("2026-01-06T00:00:30Z"));
        assert_eq!(scan.due, MAX_COUNTED);
        assert_eq!(scan.latest, Some(ts("2026-01-06T00:00:00Z")));
        assert_eq!(scan.next, Some(ts("2026-01-06T00:01:00Z")));
    }

    #[test]
    fn cron_problems_are_said_part_by_part() {
        let table: [(&str, &[&str]); 9] = [
            ("30 2 * * *", &[]),
            ("0 9 * * MON-FRI", &[]),
            (
                "61 25 * * *",
                &[
                    "The minute must be 0–59, not 61.",
                    "The hour must be 0–23, not 25.",
                ],
            ),
            (
                "0 9 32 13 8",
                &[
                    "The day of the month must be 1–31, not 32.",
                    "The month must be 1–12 or JAN–DEC, not 13.",
                    "The day of the week must be 0–7 or SUN–SAT, not 8.",
                ],
            ),
            (
                "0 9 * * FUNDAY",
                &["The day of the week must be 0–7 or SUN–SAT, not FUNDAY."],
            ),
            (
                "*/0 * * * *",
                &["The step after / in */0 must be a whole number above 0."],
            ),
            (
                "0 17-9 * * *",
                &["The hour range 17-9 runs backwards: write the smaller end first."],
            ),
            (
                "0 9 * *",
                &[
                    "A cron pattern has five parts (minute, hour, day of the month, month, day of the week); this one has 4.",
                ],
            ),
            (
                "",
                &["Write a cron pattern, such as 30 2 * * * for 02:30 every day."],
            ),
        ];
        for (pattern, expected) in table {
            assert_eq!(cron_problems(pattern), expected, "{pattern:?}");
        }
        // Whatever the parser refuses past these checks is said in words too.
        let error = Rule::cron("@fortnightly", &berlin()).unwrap_err();
        assert!(error.to_string().starts_with("A cron nickname"), "{error}");
        let zone = time_zone("Mars/Olympus").unwrap_err();
        assert_eq!(
            zone.to_string(),
            "No time zone is called Mars/Olympus: use a name such as Europe/Berlin."
        );
    }
}
