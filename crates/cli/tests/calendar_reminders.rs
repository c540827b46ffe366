//! Calendar reminders, the day's agenda and the digest's calendar part
//! through a real server on a manual clock, in Europe/Berlin (`TZ`), with an
//! ICS subscription served over loopback (a stand-up at 09:30 Berlin,
//! 08:30 UTC, on Mondays and Thursdays): a reminder comes exactly
//! `calendarReminderMinutes` before the start (not a second earlier) as a
//! `calendar` inbox row, once, whatever later looks and a crash do; one
//! whose moment passed while the server was down still comes while its
//! event has not started, never after; with delivery `toast` it is a
//! `calendar` event on the stream and no row, unless focus mode holds the
//! toast (then a row); `inboxShowCalendar` off hides the rows; the agenda
//! card comes once at 07:00 with the day's events and its undone due
//! items; the daily briefing lists the new day's events.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::TestServer;
use common::calendar::ics_server;
use common::sse::Stream;
use serde_json::{Value, json};

/// 2026-01-05T05:00:00Z, a Monday: 06:00 in Berlin.
const START_MS: &str = "1767589200000";
const ZONE: &str = "Europe/Berlin";

const WEEKLY: &str = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
BEGIN:VEVENT\r\nUID:standup@test\r\nDTSTAMP:20260101T000000Z\r\n\
DTSTART;TZID=Europe/Berlin:20260105T093000\r\nDTEND;TZID=Europe/Berlin:20260105T094500\r\n\
RRULE:FREQ=WEEKLY;BYDAY=MO,TH\r\nSUMMARY:Stand-up\r\nLOCATION:Room 1\r\nEND:VEVENT\r\n\
BEGIN:VEVENT\r\nUID:holiday@test\r\nDTSTAMP:20260101T000000Z\r\n\
DTSTART;VALUE=DATE:20260105\r\nDTEND;VALUE=DATE:20260106\r\nSUMMARY:Team day\r\nEND:VEVENT\r\n\
END:VCALENDAR\r\n";

fn start_in(dir: tempfile::TempDir, at_ms: &str) -> TestServer {
    TestServer::start_in_with_env(
        dir,
        &["--manual-clock-start-ms", at_ms],
        &[("TZ", Path::new(ZONE))],
    )
}

/// A server with the subscription synchronised; the agenda off unless a
/// test turns it on.
fn server() -> TestServer {
    let server = start_in(
        tempfile::tempdir().unwrap_or_else(|e| panic!("{e}")),
        START_MS,
    );
    server.set_setting("calendarEnabled", json!(true));
    server.set_setting("calendarDailyAgendaEnabled", json!(false));
    let body = json!({"kind": "ics", "url": ics_server(WEEKLY).0, "name": "Team"});
    let added = server.call("POST", "/calendars", Some(&body));
    assert_eq!(added.status, 201, "{}", added.text());
    let id = added.json()["id"].as_str().unwrap_or_default().to_owned();
    let synced = server.call("POST", &format!("/calendars/{id}/sync"), None);
    assert_eq!(synced.status, 200, "{}", synced.text());
    server
}

/// SIGKILL, then a server on the same data directory whose clock starts at `at_ms`.
fn crash_and_restart_at(mut server: TestServer, at_ms: &str) -> TestServer {
    server.kill();
    let _ = std::fs::remove_file(server.dir.path().join("server.json"));
    let dir = std::mem::replace(
        &mut server.dir,
        tempfile::tempdir().unwrap_or_else(|e| panic!("{e}")),
    );
    start_in(dir, at_ms)
}

fn clock_at(server: &TestServer, at: &str) {
    let reply = server.call("POST", "/test/clock", Some(&json!({"at": at})));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

/// The rows of `category`, hidden ones included unless `shown_only`.
fn rows_of(server: &TestServer, category: &str, shown_only: bool) -> Vec<Value> {
    let hidden = if shown_only { "" } else { "&hidden=true" };
    let reply = server.call(
        "GET",
        &format!("/inbox?category={category}&state=all&limit=500{hidden}"),
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().cloned().unwrap_or_default()
}

fn titles(server: &TestServer, category: &str) -> Vec<String> {
    rows_of(server, category, false)
        .iter()
        .filter_map(|r| r["title"].as_str().map(str::to_owned))
        .collect()
}

/// Polls until a row of `category` has this title, and returns it.
fn wait_for(server: &TestServer, category: &str, title: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(row) = rows_of(server, category, false)
            .into_iter()
            .find(|r| r["title"] == title)
        {
            return row;
        }
        assert!(
            Instant::now() < deadline,
            "no {category} row {title:?}; have {:?}",
            titles(server, category)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Lets the loops look (they run beside the requests) before asserting
/// that something did not happen.
fn settle() {
    std::thread::sleep(Duration::from_millis(400));
}

#[test]
fn a_reminder_comes_exactly_n_minutes_before_once_even_across_a_crash() {
    let server = server();
    clock_at(&server, "2026-01-05T08:19:59Z");
    settle();
    assert_eq!(titles(&server, "calendar"), Vec::<String>::new());
    clock_at(&server, "2026-01-05T08:20:00Z");
    let row = wait_for(&server, "calendar", "Stand-up in 10 min");
    assert_eq!(row["category"], "calendar");
    assert_eq!(row["reason"], "reminder");
    assert_eq!(
        row["body"],
        "Mon 5 Jan, 09:30–09:45\nRoom 1\nCalendar: Team"
    );
    // A second look (the clock moves, a setting changes) repeats nothing.
    clock_at(&server, "2026-01-05T08:21:00Z");
    server.set_setting("calendarReminderMinutes", json!(15));
    settle();
    assert_eq!(titles(&server, "calendar"), ["Stand-up in 10 min"]);

    // Nor does a crash and a restart before the start.
    let server = crash_and_restart_at(server, "1767601500000"); // 08:25Z
    settle();
    assert_eq!(titles(&server, "calendar"), ["Stand-up in 10 min"]);

    // Down through Thursday's moment (08:15Z with 15 minutes): still told
    // at 08:25Z, five minutes before the start.
    let server = crash_and_restart_at(server, "1767860700000"); // 2026-01-08T08:25Z
    wait_for(&server, "calendar", "Stand-up in 5 min");
    // Down through the next Monday's start: never told.
    let server = crash_and_restart_at(server, "1768206660000"); // 2026-01-12T08:31Z
    settle();
    let mut told = titles(&server, "calendar");
    told.sort();
    assert_eq!(told, ["Stand-up in 10 min", "Stand-up in 5 min"]);

    // inboxShowCalendar off hides the rows unless hidden ones are asked for.
    server.set_setting("inboxShowCalendar", json!(false));
    assert_eq!(rows_of(&server, "calendar", true), Vec::<Value>::new());
    let all = server
        .call("GET", "/inbox?state=all&limit=500", None)
        .json();
    assert!(
        all.as_array()
            .is_some_and(|rows| rows.iter().all(|r| r["category"] != "calendar")),
        "{all}"
    );
    assert_eq!(rows_of(&server, "calendar", false).len(), 2);
    server.set_setting("inboxShowCalendar", json!(true));
    assert_eq!(rows_of(&server, "calendar", true).len(), 2);
}

#[test]
fn toast_delivery_is_a_stream_event_and_focus_mode_holds_it_in_the_inbox() {
    let server = server();
    server.set_setting("calendarNotificationDelivery", json!("toast"));
    let mut stream = Stream::bearer(&server, &server.token, None);
    clock_at(&server, "2026-01-05T08:20:00Z");
    let got = stream.until(|e| e.name == "calendar");
    let event = &got[got.len() - 1].data;
    assert_eq!(event["kind"], "reminder");
    assert_eq!(event["minutesBefore"], 10);
    assert_eq!(event["event"]["uid"], "standup@test");
    assert_eq!(event["event"]["start"], "2026-01-05T08:30:00.000Z");
    assert_eq!(event["event"]["source"]["kind"], "ics");
    settle();
    assert_eq!(titles(&server, "calendar"), Vec::<String>::new());

    // Focus mode on: Thursday's toast is held, and the reminder waits in
    // the inbox for focus mode's summary.
    let on = server.call("PUT", "/focus", Some(&json!({"on": true})));
    assert_eq!(on.status, 200, "{}", on.text());
    clock_at(&server, "2026-01-08T08:20:00Z");
    wait_for(&server, "calendar", "Stand-up in 10 min");
    let mut later = Vec::new();
    while let Some(event) = stream.next(Duration::from_millis(300)) {
        later.push(event);
    }
    assert!(
        later.iter().all(|e| e.name != "calendar"),
        "focus mode let a toast through: {later:#?}"
    );
    // Ending focus mode counts the held reminder in its one summary.
    let off = server.call("PUT", "/focus", Some(&json!({"on": false})));
    assert_eq!(off.status, 200, "{}", off.text());
    let released = &off.json()["released"];
    assert_eq!(released["categories"]["calendar"], 1, "{}", off.text());
}

/// A board with a status (Done is done), a due date and a start date column.
fn board(server: &TestServer) -> String {
    let id = |reply: common::Reply| {
        assert!(reply.status < 300, "{}", reply.text());
        reply.json()["id"].as_str().unwrap_or_default().to_owned()
    };
    let workspace = id(server.call("POST", "/workspaces", Some(&json!({"name": "W"}))));
    let board = id(server.call(
        "POST",
        "/boards",
        Some(&json!({"workspaceId": workspace, "name": "Ops",
            "columns": [
                {"id": "status", "title": "Status", "type": "status",
                 "settings": {"labels": [{"name": "Working"}, {"name": "Done", "done": true}]}},
                {"id": "due", "title": "Due", "type": "date"},
                {"id": "start", "title": "Start", "type": "date"}],
            "groups": [{"id": "g", "title": "G"}]})),
    ));
    for (name, values) in [
        (
            "Fix login",
            json!({"due": "2026-01-05", "status": "Working"}),
        ),
        ("Ship docs", json!({"due": "2026-01-05", "status": "Done"})),
        ("Plan sprint", json!({"due": "2026-01-06"})),
        // Starts that day, due another: not due today.
        (
            "Write tests",
            json!({"start": "2026-01-05", "due": "2026-01-09"}),
        ),
    ] {
        id(server.call(
            "POST",
            &format!("/boards/{board}/items"),
            Some(&json!({"groupId": "g", "name": name, "values": values})),
        ));
    }
    board
}

#[test]
fn the_agenda_card_comes_once_at_seven_with_the_days_events_and_due_items() {
    let server = server();
    board(&server);
    server.set_setting("calendarDailyAgendaEnabled", json!(true));
    clock_at(&server, "2026-01-05T05:59:59Z"); // 06:59:59 in Berlin
    settle();
    assert_eq!(titles(&server, "calendar"), Vec::<String>::new());
    clock_at(&server, "2026-01-05T06:00:00Z");
    let card = wait_for(&server, "calendar", "Today's agenda: 2 events, 1 item due");
    assert_eq!(card["reason"], "agenda");
    assert_eq!(
        card["body"],
        "Events\n- All day: Team day\n- 09:30–09:45 Stand-up (Room 1)\n\n\
         Due today\n- Fix login (Ops)"
    );
    // Once a day, across a crash too.
    let server = crash_and_restart_at(server, "1767596400000"); // 07:00Z
    settle();
    assert_eq!(titles(&server, "calendar").len(), 1);
}

#[test]
fn the_daily_briefing_lists_the_new_days_events() {
    let server = server();
    server.set_setting("pmInboxQuietHoursTimeZone", json!(ZONE));
    server.set_setting("dailyDigestEnabled", json!(true));
    // Midnight in Berlin: the briefing of Thursday the 8th, a stand-up day.
    clock_at(&server, "2026-01-07T23:00:00Z");
    let digest = wait_for(&server, "digest", "Daily briefing for 2026-01-08");
    let body = digest["body"].as_str().unwrap_or_default();
    assert!(
        body.contains("Calendar:\n- 09:30–09:45 Stand-up (Room 1)\n"),
        "{body}"
    );
}
