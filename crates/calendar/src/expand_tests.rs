//! Proves the expansion: a weekly event keeps its wall time across the
//! spring change in an IANA zone and in a zone only a VTIMEZONE defines;
//! EXDATE removes, RDATE adds, an override moves one occurrence and a
//! cancelled one removes it; an unknown zone warns and reads as floating;
//! a bad rule warns and keeps the first occurrence, and so does a rule the
//! read's step budget has nothing left for.

use jiff::civil::date;
use jiff::tz::TimeZone;

use super::*;
use crate::ics::parse;
use crate::recur::Budget;

fn utc(y: i16, m: i8, d: i8, h: i8, min: i8) -> i64 {
    civil_secs(date(y, m, d).at(h, min, 0, 0))
}

const MARCH: Window = Window {
    from: 1_773_446_400, // 2026-03-14T00:00Z
    to: 1_776_124_800,   // 2026-04-14T00:00Z
};

fn run(text: &str, window: Window) -> (Vec<Occ>, Vec<String>) {
    run_on(text, window, &Budget::per_read())
}

fn run_on(text: &str, window: Window, budget: &Budget) -> (Vec<Occ>, Vec<String>) {
    let roots = parse(text).unwrap();
    let (mut tzs, mut events) = (Vec::new(), Vec::new());
    for root in &roots {
        root.find_all("VTIMEZONE", &mut tzs);
        root.find_all("VEVENT", &mut events);
    }
    let mut zones = Zones::new(&tzs, &TimeZone::UTC, budget);
    let mut occs = expand(&events, &mut zones, window);
    occs.sort_by_key(|o| o.start);
    (occs, zones.warnings)
}

fn starts(occs: &[Occ]) -> Vec<i64> {
    occs.iter().map(|o| o.start).collect()
}

const VTIMEZONE: &str = "BEGIN:VTIMEZONE
TZID:Custom Berlin
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
";

fn weekly(tzid: &str, extra: &str) -> String {
    format!(
        "BEGIN:VCALENDAR\n{VTIMEZONE}BEGIN:VEVENT\nUID:standup\nSUMMARY:Standup\nDTSTART;TZID={tzid}:20260320T090000\nDTEND;TZID={tzid}:20260320T093000\nRRULE:FREQ=WEEKLY;COUNT=4\n{extra}END:VEVENT\nEND:VCALENDAR\n"
    )
}

#[test]
fn a_weekly_event_keeps_nine_oclock_across_the_spring_change() {
    let expected = [
        utc(2026, 3, 20, 8, 0),
        utc(2026, 3, 27, 8, 0),
        utc(2026, 4, 3, 7, 0),
        utc(2026, 4, 10, 7, 0),
    ];
    for tzid in ["Europe/Berlin", "Custom Berlin"] {
        let (occs, warnings) = run(&weekly(tzid, ""), MARCH);
        assert_eq!(starts(&occs), expected, "{tzid}");
        assert!(occs.iter().all(|o| o.end - o.start == 1800 && o.recurring));
        assert!(warnings.is_empty(), "{warnings:?}");
    }
}

#[test]
fn exdate_rdate_and_overrides_change_the_series() {
    let extra = "EXDATE;TZID=Europe/Berlin:20260327T090000\nRDATE:20260412T100000Z\n";
    let mut text = weekly("Europe/Berlin", extra);
    text = text.replace(
        "END:VCALENDAR\n",
        "BEGIN:VEVENT\nUID:standup\nRECURRENCE-ID;TZID=Europe/Berlin:20260403T090000\nDTSTART;TZID=Europe/Berlin:20260403T140000\nDTEND;TZID=Europe/Berlin:20260403T150000\nSUMMARY:Standup (moved)\nEND:VEVENT\nBEGIN:VEVENT\nUID:standup\nRECURRENCE-ID:20260410T070000Z\nSTATUS:CANCELLED\nDTSTART:20260410T070000Z\nEND:VEVENT\nEND:VCALENDAR\n",
    );
    let (occs, _) = run(&text, MARCH);
    assert_eq!(
        starts(&occs),
        [
            utc(2026, 3, 20, 8, 0),
            utc(2026, 4, 3, 12, 0),
            utc(2026, 4, 12, 10, 0)
        ]
    );
    assert_eq!(occs[1].summary, "Standup (moved)");
    assert_eq!(occs[1].end - occs[1].start, 3600);
}

#[test]
fn an_unknown_zone_warns_and_reads_as_floating() {
    let (occs, warnings) = run(&weekly("Atlantis/Capital", ""), MARCH);
    assert_eq!(occs.len(), 4);
    assert_eq!(occs[0].start, utc(2026, 3, 20, 9, 0));
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("Atlantis/Capital"), "{warnings:?}");
}

#[test]
fn a_bad_rule_warns_and_keeps_the_first_occurrence() {
    let text = weekly("Europe/Berlin", "").replace("FREQ=WEEKLY;COUNT=4", "FREQ=OFTEN");
    let (occs, warnings) = run(&text, MARCH);
    assert_eq!(starts(&occs), [utc(2026, 3, 20, 8, 0)]);
    assert_eq!(warnings.len(), 1);
}

#[test]
fn all_day_events_are_dates_and_the_window_cuts() {
    let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:holiday\nSUMMARY:Holiday\nDTSTART;VALUE=DATE:20260101\nRRULE:FREQ=MONTHLY\nEND:VEVENT\nEND:VCALENDAR\n";
    let (occs, _) = run(text, MARCH);
    assert_eq!(starts(&occs), [utc(2026, 4, 1, 0, 0)]);
    assert!(occs[0].all_day);
    assert_eq!(occs[0].end - occs[0].start, 86_400);
}

#[test]
fn a_rule_the_reads_budget_cannot_pay_for_keeps_what_it_walked() {
    // Two of the four weeks are paid for; the next event's rule gets none.
    let second = weekly("Europe/Berlin", "").replace("UID:standup", "UID:retro");
    let text = weekly("Europe/Berlin", "").replace(
        "END:VCALENDAR\n",
        &second
            .replace("BEGIN:VCALENDAR\n", "")
            .replace(VTIMEZONE, ""),
    );
    let budget = Budget::of(2);
    let (occs, warnings) = run_on(&text, MARCH, &budget);
    let standup: Vec<i64> = occs
        .iter()
        .filter(|o| o.uid == "standup")
        .map(|o| o.start)
        .collect();
    let retro: Vec<i64> = occs
        .iter()
        .filter(|o| o.uid == "retro")
        .map(|o| o.start)
        .collect();
    // DTSTART is an occurrence without a step; the rule yields it again.
    assert_eq!(standup, [utc(2026, 3, 20, 8, 0), utc(2026, 3, 27, 8, 0)]);
    assert_eq!(retro, [utc(2026, 3, 20, 8, 0)]);
    assert!(budget.ran_out());
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .all(|w| w.contains("rules together repeat too often"))
    );
}
