//! `GET /metrics` on a real server, read as a scraper reads it: every scrape
//! is parsed whole by a strict grammar of the Prometheus text format. The
//! turn counters and durations follow `command` engines' turns on a manual
//! clock, the queue gauges follow sessions held by spawn spacing, request
//! durations are labelled by route template, and only the owner's cli token
//! or a metrics token reads them.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, request};
use prom_text_format_parser::{Scrape, ValueType};
use serde_json::json;

const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";
const QUEUED: &str = "switchboard_sessions_queued";
const OLDEST_WAIT: &str = "switchboard_sessions_queued_oldest_wait_seconds";
const STARTED: &str = "switchboard_turns_started_total";
const FINISHED: &str = "switchboard_turns_finished_total";
const FAILED: &str = "switchboard_turns_failed_total";
const TURN_SECONDS: &str = "switchboard_turn_duration_seconds";
const HTTP_SECONDS: &str = "switchboard_http_request_duration_seconds";

/// Engines whose turns the test controls: `gated` runs until the test
/// creates `scratch/gate`, `broken` fails, `quick` answers at once.
fn server_with_engines() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let gated = format!(
        "while [ ! -e {}/gate ]; do sleep 0.05; done; echo done",
        scratch.path().display()
    );
    let toml = format!(
        "[engines.gated]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {gated:?}]\n\n\
         [engines.broken]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo nope >&2; exit 3\"]\n\n\
         [engines.quick]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo done\"]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in_with(dir, &["--manual-clock"]).keeping(scratch)
}

/// `GET /metrics` with `token`: answered in the classic text format and
/// parsed whole (a line the grammar does not take fails the test).
fn scrape_as(server: &TestServer, token: &str) -> Scrape {
    let reply = server.call_as(token, "GET", "/metrics", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some(CONTENT_TYPE));
    let text = reply.text();
    Scrape::parse(&text).unwrap_or_else(|e| panic!("not the text format ({e:?}):\n{text}"))
}

/// The value of `name`'s sample of `kind` whose labels include `labels`.
fn sample(scrape: &Scrape, name: &str, kind: ValueType, labels: &[(&str, &str)]) -> Option<f64> {
    scrape
        .metrics
        .iter()
        .filter(|metric| metric.name == name)
        .flat_map(|metric| &metric.samples)
        .find(|s| {
            s.value.value_type == kind
                && labels
                    .iter()
                    .all(|(k, v)| s.labels.iter().any(|l| l.key == *k && l.value == *v))
        })
        .map(|s| s.value.value.as_f64())
}

fn plain(scrape: &Scrape, name: &str) -> Option<f64> {
    sample(scrape, name, ValueType::Sample, &[])
}

/// `switchboard_sessions` of `state` on the `local` runner.
fn local_sessions(scrape: &Scrape, state: &str) -> Option<f64> {
    sample(
        scrape,
        "switchboard_sessions",
        ValueType::Sample,
        &[("state", state), ("runner", "local")],
    )
}

/// Scrapes until `name` reads `wanted` (the turn counters follow the
/// sessions' broadcasts a moment after the status moves).
fn scrape_until(server: &TestServer, name: &str, wanted: f64) -> Scrape {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let scrape = scrape_as(server, &server.token);
        let value = plain(&scrape, name);
        if value == Some(wanted) {
            return scrape;
        }
        assert!(Instant::now() < deadline, "{name} stuck at {value:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn advance(server: &TestServer, seconds: u64) {
    let reply = server.call(
        "POST",
        "/test/clock",
        Some(&json!({"advanceMs": seconds * 1000})),
    );
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn spawn_from_the_browser(server: &TestServer, engine: &str) -> String {
    server.browser_session(engine, "work")["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A spawn by a script on the control server: agent-driven, so spawn
/// spacing holds it `queued` until its slot.
fn spawn_from_a_script(server: &TestServer, wanted_status: u16) -> String {
    let reply = server.call(
        "POST",
        "/sessions",
        Some(&json!({"engine": "quick", "prompt": "work"})),
    );
    assert_eq!(reply.status, wanted_status, "{}", reply.text());
    reply.json()["id"].as_str().unwrap().to_owned()
}

#[test]
fn turns_the_queue_and_requests_show_in_the_scrape() {
    let server = server_with_engines();
    let owner = server.token.clone();
    let first = scrape_as(&server, &owner);
    assert_eq!(plain(&first, STARTED), Some(0.0));
    assert_eq!(plain(&first, QUEUED), Some(0.0));
    assert_eq!(plain(&first, OLDEST_WAIT), Some(0.0));
    assert_eq!(
        sample(
            &first,
            "switchboard_runner_connect_refused_total",
            ValueType::Sample,
            &[("reason", "bad_token")]
        ),
        Some(0.0)
    );

    // A turn held open while 90 s pass on the clock runs 90 s.
    let gated = spawn_from_the_browser(&server, "gated");
    server.wait_for_status(&gated, "running");
    scrape_until(&server, STARTED, 1.0);
    advance(&server, 90);
    std::fs::write(server.scratch().join("gate"), "").unwrap();
    server.wait_for_status(&gated, "waiting_for_input");
    let scrape = scrape_until(&server, FINISHED, 1.0);
    assert_eq!(
        sample(&scrape, TURN_SECONDS, ValueType::Sum, &[]),
        Some(90.0)
    );
    let bucket =
        |scrape: &Scrape, le: &str| sample(scrape, TURN_SECONDS, ValueType::Sample, &[("le", le)]);
    assert_eq!(bucket(&scrape, "60"), Some(0.0));
    assert_eq!(bucket(&scrape, "120"), Some(1.0));
    assert_eq!(local_sessions(&scrape, "waiting_for_input"), Some(1.0));

    let broken = spawn_from_the_browser(&server, "broken");
    server.wait_for_status(&broken, "failed");
    let scrape = scrape_until(&server, FAILED, 1.0);
    assert_eq!(plain(&scrape, STARTED), Some(2.0));
    assert_eq!(plain(&scrape, FINISHED), Some(1.0));

    // Spawn spacing: the first script spawn starts, the next two wait for
    // their slots, 60 s of the clock apart.
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("requireSpawnSourceSession", json!(false));
    server.set_setting("agentDrivenMaxConcurrent", json!(10));
    server.set_setting("cliSpawnSpacingSeconds", json!(60));
    let now = spawn_from_a_script(&server, 201);
    let next = spawn_from_a_script(&server, 202);
    let last = spawn_from_a_script(&server, 202);
    server.wait_for_status(&now, "waiting_for_input");
    let scrape = scrape_as(&server, &owner);
    assert_eq!(plain(&scrape, QUEUED), Some(2.0));
    assert_eq!(plain(&scrape, OLDEST_WAIT), Some(0.0));
    assert_eq!(local_sessions(&scrape, "queued"), Some(2.0));
    advance(&server, 30);
    assert_eq!(plain(&scrape_as(&server, &owner), OLDEST_WAIT), Some(30.0));
    advance(&server, 31);
    server.wait_for_status(&next, "waiting_for_input");
    let scrape = scrape_until(&server, QUEUED, 1.0);
    assert_eq!(plain(&scrape, OLDEST_WAIT), Some(61.0));
    advance(&server, 60);
    server.wait_for_status(&last, "waiting_for_input");
    let scrape = scrape_until(&server, QUEUED, 0.0);
    assert_eq!(plain(&scrape, OLDEST_WAIT), Some(0.0));

    // Every turn counted once, and only the gated one took long.
    let scrape = scrape_until(&server, FINISHED, 4.0);
    assert_eq!(plain(&scrape, STARTED), Some(5.0));
    assert_eq!(plain(&scrape, FAILED), Some(1.0));
    assert_eq!(
        sample(&scrape, TURN_SECONDS, ValueType::Count, &[]),
        Some(5.0)
    );
    assert_eq!(bucket(&scrape, "1"), Some(4.0));
    assert_eq!(bucket(&scrape, "+Inf"), Some(5.0));

    // Requests are labelled by route template, never by the path sent.
    let cookie = server.browser_cookie();
    let ui = request(
        &server.ui,
        "GET",
        &format!("/api/sessions/{gated}"),
        &[("Cookie", &cookie)],
        None,
    );
    assert_eq!(ui.status, 200);
    assert_eq!(server.call("GET", "/no/such/path", None).status, 404);
    let scrape = scrape_as(&server, &owner);
    let requests = |route: &str, listener: &str| {
        sample(
            &scrape,
            HTTP_SECONDS,
            ValueType::Count,
            &[("route", route), ("method", "GET"), ("listener", listener)],
        )
        .unwrap_or(0.0)
    };
    assert!(requests("/sessions/{id}", "control") >= 1.0);
    assert!(requests("/api/sessions/{id}", "ui") >= 1.0);
    assert!(requests("unmatched", "control") >= 1.0);
    assert!(requests("/metrics", "control") >= 1.0);
    for id in [&gated, &broken, &now, &next, &last] {
        for metric in &scrape.metrics {
            for s in &metric.samples {
                assert!(
                    s.labels.iter().all(|l| !l.value.contains(id.as_str())),
                    "{} has a label with a session id: {:?}",
                    metric.name,
                    s.labels
                );
            }
        }
    }
}

#[test]
fn only_the_owner_and_metrics_tokens_read_the_metrics() {
    let server = TestServer::with_token_holders(|_| {});
    let minted = server.call("POST", "/runners/tokens", Some(&json!({"name": "pool"})));
    assert_eq!(minted.status, 201, "{}", minted.text());
    let runner_token = minted.json()["token"].as_str().unwrap().to_owned();
    let (_, agent) = server.holder_session();
    let second = server.call("POST", "/accounts", Some(&json!({"name": "second"})));
    let second = second.json()["token"].as_str().unwrap().to_owned();

    let made = server.call(
        "POST",
        "/metrics/tokens",
        Some(&json!({"name": "prometheus"})),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let made = made.json();
    assert_eq!(made["name"], "prometheus");
    assert!(made["createdAt"].is_string());
    let (id, scraper) = (
        made["id"].as_str().unwrap().to_owned(),
        made["token"].as_str().unwrap().to_owned(),
    );
    let listed = server.call("GET", "/metrics/tokens", None).json();
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    assert_eq!(listed[0]["id"], id.as_str());
    assert!(listed[0].get("token").is_none());

    // The metrics token reads the metrics and nothing else.
    scrape_as(&server, &scraper);
    for (method, path) in [
        ("GET", "/settings"),
        ("GET", "/sessions"),
        ("GET", "/metrics/tokens"),
    ] {
        let reply = server.call_as(&scraper, method, path, None);
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (401, "unauthenticated"),
            "{method} {path}"
        );
    }

    // Every other token is refused in the error shape.
    for (token, status, code) in [
        (agent.as_str(), 403, "owner_only"),
        (second.as_str(), 403, "owner_only"),
        (runner_token.as_str(), 401, "unauthenticated"),
        ("not-a-token", 401, "unauthenticated"),
    ] {
        let reply = server.call_as(token, "GET", "/metrics", None);
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (status, code),
            "{}",
            reply.text()
        );
    }
    let none = request(server.control(), "GET", "/metrics", &[], None);
    assert_eq!(none.status, 401);
    for (token, code) in [
        (agent.as_str(), "agent_token_forbidden"),
        (second.as_str(), "owner_only"),
    ] {
        let reply = server.call_as(
            token,
            "POST",
            "/metrics/tokens",
            Some(&json!({"name": "x"})),
        );
        assert_eq!((reply.status, reply.error_code().as_str()), (403, code));
    }

    // The UI server lists the tokens for the owner but serves no scrape.
    let cookie = server.browser_cookie();
    let on_ui = |path: &str| request(&server.ui, "GET", path, &[("Cookie", &cookie)], None);
    assert_eq!(on_ui("/api/metrics/tokens").status, 200);
    assert_eq!(on_ui("/api/metrics").status, 404);

    // Revoked, it stops at once.
    let path = format!("/metrics/tokens/{id}");
    assert_eq!(server.call("DELETE", &path, None).status, 204);
    assert_eq!(
        server.call_as(&scraper, "GET", "/metrics", None).status,
        401
    );
    let again = server.call("DELETE", &path, None);
    assert_eq!(
        (again.status, again.error_code().as_str()),
        (404, "not_found")
    );
}
