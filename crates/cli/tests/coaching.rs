//! AI coaching against a real server: the weekly report computed from the
//! account's own sessions, an interview started from the web app on a fake
//! Claude Code whose final answer becomes an artifact, another account
//! seeing none of it, and `aiCoachingCliEnabled` off closing every coaching
//! route of the control server (not the web app's).

mod common;

use common::{TestServer, request};
use serde_json::{Value, json};

/// The fake Claude Code records each session's agent token, then answers.
fn server() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let result = r#"{"type":"result","subtype":"success","is_error":false,"result":"Write-up: batch your follow-ups.","session_id":"s1","total_cost_usd":0.02}"#;
    let script = format!(
        "printf '%s' \"$APP_CLI_TOKEN\" > {}/token-$APP_SESSION_ID; printf '%s\\n' {result:?}",
        scratch.path().display()
    );
    std::fs::write(
        dir.path().join("engines.toml"),
        format!("[engines.primary]\nkind = \"claude\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}, \"claude\"]\n"),
    )
    .unwrap();
    TestServer::start_in_with(dir, &[]).keeping(scratch)
}

fn browser(
    server: &TestServer,
    cookie: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> common::Reply {
    let text = body.map(Value::to_string);
    let mut headers = vec![("Cookie", cookie)];
    if text.is_some() {
        headers.push(("Content-Type", "application/json"));
    }
    request(
        &server.ui,
        method,
        &format!("/api{path}"),
        &headers,
        text.as_deref().map(str::as_bytes),
    )
}

#[test]
fn an_interview_becomes_an_artifact_beside_the_weekly_report() {
    let server = server();
    let cookie = server.browser_cookie();
    let started = browser(
        &server,
        &cookie,
        "POST",
        "/coaching/interviews",
        Some(&json!({"topic": "costs"})),
    );
    assert_eq!(started.status, 201, "{}", started.text());
    let id = started.json()["session"]["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");

    let listed = server.call("GET", "/coaching/artifacts", None).json();
    let artifacts = listed["artifacts"].as_array().unwrap();
    assert_eq!(artifacts[0]["id"], "weekly-report");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let interview = loop {
        let listed = server.call("GET", "/coaching/artifacts", None).json();
        if let Some(found) = listed["artifacts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["kind"] == "interview")
        {
            break found.clone();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no interview artifact"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(interview["title"], "Coaching interview: costs");
    assert_eq!(interview["sessionId"], id.as_str());
    let full = server
        .call(
            "GET",
            &format!("/coaching/artifacts/{}", interview["id"].as_str().unwrap()),
            None,
        )
        .json();
    assert_eq!(full["body"], "Write-up: batch your follow-ups.");

    let weekly = server
        .call("GET", "/coaching/artifacts/weekly-report", None)
        .json();
    assert_eq!(weekly["report"]["sessions"], 1);
    assert_eq!(weekly["report"]["turns"], 1);
    assert_eq!(weekly["report"]["costUsd"], 0.02);
    assert!(
        weekly["body"].as_str().unwrap().contains("Sessions: 1"),
        "{weekly}"
    );

    // Another account: its own (empty) week, nobody else's interview.
    let other = server.call("POST", "/accounts", Some(&json!({"name": "second"})));
    let token = other.json()["token"].as_str().unwrap().to_owned();
    let theirs = server
        .call_as(&token, "GET", "/coaching/artifacts", None)
        .json();
    assert_eq!(theirs["artifacts"].as_array().unwrap().len(), 1);
    let peek = server.call_as(
        &token,
        "GET",
        &format!("/coaching/artifacts/{}", interview["id"].as_str().unwrap()),
        None,
    );
    assert_eq!(peek.status, 404);
    let week = server
        .call_as(&token, "GET", "/coaching/artifacts/weekly-report", None)
        .json();
    assert_eq!(week["report"]["sessions"], 0);
}

#[test]
fn coaching_over_the_control_server_follows_its_setting() {
    let server = server();
    server.set_setting("aiCoachingCliEnabled", json!(false));
    for (method, path) in [
        ("GET", "/coaching/artifacts"),
        ("GET", "/coaching/artifacts/weekly-report"),
        ("POST", "/coaching/interviews"),
    ] {
        let body = (method == "POST").then(|| json!({}));
        let refused = server.call(method, path, body.as_ref());
        assert_eq!(
            (refused.status, refused.error_code().as_str()),
            (403, "coaching_cli_disabled"),
            "{path}"
        );
    }
    // An agent's token is refused the same way.
    let session = server.browser_session("primary", "work");
    let id = session["id"].as_str().unwrap();
    server.wait_for_status(id, "waiting_for_input");
    let agent = server.agent_token(id);
    let refused = server.call_as(&agent, "GET", "/coaching/artifacts", None);
    assert_eq!(
        (refused.status, refused.error_code().as_str()),
        (403, "coaching_cli_disabled")
    );
    // The web app's own use is unaffected.
    let cookie = server.browser_cookie();
    assert_eq!(
        browser(&server, &cookie, "GET", "/coaching/artifacts", None).status,
        200
    );
    server.set_setting("aiCoachingCliEnabled", json!(true));
    assert_eq!(server.call("GET", "/coaching/artifacts", None).status, 200);
    assert_eq!(
        server
            .call_as(&agent, "GET", "/coaching/artifacts/weekly-report", None)
            .json()["report"]["sessions"],
        1,
        "an agent reads its own account's week"
    );
    // From a script, an interview is a spawn like any other: the spawn rules apply.
    let refused = server.call("POST", "/coaching/interviews", None);
    assert_eq!(
        (refused.status, refused.error_code().as_str()),
        (403, "agent_driven_sessions_disabled"),
        "a body is optional; the spawn rules are not"
    );
}
