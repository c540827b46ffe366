//! Calendar spam invitations through a real `switchboard` on a manual clock
//! and a real CalDAV server (Radicale, the rig of crates/calendar/tests):
//! the mail client's address makes the user's organization; with
//! `spamFilterCalendarEnabled` on (the default) an invitation from outside
//! it is missing from `GET /calendar/events`, off it is there and marking
//! spam is refused; a sender marked spam is hidden, left on the server
//! while `spamFilterCalendarDeleteEvent` is off and deleted from it into
//! `GET /calendar/trash` while on, also when a new invitation of theirs
//! comes with the sync loop; a restore puts one back on the server and in
//! the calendar; the trash forgets after 30 days of the clock. Without
//! Radicale it skips, unless `SWITCHBOARD_CALENDAR_REQUIRED=1`.

mod common;
// Only part of the rig is used here.
#[allow(dead_code)]
#[path = "../../calendar/tests/rig/mod.rs"]
mod rig;

use std::time::{Duration, Instant};

use base64::Engine;
use common::TestServer;
use rig::{PASSWORD, Radicale, USER};
use serde_json::{Value, json};

/// 2026-03-15T12:00:00Z.
const START_MS: &str = "1773576000000";

fn invite(uid: &str, summary: &str, day: u8, organizer: Option<&str>) -> String {
    let organizer = organizer
        .map(|o| format!("ORGANIZER:mailto:{o}\r\nATTENDEE:mailto:ada@work.example\r\n"))
        .unwrap_or_default();
    format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//switchboard//tests//EN\r\nBEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20260301T000000Z\r\nDTSTART:202603{day:02}T090000Z\r\nDTEND:202603{day:02}T100000Z\r\nSUMMARY:{summary}\r\n{organizer}END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
}

fn titles(server: &TestServer) -> Vec<String> {
    let reply = server.call(
        "GET",
        "/calendar/events?from=2026-03-15&to=2026-03-31",
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let mut titles: Vec<String> = reply
        .json()
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["title"].as_str().map(str::to_owned))
        .collect();
    titles.sort();
    titles
}

fn call(server: &TestServer, method: &str, path: &str, body: Option<&Value>, status: u16) -> Value {
    let reply = server.call(method, path, body);
    assert_eq!(reply.status, status, "{method} {path}: {}", reply.text());
    if reply.text().is_empty() {
        Value::Null
    } else {
        reply.json()
    }
}

/// The status of a GET of one of the user's paths on the CalDAV server.
fn on_server(rig: &Radicale, path: &str) -> u16 {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let auth = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"));
    agent
        .get(rig.url(path))
        .header("Authorization", format!("Basic {auth}"))
        .call()
        .unwrap_or_else(|e| panic!("{e}"))
        .status()
        .as_u16()
}

#[test]
fn outside_invitations_are_hidden_and_spam_senders_trashed_on_the_server() {
    let Some(rig) = Radicale::start() else { return };
    rig.make_calendar("work", "Work");
    rig.put("work/own.ics", &invite("own", "Own block", 16, None));
    rig.put(
        "work/team.ics",
        &invite("team", "Team sync", 17, Some("bob@work.example")),
    );
    rig.put(
        "work/prize.ics",
        &invite("prize", "You won", 18, Some("win@prizes.example")),
    );
    rig.put(
        "work/p1.ics",
        &invite("p1", "Offer 1", 19, Some("pest@work.example")),
    );
    rig.put(
        "work/p2.ics",
        &invite("p2", "Offer 2", 20, Some("pest@work.example")),
    );

    let server = TestServer::start_in_with(
        tempfile::tempdir().unwrap_or_else(|e| panic!("{e}")),
        &["--manual-clock-start-ms", START_MS],
    );
    server.set_setting("calendarDailyAgendaEnabled", json!(false));
    server.set_setting("calendarEnabled", json!(true));
    server.set_setting("mailclientEnabled", json!(true));
    let mail = json!({"name": "Work", "address": "Ada@Work.Example", "username": "ada",
        "password": "mail-secret", "imap": {"host": "imap.example.com", "port": 993, "tls": "tls"},
        "smtp": {"host": "imap.example.com", "port": 587, "tls": "starttls"}});
    call(&server, "POST", "/mail/accounts", Some(&mail), 201);
    let body = json!({"kind": "caldav", "url": rig.base_url(), "username": USER,
        "password": PASSWORD, "name": "Radicale"});
    let id = call(&server, "POST", "/calendars", Some(&body), 201)["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    call(&server, "POST", &format!("/calendars/{id}/sync"), None, 200);

    let organization = call(&server, "GET", "/calendar/organization", None, 200);
    assert_eq!(
        organization["domains"],
        json!([{"domain": "work.example", "address": "ada@work.example"}])
    );
    let inside = ["Offer 1", "Offer 2", "Own block", "Team sync"];
    assert_eq!(titles(&server), inside);

    server.set_setting("spamFilterCalendarEnabled", json!(false));
    assert_eq!(
        titles(&server),
        ["Offer 1", "Offer 2", "Own block", "Team sync", "You won"]
    );
    let spam = json!({"accountId": id, "uid": "p1"});
    let off = server.call("POST", "/calendar/spam", Some(&spam));
    assert_eq!(off.status, 403, "{}", off.text());
    assert_eq!(off.error_code(), "calendar_spam_filter_off");
    server.set_setting("spamFilterCalendarEnabled", json!(true));

    // Deletion off: hidden, still on the server, nothing in the trash.
    let marked = call(&server, "POST", "/calendar/spam", Some(&spam), 200);
    assert_eq!(
        marked,
        json!({"sender": "pest@work.example", "trashed": 0, "failure": null})
    );
    assert_eq!(titles(&server), ["Own block", "Team sync"]);
    assert_eq!(on_server(&rig, "work/p1.ics"), 200);
    assert_eq!(
        call(&server, "GET", "/calendar/trash", None, 200),
        json!([])
    );
    let own = json!({"accountId": id, "uid": "own"});
    call(&server, "POST", "/calendar/spam", Some(&own), 400);
    call(
        &server,
        "DELETE",
        "/calendar/spam/pest@work.example",
        None,
        204,
    );
    assert_eq!(titles(&server), inside);

    // Deletion on: both of the sender's invitations leave the server.
    server.set_setting("spamFilterCalendarDeleteEvent", json!(true));
    let marked = call(&server, "POST", "/calendar/spam", Some(&spam), 200);
    assert_eq!(marked["trashed"], 2, "{marked}");
    assert_eq!(on_server(&rig, "work/p1.ics"), 404);
    assert_eq!(on_server(&rig, "work/p2.ics"), 404);
    assert_eq!(titles(&server), ["Own block", "Team sync"]);
    let trash = call(&server, "GET", "/calendar/trash", None, 200);
    assert_eq!(trash.as_array().map(Vec::len), Some(2), "{trash}");

    // A new invitation of theirs comes with the loop's sync and goes.
    rig.put(
        "work/p3.ics",
        &invite("p3", "Offer 3", 21, Some("pest@work.example")),
    );
    call(
        &server,
        "POST",
        "/test/clock",
        Some(&json!({"at": "2026-03-15T12:06:00Z"})),
        204,
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while on_server(&rig, "work/p3.ics") != 404 {
        assert!(Instant::now() < deadline, "p3 was never deleted");
        std::thread::sleep(Duration::from_millis(50));
    }
    let trash = call(&server, "GET", "/calendar/trash", None, 200);
    assert_eq!(trash.as_array().map(Vec::len), Some(3), "{trash}");
    assert_eq!(titles(&server), ["Own block", "Team sync"]);

    let p2 = trash
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["uid"] == "p2")
        .and_then(|t| t["id"].as_str())
        .unwrap_or_default()
        .to_owned();
    call(
        &server,
        "POST",
        &format!("/calendar/trash/{p2}/restore"),
        None,
        204,
    );
    assert_eq!(on_server(&rig, "work/p2.ics"), 200);
    assert_eq!(titles(&server), ["Offer 2", "Own block", "Team sync"]);
    assert_eq!(call(&server, "GET", "/calendar/spam", None, 200), json!([]));
    let left = call(&server, "GET", "/calendar/trash", None, 200);
    let kept = left[0]["id"]
        .as_str()
        .expect("another invitation is still in the trash")
        .to_owned();

    call(
        &server,
        "POST",
        "/test/clock",
        Some(&json!({"at": "2026-04-15T12:00:00Z"})),
        204,
    );
    assert_eq!(
        call(&server, "GET", "/calendar/trash", None, 200),
        json!([])
    );
    // Kept 30 days only: past them, a restore of it is refused in words.
    let gone = server.call("POST", &format!("/calendar/trash/{kept}/restore"), None);
    assert_eq!(gone.status, 404, "{}", gone.text());
    assert_eq!(
        gone.json()["error"]["message"],
        "no such invitation in the trash"
    );
}
