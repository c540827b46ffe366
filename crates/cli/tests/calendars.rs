//! Calendars through a real server on a manual clock, with an ICS
//! subscription served over real HTTP on loopback: the routes are refused
//! while `calendarEnabled` is off; an added account never shows its
//! password; a sync brings a weekly event's occurrences, each with its
//! source, into `GET /calendar/events` for a range of days, merged in order
//! with the boards' due dates (crates/cli/tests/calendar_overlay.rs tests
//! those); a server that fails marks the account failing and keeps its
//! events; bad input is a 400 naming its field and an unknown account a 404. (The CalDAV protocol
//! itself is tested against a real Radicale in crates/calendar.)

mod common;

use common::TestServer;
use common::calendar::ics_server;
use serde_json::{Value, json};

/// 2026-01-05T08:00:00Z, a Monday.
const START_MS: &str = "1767600000000";

const WEEKLY: &str = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
BEGIN:VEVENT\r\nUID:standup@test\r\nDTSTAMP:20260101T000000Z\r\n\
DTSTART;TZID=Europe/Berlin:20260105T093000\r\nDTEND;TZID=Europe/Berlin:20260105T094500\r\n\
RRULE:FREQ=WEEKLY;BYDAY=MO,TH\r\nSUMMARY:Stand-up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

/// A board with one item due on `day`; returns the board's id.
fn board_with_item_due(server: &TestServer, day: &str) -> String {
    let workspace = server.call("POST", "/workspaces", Some(&json!({"name": "Work"})));
    let body = json!({"workspaceId": workspace.json()["id"], "name": "Roadmap",
        "columns": [{"id": "due", "title": "Due", "type": "date"}],
        "groups": [{"id": "g1", "title": "Now"}]});
    let board = server.call("POST", "/boards", Some(&body));
    assert_eq!(board.status, 201, "{}", board.text());
    let id = board.json()["id"].as_str().unwrap_or_default().to_owned();
    let item = json!({"groupId": "g1", "name": "Release", "values": {"due": day}});
    let made = server.call("POST", &format!("/boards/{id}/items"), Some(&item));
    assert_eq!(made.status, 201, "{}", made.text());
    id
}

fn server() -> TestServer {
    TestServer::start_with(&["--manual-clock-start-ms", START_MS])
}

fn events(server: &TestServer, from: &str, to: &str) -> Vec<Value> {
    let reply = server.call(
        "GET",
        &format!("/calendar/events?from={from}&to={to}"),
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().cloned().unwrap_or_default()
}

#[test]
fn a_subscription_syncs_its_occurrences_and_never_shows_its_password() {
    let server = server();
    let (url, answer) = ics_server(WEEKLY);
    let off = server.call("GET", "/calendars", None);
    assert_eq!(off.status, 403);
    assert_eq!(off.error_code(), "calendar_disabled");
    server.set_setting("calendarEnabled", json!(true));

    let body = json!({"kind": "ics", "url": url, "username": "ada", "password": "s3cret-pass", "name": "Team"});
    let added = server.call("POST", "/calendars", Some(&body));
    assert_eq!(added.status, 201, "{}", added.text());
    assert!(!added.text().contains("s3cret-pass"));
    let account = added.json();
    assert_eq!(account["hasPassword"], true);
    let id = account["id"].as_str().unwrap_or_default().to_owned();
    let listed = server.call("GET", "/calendars", None);
    assert!(!listed.text().contains("s3cret-pass"), "{}", listed.text());

    let synced = server.call("POST", &format!("/calendars/{id}/sync"), None);
    assert_eq!(synced.status, 200, "{}", synced.text());
    // Monday the 5th and Thursday the 8th in the first week, at 09:30 Berlin.
    let week = events(&server, "2026-01-05", "2026-01-11");
    let starts: Vec<&str> = week.iter().filter_map(|e| e["start"].as_str()).collect();
    assert_eq!(
        starts,
        ["2026-01-05T08:30:00.000Z", "2026-01-08T08:30:00.000Z"]
    );
    assert_eq!(week[0]["title"], "Stand-up");
    assert_eq!(week[0]["source"]["account"], "Team");
    assert_eq!(week[0]["source"]["kind"], "ics");
    assert_eq!(
        events(&server, "2026-01-06", "2026-01-07"),
        Vec::<Value>::new()
    );

    // A board's item due on the Monday comes first, all-day, on the same timeline.
    let board = board_with_item_due(&server, "2026-01-05");
    let merged = events(&server, "2026-01-05", "2026-01-05");
    let kinds: Vec<&str> = merged
        .iter()
        .filter_map(|e| e["source"]["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["item", "ics"], "{merged:?}");
    assert_eq!(merged[0]["start"], "2026-01-05T00:00:00.000Z");
    // With the calendar off and the overlay on, only the board's entry stays.
    server.set_setting("calendarEnabled", json!(false));
    let boards_only = events(&server, "2026-01-05", "2026-01-05");
    assert_eq!(boards_only.len(), 1, "{boards_only:?}");
    assert_eq!(boards_only[0]["source"]["boardId"], board.as_str());
    server.set_setting("calendarEnabled", json!(true));
    server.set_setting("pmCalendarOverlayEnabled", json!(false));
    assert_eq!(events(&server, "2026-01-05", "2026-01-11").len(), 2);

    // The server fails: a 409 with the reason, the account failing, its events kept.
    if let Ok(mut a) = answer.lock() {
        *a = (500, "down".to_owned());
    }
    let failed = server.call("POST", &format!("/calendars/{id}/sync"), None);
    assert_eq!(failed.status, 409, "{}", failed.text());
    assert_eq!(failed.error_code(), "calendar_sync_failed");
    let accounts = server.call("GET", "/calendars", None).json();
    assert_eq!(accounts[0]["status"], "failing", "{accounts}");
    assert_eq!(events(&server, "2026-01-05", "2026-01-11").len(), 2);

    let removed = server.call("DELETE", &format!("/calendars/{id}"), None);
    assert_eq!(removed.status, 204);
    assert_eq!(events(&server, "2026-01-05", "2026-01-11").len(), 0);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let server = server();
    server.set_setting("calendarEnabled", json!(true));
    common::calendar::refuses_bad_days(&server);
    let no_scheme = server.call(
        "POST",
        "/calendars",
        Some(&json!({"kind": "ics", "url": "not a url"})),
    );
    assert_eq!(no_scheme.status, 400, "{}", no_scheme.text());
    assert_eq!(
        no_scheme.json()["error"]["field"],
        "url",
        "{}",
        no_scheme.text()
    );
    for body in [
        json!({"kind": "exchange", "url": "https://example.com/"}),
        json!({"kind": "ics"}),
    ] {
        let reply = server.call("POST", "/calendars", Some(&body));
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
    }
    assert_eq!(server.call("GET", "/calendars", None).json(), json!([]));
    let unknown = server.call("POST", "/calendars/nope/sync", None);
    assert_eq!(unknown.status, 404, "{}", unknown.text());
}
