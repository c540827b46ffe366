//! Calendar reminders from a real CalDAV server (Radicale, the rig of
//! crates/calendar/tests) through a real `switchboard` on a manual clock in
//! Europe/Berlin (`TZ`): an account added with `POST /calendars` (user name
//! and password, found from the server's root) brings a weekly Monday 09:30
//! stand-up whose occurrences keep their wall time across the spring change
//! (29 March 2026); its reminder comes `calendarReminderMinutes` before each
//! start at the right UTC instant, 08:20Z before the change and 07:20Z
//! after it, and not a second earlier; an event deleted on the server and
//! synchronised is never told; the series moved to 10:00 on the server and
//! synchronised is told at the new time and not at the old one. Without
//! Radicale it skips, unless `SWITCHBOARD_CALENDAR_REQUIRED=1`.

mod common;
// Only part of the rig is used here.
#[allow(dead_code)]
#[path = "../../calendar/tests/rig/mod.rs"]
mod rig;

use std::path::Path;
use std::time::{Duration, Instant};

use common::TestServer;
use rig::{PASSWORD, Radicale, USER, event};
use serde_json::{Value, json};

/// 2026-03-23T05:00:00Z, a Monday: 06:00 in Berlin, before the agenda's hour.
const START_MS: &str = "1774242000000";
const ZONE: &str = "Europe/Berlin";

/// A weekly stand-up on Mondays from 16 March at `at` (HHMMSS) in Berlin,
/// fifteen minutes long.
fn standup(at: &str, until: &str) -> String {
    format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//switchboard//tests//EN\r\n\
         BEGIN:VEVENT\r\nUID:standup@test\r\nDTSTAMP:20260301T000000Z\r\n\
         DTSTART;TZID={ZONE}:20260316T{at}\r\nDTEND;TZID={ZONE}:20260316T{until}\r\n\
         RRULE:FREQ=WEEKLY;BYDAY=MO\r\nSUMMARY:Stand-up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
}

fn clock_at(server: &TestServer, at: &str) {
    let reply = server.call("POST", "/test/clock", Some(&json!({"at": at})));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

/// The reminder rows as "title: body", hidden ones included, sorted.
fn reminders(server: &TestServer) -> Vec<String> {
    let reply = server.call(
        "GET",
        "/inbox?category=calendar&state=all&limit=500&hidden=true",
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let mut bodies: Vec<String> = reply
        .json()
        .as_array()
        .into_iter()
        .flatten()
        .filter(|row| row["reason"] == "reminder")
        .map(|row| {
            format!(
                "{}: {}",
                row["title"].as_str().unwrap_or_default(),
                row["body"].as_str().unwrap_or_default()
            )
        })
        .collect();
    bodies.sort();
    bodies
}

/// Polls until a reminder reads `wanted` ("title: body").
fn wait_for(server: &TestServer, wanted: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let told = reminders(server);
        if told.iter().any(|r| r == wanted) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no reminder {wanted:?}; have {told:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Lets the loops look (they run beside the requests) before asserting
/// that something did not happen.
fn settle() {
    std::thread::sleep(Duration::from_millis(400));
}

/// The starts of the events titled `title` from 23 March to 12 April.
fn starts(server: &TestServer, title: &str) -> Vec<String> {
    let reply = server.call(
        "GET",
        "/calendar/events?from=2026-03-23&to=2026-04-12",
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
        .json()
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["title"] == title)
        .filter_map(|e| e["start"].as_str().map(str::to_owned))
        .collect()
}

fn sync(server: &TestServer, id: &str) -> Value {
    let synced = server.call("POST", &format!("/calendars/{id}/sync"), None);
    assert_eq!(synced.status, 200, "{}", synced.text());
    synced.json()
}

const MONDAY: &str = "Stand-up in 10 min: Mon 23 Mar, 09:30–09:45\nCalendar: Work (Radicale)";
const AFTER_THE_CHANGE: &str =
    "Stand-up in 10 min: Mon 30 Mar, 09:30–09:45\nCalendar: Work (Radicale)";
const RETRO: &str = "Retro in 10 min: Wed 25 Mar, 14:00–15:00\nCalendar: Work (Radicale)";
const MOVED: &str = "Stand-up in 10 min: Mon 6 Apr, 10:00–10:15\nCalendar: Work (Radicale)";

#[test]
fn caldav_events_are_reminded_on_time_across_the_spring_change_edits_and_deletes() {
    let Some(rig) = Radicale::start() else { return };
    rig.make_calendar("work", "Work");
    rig.put("work/standup.ics", &standup("093000", "094500"));
    // Two events at the same moment: the one kept shows the loop looked
    // when the deleted one is not told.
    rig.put(
        "work/retro.ics",
        &event(
            "retro@test",
            "Retro",
            "20260325T130000Z",
            "20260325T140000Z",
        ),
    );
    rig.put(
        "work/planning.ics",
        &event(
            "planning@test",
            "Planning",
            "20260325T130000Z",
            "20260325T140000Z",
        ),
    );

    let server = TestServer::start_in_with_env(
        tempfile::tempdir().unwrap_or_else(|e| panic!("{e}")),
        &["--manual-clock-start-ms", START_MS],
        &[("TZ", Path::new(ZONE))],
    );
    server.set_setting("calendarDailyAgendaEnabled", json!(false));
    server.set_setting("calendarEnabled", json!(true));
    let body = json!({"kind": "caldav", "url": rig.base_url(), "username": USER,
        "password": PASSWORD, "name": "Radicale"});
    let added = server.call("POST", "/calendars", Some(&body));
    assert_eq!(added.status, 201, "{}", added.text());
    let id = added.json()["id"].as_str().unwrap_or_default().to_owned();
    assert_eq!(sync(&server, &id)["calendars"], 1);
    // 09:30 in Berlin: 08:30 UTC before 29 March, 07:30 UTC after.
    assert_eq!(
        starts(&server, "Stand-up"),
        [
            "2026-03-23T08:30:00.000Z",
            "2026-03-30T07:30:00.000Z",
            "2026-04-06T07:30:00.000Z"
        ]
    );
    assert_eq!(starts(&server, "Planning"), ["2026-03-25T13:00:00.000Z"]);

    clock_at(&server, "2026-03-23T08:19:59Z");
    settle();
    assert_eq!(reminders(&server), Vec::<String>::new());
    clock_at(&server, "2026-03-23T08:20:00Z");
    wait_for(&server, MONDAY);

    // Deleted on the server and synchronised: never told. (The settling
    // lets the sync the clock's move started finish first.)
    settle();
    rig.delete("work/planning.ics");
    sync(&server, &id);
    assert_eq!(starts(&server, "Planning"), Vec::<String>::new());
    clock_at(&server, "2026-03-25T12:50:00Z");
    wait_for(&server, RETRO);
    clock_at(&server, "2026-03-25T13:00:00Z");
    settle();
    assert_eq!(reminders(&server), [RETRO, MONDAY]);

    // After the change the same wall time is an hour earlier in UTC.
    clock_at(&server, "2026-03-30T07:19:59Z");
    settle();
    assert_eq!(reminders(&server), [RETRO, MONDAY]);
    clock_at(&server, "2026-03-30T07:20:00Z");
    wait_for(&server, AFTER_THE_CHANGE);

    // Moved to 10:00 on the server (on Wednesday) and synchronised: the
    // next Monday is told at 07:50Z, not at the old 07:20Z.
    clock_at(&server, "2026-04-01T10:00:00Z");
    settle();
    rig.put("work/standup.ics", &standup("100000", "101500"));
    sync(&server, &id);
    assert_eq!(
        starts(&server, "Stand-up"),
        [
            "2026-03-23T09:00:00.000Z",
            "2026-03-30T08:00:00.000Z",
            "2026-04-06T08:00:00.000Z"
        ]
    );
    let before = [RETRO, MONDAY, AFTER_THE_CHANGE];
    clock_at(&server, "2026-04-06T07:20:00Z");
    settle();
    assert_eq!(reminders(&server), before);
    clock_at(&server, "2026-04-06T07:49:59Z");
    settle();
    assert_eq!(reminders(&server), before);
    clock_at(&server, "2026-04-06T07:50:00Z");
    wait_for(&server, MOVED);
    clock_at(&server, "2026-04-06T08:00:00Z");
    settle();
    assert_eq!(reminders(&server), [RETRO, MONDAY, AFTER_THE_CHANGE, MOVED]);
}
