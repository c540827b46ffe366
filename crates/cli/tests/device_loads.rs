//! `mobileReliabilityAlertsEnabled` through the real binary on a clock the
//! test moves: a device that starts loading and never finishes makes one
//! inbox alert once the limit has passed on the app clock; a device that
//! finished in time makes none; the stuck device's next load archives its
//! alert; bad device ids are 400s; the switch off raises nothing.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

/// Monday 2026-01-05 08:00 UTC.
const T0_MS: i64 = 1_767_600_000_000;
const MINUTE_MS: i64 = 60_000;
const TITLE: &str = "A device never finished loading Switchboard";

fn start() -> TestServer {
    TestServer::start_with(&["--manual-clock-start-ms", &T0_MS.to_string()])
}

fn advance(server: &TestServer, ms: i64) {
    let reply = server.call("POST", "/test/clock", Some(&json!({ "advanceMs": ms })));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn report(server: &TestServer, device: &str, stage: &str) {
    let body = json!({ "device": device, "stage": stage });
    let reply = server.call("POST", "/device-loads", Some(&body));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn alerts(server: &TestServer, state: &str) -> Vec<Value> {
    let reply = server.call("GET", &format!("/inbox?category=alert&state={state}"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let rows = reply.json();
    rows.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["title"] == TITLE)
        .cloned()
        .collect()
}

fn wait_alerts(server: &TestServer, state: &str, count: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let rows = alerts(server, state);
        if rows.len() == count {
            return rows;
        }
        assert!(
            Instant::now() < deadline,
            "wanted {count} {state} alerts: {rows:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_load_that_never_finishes_alerts_once_and_clears_on_the_next_load() {
    let server = start();
    report(&server, "phone-1", "started");
    report(&server, "laptop-1", "started");
    report(&server, "laptop-1", "finished");

    advance(&server, MINUTE_MS);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        alerts(&server, "open").is_empty(),
        "alerted before the limit"
    );

    advance(&server, 2 * MINUTE_MS);
    let open = wait_alerts(&server, "open", 1);
    assert!(
        open[0]["body"].as_str().unwrap().contains("2 minutes"),
        "{}",
        open[0]
    );

    advance(&server, 10 * MINUTE_MS);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        alerts(&server, "open").len(),
        1,
        "one alert, not one per look"
    );

    report(&server, "phone-1", "started");
    report(&server, "phone-1", "finished");
    wait_alerts(&server, "open", 0);
    assert_eq!(alerts(&server, "archived").len(), 1);

    report(&server, "phone-1", "started");
    advance(&server, 3 * MINUTE_MS);
    wait_alerts(&server, "open", 1);
}

#[test]
fn bad_ids_are_refused_and_the_switch_off_raises_nothing() {
    let server = start();
    for device in ["", "has space", &"x".repeat(65)] {
        let body = json!({ "device": device, "stage": "started" });
        let reply = server.call("POST", "/device-loads", Some(&body));
        assert_eq!(reply.status, 400, "{device:?}: {}", reply.text());
    }
    let reply = server.call(
        "POST",
        "/device-loads",
        Some(&json!({ "device": "a", "stage": "x" })),
    );
    assert_eq!(reply.status, 400, "{}", reply.text());

    server.set_setting("mobileReliabilityAlertsEnabled", json!(false));
    report(&server, "phone-2", "started");
    advance(&server, 5 * MINUTE_MS);
    std::thread::sleep(Duration::from_millis(300));
    assert!(alerts(&server, "open").is_empty());
}
