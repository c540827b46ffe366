//! RRULEs: checking one and writing it in the stored form (a `DTSTART;TZID=`
//! line in the schedule's zone, then the rule), and walking its occurrences
//! through the `rrule` crate. That crate works on chrono; only Unix seconds
//! cross back, so jiff stays the type everywhere else.
//!
//! The `rrule` crate reads a local time without a zone in the machine's
//! zone, so every time reaches it with a `TZID` or as UTC.

use std::borrow::Cow;
use std::str::FromStr;

use jiff::civil::{Date, DateTime, Time};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use rrule::{RRuleError, RRuleSet};

use crate::error::AutomationError;

/// An RRULE is walked from its DTSTART: past this many occurrences the
/// walk gives up rather than spin (a rule with a COUNT of millions).
const MAX_STEPS: u64 = 5_000_000;

/// A stored RRULE, ready to walk.
#[derive(Debug, Clone)]
pub struct Recurrence {
    set: RRuleSet,
    rebase: Option<Rebase>,
}

/// A rule every few minutes or hours, without a COUNT, has the same
/// occurrences after any later start on its grid (DTSTART plus whole
/// intervals, in local wall time), so a walk can start near where it is
/// asked instead of at a DTSTART years back.
#[derive(Debug, Clone)]
struct Rebase {
    zone_name: String,
    zone: TimeZone,
    start: DateTime,
    rule: String,
    period: SignedDuration,
}

impl Recurrence {
    /// Reads the form [`normalize_rrule`] writes.
    pub fn parse(normalized: &str) -> Result<Recurrence, AutomationError> {
        let set = RRuleSet::from_str(normalized)
            .map_err(|e| AutomationError::invalid("rrule", rrule_message(&e)))?;
        Ok(Recurrence {
            set: set.limit(),
            rebase: rebase_of(normalized),
        })
    }

    /// The occurrences in order, from at or before `from` (every occurrence
    /// at or after `from` is among them).
    pub fn ticks_from(&self, from: Timestamp) -> impl Iterator<Item = Timestamp> {
        let mut steps = 0_u64;
        self.set_for(from)
            .into_owned()
            .into_iter()
            .map_while(move |at| {
                steps += 1;
                if steps > MAX_STEPS {
                    return None;
                }
                Timestamp::new(at.timestamp(), 0).ok()
            })
    }

    fn set_for(&self, from: Timestamp) -> Cow<'_, RRuleSet> {
        let Some(rebase) = &self.rebase else {
            return Cow::Borrowed(&self.set);
        };
        let from = from.to_zoned(rebase.zone.clone()).datetime();
        let period = rebase.period.as_secs().max(1);
        // One period short, so occurrences early in `from`'s own period stay.
        let periods = rebase.start.duration_until(from).as_secs() / period - 1;
        // A start the gap skips or the fold repeats is not taken: try earlier.
        for shift in (periods.saturating_sub(3)..=periods)
            .rev()
            .filter(|s| *s >= 1)
        {
            let Some(start) = shift.checked_mul(period).and_then(|secs| {
                rebase
                    .start
                    .checked_add(SignedDuration::from_secs(secs))
                    .ok()
            }) else {
                continue;
            };
            let text = format!(
                "DTSTART;TZID={}:{}\nRRULE:{}",
                rebase.zone_name,
                ical_stamp(start),
                rebase.rule
            );
            if let Ok(set) = RRuleSet::from_str(&text) {
                return Cow::Owned(set.limit());
            }
        }
        Cow::Borrowed(&self.set)
    }
}

fn rebase_of(normalized: &str) -> Option<Rebase> {
    let (first, second) = normalized.split_once('\n')?;
    let (params, value) = first.strip_prefix("DTSTART;TZID=")?.split_once(':')?;
    let rule = second.strip_prefix("RRULE:")?;
    let mut unit: Option<i64> = None;
    let mut interval = 1_i64;
    for (key, val) in rule.split(';').filter_map(|p| p.split_once('=')) {
        match (key, val) {
            ("FREQ", "MINUTELY") => unit = Some(60),
            ("FREQ", "HOURLY") => unit = Some(3_600),
            ("INTERVAL", n) => interval = n.parse().ok()?,
            ("COUNT", _) => return None,
            _ => {}
        }
    }
    let (start, _, _) = ical_time(value)?;
    Some(Rebase {
        zone_name: params.to_owned(),
        zone: TimeZone::get(params).ok()?,
        start,
        rule: rule.to_owned(),
        period: SignedDuration::from_secs(unit?.checked_mul(interval)?),
    })
}

fn rrule_message(error: &RRuleError) -> String {
    match error {
        RRuleError::ParserError(e) => e.to_string(),
        RRuleError::ValidationError(e) => e.to_string(),
        RRuleError::IterError(e) => e.clone(),
    }
}

/// Reads an iCalendar DATE (`20260105`) or DATE-TIME (`20260105T090000`,
/// `Z` for UTC): the civil time, whether it was a bare date, and whether it
/// was UTC.
fn ical_time(value: &str) -> Option<(DateTime, bool, bool)> {
    let (digits, utc) = match value.strip_suffix('Z') {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    if !digits.is_ascii() {
        return None;
    }
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let number = |s: &str| s.parse::<i16>().ok();
    match digits.len() {
        8 if all_digits(digits) && !utc => {
            let date = Date::new(
                number(&digits[..4])?,
                i8::try_from(number(&digits[4..6])?).ok()?,
                i8::try_from(number(&digits[6..8])?).ok()?,
            )
            .ok()?;
            Some((date.to_datetime(Time::midnight()), true, false))
        }
        15 if digits.as_bytes()[8] == b'T'
            && all_digits(&digits[..8])
            && all_digits(&digits[9..]) =>
        {
            let (date, _, _) = ical_time(&digits[..8])?;
            let part = |range: std::ops::Range<usize>| {
                number(&digits[range]).and_then(|n| i8::try_from(n).ok())
            };
            let time = Time::new(part(9..11)?, part(11..13)?, part(13..15)?, 0).ok()?;
            Some((date.date().to_datetime(time), false, utc))
        }
        _ => None,
    }
}

fn ical_stamp(civil: DateTime) -> String {
    civil.strftime("%Y%m%dT%H%M%S").to_string()
}

/// The instant an iCalendar time names: UTC with `Z`, else local in `zone`
/// (a time the gap skips read with the offset before it, a repeated one as
/// the first, as RFC 5545 says).
fn instant_of(civil: DateTime, utc: bool, zone: &TimeZone) -> Option<Timestamp> {
    let zone = if utc { TimeZone::UTC } else { zone.clone() };
    civil.to_zoned(zone).ok().map(|z| z.timestamp())
}

/// Checks an RRULE and writes it in the form stored: a `DTSTART;TZID=`
/// line in the schedule's zone (the given DTSTART, or the first whole
/// minute after `created`), then `RRULE:` and the rule in capitals, with a
/// local or date-only `UNTIL` made UTC (a date means the end of that day,
/// local). Takes the rule alone (`FREQ=DAILY;BYHOUR=9`), with `RRULE:`, or
/// after a `DTSTART` line (`Z` for UTC, `TZID=`, or local in the
/// schedule's zone).
pub fn normalize_rrule(
    text: &str,
    zone_name: &str,
    zone: &TimeZone,
    created: Timestamp,
) -> Result<String, AutomationError> {
    let invalid = |message: String| AutomationError::invalid("rrule", message);
    let mut start: Option<Timestamp> = None;
    let mut rule: Option<String> = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let upper = line.to_ascii_uppercase();
        let body = if upper.starts_with("DTSTART") {
            if start.is_some() {
                return Err(invalid("has more than one DTSTART".into()));
            }
            start = Some(dtstart(&line["DTSTART".len()..], zone).map_err(invalid)?);
            continue;
        } else if let Some(body) = upper.strip_prefix("RRULE:") {
            body.to_owned()
        } else if upper.contains('=') && !upper.contains(':') {
            upper
        } else {
            let shown: String = line.chars().take(40).collect();
            return Err(invalid(format!(
                "takes one RRULE and an optional DTSTART line, not {shown:?}"
            )));
        };
        if rule.replace(body).is_some() {
            return Err(invalid("has more than one RRULE".into()));
        }
    }
    let rule = rule.ok_or_else(|| invalid("has no rule (such as FREQ=DAILY;BYHOUR=9)".into()))?;
    let mut parts = Vec::new();
    let mut until = None;
    for part in rule.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((key, value)) = part.split_once('=') else {
            return Err(invalid(format!("{part:?} is not KEY=VALUE")));
        };
        match key {
            "FREQ" if value == "SECONDLY" => {
                return Err(invalid(
                    "runs at most once a minute: FREQ=SECONDLY is not supported".into(),
                ));
            }
            "BYSECOND" => {
                return Err(invalid(
                    "runs at most once a minute: BYSECOND is not supported".into(),
                ));
            }
            "UNTIL" => {
                let at = until_instant(value, zone).map_err(invalid)?;
                until = Some(at);
                let utc = ical_stamp(at.to_zoned(TimeZone::UTC).datetime());
                parts.push(format!("UNTIL={utc}Z"));
            }
            _ => parts.push(format!("{key}={value}")),
        }
    }
    // Without a DTSTART, the next whole minute: after the creation, so
    // that COUNT counts runs still to come.
    let start = match start {
        Some(start) => start,
        None => created
            .round(
                jiff::TimestampRound::new()
                    .smallest(jiff::Unit::Minute)
                    .mode(jiff::RoundMode::Floor),
            )
            .ok()
            .and_then(|minute| minute.checked_add(SignedDuration::from_mins(1)).ok())
            .unwrap_or(created),
    };
    if let Some(until) = until.filter(|until| *until < start) {
        return Err(invalid(format!(
            "UNTIL ({until}) is before the first run can be ({start})"
        )));
    }
    let normalized = format!(
        "DTSTART;TZID={zone_name}:{}\nRRULE:{}",
        ical_stamp(start.to_zoned(zone.clone()).datetime()),
        parts.join(";")
    );
    // A zone jiff knows that the `rrule` crate's own database lacks.
    if let Err(RRuleError::ParserError(rrule::ParseError::InvalidTimezone(_))) =
        RRuleSet::from_str(&normalized)
    {
        return Err(AutomationError::invalid(
            "timeZone",
            format!("{zone_name} cannot be used with an RRULE; use a cron pattern or another zone"),
        ));
    }
    Recurrence::parse(&normalized)?;
    Ok(normalized)
}

/// A DTSTART line after its name: `;TZID=Zone:value`, `:value`,
/// `;VALUE=DATE:value`, as the instant it names.
fn dtstart(rest: &str, zone: &TimeZone) -> Result<Timestamp, String> {
    let Some((params, value)) = rest.split_once(':') else {
        return Err("DTSTART has no value (DTSTART:20260105T090000)".into());
    };
    let mut in_zone = zone.clone();
    for param in params.split(';').filter(|p| !p.trim().is_empty()) {
        let (key, val) = param.split_once('=').unwrap_or((param, ""));
        match key.trim().to_ascii_uppercase().as_str() {
            "TZID" => {
                in_zone = TimeZone::get(val.trim())
                    .map_err(|_| format!("DTSTART's TZID {val:?} is not an IANA time zone"))?;
            }
            "VALUE" => {}
            other => return Err(format!("DTSTART takes TZID or VALUE, not {other}")),
        }
    }
    let value = value.trim();
    let (civil, _, utc) =
        ical_time(value).ok_or_else(|| format!("DTSTART {value:?} is not a date or date-time"))?;
    instant_of(civil, utc, &in_zone).ok_or_else(|| format!("DTSTART {value:?} is out of range"))
}

/// The instant an UNTIL value names: a date-time without `Z` is local in
/// `zone`, a bare date the end of that local day.
fn until_instant(value: &str, zone: &TimeZone) -> Result<Timestamp, String> {
    let (civil, date_only, utc) =
        ical_time(value).ok_or_else(|| format!("UNTIL {value:?} is not a date or date-time"))?;
    let civil = if date_only {
        civil
            .with()
            .hour(23)
            .minute(59)
            .second(59)
            .build()
            .unwrap_or(civil)
    } else {
        civil
    };
    instant_of(civil, utc, zone).ok_or_else(|| format!("UNTIL {value:?} is out of range"))
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

    fn first_after(recurrence: &Recurrence, after: Timestamp) -> Option<Timestamp> {
        recurrence.ticks_from(after).find(|t| *t > after)
    }

    #[test]
    fn an_rrule_gets_a_dtstart_in_its_zone_and_a_utc_until() {
        let zone = berlin();
        let created = ts("2026-01-05T08:17:45Z");
        let text = normalize_rrule(
            "freq=daily;byhour=9;byminute=0",
            "Europe/Berlin",
            &zone,
            created,
        )
        .unwrap();
        assert_eq!(
            text,
            "DTSTART;TZID=Europe/Berlin:20260105T091800\nRRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0"
        );
        let daily = Recurrence::parse(&text).unwrap();
        assert_eq!(
            first_after(&daily, created),
            Some(ts("2026-01-06T08:00:00Z"))
        );

        let given = normalize_rrule(
            "DTSTART:20260301T060000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260331",
            "Europe/Berlin",
            &zone,
            created,
        )
        .unwrap();
        assert_eq!(
            given,
            "DTSTART;TZID=Europe/Berlin:20260301T070000\n\
             RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260331T215959Z"
        );
        let mondays: Vec<Timestamp> = Recurrence::parse(&given)
            .unwrap()
            .ticks_from(created)
            .collect();
        // 2, 9, 16, 23 and 30 March at 07:00 local (CET, then CEST).
        assert_eq!(mondays.len(), 5);
        assert_eq!(mondays[0], ts("2026-03-02T06:00:00Z"));
        assert_eq!(mondays[4], ts("2026-03-30T05:00:00Z"));
    }

    #[test]
    fn a_bad_rrule_is_refused_naming_the_field() {
        let zone = berlin();
        let created = ts("2026-01-05T08:00:00Z");
        for bad in [
            "",
            "FREQ=FORTNIGHTLY",
            "FREQ=DAILY;BYHOUR=25",
            "FREQ=DAILY;FOO=1",
            "FREQ=SECONDLY",
            "FREQ=MINUTELY;BYSECOND=0,30",
            "FREQ=DAILY;COUNT=x",
            "DTSTART:yesterday\nRRULE:FREQ=DAILY",
            "DTSTART;TZID=Nowhere/City:20260101T090000\nRRULE:FREQ=DAILY",
            "RRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY",
            "EXDATE:20260101T090000Z\nRRULE:FREQ=DAILY",
            "FREQ=DAILY;UNTIL=soon",
            "FREQ=DAILY;UNTIL=20250101T000000Z",
            "DTSTART:2026010ÄT0900Z\nRRULE:FREQ=DAILY",
        ] {
            let error = normalize_rrule(bad, "Europe/Berlin", &zone, created).unwrap_err();
            assert_eq!(error.field(), Some("rrule"), "{bad:?}: {error}");
        }
    }

    #[test]
    fn a_frequent_rule_from_years_back_is_walked_from_near_now() {
        let zone = berlin();
        let created = ts("2026-01-05T08:00:00Z");
        for (rule, after, expected) in [
            (
                "FREQ=MINUTELY",
                "2026-01-05T08:00:30Z",
                "2026-01-05T08:01:00Z",
            ),
            // 01:00 local on 2024-01-01 plus whole multiples of 7 minutes
            // of local wall time: 08:56, then 09:03 local.
            (
                "FREQ=MINUTELY;INTERVAL=7",
                "2026-01-05T08:00:00Z",
                "2026-01-05T08:03:00Z",
            ),
            (
                "FREQ=HOURLY;BYMINUTE=30;BYDAY=MO",
                "2026-01-05T08:40:00Z",
                "2026-01-05T09:30:00Z",
            ),
            // On the spring-forward day, every five hours of wall time
            // (04:00, 09:00, 14:00, 19:00 local): 14:00 is not after itself.
            (
                "FREQ=HOURLY;INTERVAL=5",
                "2026-03-29T12:00:00Z",
                "2026-03-29T17:00:00Z",
            ),
        ] {
            let text = normalize_rrule(
                &format!("DTSTART:20240101T000000Z\nRRULE:{rule}"),
                "Europe/Berlin",
                &zone,
                created,
            )
            .unwrap();
            let rebased = Recurrence::parse(&text).unwrap();
            assert!(rebased.rebase.is_some(), "{rule}");
            let started = std::time::Instant::now();
            let near = first_after(&rebased, ts(after));
            let quick = started.elapsed();
            let whole = Recurrence {
                rebase: None,
                ..rebased.clone()
            };
            assert_eq!(near, first_after(&whole, ts(after)), "{rule}");
            assert_eq!(near, Some(ts(expected)), "{rule}");
            assert!(quick < std::time::Duration::from_millis(200), "{quick:?}");
        }
    }
}
