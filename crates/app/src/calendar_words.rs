//! An event in words, as the reminders, the agenda card and the daily
//! digest write it, in the installation's zone: "09:30–09:45 Stand-up
//! (Room 1)", "All day: Team day"; and which day an event is on.

use calendar::Occurrence;
use jiff::civil::Time;
use jiff::tz::TimeZone;

/// An RFC 3339 time in `zone`.
pub(crate) fn local(at: &str, zone: &TimeZone) -> Option<jiff::Zoned> {
    at.parse::<jiff::Timestamp>()
        .ok()
        .map(|t| t.to_zoned(zone.clone()))
}

/// Whether `occurrence` is on `day` (`YYYY-MM-DD`): an all-day one by its
/// dates, which no zone moves; a timed one by its local start or end.
pub(crate) fn on_day(occurrence: &Occurrence, day: &str, zone: &TimeZone) -> bool {
    if occurrence.all_day {
        let (first, after) = (date_part(&occurrence.start), date_part(&occurrence.end));
        return first <= day && day < after;
    }
    let start = local(&occurrence.start, zone).map(|z| z.date().to_string());
    start.as_deref().is_some_and(|start| start <= day)
        && local(&occurrence.end, zone).is_some_and(|end| {
            let date = end.date().to_string();
            date.as_str() > day || (date == day && end.time() > Time::midnight())
        })
}

fn date_part(at: &str) -> &str {
    at.get(..10).unwrap_or(at)
}

/// "09:30–09:45" in `zone`; the end's date too when it is another day.
pub(crate) fn span(occurrence: &Occurrence, zone: &TimeZone) -> String {
    let (Some(start), Some(end)) = (local(&occurrence.start, zone), local(&occurrence.end, zone))
    else {
        return occurrence.start.clone();
    };
    if end.date() == start.date() {
        format!("{}–{}", start.strftime("%H:%M"), end.strftime("%H:%M"))
    } else {
        format!(
            "{}–{}",
            start.strftime("%H:%M"),
            end.strftime("%a %-d %b %H:%M")
        )
    }
}

/// One event on a line: "09:30–09:45 Stand-up (Room 1)", "All day: Holiday".
pub(crate) fn event_line(occurrence: &Occurrence, zone: &TimeZone) -> String {
    let place = occurrence
        .location
        .as_deref()
        .filter(|l| !l.is_empty())
        .map(|l| format!(" ({l})"))
        .unwrap_or_default();
    if occurrence.all_day {
        format!("All day: {}{place}", occurrence.title)
    } else {
        format!("{} {}{place}", span(occurrence, zone), occurrence.title)
    }
}
