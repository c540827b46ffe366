//! Focus mode and pomodoro through a real server on a manual clock: focus
//! mode releases what needed the user as one count when it ends, a run
//! moves through its phases on the app clock and turns focus mode on for
//! blocks and off for breaks until the user toggles it by hand, a weekday
//! rule starts a run only while `pomodoroScheduleEnabled` is on, turning
//! `focusModeFeatureEnabled` off ends focus mode and refuses turning it
//! on, the state survives a crash of the server, and bad input is a 400 naming its
//! field (409 for a move the run's state refuses) that changes nothing.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, request};
use serde_json::{Value, json};

/// 2026-01-05T08:00:00Z, a Monday (09:00 in Berlin), where the clock starts.
const START_MS: &str = "1767600000000";

fn server() -> TestServer {
    TestServer::start_with(&["--manual-clock-start-ms", START_MS])
}

fn move_clock(server: &TestServer, at: &str) {
    let reply = server.call("POST", "/test/clock", Some(&json!({"at": at})));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn put(server: &TestServer, path: &str, body: Value) -> Value {
    let reply = server.call("PUT", path, Some(&body));
    assert_eq!(reply.status, 200, "PUT {path} {body}: {}", reply.text());
    reply.json()
}

fn get(server: &TestServer, path: &str) -> Value {
    let reply = server.call("GET", path, None);
    assert_eq!(reply.status, 200, "GET {path}: {}", reply.text());
    reply.json()
}

/// Polls `GET path` until `done` holds (the loop runs beside the request).
fn until(server: &TestServer, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = get(server, path);
        if done(&now) {
            return now;
        }
        assert!(
            Instant::now() < deadline,
            "GET {path} never got there: {now}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A webhook delivery: a row that needs the user (category `webhook`).
fn webhook_row(server: &TestServer) {
    server.set_setting("webhooksEnabled", json!(true));
    let hook = server.call("POST", "/webhooks", Some(&json!({"name": "CI"})));
    assert_eq!(hook.status, 201, "{}", hook.text());
    let url = hook.json()["url"].as_str().unwrap_or_default().to_owned();
    let path = url.trim_start_matches(&format!("http://{}", server.control()));
    let headers = [("Content-Type", "application/json")];
    let delivered = request(
        server.control(),
        "POST",
        path,
        &headers,
        Some(b"{\"ok\":1}"),
    );
    assert!(delivered.status < 300, "{}", delivered.text());
}

#[test]
fn focus_mode_releases_what_needed_the_user_as_one_count() {
    let server = server();
    let on = put(&server, "/focus", json!({"on": true}));
    assert_eq!(on["on"], true);
    assert_eq!(on["by"], "user");
    assert_eq!(on["since"], "2026-01-05T08:00:00.000Z");
    assert_eq!(on["released"], Value::Null);
    webhook_row(&server);
    let off = put(&server, "/focus", json!({"on": false}));
    assert_eq!(off["on"], false);
    assert_eq!(off["released"]["count"], 1, "{off}");
    assert_eq!(off["released"]["categories"], json!({"webhook": 1}));
    assert_eq!(get(&server, "/focus")["on"], false);
    // Turning it off again releases nothing more.
    assert_eq!(
        put(&server, "/focus", json!({"on": false}))["released"],
        Value::Null
    );
}

#[test]
fn a_run_moves_on_the_app_clock_and_manages_focus_until_a_hand_toggle() {
    let server = server();
    let started = put(
        &server,
        "/pomodoro",
        json!({"action": "start", "plan": {"focusMinutes": 20, "blocks": 2}}),
    );
    assert_eq!(started["run"]["phase"], "focus");
    assert_eq!(started["run"]["phaseEndsAt"], "2026-01-05T08:20:00.000Z");
    assert_eq!(
        started["run"]["plan"]["shortBreakMinutes"], 5,
        "defaults fill the plan"
    );
    assert_eq!(get(&server, "/focus")["by"], "pomodoro");
    move_clock(&server, "2026-01-05T08:20:00Z");
    until(&server, "/pomodoro", |p| p["run"]["phase"] == "short_break");
    assert_eq!(
        get(&server, "/focus")["on"],
        false,
        "a break releases focus mode"
    );
    move_clock(&server, "2026-01-05T08:25:00Z");
    until(&server, "/pomodoro", |p| p["run"]["block"] == 2);
    assert_eq!(get(&server, "/focus")["on"], true);
    // By hand during the run: the run stops managing it.
    put(&server, "/focus", json!({"on": false}));
    assert_eq!(get(&server, "/pomodoro")["run"]["managesFocus"], false);
    let skipped = put(&server, "/pomodoro", json!({"action": "skip"}));
    assert_eq!(
        skipped["run"],
        Value::Null,
        "skipping the last block ends the run"
    );
    assert_eq!(get(&server, "/focus")["on"], false);
}

#[test]
fn a_weekday_rule_starts_a_run_only_while_the_schedule_is_on() {
    let server = server();
    server.set_setting("pomodoroScheduleEnabled", json!(false));
    let rules = json!([{"weekdays": ["mon"], "start": "09:05", "timeZone": "Europe/Berlin"}]);
    let set = put(&server, "/pomodoro", json!({"rules": rules}));
    let id = set["rules"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(!id.is_empty(), "{set}");
    move_clock(&server, "2026-01-05T08:06:00Z");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(get(&server, "/pomodoro")["run"], Value::Null);
    server.set_setting("pomodoroScheduleEnabled", json!(true));
    let running = until(&server, "/pomodoro", |p| !p["run"].is_null());
    assert_eq!(running["run"]["ruleId"], id.as_str());
    assert_eq!(running["run"]["phaseStartedAt"], "2026-01-05T08:05:00.000Z");
}

#[test]
fn the_feature_switch_ends_focus_mode_and_refuses_turning_it_on() {
    let server = server();
    put(&server, "/focus", json!({"on": true}));
    server.set_setting("focusModeFeatureEnabled", json!(false));
    until(&server, "/focus", |f| f["on"] == false);
    let refused = server.call("PUT", "/focus", Some(&json!({"on": true})));
    assert_eq!(refused.status, 403);
    assert_eq!(refused.error_code(), "focus_mode_disabled");
    assert_eq!(put(&server, "/focus", json!({"on": false}))["on"], false);
    // A run started now does not manage focus mode.
    let run = put(&server, "/pomodoro", json!({"action": "start"}));
    assert_eq!(run["run"]["managesFocus"], false);
}

#[test]
fn the_state_survives_a_crash() {
    let server = server();
    put(&server, "/pomodoro", json!({"action": "start"}));
    let server = server.crash_and_restart_with(&["--manual-clock-start-ms", START_MS]);
    let after = get(&server, "/pomodoro");
    assert_eq!(after["run"]["phase"], "focus");
    assert_eq!(get(&server, "/focus")["on"], true);
}

#[test]
fn bad_input_names_its_field_and_changes_nothing() {
    let server = server();
    for (body, field) in [
        (json!({"action": "start", "plan": {"blocks": 0}}), "blocks"),
        (
            json!({"action": "start", "plan": {"focusMinutes": 999}}),
            "focusMinutes",
        ),
        (
            json!({"rules": [{"weekdays": ["moon"], "start": "09:00", "timeZone": "UTC"}]}),
            "weekdays",
        ),
        (
            json!({"rules": [{"weekdays": ["mon"], "start": "9am", "timeZone": "UTC"}]}),
            "start",
        ),
        (
            json!({"action": "start", "rules": [{"weekdays": ["mon"], "start": "09:00", "timeZone": "Mars/Base"}]}),
            "timeZone",
        ),
    ] {
        let reply = server.call("PUT", "/pomodoro", Some(&body));
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        assert!(reply.text().contains(field), "{body}: {}", reply.text());
    }
    for body in [
        json!({}),
        json!({"action": "pause"}),
        json!({"on": true}),
        json!({"action": "start", "plan": {"focusMinute": 5}}),
    ] {
        let reply = server.call("PUT", "/pomodoro", Some(&body));
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
    }
    let bad_focus = server.call("PUT", "/focus", Some(&json!({"on": "yes"})));
    assert_eq!(bad_focus.status, 400);
    assert_eq!(get(&server, "/pomodoro"), json!({"run": null, "rules": []}));
    assert_eq!(get(&server, "/focus")["on"], false);
    let skip = server.call("PUT", "/pomodoro", Some(&json!({"action": "skip"})));
    assert_eq!(skip.status, 409, "{}", skip.text());
    put(&server, "/pomodoro", json!({"action": "start"}));
    let again = server.call("PUT", "/pomodoro", Some(&json!({"action": "start"})));
    assert_eq!(again.status, 409, "{}", again.text());
}
