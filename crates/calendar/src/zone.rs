//! The time zone a TZID names, in this order: an IANA name through jiff's
//! bundled database (the same rules on every machine); else the
//! VTIMEZONE the calendar itself defines under that TZID; else an IANA name
//! at the end of a prefixed TZID (`/mozilla.org/20050126_1/Europe/Berlin`);
//! else the zone is unknown, and the time is read as floating (in the
//! installation's zone) with a warning that the account shows. Never a
//! panic: a VTIMEZONE that cannot be read is unknown too.

use std::collections::HashMap;
use std::sync::Arc;

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

use crate::ics::{Component, Stamp, parse_offset, parse_stamp};
use crate::recur::{Budget, Cut, civil_secs, from_civil_secs, walk};

/// A VTIMEZONE's observances are walked up to this year.
const LAST_YEAR: i16 = 2100;

#[derive(Debug, Clone)]
pub(crate) enum Zone {
    Jiff(TimeZone),
    Custom(Arc<Custom>),
}

impl Zone {
    /// The instant (Unix seconds) of a civil time in this zone: a time the
    /// spring gap skips is read with the offset before the gap, a time the
    /// autumn fold repeats as its first occurrence (RFC 5545 §3.3.5).
    pub fn instant(&self, civil: DateTime) -> i64 {
        match self {
            Zone::Jiff(tz) => civil
                .to_zoned(tz.clone())
                .map_or_else(|_| civil_secs(civil), |z| z.timestamp().as_second()),
            Zone::Custom(custom) => custom.instant(civil_secs(civil)),
        }
    }

    /// The civil time an instant is in this zone.
    pub fn civil(&self, instant: i64) -> DateTime {
        match self {
            Zone::Jiff(tz) => Timestamp::from_second(instant)
                .map_or_else(|_| from_civil_secs(instant), |t| tz.to_datetime(t)),
            Zone::Custom(custom) => from_civil_secs(instant + i64::from(custom.offset_at(instant))),
        }
    }
}

/// A zone from a VTIMEZONE: its transitions, as instants and the offset
/// from each on.
#[derive(Debug)]
pub(crate) struct Custom {
    transitions: Vec<(i64, i32)>,
    initial: i32,
    offsets: Vec<i32>,
}

impl Custom {
    fn offset_at(&self, instant: i64) -> i32 {
        let after = self.transitions.partition_point(|(at, _)| *at <= instant);
        match after {
            0 => self.initial,
            n => self.transitions[n - 1].1,
        }
    }

    fn instant(&self, civil: i64) -> i64 {
        let fits = self
            .offsets
            .iter()
            .map(|o| civil - i64::from(*o))
            .filter(|at| i64::from(self.offset_at(*at)) == civil - at)
            .min();
        fits.unwrap_or_else(|| {
            // In a gap: the offset in force just before it.
            let largest = self.offsets.iter().copied().max().unwrap_or(0);
            civil - i64::from(self.offset_at(civil - i64::from(largest)))
        })
    }

    /// Reads a VTIMEZONE, its rules walked on `budget`; `None` when it has
    /// no usable observance. The flag: whether the budget ran out on it.
    pub(crate) fn from_vtimezone(def: &Component, budget: &Budget) -> (Option<Custom>, bool) {
        let mut cut = false;
        let end = civil_secs(jiff::civil::date(LAST_YEAR, 1, 1).at(0, 0, 0, 0));
        let mut onsets: Vec<(i64, i32, i32)> = Vec::new();
        for observance in &def.children {
            if observance.name != "STANDARD" && observance.name != "DAYLIGHT" {
                continue;
            }
            let from = observance
                .prop("TZOFFSETFROM")
                .and_then(|p| parse_offset(&p.value));
            let to = observance
                .prop("TZOFFSETTO")
                .and_then(|p| parse_offset(&p.value));
            let start = observance
                .prop("DTSTART")
                .and_then(|p| parse_stamp(&p.value));
            let (Some(from), Some(to), Some(start)) = (from, to, start) else {
                continue;
            };
            let mut civil = vec![civil_secs(start.civil())];
            for rdate in observance.props("RDATE") {
                civil.extend(
                    rdate
                        .value
                        .split(',')
                        .filter_map(parse_stamp)
                        .map(|s| civil_secs(s.civil())),
                );
            }
            if let Some(rule) = observance.prop("RRULE") {
                // The UNTIL of an observance's rule is UTC: local is `from` later.
                let until = |s: Stamp| match s {
                    Stamp::Utc(t) => from_civil_secs(civil_secs(t) + i64::from(from)),
                    other => other.civil(),
                };
                if let Ok(found) = walk(start.civil(), &rule.value, until, end, budget) {
                    cut |= found.cut == Some(Cut::Read);
                    civil.extend(found.civil);
                }
            }
            onsets.extend(civil.into_iter().map(|c| (c - i64::from(from), to, from)));
        }
        onsets.sort_unstable();
        onsets.dedup_by_key(|o| o.0);
        let Some(initial) = onsets.first().map(|o| o.2) else {
            return (None, cut);
        };
        let mut offsets: Vec<i32> = onsets.iter().flat_map(|o| [o.1, o.2]).collect();
        offsets.sort_unstable();
        offsets.dedup();
        let custom = Custom {
            transitions: onsets.iter().map(|o| (o.0, o.1)).collect(),
            initial,
            offsets,
        };
        (Some(custom), cut)
    }
}

/// The zones one calendar object names, resolved once each.
pub(crate) struct Zones<'a> {
    defined: HashMap<String, &'a Component>,
    resolved: HashMap<String, Zone>,
    floating: Zone,
    /// The read's steps, which the VTIMEZONEs' rules and the events' share.
    pub budget: Budget,
    /// What the account should show: each TZID that could not be resolved,
    /// each rule that could not be read.
    pub warnings: Vec<String>,
}

impl<'a> Zones<'a> {
    /// `defined`: the VTIMEZONEs of the object (and of its subscription);
    /// `floating`: the zone of times without one; `budget`: the read's.
    pub fn new(defined: &[&'a Component], floating: &TimeZone, budget: &Budget) -> Self {
        let defined = defined
            .iter()
            .filter_map(|c| Some((c.prop("TZID")?.value.trim().to_owned(), *c)))
            .collect();
        Zones {
            defined,
            resolved: HashMap::new(),
            floating: Zone::Jiff(floating.clone()),
            budget: budget.clone(),
            warnings: Vec::new(),
        }
    }

    pub fn floating(&self) -> Zone {
        self.floating.clone()
    }

    /// The zone of `tzid`; the floating zone (and a warning) when unknown.
    pub fn get(&mut self, tzid: &str) -> Zone {
        let tzid = tzid.trim();
        if let Some(zone) = self.resolved.get(tzid) {
            return zone.clone();
        }
        let zone = self.lookup(tzid).unwrap_or_else(|| {
            self.warnings.push(format!(
                "unknown time zone {tzid:?}: its times are read in the local time zone"
            ));
            self.floating.clone()
        });
        self.resolved.insert(tzid.to_owned(), zone.clone());
        zone
    }

    fn lookup(&mut self, tzid: &str) -> Option<Zone> {
        if let Some(zone) = iana(tzid) {
            return Some(zone);
        }
        if let Some(def) = self.defined.get(tzid) {
            let (custom, cut) = Custom::from_vtimezone(def, &self.budget);
            if cut {
                self.warnings.push(format!(
                    "time zone {tzid:?}: the calendar's rules together repeat too often; \
                     its later offset changes are not known"
                ));
            }
            if let Some(custom) = custom {
                return Some(Zone::Custom(Arc::new(custom)));
            }
        }
        let segments: Vec<&str> = tzid.split('/').filter(|s| !s.is_empty()).collect();
        (1..segments.len().min(4))
            .rev()
            .find_map(|n| iana(&segments[segments.len() - n..].join("/")))
    }
}

fn iana(name: &str) -> Option<Zone> {
    if name.is_empty() || name.len() > 64 {
        return None;
    }
    match name {
        "Z" | "UTC" | "GMT" => Some(Zone::Jiff(TimeZone::UTC)),
        _ => TimeZone::get(name).ok().map(Zone::Jiff),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ics::parse;
    use jiff::civil::date;

    const CUSTOM: &str = "BEGIN:VCALENDAR
BEGIN:VTIMEZONE
TZID:Middle European
BEGIN:STANDARD
DTSTART:19701025T030000
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:19700329T020000
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
END:VTIMEZONE
END:VCALENDAR
";

    fn custom_zone() -> Zone {
        let roots = parse(CUSTOM).unwrap();
        let mut defs = Vec::new();
        roots[0].find_all("VTIMEZONE", &mut defs);
        let mut zones = Zones::new(&defs, &TimeZone::UTC, &Budget::per_read());
        let zone = zones.get("Middle European");
        assert!(zones.warnings.is_empty());
        zone
    }

    #[test]
    fn a_vtimezone_the_reads_budget_cannot_walk_keeps_its_first_onsets_and_warns() {
        let roots = parse(CUSTOM).unwrap();
        let mut defs = Vec::new();
        roots[0].find_all("VTIMEZONE", &mut defs);
        let mut zones = Zones::new(&defs, &TimeZone::UTC, &Budget::of(0));
        let zone = zones.get("Middle European");
        assert!(matches!(zone, Zone::Custom(_)));
        assert_eq!(zones.warnings.len(), 1, "{:?}", zones.warnings);
        assert!(zones.warnings[0].contains("later offset changes are not known"));
        // Only 1970's onsets: summer 2026 is read as standard time.
        let july = civil_secs(date(2026, 7, 1).at(12, 0, 0, 0));
        assert_eq!(zone.instant(from_civil_secs(july)), july - 3_600);
    }

    #[test]
    fn a_vtimezone_agrees_with_the_iana_zone_it_copies() {
        let custom = custom_zone();
        let berlin = Zone::Jiff(TimeZone::get("Europe/Berlin").unwrap());
        for civil in [
            date(2026, 1, 15).at(9, 0, 0, 0),
            date(2026, 3, 29).at(1, 59, 0, 0),
            date(2026, 3, 29).at(2, 30, 0, 0),
            date(2026, 3, 29).at(3, 0, 0, 0),
            date(2026, 10, 25).at(2, 30, 0, 0),
            date(2026, 10, 25).at(3, 0, 0, 0),
            date(2026, 7, 1).at(12, 0, 0, 0),
        ] {
            assert_eq!(custom.instant(civil), berlin.instant(civil), "{civil}");
            let at = berlin.instant(civil);
            assert_eq!(custom.civil(at), berlin.civil(at), "{civil}");
        }
    }

    #[test]
    fn unknown_and_prefixed_zones() {
        let mut zones = Zones::new(&[], &TimeZone::UTC, &Budget::per_read());
        let zone = zones.get("Mars/Olympus_Mons");
        assert_eq!(zones.warnings.len(), 1);
        let civil = date(2026, 6, 1).at(9, 0, 0, 0);
        assert_eq!(zone.instant(civil), civil_secs(civil));
        let mozilla = zones.get("/mozilla.org/20050126_1/Europe/Berlin");
        assert_eq!(mozilla.instant(civil), civil_secs(civil) - 7200);
        assert_eq!(zones.warnings.len(), 1);
    }
}
