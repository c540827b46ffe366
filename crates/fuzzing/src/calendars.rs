//! iCalendar (a subscription's file, a CalDAV resource) with its
//! recurrences expanded, and CalDAV's WebDAV multistatus XML.

use std::collections::HashMap;

use calendar::{
    Expanded, MAX_OCCURRENCES_PER_EVENT, MAX_STEPS_PER_READ, read_multistatus, read_resource,
    read_resources, read_subscription,
};

use crate::input::{WINDOW, text};

/// An iCalendar document read both ways a sync reads one: as a
/// subscription's file (split, then each event) and as one CalDAV
/// resource (one tree). A rule that never ends is cut at the crate's
/// limits, so every occurrence lies in the window, no event has more
/// than [`MAX_OCCURRENCES_PER_EVENT`] from its rule, and all the rules of
/// a read walk at most [`MAX_STEPS_PER_READ`] steps together.
pub fn ical(data: &[u8]) {
    let text = text(data);
    if let Ok(expanded) = read_subscription(&text, WINDOW.0, WINDOW.1) {
        check(&expanded, &text, 1);
    }
    check(&read_resource(&text, WINDOW.0, WINDOW.1), &text, 1);
}

/// A multistatus answer, and the calendar data its responses carry read
/// as the sync reads one calendar's downloads: on one read's budget.
pub fn caldav(data: &[u8]) {
    let text = text(data);
    if let Ok(entries) = read_multistatus(&text) {
        let calendar_data: Vec<&str> = entries.iter().filter_map(|(_, d)| d.as_deref()).collect();
        let expanded = read_resources(calendar_data.iter().copied(), WINDOW.0, WINDOW.1);
        check(&expanded, &text, calendar_data.len());
    }
}

/// `resources`: how many objects `source` held, each of which may carry
/// the same UID.
fn check(expanded: &Expanded, source: &str, resources: usize) {
    // Overrides (RECURRENCE-ID) and RDATEs add one occurrence per line of
    // the text at most, on top of the rule's cut.
    let ceiling = MAX_OCCURRENCES_PER_EVENT * resources.max(1) + source.len();
    assert!(
        expanded.steps <= MAX_STEPS_PER_READ,
        "{} rule steps in one read",
        expanded.steps
    );
    let mut per_event: HashMap<&str, usize> = HashMap::new();
    for (uid, start, end) in &expanded.occurrences {
        assert!(
            end >= start,
            "{uid}: ends at {end} before its start {start}"
        );
        assert!(
            *start < WINDOW.1,
            "{uid}: starts at {start}, after the window"
        );
        let count = per_event.entry(uid).or_default();
        *count += 1;
        assert!(*count <= ceiling, "{uid}: more than {ceiling} occurrences");
    }
}
