//! `serve --demo`'s built-in demo engine: the demo's waiting session takes
//! a follow-up and runs a real second turn on it (no model, no
//! `engines.toml`, nothing on PATH), and the New session dialog's engine
//! list offers it.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

/// Answers session `id` as the user does in the web app (the control
/// server's follow-ups are agent-driven, which the settings turn off).
fn answer(server: &TestServer, cookie: &str, id: &str, text: &str) {
    let body = json!({ "text": text }).to_string();
    let sent = common::request(
        &server.ui,
        "POST",
        &format!("/api/sessions/{id}/messages"),
        &[("Cookie", cookie), ("Content-Type", "application/json")],
        Some(body.as_bytes()),
    );
    assert!(sent.status < 300, "{}", sent.text());
}

/// Polls the session until its turn `turn` has ended, and returns it.
fn wait_for_turn_end(server: &TestServer, id: &str, turn: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        let ended = session["turns"].as_u64() == Some(turn)
            && matches!(
                session["status"].as_str(),
                Some("waiting_for_input" | "failed" | "interrupted")
            );
        if ended {
            return session;
        }
        assert!(
            Instant::now() < deadline,
            "turn {turn} of {id} did not end: {session}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The session's typed transcript, whole.
fn transcript(server: &TestServer, id: &str) -> Value {
    server
        .call(
            "GET",
            &format!("/sessions/{id}/transcript?format=json&limit=500"),
            None,
        )
        .json()
}

#[test]
fn answering_the_demos_waiting_session_runs_a_turn_on_the_demo_engine() {
    let server = TestServer::demo();

    let engines = server.call("GET", "/engines", None).json();
    let demo = engines
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "demo")
        .unwrap_or_else(|| panic!("no demo engine in {engines}"));
    assert_eq!(demo["kind"], "claude");
    assert_eq!(demo["label"], "Demo engine (scripted, no model)");

    let sessions = server.call("GET", "/sessions", None).json();
    let waiting = sessions
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["status"] == "waiting_for_input")
        .unwrap_or_else(|| panic!("no waiting demo session in {sessions}"));
    assert_eq!(waiting["engine"], "demo");
    let id = waiting["id"].as_str().unwrap().to_owned();
    let cookie = server.browser_cookie();

    answer(
        &server,
        &cookie,
        &id,
        "Request changes on #1432 and fix the label.",
    );
    let session = wait_for_turn_end(&server, &id, 2);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert_eq!(session["engine"], "demo");

    let page = transcript(&server, &id);
    let turn: Vec<&Value> = page["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["turn"] == 2)
        .collect();
    let results: Vec<&&Value> = turn.iter().filter(|e| e["kind"] == "tool_result").collect();
    assert!(
        results.iter().any(
            |r| r["isError"] == true && r["output"].as_str().unwrap().starts_with("Exit code ")
        ),
        "no failed tool step in {turn:?}"
    );
    assert!(
        results.iter().any(|r| r["isError"] == false),
        "no successful tool step in {turn:?}"
    );
    assert_eq!(turn.last().unwrap()["kind"], "final", "{turn:?}");

    // A second follow-up continues the conversation the first one kept.
    answer(&server, &cookie, &id, "Now add a test for it.");
    let session = wait_for_turn_end(&server, &id, 3);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let page = transcript(&server, &id);
    let continued = page["entries"].as_array().unwrap().iter().any(|e| {
        e["turn"] == 3
            && e["kind"] == "text"
            && e["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("Continuing with"))
    });
    assert!(continued, "turn 3 did not continue: {page}");
}
