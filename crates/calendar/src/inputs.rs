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
use crate::import::occurrences_of;
use crate::subscription::split;
use crate::zone::Zones;

/// The most occurrences one event (one UID) shows inside a window,
/// overrides aside: an RRULE that never ends is walked at most
/// [`MAX_RULE_STEPS`] steps and its occurrences in the window cut here.
pub const MAX_OCCURRENCES_PER_EVENT: usize = MAX_IN_WINDOW;

/// The most steps one RRULE is walked, whatever it says (a warning says
/// when it was cut).
pub const MAX_RULE_STEPS: usize = crate::recur::MAX_STEPS;

/// What reading a document found: each occurrence's UID, start and end
/// (Unix seconds), and the warnings a sync would show on the account.
#[derive(Debug, Default)]
pub struct Expanded {
    pub occurrences: Vec<(String, i64, i64)>,
    pub warnings: Vec<String>,
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
    let mut zones = Zones::new(&defs, &TimeZone::UTC);
    let window = Window { from, to };
    let mut occurrences = Vec::new();
    for (_, blocks) in &split.events {
        let occs = occurrences_of(
            &blocks.concat(),
            Some(&mut zones),
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
    })
}

/// One CalDAV resource (a VCALENDAR with its own VTIMEZONEs), expanded for
/// `from..to` as a sync stores it; text that cannot be read is a warning.
pub fn read_resource(text: &str, from: i64, to: i64) -> Expanded {
    let mut warnings = Vec::new();
    let occs = occurrences_of(
        text,
        None,
        &TimeZone::UTC,
        Window { from, to },
        &mut warnings,
    );
    Expanded {
        occurrences: occs.into_iter().map(|o| (o.uid, o.start, o.end)).collect(),
        warnings,
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
