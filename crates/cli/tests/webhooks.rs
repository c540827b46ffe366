//! Inbound webhooks against a real server: managing hooks, deliveries of
//! JSON, text and GitHub-style payloads becoming inbox rows, signatures,
//! the identical 404 of an unknown address and of the feature turned off,
//! the 256 KiB ceiling, and the per-minute limit on a manual clock.

mod common;

use common::{Reply, TestServer, request};
use serde_json::{Value, json};

fn create(server: &TestServer, body: Value) -> Value {
    let reply = server.call("POST", "/webhooks", Some(&body));
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

/// The path of a hook's address (`/hooks/<secret>`), checked to be on this control server.
fn hook_path(server: &TestServer, hook: &Value) -> String {
    let url = hook["url"].as_str().unwrap();
    let prefix = format!("http://{}/hooks/", server.control());
    assert!(url.starts_with(&prefix), "{url}");
    url.trim_start_matches(&format!("http://{}", server.control()))
        .to_owned()
}

/// A delivery as a service sends it: no token, the given headers.
fn deliver(server: &TestServer, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    request(server.control(), "POST", path, headers, Some(body))
}

const JSON: (&str, &str) = ("Content-Type", "application/json");

fn newest(server: &TestServer) -> Value {
    server
        .call("GET", "/inbox?category=webhook&limit=1", None)
        .json()[0]
        .clone()
}

#[test]
fn the_user_makes_lists_and_deletes_hooks() {
    let server = TestServer::start();
    let hook = create(&server, json!({"name": "CI"}));
    assert_eq!(hook["name"], "CI");
    hook_path(&server, &hook);
    create(
        &server,
        json!({"name": "GitHub", "signingSecret": "s3cret"}),
    );
    let listed = server.call("GET", "/webhooks", None).json();
    assert_eq!(listed.as_array().unwrap().len(), 2);
    assert_eq!(listed[0]["signed"], false);
    assert_eq!(listed[1]["signed"], true);
    assert!(
        listed[0].get("url").is_none(),
        "the address is shown once: {listed}"
    );
    for bad in [
        json!({"name": ""}),
        json!({"name": "x", "signingSecret": ""}),
        json!({}),
    ] {
        assert_eq!(
            server.call("POST", "/webhooks", Some(&bad)).status,
            400,
            "{bad}"
        );
    }

    let other = server.call("POST", "/accounts", Some(&json!({"name": "other"})));
    let other = other.json()["token"].as_str().unwrap().to_owned();
    assert!(
        server
            .call_as(&other, "GET", "/webhooks", None)
            .json()
            .as_array()
            .unwrap()
            .is_empty()
    );
    let path = format!("/webhooks/{}", hook["id"].as_str().unwrap());
    let theirs = server.call_as(&other, "DELETE", &path, None);
    let missing = server.call("DELETE", "/webhooks/no-such-hook", None);
    assert_eq!((theirs.status, &theirs.body), (404, &missing.body));
    assert_eq!(server.call("DELETE", &path, None).status, 204);
    assert_eq!(server.call("DELETE", &path, None).status, 404);
    assert_eq!(
        server
            .call("GET", "/webhooks", None)
            .json()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn deliveries_become_webhook_rows_titled_from_their_payload() {
    let server = TestServer::start();
    server.set_setting("webhooksEnabled", json!(true));
    let hook = create(&server, json!({"name": "CI"}));
    let path = hook_path(&server, &hook);

    let reply = deliver(
        &server,
        &path,
        &[JSON],
        br#"{"title": "Deploy finished", "env": "prod"}"#,
    );
    assert_eq!(reply.status, 202, "{}", reply.text());
    let row = newest(&server);
    assert_eq!(row["title"], "Deploy finished");
    assert_eq!(row["category"], "webhook");
    assert_eq!(row["source"], json!({"webhookId": hook["id"]}));
    assert!(row["body"].as_str().unwrap().contains("prod"));

    let text = ("Content-Type", "text/plain");
    assert_eq!(
        deliver(&server, &path, &[text], b"\n backup done \nall 3 volumes").status,
        202
    );
    assert_eq!(newest(&server)["title"], "backup done");

    let github = br#"{"action": "opened", "repository": {"full_name": "octo/app"}}"#;
    let event = ("X-GitHub-Event", "pull_request");
    assert_eq!(deliver(&server, &path, &[JSON, event], github).status, 202);
    assert_eq!(newest(&server)["title"], "octo/app: pull_request opened");

    let alertmanager = br#"{"status": "firing", "commonLabels": {"alertname": "DiskFull"}}"#;
    assert_eq!(deliver(&server, &path, &[JSON], alertmanager).status, 202);
    assert_eq!(newest(&server)["title"], "DiskFull (firing)");
    // The same alert again is the same unread row, counted.
    assert_eq!(deliver(&server, &path, &[JSON], alertmanager).status, 202);
    assert_eq!(newest(&server)["count"], 2);

    let binary = ("Content-Type", "application/octet-stream");
    assert_eq!(deliver(&server, &path, &[binary], b"\x00\x01").status, 415);
    // Only the control server takes deliveries (the UI server's guards
    // would refuse text before any route; JSON reaches no route there).
    let ui = request(
        &server.ui,
        "POST",
        &format!("/api{path}"),
        &[JSON],
        Some(b"{}"),
    );
    assert_eq!(ui.status, 404);
    let ui = request(&server.ui, "POST", &path, &[text], Some(b"x"));
    assert_eq!(ui.status, 415);
}

#[test]
fn a_signed_hook_takes_only_deliveries_signed_with_its_secret() {
    let server = TestServer::start();
    server.set_setting("webhooksEnabled", json!(true));
    let hook = create(
        &server,
        json!({"name": "GitHub", "signingSecret": "It's a Secret"}),
    );
    let path = hook_path(&server, &hook);
    let body = br#"{"message": "signed"}"#;
    let good = webhooks::sign("It's a Secret", body);
    let reply = deliver(
        &server,
        &path,
        &[JSON, ("X-Hub-Signature-256", &good)],
        body,
    );
    assert_eq!(reply.status, 202, "{}", reply.text());
    assert_eq!(newest(&server)["title"], "signed");

    let forged = webhooks::sign("guess", body);
    for headers in [
        vec![JSON, ("X-Hub-Signature-256", forged.as_str())],
        vec![JSON, ("X-Hub-Signature-256", "sha256=00")],
        vec![JSON],
    ] {
        let reply = deliver(&server, &path, &headers, body);
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (401, "invalid_signature")
        );
    }
    // A signature of another body does not carry over.
    let reply = deliver(
        &server,
        &path,
        &[JSON, ("X-Hub-Signature-256", &good)],
        b"{}",
    );
    assert_eq!(reply.status, 401);
}

#[test]
fn an_unknown_address_and_a_disabled_feature_answer_the_same() {
    let server = TestServer::start();
    let hook = create(&server, json!({"name": "CI"}));
    let path = hook_path(&server, &hook);
    let text = ("Content-Type", "text/plain");
    // webhooksEnabled is off by default.
    let disabled = deliver(&server, &path, &[text], b"hello");
    server.set_setting("webhooksEnabled", json!(true));
    let unknown = deliver(&server, "/hooks/not-a-secret", &[text], b"hello");
    assert_eq!((disabled.status, unknown.status), (404, 404));
    assert_eq!(disabled.body, unknown.body);
    assert_eq!(disabled.headers.len(), unknown.headers.len());
    assert!(
        server
            .call("GET", "/inbox", None)
            .json()
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(deliver(&server, &path, &[text], b"hello").status, 202);
}

#[test]
fn a_delivery_over_256_kib_is_refused() {
    let server = TestServer::start();
    server.set_setting("webhooksEnabled", json!(true));
    let path = hook_path(&server, &create(&server, json!({"name": "CI"})));
    let text = ("Content-Type", "text/plain");
    let mut body = vec![b'x'; 256 * 1024];
    assert_eq!(deliver(&server, &path, &[text], &body).status, 202);
    body.push(b'x');
    let reply = deliver(&server, &path, &[text], &body);
    assert_eq!(
        (reply.status, reply.error_code().as_str()),
        (413, "payload_too_large")
    );
}

#[test]
fn sixty_deliveries_a_minute_then_429_until_the_clock_moves_on() {
    let server = TestServer::start_with(&["--manual-clock"]);
    server.set_setting("webhooksEnabled", json!(true));
    let path = hook_path(&server, &create(&server, json!({"name": "noisy"})));
    let text = ("Content-Type", "text/plain");
    for n in 0..60 {
        let reply = deliver(&server, &path, &[text], format!("ping {n}").as_bytes());
        assert_eq!(reply.status, 202, "delivery {n}: {}", reply.text());
    }
    let refused = deliver(&server, &path, &[text], b"one too many");
    assert_eq!(
        (refused.status, refused.error_code().as_str()),
        (429, "rate_limited")
    );
    let moved = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 60_000})));
    assert_eq!(moved.status, 204, "{}", moved.text());
    assert_eq!(deliver(&server, &path, &[text], b"later").status, 202);
}

#[test]
fn the_test_clock_exists_only_on_a_manual_clock() {
    let server = TestServer::start();
    let reply = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 1})));
    assert_eq!(reply.status, 404);
}
