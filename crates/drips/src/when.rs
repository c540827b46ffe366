//! When a scheduled message or a drip is due: the timing fields checked
//! into their stored form, compiled, and what a look at `now` decides.
//!
//! A recurring timing is the `automations` crate's schedule rule (a
//! five-field cron pattern or an RFC 5545 RRULE in an IANA zone, with its
//! daylight-saving behaviour), read with `missed: run_once`: ticks that
//! passed unseen (the server was down, the feature off) make **one**
//! delivery, never one each, and the next tick is always after now. A
//! one-off timing (`at`) is due once, at its moment or at the first look
//! after it.
//!
//! `at` is RFC 3339 with an offset (`2026-01-05T09:00:00+01:00`, `…Z`), or
//! a local `YYYY-MM-DDTHH:MM[:SS]` read in `timeZone`; a local time the
//! spring-forward gap skips is read with the offset before it (02:30 is
//! 03:30), a repeated one as its first occurrence, as RFC 5545 reads a
//! DTSTART.

use automations::rule::{Rule, time_zone};
use automations::schedule::MAX_SPEC_BYTES;
use automations::schedule::never_again;
use automations::{Missed, Problems, ical::normalize_rrule, stamp};
use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use crate::error::DripError;

/// How late a tick may be noticed and still count as on time: beyond it a
/// delivery says it is late.
pub const ON_TIME: SignedDuration = automations::due::ON_TIME;

/// How far in the past an `at` may be and still be taken (delivered at
/// once): a time typed to the minute is already a little past.
const AT_GRACE: SignedDuration = SignedDuration::from_secs(60);

/// How a timing is stored: its kind beside its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `spec` is the moment, in the stored (UTC) form.
    Once,
    Cron,
    /// `spec` is the RRULE with its DTSTART line, as normalized.
    Rrule,
}

impl Kind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::Once => "once",
            Kind::Cron => "cron",
            Kind::Rrule => "rrule",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [Kind::Once, Kind::Cron, Kind::Rrule]
            .into_iter()
            .find(|k| k.as_str() == text)
    }
}

/// The timing fields of a request, as given.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Fields<'a> {
    pub at: Option<&'a str>,
    pub cron: Option<&'a str>,
    pub rrule: Option<&'a str>,
    pub time_zone: Option<&'a str>,
}

/// A timing checked: what is stored, and the first tick.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    pub kind: Kind,
    pub spec: String,
    pub time_zone: String,
    pub first: Timestamp,
}

/// A timing compiled, ready to ask.
#[derive(Debug, Clone)]
pub(crate) enum Cadence {
    Once,
    /// Boxed: a compiled rule is large beside a one-off.
    Rule(Box<Rule>),
}

/// One delivery to make now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Due {
    /// The tick it stands for: the latest that has come.
    pub tick: Timestamp,
    /// Noticed later than [`ON_TIME`] after its tick.
    pub late: bool,
    /// Earlier ticks that passed unseen and are folded into this one.
    pub passed_over: u64,
}

/// What a look at `now` decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub due: Option<Due>,
    /// The first tick strictly after now; `None` once there is none.
    pub next_at: Option<Timestamp>,
}

/// Checks the timing fields, adding every problem to `problems`: exactly
/// one of `at` (when `once` is allowed), `cron` or `rrule`, and an IANA
/// `timeZone` (which `at` with an offset may leave out: it is then `UTC`).
/// A bad rule is read in UTC when the zone is bad too, so both are told.
/// The checked timing when it could be read (other fields may still be
/// wrong).
pub(crate) fn check_into(
    fields: Fields<'_>,
    now: Timestamp,
    once: bool,
    problems: &mut Problems,
) -> Result<Option<Checked>, DripError> {
    let (at, cron, rrule) = (given(fields.at), given(fields.cron), given(fields.rrule));
    let first_field = if once { "at" } else { "cron" };
    if at.is_some() && !once {
        problems.add(
            "at",
            "A drip repeats: give a cron pattern or an RRULE, not a single time.",
        );
        return Ok(None);
    }
    let choices =
        usize::from(at.is_some()) + usize::from(cron.is_some()) + usize::from(rrule.is_some());
    if choices != 1 {
        let wanted = if once {
            "Give a time (once), or a cron pattern or an RRULE (repeating)"
        } else {
            "Give a cron pattern or an RRULE"
        };
        let message = if choices == 0 {
            format!("{wanted}.")
        } else {
            format!("{wanted}, only one of them.")
        };
        problems.add(first_field, message);
        return Ok(None);
    }
    let zone_given = given(fields.time_zone);
    // An instant with its offset needs no zone: it is then UTC.
    let offset_given = at.is_some_and(|at| at.parse::<Timestamp>().is_ok());
    let zone = match (zone_given, offset_given) {
        (None, true) => Some(("UTC".to_owned(), TimeZone::UTC)),
        (zone, _) => match time_zone(zone.unwrap_or_default()) {
            Ok(zone) => Some(zone),
            Err(error) => {
                problems.absorb(error)?;
                None
            }
        },
    };
    if let Some(at) = at {
        return Ok(zone.and_then(|(name, zone)| check_at(at, name, &zone, now, problems)));
    }
    let zone_known = zone.is_some();
    let (zone_name, zone) = zone.unwrap_or_else(|| ("UTC".to_owned(), TimeZone::UTC));
    let (kind, field, text) = match (cron, rrule) {
        (Some(cron), _) => (Kind::Cron, "cron", cron),
        (_, Some(rrule)) => (Kind::Rrule, "rrule", rrule),
        _ => return Ok(None),
    };
    if text.len() > MAX_SPEC_BYTES {
        problems.add(
            field,
            format!("A rule can be at most {MAX_SPEC_BYTES} bytes."),
        );
        return Ok(None);
    }
    let compiled = if kind == Kind::Cron {
        let pattern = text.split_whitespace().collect::<Vec<_>>().join(" ");
        Rule::cron(&pattern, &zone).map(|rule| (pattern, rule))
    } else {
        normalize_rrule(text, &zone_name, &zone, now)
            .and_then(|normalized| Ok((normalized.clone(), Rule::rrule(&normalized, &zone)?)))
    };
    let (spec, rule) = match compiled {
        Ok(compiled) => compiled,
        Err(error) => {
            problems.absorb(error)?;
            return Ok(None);
        }
    };
    if !zone_known {
        return Ok(None);
    }
    let Some(first) = rule.next_after(now) else {
        problems.add(field, never_again(field));
        return Ok(None);
    };
    Ok(Some(Checked {
        kind,
        spec,
        time_zone: zone_name,
        first,
    }))
}

/// A field given and not blank.
fn given(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|s| !s.is_empty())
}

/// `at`: an instant with its offset, or a local time in the zone.
fn check_at(
    at: &str,
    zone_name: String,
    zone: &TimeZone,
    now: Timestamp,
    problems: &mut Problems,
) -> Option<Checked> {
    let moment = match at.parse::<Timestamp>() {
        Ok(moment) => Some(moment),
        Err(_) => at
            .parse::<DateTime>()
            .ok()
            .and_then(|civil| civil.to_zoned(zone.clone()).ok())
            .map(|zoned| zoned.timestamp()),
    };
    let Some(moment) = moment else {
        problems.add(
            "at",
            format!("{at} is not a date and time: choose one, such as 2026-01-05 09:00."),
        );
        return None;
    };
    if moment < now.checked_sub(AT_GRACE).unwrap_or(now) {
        problems.add(
            "at",
            format!("That time has passed: {}.", passed_words(moment, now, zone)),
        );
        return None;
    }
    Some(Checked {
        kind: Kind::Once,
        spec: stamp(moment),
        time_zone: zone_name,
        first: moment,
    })
}

/// A moment before now as a person says it, in the zone it was given in:
/// "10:00 this morning", "21:30 yesterday", "09:00 on 3 March 2026".
pub fn passed_words(moment: Timestamp, now: Timestamp, zone: &TimeZone) -> String {
    let then = moment.to_zoned(zone.clone());
    let today = now.to_zoned(zone.clone()).date();
    let clock = then.strftime("%H:%M").to_string();
    if then.date() == today {
        let part = match then.hour() {
            0..=11 => "this morning",
            12..=17 => "this afternoon",
            _ => "this evening",
        };
        return format!("{clock} {part}");
    }
    if today.yesterday().is_ok_and(|y| y == then.date()) {
        return format!("{clock} yesterday");
    }
    format!("{clock} on {}", then.strftime("%-d %B %Y"))
}

/// A stored timing, compiled.
pub(crate) fn cadence(kind: Kind, spec: &str, zone_name: &str) -> Result<Cadence, DripError> {
    if kind == Kind::Once {
        return Ok(Cadence::Once);
    }
    let (_, zone) = time_zone(zone_name)?;
    Ok(Cadence::Rule(Box::new(if kind == Kind::Cron {
        Rule::cron(spec, &zone)?
    } else {
        Rule::rrule(spec, &zone)?
    })))
}

impl Cadence {
    /// The first tick strictly after `after` (a one-off has none again).
    pub(crate) fn next_after(&self, after: Timestamp) -> Option<Timestamp> {
        match self {
            Cadence::Once => None,
            Cadence::Rule(rule) => rule.next_after(after),
        }
    }
}

/// What something waiting for `next_at` does at `now`.
pub(crate) fn decide(cadence: &Cadence, next_at: Timestamp, now: Timestamp) -> Decision {
    if next_at > now {
        return Decision {
            due: None,
            next_at: Some(next_at),
        };
    }
    let late = |tick: Timestamp| now.duration_since(tick) > ON_TIME;
    match cadence {
        Cadence::Once => Decision {
            due: Some(Due {
                tick: next_at,
                late: late(next_at),
                passed_over: 0,
            }),
            next_at: None,
        },
        Cadence::Rule(rule) => {
            let decision = automations::decide(rule, Missed::RunOnce, next_at, now);
            Decision {
                due: decision.run.map(|run| Due {
                    tick: run.tick,
                    late: late(run.tick),
                    passed_over: decision.passed_over,
                }),
                next_at: decision.next_at,
            }
        }
    }
}

pub(crate) fn parse_stamp(text: &str) -> Result<Timestamp, DripError> {
    text.parse().map_err(|_| DripError::Corrupt("time"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    fn fields<'a>(
        at: Option<&'a str>,
        rrule: Option<&'a str>,
        zone: Option<&'a str>,
    ) -> Fields<'a> {
        Fields {
            at,
            rrule,
            time_zone: zone,
            ..Fields::default()
        }
    }

    const NOW: &str = "2026-01-05T08:00:00Z";

    /// The timing checked alone, as a form with no other field.
    fn check(fields: Fields<'_>, now: Timestamp, once: bool) -> Result<Checked, DripError> {
        let mut problems = Problems::new();
        let checked = check_into(fields, now, once, &mut problems)?;
        match checked {
            Some(checked) if problems.is_empty() => Ok(checked),
            _ => Err(problems.into()),
        }
    }

    #[test]
    fn at_takes_an_offset_or_a_local_time_in_its_zone() {
        let now = ts(NOW);
        let with_offset = check(
            fields(Some("2026-01-05T10:00:00+01:00"), None, None),
            now,
            true,
        )
        .unwrap();
        assert_eq!(with_offset.first, ts("2026-01-05T09:00:00Z"));
        assert_eq!(with_offset.time_zone, "UTC");
        assert_eq!(with_offset.spec, "2026-01-05T09:00:00.000Z");
        let local = check(
            fields(Some("2026-01-05T10:00"), None, Some("europe/berlin")),
            now,
            true,
        )
        .unwrap();
        assert_eq!(local.first, ts("2026-01-05T09:00:00Z"));
        assert_eq!(local.time_zone, "Europe/Berlin");
        // In the spring gap: read with the offset before it.
        let gap = check(
            fields(Some("2026-03-29T02:30"), None, Some("Europe/Berlin")),
            now,
            true,
        )
        .unwrap();
        assert_eq!(gap.first, ts("2026-03-29T01:30:00Z"));
        // A minute typed just now is taken.
        assert!(check(fields(Some("2026-01-05T07:59:30Z"), None, None), now, true).is_ok());
    }

    #[test]
    fn bad_timings_name_their_field() {
        let now = ts(NOW);
        let cases = [
            (fields(None, None, Some("UTC")), true, "at"),
            (
                fields(Some("2026-01-06T09:00Z"), Some("FREQ=DAILY"), Some("UTC")),
                true,
                "at",
            ),
            (fields(Some("tomorrow"), None, Some("UTC")), true, "at"),
            (fields(Some("2026-01-04T09:00:00Z"), None, None), true, "at"),
            (
                fields(Some("2026-01-06T09:00"), None, None),
                true,
                "timeZone",
            ),
            (
                fields(Some("2026-01-06T09:00"), None, Some("Mars/Base")),
                true,
                "timeZone",
            ),
            (
                fields(None, Some("FREQ=FORTNIGHTLY"), Some("UTC")),
                true,
                "rrule",
            ),
            (
                fields(None, Some("FREQ=DAILY"), Some("Nowhere/City")),
                true,
                "timeZone",
            ),
            (
                fields(Some("2026-01-06T09:00Z"), None, Some("UTC")),
                false,
                "at",
            ),
            (fields(None, None, Some("UTC")), false, "cron"),
            (
                Fields {
                    cron: Some("61 * * * *"),
                    time_zone: Some("UTC"),
                    ..Fields::default()
                },
                false,
                "cron",
            ),
            (
                Fields {
                    cron: Some("0 0 30 2 *"),
                    time_zone: Some("UTC"),
                    ..Fields::default()
                },
                false,
                "cron",
            ),
        ];
        for (given, once, field) in cases {
            let error = check(given, now, once).unwrap_err();
            assert_eq!(error.field(), Some(field), "{given:?}: {error}");
        }
    }

    #[test]
    fn a_one_off_is_due_once_and_says_when_it_is_late() {
        let at = ts("2026-01-05T09:00:00Z");
        let early = decide(&Cadence::Once, at, ts("2026-01-05T08:59:59Z"));
        assert_eq!(
            early,
            Decision {
                due: None,
                next_at: Some(at)
            }
        );
        let on_time = decide(&Cadence::Once, at, ts("2026-01-05T09:00:30Z"));
        assert_eq!(on_time.due.map(|d| (d.tick, d.late)), Some((at, false)));
        assert_eq!(on_time.next_at, None);
        let late = decide(&Cadence::Once, at, ts("2026-01-05T12:00:00Z"));
        assert_eq!(late.due.map(|d| d.late), Some(true));
    }

    #[test]
    fn ticks_missed_while_down_make_one_late_delivery() {
        let timing = check(
            Fields {
                cron: Some("0 * * * *"),
                time_zone: Some("UTC"),
                ..Fields::default()
            },
            ts(NOW),
            false,
        )
        .unwrap();
        assert_eq!(timing.first, ts("2026-01-05T09:00:00Z"));
        let cadence = cadence(timing.kind, &timing.spec, &timing.time_zone).unwrap();
        let back = decide(&cadence, timing.first, ts("2026-01-05T12:30:00Z"));
        let due = back.due.unwrap();
        assert_eq!(
            (due.tick, due.late, due.passed_over),
            (ts("2026-01-05T12:00:00Z"), true, 3)
        );
        assert_eq!(back.next_at, Some(ts("2026-01-05T13:00:00Z")));
        assert_eq!(
            cadence.next_after(ts("2026-01-05T13:00:00Z")),
            Some(ts("2026-01-05T14:00:00Z"))
        );
        assert_eq!(Cadence::Once.next_after(ts(NOW)), None);
    }

    #[test]
    fn kinds_and_stamps_round_trip() {
        for kind in [Kind::Once, Kind::Cron, Kind::Rrule] {
            assert_eq!(Kind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(Kind::parse("weekly"), None);
        let at = ts("2026-03-29T01:00:00Z");
        assert_eq!(parse_stamp(&stamp(at)).unwrap(), at);
        assert!(parse_stamp("soon").is_err());
    }

    fn said(error: DripError) -> Vec<(&'static str, String)> {
        match error {
            DripError::Fields(list) => list.into_iter().map(|p| (p.field, p.message)).collect(),
            other => panic!("not a list of fields: {other}"),
        }
    }

    #[test]
    fn a_time_that_has_passed_is_said_as_a_person_would() {
        let now = ts("2026-11-27T15:00:00Z");
        let berlin = TimeZone::get("Europe/Berlin").unwrap();
        let utc = TimeZone::UTC;
        let table = [
            ("2026-11-27T10:00:00Z", &utc, "10:00 this morning"),
            ("2026-11-27T13:15:00Z", &utc, "13:15 this afternoon"),
            ("2026-11-26T21:30:00Z", &utc, "21:30 yesterday"),
            ("2026-11-26T23:30:00Z", &berlin, "00:30 this morning"),
            ("2026-03-03T09:00:00Z", &utc, "09:00 on 3 March 2026"),
        ];
        for (moment, zone, words) in table {
            assert_eq!(passed_words(ts(moment), now, zone), words, "{moment}");
        }
        let error = check(fields(Some("2026-11-27T10:00:00Z"), None, None), now, true).unwrap_err();
        assert_eq!(
            said(error),
            [("at", "That time has passed: 10:00 this morning.".to_owned())]
        );
    }

    #[test]
    fn a_bad_rule_and_a_bad_zone_are_both_said() {
        let error = check(
            Fields {
                cron: Some("61 25 * * *"),
                time_zone: Some("Mars/Olympus"),
                ..Fields::default()
            },
            ts(NOW),
            false,
        )
        .unwrap_err();
        assert_eq!(
            said(error),
            [
                (
                    "timeZone",
                    "No time zone is called Mars/Olympus: use a name such as Europe/Berlin."
                        .to_owned()
                ),
                ("cron", "The minute must be 0–59, not 61.".to_owned()),
                ("cron", "The hour must be 0–23, not 25.".to_owned()),
            ]
        );
    }
}
