//! An event's occurrences inside a window: its RRULE walked in its own
//! zone's wall time (so 09:00 stays 09:00 across a daylight-saving change),
//! RDATEs added, EXDATEs removed, and each RECURRENCE-ID override standing
//! in for the occurrence it replaces. A cancelled event or override shows
//! nothing. All-day events are dates: they are kept as UTC midnights and
//! flagged, so a date never moves with the reader's zone.

use std::collections::HashSet;

use jiff::civil::DateTime;

use crate::ics::{Component, Property, Stamp, parse_duration, parse_stamp};
use crate::recur::{Cut, civil_secs, from_civil_secs, walk};
use crate::zone::{Zone, Zones};

/// The most occurrences one event keeps inside a window (a daily event
/// over the default window has about 460).
pub(crate) const MAX_IN_WINDOW: usize = 5_000;

/// The longest an event may last: a DURATION of centuries is read as this.
const MAX_LENGTH: i64 = 10 * 366 * 86_400;

/// Unix seconds, `from` inclusive, `to` exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub from: i64,
    pub to: i64,
}

/// One occurrence of one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Occ {
    pub uid: String,
    pub start: i64,
    pub end: i64,
    pub all_day: bool,
    pub recurring: bool,
    pub summary: String,
    pub location: Option<String>,
}

impl Window {
    fn shows(&self, start: i64, end: i64) -> bool {
        start < self.to && (end > self.from || (end == start && start >= self.from))
    }
}

/// When an event (or an override) happens.
struct Timing {
    zone: Zone,
    all_day: bool,
    /// DTSTART's civil time in `zone`.
    civil: DateTime,
    start: i64,
    length: i64,
}

/// The occurrences of `events` (every VEVENT of one object, overrides
/// included) inside `window`; what cannot be read goes to `zones.warnings`.
/// Their rules walk on `zones.budget`, the whole read's.
pub(crate) fn expand(events: &[&Component], zones: &mut Zones<'_>, window: Window) -> Vec<Occ> {
    let mut uids: Vec<&str> = Vec::new();
    for event in events {
        let uid = uid_of(event);
        if !uids.contains(&uid) {
            uids.push(uid);
        }
    }
    let mut out = Vec::new();
    for uid in uids {
        let group: Vec<&Component> = events
            .iter()
            .copied()
            .filter(|e| uid_of(e) == uid)
            .collect();
        expand_one(uid, &group, zones, window, &mut out);
    }
    out
}

fn uid_of(event: &Component) -> &str {
    event.prop("UID").map_or("", |p| p.value.trim())
}

fn cancelled(event: &Component) -> bool {
    event
        .prop("STATUS")
        .is_some_and(|p| p.value.trim().eq_ignore_ascii_case("CANCELLED"))
}

fn expand_one(
    uid: &str,
    group: &[&Component],
    zones: &mut Zones<'_>,
    window: Window,
    out: &mut Vec<Occ>,
) {
    let master = group.iter().find(|e| e.prop("RECURRENCE-ID").is_none());
    let overrides: Vec<&&Component> = group
        .iter()
        .filter(|e| e.prop("RECURRENCE-ID").is_some())
        .collect();
    let master_timing = master.and_then(|m| timing(m, zones));
    let summary = |event: &Component| {
        event
            .text("SUMMARY")
            .or_else(|| master.and_then(|m| m.text("SUMMARY")))
            .unwrap_or_default()
    };
    let location = |event: &Component| {
        event
            .text("LOCATION")
            .or_else(|| master.and_then(|m| m.text("LOCATION")))
            .filter(|l| !l.is_empty())
    };
    let recurring = master.is_some_and(|m| m.prop("RRULE").is_some() || m.prop("RDATE").is_some())
        || !overrides.is_empty();
    let occ = |event: &Component, start: i64, length: i64, all_day: bool| Occ {
        uid: uid.to_owned(),
        start,
        end: start + length,
        all_day,
        recurring,
        summary: summary(event),
        location: location(event),
    };

    let mut replaced: HashSet<i64> = HashSet::new();
    for event in &overrides {
        let Some(t) = master_timing.as_ref() else {
            if let Some(own) = timing(event, zones)
                && !cancelled(event)
                && window.shows(own.start, own.start + own.length)
            {
                out.push(occ(event, own.start, own.length, own.all_day));
            }
            continue;
        };
        if let Some(id) = event.prop("RECURRENCE-ID") {
            replaced.extend(civil_in(id, &t.zone, zones));
        }
        if cancelled(event) {
            continue;
        }
        let own = timing(event, zones);
        let (start, length, all_day) = match own {
            Some(o) => (o.start, o.length, o.all_day),
            None => continue,
        };
        if window.shows(start, start + length) {
            out.push(occ(event, start, length, all_day));
        }
    }

    let (Some(master), Some(t)) = (master, master_timing) else {
        return;
    };
    if cancelled(master) {
        return;
    }
    if !recurring || (master.prop("RRULE").is_none() && master.prop("RDATE").is_none()) {
        if window.shows(t.start, t.start + t.length) {
            out.push(occ(master, t.start, t.length, t.all_day));
        }
        return;
    }
    let mut civil: Vec<i64> = vec![civil_secs(t.civil)];
    // One day past the window's end in the zone's wall time, whatever its offset.
    let end = civil_secs(t.zone.civil(window.to)) + 86_400;
    let budget = zones.budget.clone();
    for rule in master.props("RRULE") {
        let until = |s: Stamp| match s {
            Stamp::Utc(u) => t.zone.civil(civil_secs(u)),
            other => other.civil(),
        };
        match walk(t.civil, &rule.value, until, end, &budget) {
            Ok(found) => {
                match found.cut {
                    Some(Cut::Rule) => zones.warnings.push(format!(
                        "event {uid}: its rule repeats too often; later occurrences are not shown"
                    )),
                    Some(Cut::Read) => zones.warnings.push(format!(
                        "event {uid}: the calendar's rules together repeat too often; \
                         its later occurrences are not shown"
                    )),
                    None => {}
                }
                civil.extend(found.civil);
            }
            Err(e) => zones.warnings.push(format!(
                "event {uid}: its RRULE cannot be read ({e}); only its first occurrence is shown"
            )),
        }
    }
    for rdate in master.props("RDATE") {
        civil.extend(civil_in(rdate, &t.zone, zones));
    }
    let excluded: HashSet<i64> = master
        .props("EXDATE")
        .flat_map(|p| civil_in(p, &t.zone, zones))
        .collect();
    civil.sort_unstable();
    civil.dedup();
    let mut kept = 0;
    for c in civil {
        if excluded.contains(&c) || replaced.contains(&c) {
            continue;
        }
        let start = if t.all_day {
            c
        } else {
            t.zone.instant(from_civil_secs(c))
        };
        if window.shows(start, start + t.length) {
            kept += 1;
            if kept > MAX_IN_WINDOW {
                break;
            }
            out.push(occ(master, start, t.length, t.all_day));
        }
    }
}

/// The values of a date-list property (EXDATE, RDATE, RECURRENCE-ID) as
/// civil seconds in `zone`, the master's zone, whatever zone each names.
fn civil_in(prop: &Property, zone: &Zone, zones: &mut Zones<'_>) -> Vec<i64> {
    let own = prop.param("TZID").map(|tzid| zones.get(tzid));
    prop.value
        .split(',')
        // A PERIOD (RDATE;VALUE=PERIOD) counts by its start.
        .filter_map(|v| parse_stamp(v.split('/').next().unwrap_or(v)))
        .map(|stamp| match (stamp, &own) {
            (Stamp::Utc(u), _) => civil_secs(zone.civil(civil_secs(u))),
            (Stamp::Local(l), Some(other)) => civil_secs(zone.civil(other.instant(l))),
            (other, _) => civil_secs(other.civil()),
        })
        .collect()
}

/// DTSTART and the length of an event or override; `None` without a
/// readable DTSTART.
fn timing(event: &Component, zones: &mut Zones<'_>) -> Option<Timing> {
    let prop = event.prop("DTSTART")?;
    let stamp = parse_stamp(&prop.value)?;
    let (zone, all_day) = zone_of(prop, stamp, zones);
    let civil = stamp.civil();
    let start = if all_day {
        civil_secs(civil)
    } else {
        zone.instant(civil)
    };
    let length = if let Some(end) = event.prop("DTEND") {
        parse_stamp(&end.value).map_or(0, |e| {
            let (end_zone, end_all_day) = zone_of(end, e, zones);
            let end_at = if end_all_day {
                civil_secs(e.civil())
            } else {
                end_zone.instant(e.civil())
            };
            end_at - start
        })
    } else if let Some(duration) = event.prop("DURATION") {
        parse_duration(&duration.value).unwrap_or(0)
    } else if all_day {
        86_400
    } else {
        0
    };
    Some(Timing {
        zone,
        all_day,
        civil,
        start,
        length: length.clamp(0, MAX_LENGTH),
    })
}

fn zone_of(prop: &Property, stamp: Stamp, zones: &mut Zones<'_>) -> (Zone, bool) {
    match stamp {
        Stamp::Date(_) => (Zone::Jiff(jiff::tz::TimeZone::UTC), true),
        Stamp::Utc(_) => (Zone::Jiff(jiff::tz::TimeZone::UTC), false),
        Stamp::Local(_) => match prop.param("TZID") {
            Some(tzid) => (zones.get(tzid), false),
            None => (zones.floating(), false),
        },
    }
}

#[cfg(test)]
#[path = "expand_tests.rs"]
mod tests;
