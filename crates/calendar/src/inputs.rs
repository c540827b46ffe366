//! The crate's readers of what servers send, callable without a database or
//! a network: the same steps a sync takes on a subscription's file, a
//! CalDAV resource and a multistatus answer, minus the storing. The fuzz
//! targets (crates/fuzzing) drive these, so what they prove holds for the
//! sync itself.

use jiff::tz::TimeZone;

use crate::dav::multistatus;
use crate::error::CalendarError;
use crate::expand::{MAX_IN_WINDOW, Window};
use crate::ics::{self, Component};
use crate::import::{ZonesOf, occurrences_of};
use crate::recur::Budget;
use crate::subscription::split;
use crate::zone::Zones;

/// The most occurrences one event (one UID) shows inside a window,
/// overrides aside: an RRULE that never ends is walked at most
/// [`MAX_RULE_STEPS`] steps and its occurrences in the window cut here.
pub const MAX_OCCURRENCES_PER_EVENT: usize = MAX_IN_WINDOW;

/// The most steps one RRULE is walked, whatever it says (a warning says
/// when it was cut).
pub const MAX_RULE_STEPS: usize = crate::recur::MAX_STEPS;

/// The most steps all the RRULEs of one read are walked together: a
/// subscription's file, a CalDAV resource, or the resources one sync
/// downloads from one calendar. Once spent, the remaining rules of the
/// read keep what they walked (at least the event's first occurrence), each
/// with a warning naming its event, and [`Expanded::cut`] is set.
pub const MAX_STEPS_PER_READ: usize = crate::recur::MAX_STEPS_PER_READ;

/// What reading a document found: each occurrence's UID, start and end
/// (Unix seconds), and the warnings a sync would show on the account.
#[derive(Debug, Default)]
pub struct Expanded {
    pub occurrences: Vec<(String, i64, i64)>,
    pub warnings: Vec<String>,
    /// The rule steps the read walked, at most [`MAX_STEPS_PER_READ`].
    pub steps: usize,
    /// Whether [`MAX_STEPS_PER_READ`] cut the read's rules short.
    pub cut: bool,
}

/// An ICS subscription's file, read as a sync reads a changed one: split
/// into UID groups, each expanded for `from..to` (Unix seconds) with the
/// file's time zones, floating times in UTC. `Err` when it is not
/// iCalendar at all.
pub fn read_subscription(text: &str, from: i64, to: i64) -> Result<Expanded, CalendarError> {
    let split = split(text)?;
    let mut warnings = Vec::new();
    let tz_roots = ics::parse(&split.timezones).unwrap_or_else(|e| {
        warnings.push(format!("the file's time zones cannot be read: {e}"));
        Vec::new()
    });
    let defs: Vec<&Component> = tz_roots.iter().filter(|c| c.name == "VTIMEZONE").collect();
    let budget = Budget::per_read();
    let mut zones = Zones::new(&defs, &TimeZone::UTC, &budget);
    let window = Window { from, to };
    let mut occurrences = Vec::new();
    for (_, blocks) in &split.events {
        let occs = occurrences_of(
            &blocks.concat(),
            ZonesOf::Shared(&mut zones),
            &TimeZone::UTC,
            window,
            &mut warnings,
        );
        occurrences.extend(occs.into_iter().map(|o| (o.uid, o.start, o.end)));
    }
    warnings.append(&mut zones.warnings);
    Ok(Expanded {
        occurrences,
        warnings,
        steps: budget.spent(),
        cut: budget.ran_out(),
    })
}

/// One CalDAV resource (a VCALENDAR with its own VTIMEZONEs), expanded for
/// `from..to` as a sync stores it; text that cannot be read is a warning.
pub fn read_resource(text: &str, from: i64, to: i64) -> Expanded {
    read_resources([text], from, to)
}

/// The CalDAV resources one sync downloads from one calendar, expanded as
/// [`read_resource`] does each, on one read's step budget.
pub fn read_resources<'a>(
    texts: impl IntoIterator<Item = &'a str>,
    from: i64,
    to: i64,
) -> Expanded {
    let mut warnings = Vec::new();
    let budget = Budget::per_read();
    let mut occurrences = Vec::new();
    for text in texts {
        let occs = occurrences_of(
            text,
            ZonesOf::Own(&budget),
            &TimeZone::UTC,
            Window { from, to },
            &mut warnings,
        );
        occurrences.extend(occs.into_iter().map(|o| (o.uid, o.start, o.end)));
    }
    Expanded {
        occurrences,
        warnings,
        steps: budget.spent(),
        cut: budget.ran_out(),
    }
}

/// A CalDAV server's 207 multistatus answer: the hrefs of its responses and
/// the calendar data they carry, or why it is not one.
pub fn read_multistatus(body: &str) -> Result<Vec<(String, Option<String>)>, String> {
    Ok(multistatus(body)?
        .entries
        .into_iter()
        .map(|e| (e.href, e.calendar_data))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window the fuzz targets read in: 2026-04-02 to 2027-07-06.
    const FROM: i64 = 1_775_088_000;
    const TO: i64 = 1_814_832_000;

    /// `fuzz/corpus/ical/twenty_minutely_forever.ics`: 1.6 KB holding twenty
    /// events that repeat every minute from 2000 on, which cost twenty
    /// times [`MAX_RULE_STEPS`] before a read had a budget.
    const TWENTY_FOREVER: &str =
        include_str!("../../../fuzz/corpus/ical/twenty_minutely_forever.ics");

    fn check_cut(read: &Expanded) {
        assert_eq!(read.steps, MAX_STEPS_PER_READ);
        assert!(read.cut);
        // Five rules walk their own limit; the fifteen after them none.
        let own = "its rule repeats too often";
        let shared = "the calendar's rules together repeat too often";
        let count = |text: &str| read.warnings.iter().filter(|w| w.contains(text)).count();
        assert_eq!(count(own), MAX_STEPS_PER_READ / MAX_RULE_STEPS);
        assert_eq!(count(shared), 20 - MAX_STEPS_PER_READ / MAX_RULE_STEPS);
        assert!(read.warnings.iter().any(|w| w.starts_with("event t19: ")));
    }

    #[test]
    fn many_rules_that_never_end_share_one_reads_budget() {
        check_cut(&read_subscription(TWENTY_FOREVER, FROM, TO).unwrap());
        check_cut(&read_resource(TWENTY_FOREVER, FROM, TO));
        // Split into one resource per event, the calendar still shares it.
        let events: Vec<String> = TWENTY_FOREVER
            .split("BEGIN:VEVENT")
            .skip(1)
            .filter_map(|e| e.split("END:VEVENT").next())
            .map(|e| format!("BEGIN:VCALENDAR\nBEGIN:VEVENT{e}END:VEVENT\nEND:VCALENDAR\n"))
            .collect();
        check_cut(&read_resources(events.iter().map(String::as_str), FROM, TO));
    }

    #[test]
    fn a_read_within_the_budget_is_not_cut() {
        let one = TWENTY_FOREVER.replace("RRULE:FREQ=MINUTELY", "RRULE:FREQ=DAILY");
        let read = read_resource(&one, FROM, TO);
        assert!(!read.cut);
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        // Every day from 2000 to a day past the window's end, twenty times.
        assert!(read.steps > 20 * 9_900 && read.steps < MAX_STEPS_PER_READ);
        assert_eq!(read.occurrences.len(), 20 * 460);
    }
}
