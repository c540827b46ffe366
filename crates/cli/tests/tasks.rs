//! Tasks over the API and their tasks.md mirror on a real server: a nested
//! list written to the data directory's file, an edit made in the file
//! merged back, and a conflicting edit on both sides kept twice and told in
//! the inbox; bad input changes nothing.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

fn tasks(server: &TestServer) -> Vec<Value> {
    server.call("GET", "/tasks", None).json()["tasks"]
        .as_array()
        .unwrap()
        .clone()
}

fn create(server: &TestServer, body: Value) -> Value {
    let reply = server.call("POST", "/tasks", Some(&body));
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

fn mirror_path(server: &TestServer) -> std::path::PathBuf {
    let mirrors = server.call("GET", "/tasks/mirror", None).json();
    std::path::PathBuf::from(mirrors["mirrors"][0]["path"].as_str().unwrap())
}

fn wait_for(mut done: impl FnMut() -> bool, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_list_round_trips_through_tasks_md_edits_on_both_sides() {
    let server = TestServer::start();
    let parent = create(
        &server,
        json!({"text": "Ship the release", "due": "2026-12-01"}),
    );
    let child = create(
        &server,
        json!({"text": "Write notes", "parentId": parent["id"]}),
    );
    assert_eq!(child["parentId"], parent["id"]);
    let path = mirror_path(&server);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("Ship the release") && text.contains("Write notes"),
        "{text}"
    );
    // Checked in the file: merged back.
    let edited = text.replacen("- [ ] Write notes", "- [x] Write notes", 1);
    assert_ne!(edited, text, "{text}");
    std::fs::write(&path, edited).unwrap();
    wait_for(
        || {
            tasks(&server)
                .iter()
                .any(|t| t["text"] == "Write notes" && t["state"] == "done")
        },
        "the file's check never reached the list",
    );
    // Renamed on both sides differently: both versions kept, and said.
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen("Ship the release", "Ship the release on Friday", 1),
    )
    .unwrap();
    let renamed = server.call(
        "PATCH",
        &format!("/tasks/{}", parent["id"].as_str().unwrap()),
        Some(&json!({"text": "Ship the release on Monday"})),
    );
    assert_eq!(renamed.status, 200, "{}", renamed.text());
    wait_for(
        || tasks(&server).iter().any(|t| t["conflict"] == true),
        "the conflict never showed",
    );
    let texts: Vec<String> = tasks(&server)
        .iter()
        .map(|t| t["text"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("Monday")) && texts.iter().any(|t| t.contains("Friday")),
        "{texts:?}"
    );
    let inbox = server.call("GET", "/inbox?category=note", None).json();
    assert!(inbox.to_string().contains("both versions kept"), "{inbox}");
    // Bad input: a clear error, and nothing changes.
    let before = tasks(&server);
    for bad in [
        json!({"text": ""}),
        json!({"text": "x", "due": "tomorrow"}),
        json!({"text": "x", "parentId": "nope"}),
    ] {
        let reply = server.call("POST", "/tasks", Some(&bad));
        assert!(
            reply.status == 400 || reply.status == 404,
            "{bad}: {}",
            reply.text()
        );
    }
    let moved = server.call(
        "POST",
        "/tasks/reorder",
        Some(&json!({"id": parent["id"], "parentId": child["id"], "index": 0})),
    );
    assert_eq!(moved.status, 400, "{}", moved.text());
    assert_eq!(tasks(&server), before);
}

fn task_notes(server: &TestServer) -> Vec<String> {
    let notes = server.call("GET", "/inbox?category=note", None).json();
    notes
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["title"].as_str())
        .filter(|t| t.starts_with("Task ") || t.starts_with("Snooze over"))
        .map(str::to_owned)
        .collect()
}

fn advance(server: &TestServer, ms: i64) {
    let moved = server.call("POST", "/test/clock", Some(&json!({"advanceMs": ms})));
    assert_eq!(moved.status, 204, "{}", moved.text());
}

#[test]
fn due_and_snoozed_tasks_reach_the_inbox_once_and_wait_out_quiet_hours() {
    let start: jiff::Timestamp = "2026-11-30T20:00:00Z".parse().unwrap();
    let ms = start.as_millisecond().to_string();
    let server = TestServer::start_with(&["--manual-clock-start-ms", &ms]);
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    server.set_setting("pmInboxQuietHoursStart", json!("21:00"));
    server.set_setting("pmInboxQuietHoursEnd", json!("08:00"));
    server.set_setting("pmInboxQuietHoursEnabled", json!(true));
    create(
        &server,
        json!({"text": "Pay the invoice", "due": "2026-11-30"}),
    );
    create(
        &server,
        json!({"text": "Renew the domain", "due": "2026-11-28"}),
    );
    advance(&server, 60_000);
    wait_for(
        || task_notes(&server).len() == 2,
        "the due tasks were not told",
    );
    let notes = task_notes(&server);
    assert!(
        notes.contains(&"Task due today: Pay the invoice".to_owned()),
        "{notes:?}"
    );
    assert!(
        notes.contains(&"Task overdue: Renew the domain (due 2026-11-28)".to_owned()),
        "{notes:?}"
    );
    // Snoozed until 21:30, inside quiet hours: held until they end at 08:00.
    let snoozed = create(&server, json!({"text": "Call the bank"}));
    let patched = server.call(
        "PATCH",
        &format!("/tasks/{}", snoozed["id"].as_str().unwrap()),
        Some(&json!({"snoozedUntil": "2026-11-30T21:30:00Z"})),
    );
    assert_eq!(patched.status, 200, "{}", patched.text());
    advance(&server, 90 * 60_000);
    advance(&server, 60_000);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(task_notes(&server).len(), 2, "told inside quiet hours");
    advance(&server, 11 * 3_600_000);
    wait_for(
        || task_notes(&server).len() == 3,
        "the snooze's end was never told",
    );
    assert!(task_notes(&server).contains(&"Snooze over: Call the bank".to_owned()));
    // Told once: another day passes without repeats.
    advance(&server, 3_600_000);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(task_notes(&server).len(), 3, "{:?}", task_notes(&server));
}
