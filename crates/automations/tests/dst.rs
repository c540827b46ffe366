//! Schedules across daylight-saving changes in two zones whose changes fall
//! on different dates (Europe/Berlin: 29 March and 25 October 2026;
//! America/New_York: 8 March and 1 November 2026), first as rules, then
//! as a scheduler on a manual clock would run them.
//!
//! The rules: a cron fixed time in the spring-forward gap runs once, at the
//! first instant after the gap; in the fall-back fold once, the first time;
//! a cron pattern with a step keeps to real time. An RRULE time in the gap
//! runs with the offset before the gap (RFC 5545), in the fold once.

mod common;

use automations::{Rule, Schedule};
use common::{ME, Rig, ts};
use jiff::Timestamp;
use jiff::tz::TimeZone;

fn zone(name: &str) -> TimeZone {
    TimeZone::get(name).unwrap()
}

fn cron(pattern: &str, zone_name: &str) -> Rule {
    Rule::cron(pattern, &zone(zone_name)).unwrap()
}

fn rrule(rule: &str, zone_name: &str) -> Rule {
    let text = automations::ical::normalize_rrule(
        &format!("DTSTART:20260101T000000Z\nRRULE:{rule}"),
        zone_name,
        &zone(zone_name),
        ts("2026-01-01T00:00:00Z"),
    )
    .unwrap();
    Rule::rrule(&text, &zone(zone_name)).unwrap()
}

/// The next `n` ticks after `after`, one after another.
fn ticks(rule: &Rule, after: &str, n: usize) -> Vec<Timestamp> {
    let mut at = ts(after);
    let mut out = Vec::new();
    for _ in 0..n {
        at = rule.next_after(at).unwrap();
        out.push(at);
    }
    out
}

fn all(texts: &[&str]) -> Vec<Timestamp> {
    texts.iter().map(|t| ts(t)).collect()
}

#[test]
fn cron_at_a_time_the_spring_gap_skips_runs_once_right_after_the_gap() {
    // Berlin: 02:30 CET, then 03:00 CEST (02:30 does not exist), then 02:30 CEST.
    assert_eq!(
        ticks(
            &cron("30 2 * * *", "Europe/Berlin"),
            "2026-03-27T12:00:00Z",
            3
        ),
        all(&[
            "2026-03-28T01:30:00Z",
            "2026-03-29T01:00:00Z",
            "2026-03-30T00:30:00Z",
        ])
    );
    // New York, three weeks earlier: 02:30 EST, then 03:00 EDT, then 02:30 EDT.
    assert_eq!(
        ticks(
            &cron("30 2 * * *", "America/New_York"),
            "2026-03-06T12:00:00Z",
            3
        ),
        all(&[
            "2026-03-07T07:30:00Z",
            "2026-03-08T07:00:00Z",
            "2026-03-09T06:30:00Z",
        ])
    );
}

#[test]
fn cron_at_a_time_the_fall_fold_repeats_runs_once_the_first_time() {
    // Berlin: 02:30 happens at 00:30Z (CEST) and 01:30Z (CET) on 25 October.
    assert_eq!(
        ticks(
            &cron("30 2 * * *", "Europe/Berlin"),
            "2026-10-23T12:00:00Z",
            3
        ),
        all(&[
            "2026-10-24T00:30:00Z",
            "2026-10-25T00:30:00Z",
            "2026-10-26T01:30:00Z",
        ])
    );
    // New York: 01:30 happens at 05:30Z (EDT) and 06:30Z (EST) on 1 November.
    assert_eq!(
        ticks(
            &cron("30 1 * * *", "America/New_York"),
            "2026-10-30T12:00:00Z",
            3
        ),
        all(&[
            "2026-10-31T05:30:00Z",
            "2026-11-01T05:30:00Z",
            "2026-11-02T06:30:00Z",
        ])
    );
}

#[test]
fn cron_with_a_step_keeps_to_real_time_through_the_gap_and_the_fold() {
    let every_half_hour = cron("*/30 * * * *", "Europe/Berlin");
    // Spring: 01:30 CET is followed by 03:00 CEST, half an hour later.
    assert_eq!(
        ticks(&every_half_hour, "2026-03-29T00:15:00Z", 3),
        all(&[
            "2026-03-29T00:30:00Z",
            "2026-03-29T01:00:00Z",
            "2026-03-29T01:30:00Z",
        ])
    );
    // Fall: 02:00 and 02:30 run in both halves of the fold.
    assert_eq!(
        ticks(&every_half_hour, "2026-10-24T23:45:00Z", 5),
        all(&[
            "2026-10-25T00:00:00Z",
            "2026-10-25T00:30:00Z",
            "2026-10-25T01:00:00Z",
            "2026-10-25T01:30:00Z",
            "2026-10-25T02:00:00Z",
        ])
    );
}

#[test]
fn rrule_reads_a_time_in_the_gap_with_the_offset_before_it_and_runs_the_fold_once() {
    let berlin = rrule("FREQ=DAILY;BYHOUR=2;BYMINUTE=30", "Europe/Berlin");
    // 02:30 read as CET on 29 March is 03:30 CEST.
    assert_eq!(
        ticks(&berlin, "2026-03-27T12:00:00Z", 3),
        all(&[
            "2026-03-28T01:30:00Z",
            "2026-03-29T01:30:00Z",
            "2026-03-30T00:30:00Z",
        ])
    );
    assert_eq!(
        ticks(&berlin, "2026-10-23T12:00:00Z", 3),
        all(&[
            "2026-10-24T00:30:00Z",
            "2026-10-25T00:30:00Z",
            "2026-10-26T01:30:00Z",
        ])
    );
    let new_york_gap = rrule("FREQ=DAILY;BYHOUR=2;BYMINUTE=30", "America/New_York");
    assert_eq!(
        ticks(&new_york_gap, "2026-03-06T12:00:00Z", 3),
        all(&[
            "2026-03-07T07:30:00Z",
            "2026-03-08T07:30:00Z",
            "2026-03-09T06:30:00Z",
        ])
    );
    let new_york_fold = rrule("FREQ=DAILY;BYHOUR=1;BYMINUTE=30", "America/New_York");
    assert_eq!(
        ticks(&new_york_fold, "2026-10-30T12:00:00Z", 3),
        all(&[
            "2026-10-31T05:30:00Z",
            "2026-11-01T05:30:00Z",
            "2026-11-02T06:30:00Z",
        ])
    );
}

fn schedule(
    rig: &Rig,
    name: &str,
    zone: &str,
    cron: Option<&str>,
    rrule: Option<&str>,
) -> Schedule {
    let recipe = rig.recipe(name);
    let fields = automations::NewSchedule {
        cron: cron.map(str::to_owned),
        rrule: rrule.map(str::to_owned),
        ..Rig::schedule_fields(&recipe, zone)
    };
    rig.automations.create_schedule(ME, &fields, false).unwrap()
}

#[test]
fn a_scheduler_on_a_manual_clock_runs_once_each_night_across_both_changes_in_both_zones() {
    let rig = Rig::new("2026-03-01T12:00:00Z");
    schedule(
        &rig,
        "berlin cron",
        "Europe/Berlin",
        Some("30 2 * * *"),
        None,
    );
    schedule(
        &rig,
        "new york cron",
        "America/New_York",
        Some("30 1 * * *"),
        None,
    );
    let mut ticks = rig.run_scheduler_until("2026-11-03T00:00:00Z");
    ticks.sort();
    let nights = |from: &str, to: &str| {
        ticks
            .iter()
            .filter(|t| **t >= ts(from) && **t < ts(to))
            .copied()
            .collect::<Vec<_>>()
    };
    // March to November: one run a night for each, never two.
    let days = ts("2026-03-02T00:00:00Z")
        .until((jiff::Unit::Hour, ts("2026-11-03T00:00:00Z")))
        .unwrap()
        .get_hours()
        / 24;
    assert_eq!(ticks.len() as i32, 2 * days);
    assert_eq!(
        nights("2026-03-08T00:00:00Z", "2026-03-09T00:00:00Z"),
        all(&["2026-03-08T01:30:00Z", "2026-03-08T06:30:00Z"]),
        "New York springs forward (01:30 EST still exists)"
    );
    assert_eq!(
        nights("2026-03-29T00:00:00Z", "2026-03-30T00:00:00Z"),
        all(&["2026-03-29T01:00:00Z", "2026-03-29T05:30:00Z"]),
        "Berlin springs forward: 02:30 runs at 03:00 CEST"
    );
    assert_eq!(
        nights("2026-10-25T00:00:00Z", "2026-10-26T00:00:00Z"),
        all(&["2026-10-25T00:30:00Z", "2026-10-25T05:30:00Z"]),
        "Berlin falls back: 02:30 CEST only"
    );
    assert_eq!(
        nights("2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z"),
        all(&["2026-11-01T01:30:00Z", "2026-11-01T05:30:00Z"]),
        "New York falls back: 01:30 EDT only"
    );
}

#[test]
fn a_scheduler_on_a_manual_clock_runs_an_rrule_once_each_dst_night() {
    let rig = Rig::new("2026-03-27T12:00:00Z");
    schedule(
        &rig,
        "berlin rrule",
        "Europe/Berlin",
        None,
        Some("FREQ=DAILY;BYHOUR=2;BYMINUTE=30"),
    );
    assert_eq!(
        rig.run_scheduler_until("2026-03-31T00:00:00Z"),
        all(&[
            "2026-03-28T01:30:00Z",
            "2026-03-29T01:30:00Z",
            "2026-03-30T00:30:00Z",
        ])
    );
}

#[test]
fn a_scheduler_on_a_manual_clock_runs_a_stepped_cron_in_both_halves_of_the_fold() {
    let rig = Rig::new("2026-10-24T23:45:00Z");
    schedule(
        &rig,
        "half-hourly",
        "Europe/Berlin",
        Some("*/30 * * * *"),
        None,
    );
    assert_eq!(
        rig.run_scheduler_until("2026-10-25T02:00:00Z"),
        all(&[
            "2026-10-25T00:00:00Z",
            "2026-10-25T00:30:00Z",
            "2026-10-25T01:00:00Z",
            "2026-10-25T01:30:00Z",
            "2026-10-25T02:00:00Z",
        ])
    );
}
