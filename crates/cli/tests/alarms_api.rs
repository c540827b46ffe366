//! Alarms over real HTTP on a server whose clock the test moves
//! (`serve --manual-clock-start-ms`, `POST /test/clock`): set, list, snooze,
//! dismiss, delete; ringing on time with an `alarm` event; a ring nobody
//! answers becoming a missed inbox row; and an alarm due while the server
//! was down becoming a missed row at the next start. No test waits for real
//! time to pass.

mod common;

use common::TestServer;
use common::sse::Stream;
use serde_json::{Value, json};

/// Monday 2026-01-05 08:00 UTC.
const T0_MS: i64 = 1_767_600_000_000;
const MINUTE_MS: i64 = 60_000;

fn start_at(ms: i64) -> TestServer {
    TestServer::start_with(&["--manual-clock-start-ms", &ms.to_string()])
}

fn advance(server: &TestServer, ms: i64) {
    let reply = server.call("POST", "/test/clock", Some(&json!({ "advanceMs": ms })));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn create(server: &TestServer, body: Value) -> Value {
    let reply = server.call("POST", "/alarms", Some(&body));
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

/// Polls `GET /alarms/<id>` until it has `status` (the scheduler moves on its own task).
fn wait_for_alarm(server: &TestServer, id: &str, status: &str) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let alarm = server.call("GET", &format!("/alarms/{id}"), None).json();
        if alarm["status"] == status {
            return alarm;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "alarm {id} stuck at {alarm}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

fn alarm_rows(server: &TestServer) -> Vec<Value> {
    let rows = server.call("GET", "/inbox", None).json();
    rows.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["category"] == "alarm")
        .cloned()
        .collect()
}

#[test]
fn alarms_are_set_rung_snoozed_dismissed_and_deleted() {
    let server = start_at(T0_MS);
    let tea = create(
        &server,
        json!({"label": "Tea", "at": "2026-01-05T09:05:00+01:00"}),
    );
    assert_eq!(tea["status"], "scheduled");
    assert_eq!(tea["at"], "2026-01-05T08:05:00.000Z");
    assert_eq!(tea["repeat"], Value::Null);
    let id = tea["id"].as_str().unwrap().to_owned();

    let daily = create(
        &server,
        json!({"label": "Stand-up", "at": "10:00", "repeat": "weekdays"}),
    );
    assert_eq!(daily["repeat"], "weekdays");
    assert_eq!(daily["timeOfDay"], "10:00:00");

    for (body, code) in [
        (json!({"label": "x", "at": "soon"}), "invalid_alarm_time"),
        (
            json!({"label": "x", "at": "2026-01-05T07:00:00Z"}),
            "alarm_in_past",
        ),
        (json!({"label": " ", "at": "10:00"}), "invalid_request"),
        (
            json!({"label": "x", "at": "10:00", "repeat": "hourly"}),
            "invalid_request",
        ),
    ] {
        let reply = server.call("POST", "/alarms", Some(&body));
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        assert_eq!(reply.error_code(), code, "{body}");
    }

    let listed = server.call("GET", "/alarms", None).json();
    let labels: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Tea", "Stand-up"], "soonest first");

    let early = server.call("POST", &format!("/alarms/{id}/snooze"), None);
    assert_eq!(early.status, 409);
    assert_eq!(early.error_code(), "alarm_not_ringing");

    // It rings when the clock reaches it, with an `alarm` event.
    let mut stream = Stream::bearer(&server, &server.token, None);
    advance(&server, 5 * MINUTE_MS);
    let events = stream.until(|e| e.name == "alarm" && e.data["alarm"]["status"] == "ringing");
    let ringing = &events.last().unwrap().data;
    assert_eq!(ringing["id"], id.as_str());
    assert_eq!(ringing["alarm"]["ringingSince"], "2026-01-05T08:05:00.000Z");

    // One snooze allowed: the second is refused.
    server.set_setting("alarmsDefaultMaxSnoozes", json!(1));
    server.set_setting("alarmsDefaultSnoozeMinutes", json!(15));
    let snoozed = server.call("POST", &format!("/alarms/{id}/snooze"), None);
    assert_eq!(snoozed.status, 200, "{}", snoozed.text());
    let snoozed = snoozed.json();
    assert_eq!(snoozed["status"], "snoozed");
    assert_eq!(snoozed["snoozes"], 1);
    assert_eq!(snoozed["at"], "2026-01-05T08:20:00.000Z");
    advance(&server, 15 * MINUTE_MS);
    wait_for_alarm(&server, &id, "ringing");
    let refused = server.call("POST", &format!("/alarms/{id}/snooze"), None);
    assert_eq!(refused.status, 409);
    assert_eq!(refused.error_code(), "snooze_limit");
    // -1: no limit.
    server.set_setting("alarmsDefaultMaxSnoozes", json!(-1));
    let again = server.call("POST", &format!("/alarms/{id}/snooze"), None);
    assert_eq!(again.json()["snoozes"], 2);
    advance(&server, 15 * MINUTE_MS);
    wait_for_alarm(&server, &id, "ringing");

    let dismissed = server.call("POST", &format!("/alarms/{id}/dismiss"), None);
    assert_eq!(dismissed.status, 200);
    assert_eq!(dismissed.json()["status"], "dismissed");
    stream.until(|e| e.name == "alarm" && e.data["alarm"]["status"] == "dismissed");

    let deleted = server.call("DELETE", &format!("/alarms/{id}"), None);
    assert_eq!(deleted.status, 204);
    stream.until(|e| e.name == "alarm" && e.data["deleted"] == true);
    let gone = server.call("GET", &format!("/alarms/{id}"), None);
    assert_eq!(gone.status, 404);
    assert_eq!(
        server.call("DELETE", &format!("/alarms/{id}"), None).status,
        404
    );
    assert!(
        alarm_rows(&server).is_empty(),
        "answered alarms leave no row"
    );

    // Another account sees none of them.
    let other = server.call("POST", "/accounts", Some(&json!({"name": "Other"})));
    let other_token = other.json()["token"].as_str().unwrap().to_owned();
    let theirs = server.call_as(&other_token, "GET", "/alarms", None).json();
    assert_eq!(theirs, json!([]));
    let daily_id = daily["id"].as_str().unwrap();
    let foreign = server.call_as(
        &other_token,
        "POST",
        &format!("/alarms/{daily_id}/dismiss"),
        None,
    );
    assert_eq!(foreign.status, 404);

    server.set_setting("alarmsEnabled", json!(false));
    for (method, path) in [
        ("GET", "/alarms".to_owned()),
        ("POST", format!("/alarms/{daily_id}/dismiss")),
    ] {
        let reply = server.call(method, &path, None);
        assert_eq!(reply.status, 403);
        assert_eq!(reply.error_code(), "alarms_disabled");
    }
    let refused = server.call(
        "POST",
        "/alarms",
        Some(&json!({"label": "x", "at": "10:00"})),
    );
    assert_eq!(refused.status, 403);
    assert_eq!(refused.error_code(), "alarms_disabled");
}

#[test]
fn a_ring_nobody_answers_becomes_a_missed_inbox_row() {
    let server = start_at(T0_MS);
    server.set_setting("alarmsMaxRingingMinutes", json!(2));
    let alarm = create(
        &server,
        json!({"label": "Call Sam", "at": "2026-01-05T08:01:00Z"}),
    );
    let id = alarm["id"].as_str().unwrap();
    advance(&server, MINUTE_MS);
    wait_for_alarm(&server, id, "ringing");
    advance(&server, MINUTE_MS);
    assert!(
        alarm_rows(&server).is_empty(),
        "still ringing at one minute"
    );
    let mut stream = Stream::bearer(&server, &server.token, None);
    advance(&server, MINUTE_MS);
    let events = stream.until(|e| e.name == "inbox");
    assert_eq!(events.last().unwrap().data["category"], "alarm");
    wait_for_alarm(&server, id, "missed");
    let rows = alarm_rows(&server);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["title"], "Missed alarm: Call Sam");
    assert_eq!(rows[0]["source"]["alarmId"], id);
    assert_eq!(rows[0]["body"], "Due at 2026-01-05T08:01:00.000Z.");
}

#[test]
fn an_alarm_due_while_the_server_was_down_is_missed_at_the_next_start() {
    let server = start_at(T0_MS);
    let once = create(
        &server,
        json!({"label": "Dentist", "at": "2026-01-05T09:00:00Z"}),
    );
    let daily = create(
        &server,
        json!({"label": "Pills", "at": "2026-01-05T09:30:00Z", "repeat": "daily"}),
    );
    let later = create(
        &server,
        json!({"label": "Later", "at": "2026-01-05T12:00:00Z"}),
    );
    let mut server = server;
    server.stop();
    // Two hours later, as if the server had been down that long.
    let dir = std::mem::replace(&mut server.dir, tempfile::tempdir().unwrap());
    let server = TestServer::start_in_with(
        dir,
        &[
            "--manual-clock-start-ms",
            &(T0_MS + 120 * MINUTE_MS).to_string(),
        ],
    );
    let get = |alarm: &Value| {
        let id = alarm["id"].as_str().unwrap();
        server.call("GET", &format!("/alarms/{id}"), None).json()
    };
    assert_eq!(get(&once)["status"], "missed");
    let daily = get(&daily);
    assert_eq!(daily["status"], "scheduled");
    assert_eq!(daily["at"], "2026-01-06T09:30:00.000Z");
    assert_eq!(get(&later)["status"], "scheduled");
    let mut titles: Vec<String> = alarm_rows(&server)
        .iter()
        .map(|r| r["title"].as_str().unwrap().to_owned())
        .collect();
    titles.sort();
    assert_eq!(titles, ["Missed alarm: Dentist", "Missed alarm: Pills"]);
}
