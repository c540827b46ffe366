//! The fleet's own cards over real HTTP on a manual clock (docs/fleet-cards.md):
//!
//! - a login far busier than the others and near its `max_sessions` makes
//!   one card while `loadBalancingNoticeEnabled` is on, none while off;
//! - a session page in front counts as watching time, and a heavy week makes
//!   one recap card the week after while `watchingTimeRecapCardEnabled` is on;
//! - the balances entered, the spend the sessions recorded, the forecast, and
//!   the cards of `vendorABalanceAlertLeadHours` and of
//!   `vendorBBalanceMonitorEnabled` / `vendorBBalanceThresholdUSD`;
//! - alarms typed in words read by the stand-in utility model
//!   (`fixtures/fleet-claude`) within `alarmNlpDailyCostCap`, and the error
//!   code past it.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{TestServer, request};
use serde_json::{Value, json};

/// A Monday.
const START: &str = "2030-01-07T09:00:00Z";

fn clock_at(server: &TestServer, at: &str) {
    let reply = server.call("POST", "/test/clock", Some(&json!({"at": at})));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn advance(server: &TestServer, seconds: u64) {
    let reply = server.call(
        "POST",
        "/test/clock",
        Some(&json!({"advanceMs": seconds * 1000})),
    );
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn server_with(engines: &str) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("engines.toml"), engines).unwrap();
    let server = TestServer::start_in_with(dir, &["--manual-clock"]);
    clock_at(&server, START);
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    server
}

fn rows(server: &TestServer, category: &str) -> Vec<Value> {
    let reply = server.call(
        "GET",
        &format!("/inbox?category={category}&state=all&limit=500&hidden=true"),
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().unwrap().clone()
}

fn titled(server: &TestServer, category: &str, start: &str) -> Vec<Value> {
    rows(server, category)
        .into_iter()
        .filter(|r| r["title"].as_str().unwrap_or_default().starts_with(start))
        .collect()
}

/// Moves the clock a minute on (the loop's sample) and waits until `done`,
/// or, for `None` expected, long enough for the loop to have looked.
fn look(server: &TestServer, category: &str, start: &str, expected: usize) {
    advance(server, 61);
    let deadline = Instant::now() + Duration::from_secs(if expected == 0 { 2 } else { 30 });
    loop {
        let found = titled(server, category, start).len();
        if found == expected && (expected > 0 || Instant::now() >= deadline) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{found} {category} rows {start:?}, wanted {expected}: {:?}",
            rows(server, category)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_crowded_login_makes_one_card_while_the_notice_is_on() {
    let engines = "[engines.busy]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"exec sleep 300\"]\n\
                   max_sessions = 4\n\
                   [engines.spare]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"exec sleep 300\"]\n";
    let server = server_with(engines);
    server.set_setting("loadBalancingNoticeEnabled", json!(false));
    let folder = tempfile::tempdir().unwrap();
    let cookie = server.browser_cookie();
    for _ in 0..4 {
        let reply = server.browser_spawn(
            &cookie,
            &json!({"engine": "busy", "prompt": "p", "cwd": folder.path()}),
        );
        assert_eq!(reply.status, 201, "{}", reply.text());
        server.wait_for_status(reply.json()["id"].as_str().unwrap(), "running");
    }
    let logins = server.call("GET", "/fleet/logins", None).json();
    assert_eq!(
        logins,
        json!([{"name": "busy", "running": 4, "limit": 4},
               {"name": "spare", "running": 0, "limit": null}])
    );

    look(&server, "note", "Login busy", 0);
    server.set_setting("loadBalancingNoticeEnabled", json!(true));
    look(&server, "note", "Login busy carries 4 of its 4 sessions", 1);
    let card = &titled(&server, "note", "Login busy")[0];
    assert!(
        card["body"].as_str().unwrap().contains("on spare"),
        "{card}"
    );
    // Once a day per login, not at every look.
    look(&server, "note", "Login busy", 1);
}

fn presence(server: &TestServer, cookie: &str, session_page: bool) {
    let body = json!({"appId": "tab-1", "visible": true, "sessionPage": session_page}).to_string();
    let reply = request(
        &server.ui,
        "POST",
        "/api/ui/presence",
        &[("Cookie", cookie), ("Content-Type", "application/json")],
        Some(body.as_bytes()),
    );
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn watched(server: &TestServer) -> i64 {
    let reply = server.call("GET", "/fleet/watching", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["totalSeconds"].as_i64().unwrap()
}

/// Waits until this week's watched seconds are `wanted`.
fn watched_becomes(server: &TestServer, wanted: i64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while watched(server) != wanted {
        assert!(Instant::now() < deadline, "watched {}", watched(server));
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn seed_watching(data_dir: &Path, account: &str, days: &[(time::Date, i64)]) {
    let db = store::Db::open(&data_dir.join("switchboard.db")).unwrap();
    let cards = fleet_cards::Cards::new(Arc::new(db));
    for (day, seconds) in days {
        cards.add_watching(account, *day, *seconds).unwrap();
    }
}

#[test]
fn a_heavy_week_makes_one_recap_while_the_card_is_on() {
    let server = server_with("");
    let cookie = server.browser_cookie();
    let account = server.call("GET", "/me", None).json()["accountId"]
        .as_str()
        .unwrap()
        .to_owned();

    // A session page in front counts; the sessions list in front does not.
    presence(&server, &cookie, true);
    advance(&server, 60);
    watched_becomes(&server, 60);
    presence(&server, &cookie, false);
    advance(&server, 60);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(watched(&server), 60);

    // This week (from Monday 7 January) holds 11 hours in all.
    use time::macros::date;
    seed_watching(
        server.data_dir(),
        &account,
        &[
            (date!(2030 - 01 - 08), 4 * 3600),
            (date!(2030 - 01 - 10), 7 * 3600 - 60),
        ],
    );
    server.set_setting("watchingTimeRecapCardEnabled", json!(false));
    clock_at(&server, "2030-01-14T08:00:00Z");
    look(&server, "note", "You watched agents", 0);
    server.set_setting("watchingTimeRecapCardEnabled", json!(true));
    look(
        &server,
        "note",
        "You watched agents for 11.0 hours last week",
        1,
    );
    let card = &titled(&server, "note", "You watched agents")[0];
    let body = card["body"].as_str().unwrap();
    assert!(body.contains("over 3 days"), "{body}");
    assert!(body.contains("on 2030-01-10 (Thursday)"), "{body}");
    look(&server, "note", "You watched agents", 1);
}

/// A stand-in for Claude Code whose one turn costs $0.30.
const SPENDER: &str = r#"printf '{"type":"system","subtype":"init","session_id":"c-%s","cwd":"/w","model":"claude-sonnet-4-5","tools":[],"permissionMode":"default","claude_code_version":"2.1.330"}\n' "$APP_SESSION_ID"
printf '{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"Spent.","session_id":"c-%s","total_cost_usd":0.3,"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":20}}\n' "$APP_SESSION_ID"
"#;

#[test]
fn balances_forecast_the_run_out_and_warn_by_their_settings() {
    let scratch = tempfile::tempdir().unwrap();
    let spender = scratch.path().join("spender.sh");
    std::fs::write(&spender, SPENDER).unwrap();
    // The utility model (session titles) runs on `primary`, at no cost.
    let server = server_with(&format!(
        "[engines.spender]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {:?}]\n\
         [engines.primary]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {:?}]\n\
         env = {{ ANSWER_COST = \"0\" }}\n",
        spender.display().to_string(),
        common::fixture("fleet-claude"),
    ));
    let reply = server.call("PUT", "/balances/a", Some(&json!({"balanceUsd": 1.0})));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let reply = server.call("PUT", "/balances/c", Some(&json!({"balanceUsd": 1.0})));
    assert_eq!(reply.error_code(), "vendor_not_found");
    let reply = server.call("PUT", "/balances/b", Some(&json!({"balanceUsd": -2})));
    assert_eq!(reply.error_code(), "invalid_request");

    let folder = tempfile::tempdir().unwrap();
    let reply = server.browser_spawn(
        &server.browser_cookie(),
        &json!({"engine": "spender", "prompt": "p", "cwd": folder.path()}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let deadline = Instant::now() + Duration::from_secs(30);
    let forecasts = loop {
        let forecasts = server.call("GET", "/balances", None).json();
        if forecasts[0]["spentSinceUsd"].as_f64().unwrap() > 0.0 {
            break forecasts;
        }
        assert!(Instant::now() < deadline, "no spend: {forecasts}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let a = &forecasts[0];
    assert_eq!(a["vendor"], "a");
    assert!(
        (a["remainingUsd"].as_f64().unwrap() - 0.7).abs() < 1e-9,
        "{a}"
    );
    assert!(a["burnUsdPerHour"].as_f64().unwrap() > 0.0, "{a}");
    assert!(a["runsOutAt"].is_string(), "{a}");
    assert_eq!(
        a["rechargeUrl"],
        "https://console.anthropic.com/settings/billing"
    );
    assert_eq!(forecasts[1]["balanceUsd"], Value::Null);

    // $0.30 over the week so far lasts hundreds of hours: not within 24.
    look(&server, "alert", "Anthropic balance", 0);
    server.set_setting("vendorABalanceAlertLeadHours", json!(720));
    look(&server, "alert", "Anthropic balance runs out in about", 1);
    let card = &titled(&server, "alert", "Anthropic balance")[0];
    assert!(
        card["body"]
            .as_str()
            .unwrap()
            .contains("Recharge: https://console.anthropic.com/settings/billing"),
        "{card}"
    );

    // Vendor B: under the threshold, but watched only while the monitor is on.
    let reply = server.call("PUT", "/balances/b", Some(&json!({"balanceUsd": 3.0})));
    assert_eq!(reply.status, 200, "{}", reply.text());
    server.set_setting("vendorBBalanceMonitorEnabled", json!(false));
    look(&server, "alert", "OpenAI balance", 0);
    server.set_setting("vendorBBalanceThresholdUSD", json!(2));
    server.set_setting("vendorBBalanceMonitorEnabled", json!(true));
    look(&server, "alert", "OpenAI balance", 0);
    server.set_setting("vendorBBalanceThresholdUSD", json!(5));
    look(&server, "alert", "OpenAI balance is down to $3.00", 1);
    let reply = server.call("DELETE", "/balances/b", None);
    assert_eq!(reply.status, 204, "{}", reply.text());
    assert_eq!(
        server.call("GET", "/balances", None).json()[1]["balanceUsd"],
        Value::Null
    );
}

#[test]
fn alarms_in_words_are_read_within_the_daily_cap() {
    let server = server_with(&format!(
        "[engines.primary]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {:?}]\n\
         env = {{ ANSWER_COST = \"0.3\" }}\n",
        common::fixture("fleet-claude"),
    ));
    let words = json!({"text": "every weekday at 9 remind me to check the nightly run"});
    let reply = server.call("POST", "/alarms/words", Some(&words));
    assert_eq!(reply.status, 201, "{}", reply.text());
    let alarm = reply.json();
    assert_eq!(alarm["label"], "check the nightly run");
    assert_eq!(alarm["repeat"], "weekdays");
    assert!(
        server
            .call("GET", "/alarms", None)
            .json()
            .as_array()
            .unwrap()
            .len()
            == 1
    );

    // $0.30 of the default $0.50: one more, then the form asks for the fields.
    let reply = server.call("POST", "/alarms/words", Some(&words));
    assert_eq!(reply.status, 201, "{}", reply.text());
    let reply = server.call("POST", "/alarms/words", Some(&words));
    assert_eq!(reply.status, 409, "{}", reply.text());
    assert_eq!(reply.error_code(), "alarm_words_capped");
    server.set_setting("alarmNlpDailyCostCap", json!(5));
    let reply = server.call("POST", "/alarms/words", Some(&words));
    assert_eq!(reply.status, 201, "{}", reply.text());
    server.set_setting("alarmNlpDailyCostCap", json!(0));
    let reply = server.call("POST", "/alarms/words", Some(&words));
    assert_eq!(reply.error_code(), "alarm_words_capped");
    let calls = server
        .call("GET", "/utility/calls?feature=alarm_words", None)
        .json();
    assert!(calls.to_string().contains("alarm_words"), "{calls}");

    let reply = server.call("POST", "/alarms/words", Some(&json!({"text": "  "})));
    assert_eq!(reply.error_code(), "invalid_request");
    server.set_setting("alarmsEnabled", json!(false));
    let reply = server.call("POST", "/alarms/words", Some(&words));
    assert_eq!(reply.error_code(), "alarms_disabled");
}
