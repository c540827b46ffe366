//! iCalendar (a subscription's file, a CalDAV resource) with its
//! recurrences expanded, and CalDAV's WebDAV multistatus XML.

use std::collections::HashMap;

use calendar::{
    Expanded, MAX_OCCURRENCES_PER_EVENT, read_multistatus, read_resource, read_subscription,
};

use crate::input::{WINDOW, text};

/// An iCalendar document read both ways a sync reads one: as a
/// subscription's file (split, then each event) and as one CalDAV
/// resource (one tree). A rule that never ends is cut at the crate's
/// limits, so every occurrence lies in the window and no event has more
/// than [`MAX_OCCURRENCES_PER_EVENT`] from its rule.
pub fn ical(data: &[u8]) {
    let text = text(data);
    if let Ok(expanded) = read_subscription(&text, WINDOW.0, WINDOW.1) {
        check(&expanded, &text);
    }
    check(&read_resource(&text, WINDOW.0, WINDOW.1), &text);
}

/// A multistatus answer, and the calendar data each response carries read
/// as the sync reads it.
pub fn caldav(data: &[u8]) {
    let text = text(data);
    if let Ok(entries) = read_multistatus(&text) {
        for calendar_data in entries.iter().filter_map(|(_, data)| data.as_deref()) {
            check(
                &read_resource(calendar_data, WINDOW.0, WINDOW.1),
                calendar_data,
            );
        }
    }
}

fn check(expanded: &Expanded, source: &str) {
    // Overrides (RECURRENCE-ID) and RDATEs add one occurrence per line of
    // the text at most, on top of the rule's cut.
    let ceiling = MAX_OCCURRENCES_PER_EVENT + source.len();
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
