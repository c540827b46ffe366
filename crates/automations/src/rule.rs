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
        return Err(AutomationError::invalid(
            "timeZone",
            "is required: an IANA name such as Europe/Berlin",
        ));
    }
    let zone = TimeZone::get(name).map_err(|_| {
        AutomationError::invalid(
            "timeZone",
            format!("{name:?} is not an IANA time zone (such as Europe/Berlin)"),
        )
    })?;
    let canonical = zone.iana_name().unwrap_or(name).to_owned();
    Ok((canonical, zone))
}

impl Rule {
    /// A five-field cron pattern (minute, hour, day of month, month, day of
    /// week: `*`, lists, ranges, steps, `JAN`..`DEC`, `SUN`..`SAT`), or a
    /// nickname such as `@daily`.
    pub fn cron(pattern: &str, zone: &TimeZone) -> Result<Rule, AutomationError> {
        let pattern = pattern.trim();
        let fields = pattern.split_whitespace().count();
        if !pattern.starts_with('@') && fields != 5 {
            return Err(AutomationError::invalid(
                "cron",
                format!(
                    "must have five fields (minute hour day-of-month month day-of-week), not {fields}"
                ),
            ));
        }
        let cron = CronParser::builder()
            .seconds(Seconds::Disallowed)
            .year(Year::Disallowed)
            .build()
            .parse(pattern)
            .map_err(|e| AutomationError::invalid("cron", e.to_string()))?;
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
}
