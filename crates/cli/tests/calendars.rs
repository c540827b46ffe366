//! Calendars through a real server on a manual clock, with an ICS
//! subscription served over real HTTP on loopback: the routes are refused
//! while `calendarEnabled` is off; an added account never shows its
//! password; a sync brings a weekly event's occurrences, each with its
//! source, into `GET /calendar/events` for a range of days; a server that
//! fails marks the account failing and keeps its events; bad input is a 400
//! naming its field and an unknown account a 404. (The CalDAV protocol
//! itself is tested against a real Radicale in crates/calendar.)

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use common::TestServer;
use serde_json::{Value, json};

/// 2026-01-05T08:00:00Z, a Monday.
const START_MS: &str = "1767600000000";

const WEEKLY: &str = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
BEGIN:VEVENT\r\nUID:standup@test\r\nDTSTAMP:20260101T000000Z\r\n\
DTSTART;TZID=Europe/Berlin:20260105T093000\r\nDTEND;TZID=Europe/Berlin:20260105T094500\r\n\
RRULE:FREQ=WEEKLY;BYDAY=MO,TH\r\nSUMMARY:Stand-up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

/// An HTTP server on loopback answering every request with `answer`
/// (status and body), which the test may change.
fn ics_server() -> (String, Arc<Mutex<(u16, String)>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
    let url = format!(
        "http://{}/team.ics",
        listener.local_addr().unwrap_or_else(|e| panic!("{e}"))
    );
    let answer = Arc::new(Mutex::new((200, WEEKLY.to_owned())));
    let serving = answer.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let (status, text) = serving.lock().map(|a| a.clone()).unwrap_or_default();
            let reply = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: text/calendar\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            );
            let _ = (&stream).write_all(reply.as_bytes());
        }
    });
    (url, answer)
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
    let (url, answer) = ics_server();
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
    for (from, to, field) in [
        ("2026-13-01", "2026-01-02", "from"),
        ("2026-01-02", "soon", "to"),
        ("2026-01-02", "2026-01-01", "to"),
        ("2026-01-01", "2027-06-01", "to"),
    ] {
        let reply = server.call(
            "GET",
            &format!("/calendar/events?from={from}&to={to}"),
            None,
        );
        assert_eq!(reply.status, 400, "{from}..{to}: {}", reply.text());
        assert!(
            reply.text().contains(&format!("{field}:")),
            "{}",
            reply.text()
        );
    }
    let missing = server.call("GET", "/calendar/events?from=2026-01-01", None);
    assert_eq!(missing.status, 400, "{}", missing.text());
    for body in [
        json!({"kind": "exchange", "url": "https://example.com/"}),
        json!({"kind": "ics", "url": "not a url"}),
        json!({"kind": "ics"}),
    ] {
        let reply = server.call("POST", "/calendars", Some(&body));
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
    }
    assert_eq!(server.call("GET", "/calendars", None).json(), json!([]));
    let unknown = server.call("POST", "/calendars/nope/sync", None);
    assert_eq!(unknown.status, 404, "{}", unknown.text());
}
