//! The friction scan on a real server and a manual clock: at start (the
//! first is due at once), then every `sessionForensicsScanIntervalHours`;
//! a session stopped without a final message is found, told in the inbox
//! once, and listed by `GET /forensics`; the next scan finds nothing new.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

fn scan_notes(server: &TestServer) -> Vec<Value> {
    let notes = server.call("GET", "/inbox?category=note", None).json();
    notes
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| {
            n["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("Friction scan"))
        })
        .cloned()
        .collect()
}

fn advance(server: &TestServer, ms: i64) {
    let moved = server.call("POST", "/test/clock", Some(&json!({"advanceMs": ms})));
    assert_eq!(moved.status, 204, "{}", moved.text());
}

#[test]
fn a_session_stopped_without_a_final_message_is_found_and_told_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.slow]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo working; sleep 600\"]\n",
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &["--manual-clock"]);
    server.set_setting("sessionForensicsScanIntervalHours", json!(1));
    let report = server.call("GET", "/forensics", None).json();
    assert!(
        report["findings"].as_array().unwrap().is_empty(),
        "{report}"
    );
    let id = server.browser_session("slow", "build it")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    server.wait_for_status(&id, "running");
    let stopped = server.call("POST", &format!("/sessions/{id}/stop"), None);
    assert!(stopped.status < 300, "{}", stopped.text());
    advance(&server, 3_600_000);
    let deadline = Instant::now() + Duration::from_secs(30);
    let findings = loop {
        let report = server.call("GET", "/forensics", None).json();
        let findings = report["findings"].as_array().unwrap().clone();
        if !findings.is_empty() {
            assert!(report["lastScanAt"].is_string(), "{report}");
            break findings;
        }
        assert!(Instant::now() < deadline, "{report}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["kind"], "no_final_message");
    assert_eq!(findings[0]["sessionId"], id.as_str());
    let deadline = Instant::now() + Duration::from_secs(10);
    while scan_notes(&server).is_empty() {
        assert!(Instant::now() < deadline, "no inbox row for the finding");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        scan_notes(&server)[0]["body"]
            .as_str()
            .unwrap()
            .contains("without a final message")
    );
    // The next scan finds the same friction: nothing new to tell.
    let first_scan = server.call("GET", "/forensics", None).json()["lastScanAt"].clone();
    advance(&server, 3_600_000);
    let deadline = Instant::now() + Duration::from_secs(30);
    while server.call("GET", "/forensics", None).json()["lastScanAt"] == first_scan {
        assert!(Instant::now() < deadline, "the second scan never ran");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let notes = scan_notes(&server);
    assert_eq!(
        (notes.len(), notes[0]["count"].as_i64()),
        (1, Some(1)),
        "{notes:?}"
    );
}
