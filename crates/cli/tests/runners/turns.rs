//! What the runner tests do with sessions: start one on a runner, read
//! what its turns printed, wait for a line.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::TestServer;

pub fn output_of(server: &TestServer, id: &str) -> String {
    let transcript = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json();
    transcript["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["output"].as_str())
        .collect::<Vec<_>>()
        .join("")
}

pub fn wait_for_output(server: &TestServer, id: &str, wanted: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let output = output_of(server, id);
        if output.contains(wanted) {
            return output;
        }
        assert!(
            Instant::now() < deadline,
            "no {wanted:?} in {output:?}: {}",
            server
                .call("GET", &format!("/sessions/{id}/transcript"), None)
                .text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts a session of `engine` on `runner` from the web app, as a person
/// would; its id.
pub fn spawn_on(server: &TestServer, runner: &str, engine: &str, prompt: &str) -> String {
    let cookie = server.browser_cookie();
    let reply = server.browser_spawn(
        &cookie,
        &json!({"engine": engine, "prompt": prompt, "runner": runner}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let session = reply.json();
    if runner != "auto" {
        assert_eq!(session["runner"], runner);
    }
    session["id"].as_str().unwrap().to_owned()
}

/// Sends `text` to session `id` from the web app: a follow-up turn.
pub fn follow_up(server: &TestServer, id: &str, text: &str) {
    let sent = crate::common::request(
        &server.ui,
        "POST",
        &format!("/api/sessions/{id}/messages"),
        &[
            ("Cookie", &server.browser_cookie()),
            ("Content-Type", "application/json"),
        ],
        Some(json!({ "text": text }).to_string().as_bytes()),
    );
    assert!(sent.status < 300, "{}", sent.text());
}
