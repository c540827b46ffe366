//! The utility model with no primary engine: a server whose only engine is a
//! `command` one records each title question as `no_engine` and says so in
//! the inbox once, however many sessions start.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::Value;

fn idle_notes(server: &TestServer) -> Vec<Value> {
    let notes = server.call("GET", "/inbox?category=note", None).json();
    notes
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| {
            n["title"]
                .as_str()
                .is_some_and(|t| t.ends_with("no primary engine"))
        })
        .cloned()
        .collect()
}

#[test]
fn without_a_primary_engine_titles_stay_idle_and_say_so_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.echo]\nkind = \"command\"\ncommand = [\"/bin/echo\", \"hi\"]\n",
    )
    .unwrap();
    let server = TestServer::start_in(dir);
    for prompt in ["one", "two"] {
        let id = server.browser_session("echo", prompt)["id"]
            .as_str()
            .unwrap()
            .to_owned();
        server.wait_for_status(&id, "waiting_for_input");
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    let calls = loop {
        let calls = server
            .call("GET", "/utility/calls?feature=title", None)
            .json()["calls"]
            .clone();
        if calls.as_array().unwrap().len() == 2 {
            break calls;
        }
        assert!(Instant::now() < deadline, "{calls}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        calls
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["outcome"] == "no_engine" && c["engine"].is_null())
    );
    let notes = idle_notes(&server);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0]["count"], 1);
    assert!(
        notes[0]["title"]
            .as_str()
            .unwrap()
            .starts_with("Session titles")
    );
    // `from` keeps the calls made at or after it.
    let newest = calls[0]["at"].as_str().unwrap().to_owned();
    let oldest = calls[1]["at"].as_str().unwrap().to_owned();
    let since = |from: &str| -> Vec<Value> {
        server
            .call(
                "GET",
                &format!("/utility/calls?feature=title&from={from}"),
                None,
            )
            .json()["calls"]
            .as_array()
            .unwrap()
            .clone()
    };
    assert_eq!(since(&oldest).len(), 2);
    let recent = since(&newest);
    assert!(!recent.is_empty() && recent.len() <= 2, "{recent:?}");
    assert!(
        recent
            .iter()
            .all(|c| c["at"].as_str().unwrap() >= newest.as_str())
    );
    assert!(since("2999-01-01T00:00:00Z").is_empty());
    // Bad filters are refused.
    let bad = server.call("GET", "/utility/calls?feature=jokes", None);
    assert_eq!(
        (bad.status, bad.error_code().as_str()),
        (400, "invalid_request")
    );
    let bad = server.call("GET", "/utility/calls?from=yesterday", None);
    assert_eq!(
        (bad.status, bad.error_code().as_str()),
        (400, "invalid_request")
    );
    let sessions = server.call("GET", "/sessions", None).json();
    assert!(
        sessions
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["title"].is_null()),
        "{sessions}"
    );
}
