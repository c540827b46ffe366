//! Session cost, usage and trees over HTTP: `costUsd` and `tokens` from a fake
//! Claude Code (one that restates a resumed conversation's cumulative cost
//! as the real one does, too), `GET /usage` and its refusals, `parentId` and
//! `children` for a helper an agent spawned with its token, and `POST
//! /sessions/<id>/stop` with and without `{"tree": true}` (processes checked
//! gone).

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{TestServer, fixture, request, workspace_root};
use serde_json::{Value, json};

/// `holder` records its pid and sleeps; `nester` spawns a `holder` helper with
/// its agent token through the CLI, then does the same; `primary` is the
/// sessions crate's fake Claude Code, `resuming` the one that keeps its
/// conversations' costs.
fn server_with_engines() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let record = scratch.path().join("record");
    std::fs::create_dir(&record).unwrap();
    let state = scratch.path().join("conversations");
    std::fs::create_dir(&state).unwrap();
    let r = record.display();
    let holder = format!(
        "echo $APP_CLI_TOKEN > {r}/token-$APP_SESSION_ID; echo $$ > {r}/pid-$APP_SESSION_ID; exec sleep 300"
    );
    let nester = format!(
        "{} spawn --engine holder --json helper > {r}/spawned-$APP_SESSION_ID 2>&1; {holder}",
        common::binary(),
    );
    let claude = workspace_root().join("crates/sessions/tests/fixtures/fake-claude");
    let toml = format!(
        "[engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {holder:?}]\n\n\
         [engines.nester]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {nester:?}]\n\n\
         [engines.primary]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {:?}]\n\n\
         [engines.resuming]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {resuming:?}]\n\
         env = {{ FAKE_STATE = {state:?} }}\n",
        claude.display().to_string(),
        resuming = fixture("resuming-claude"),
        state = state.display().to_string(),
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    let server = TestServer::start_in(dir).keeping(scratch);
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("allowAgentTokenSpawn", json!(true));
    server
}

fn session(server: &TestServer, id: &str) -> Value {
    server.call("GET", &format!("/sessions/{id}"), None).json()
}

fn wait_for_file(path: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && text.ends_with('\n')
        {
            return text;
        }
        assert!(Instant::now() < deadline, "no {}", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn pid_of(server: &TestServer, id: &str) -> u32 {
    let path = server.scratch().join("record").join(format!("pid-{id}"));
    wait_for_file(&path).trim().parse().unwrap()
}

/// `kill -0`, the way a shell script would ask.
fn running(pid: u32) -> bool {
    let alive = std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success();
    let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, s)| s.starts_with('Z'))
    });
    alive && !zombie
}

fn wait_gone(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while running(pid) {
        assert!(Instant::now() < deadline, "pid {pid} is still running");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_tree_stop_ends_the_helper_an_agent_spawned_and_a_bare_stop_only_its_session() {
    let server = server_with_engines();
    let parent = server.browser_session("nester", "work")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let spawned = wait_for_file(
        &server
            .scratch()
            .join("record")
            .join(format!("spawned-{parent}")),
    );
    let helper: Value = serde_json::from_str(&spawned).unwrap_or_else(|e| panic!("{e}: {spawned}"));
    let child = helper["id"].as_str().unwrap().to_owned();
    assert_eq!(helper["parentId"], parent.as_str());
    server.wait_for_status(&parent, "running");
    server.wait_for_status(&child, "running");
    assert_eq!(session(&server, &parent)["children"], json!([child]));
    assert_eq!(session(&server, &parent)["parentId"], Value::Null);
    let (parent_pid, child_pid) = (pid_of(&server, &parent), pid_of(&server, &child));
    // An agent token reads its own account's usage.
    let token_file = server
        .scratch()
        .join("record")
        .join(format!("token-{child}"));
    let token = wait_for_file(&token_file).trim().to_owned();
    let usage = server.call_as(&token, "GET", "/usage", None);
    assert_eq!(usage.status, 200, "{}", usage.text());
    assert_eq!(usage.json(), json!({"days": []}));

    // No body at all, as `switchboard stop` sends: only that session stops.
    let lone = server.browser_session("holder", "work")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    server.wait_for_status(&lone, "running");
    let lone_pid = pid_of(&server, &lone);
    let reply = server.call("POST", &format!("/sessions/{lone}/stop"), None);
    assert_eq!(reply.status, 202, "{}", reply.text());
    assert_eq!(reply.json()["status"], "stopped");
    wait_gone(lone_pid);
    assert!(running(parent_pid) && running(child_pid));

    let refused = server.call(
        "POST",
        &format!("/sessions/{parent}/stop"),
        Some(&json!({"tree": "yes"})),
    );
    assert_eq!(refused.status, 400, "{}", refused.text());
    assert_eq!(refused.error_code(), "invalid_request");
    // `tree: false` is the single stop too, and the CLI's --tree sends `tree: true`.
    let reply = server.cli(&["stop", &parent, "--tree", "--json"]);
    assert!(reply.status.success(), "{:?}", reply);
    assert_eq!(session(&server, &parent)["status"], "stopped");
    assert_eq!(session(&server, &child)["status"], "stopped");
    wait_gone(parent_pid);
    wait_gone(child_pid);
    let again = server.call(
        "POST",
        &format!("/sessions/{parent}/stop"),
        Some(&json!({"tree": false})),
    );
    assert_eq!(again.status, 202, "{}", again.text());
}

#[test]
fn cost_tokens_and_usage_come_from_the_engine_s_report() {
    let server = server_with_engines();
    let id = server.browser_session("primary", "work")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let session = server.wait_for_status(&id, "waiting_for_input");
    assert_eq!(session["costUsd"], 0.25);
    assert_eq!(session["treeCostUsd"], 0.25);
    assert_eq!(
        session["tokens"],
        json!({"input": 32_100, "output": 20, "cachedInput": 30_000})
    );
    assert_eq!(session["children"], json!([]));

    let usage = server.call("GET", "/usage", None);
    assert_eq!(usage.status, 200, "{}", usage.text());
    let days = usage.json()["days"].clone();
    assert_eq!(days.as_array().unwrap().len(), 1, "{days}");
    let today = days[0]["date"].as_str().unwrap().to_owned();
    assert_eq!(days[0]["engine"], "primary");
    assert_eq!(days[0]["sessions"], 1);
    assert_eq!(days[0]["turns"], 1);
    assert_eq!(days[0]["costUsd"], 0.25);
    assert_eq!(days[0]["tokens"]["cachedInput"], 30_000);
    let same = server.call("GET", &format!("/usage?from={today}&to={today}"), None);
    assert_eq!(same.json()["days"], days);
    let before = server.call("GET", "/usage?to=2000-01-01", None);
    assert_eq!(before.json(), json!({"days": []}));

    for query in [
        "from=2026-1-1",
        "to=soon",
        "from=",
        "from=2030-01-02&to=2030-01-01",
    ] {
        let reply = server.call("GET", &format!("/usage?{query}"), None);
        assert_eq!(reply.status, 400, "{query}: {}", reply.text());
        assert_eq!(reply.error_code(), "invalid_request", "{query}");
    }
}

/// Sends a follow-up over the control server and waits until it is turn
/// `turn`, done (the session reads `waiting_for_input` before it runs too).
fn follow_up(server: &TestServer, id: &str, text: &str, turn: usize) {
    let reply = server.call(
        "POST",
        &format!("/sessions/{id}/messages"),
        Some(&json!({ "text": text })),
    );
    assert_eq!(reply.status, 202, "{}", reply.text());
    let deadline = Instant::now() + Duration::from_secs(20);
    while server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json()["turns"][turn - 1]["status"]
        != "done"
    {
        assert!(Instant::now() < deadline, "turn {turn} never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn dollars(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

fn assert_dollars(value: &Value, expected: f64) {
    let got = dollars(value);
    assert!((got - expected).abs() < 1e-12, "{got} is not {expected}");
}

#[test]
fn a_resumed_conversation_costs_its_last_cumulative_total() {
    let server = server_with_engines();
    let parent = server.browser_session("resuming", "start")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        server.wait_for_status(&parent, "waiting_for_input")["costUsd"],
        0.0051
    );
    follow_up(&server, &parent, "again", 2);
    assert_eq!(session(&server, &parent)["costUsd"], 0.0102);
    follow_up(&server, &parent, "once more", 3);
    let read = session(&server, &parent);
    // The engine's own figure, taken: 0.0051, 0.0102, 0.0153 is not 0.0306.
    assert_eq!(read["costUsd"], 0.0153);
    assert_eq!(read["treeCostUsd"], 0.0153);
    // Tokens are per process, so they add up.
    assert_eq!(
        read["tokens"],
        json!({"input": 3_300, "output": 60, "cachedInput": 3_000})
    );
    let turns = server
        .call("GET", &format!("/sessions/{parent}/transcript"), None)
        .json()["turns"]
        .clone();
    for turn in turns.as_array().unwrap() {
        assert_dollars(&turn["costUsd"], 0.0051);
    }

    // A helper has a conversation of its own, whose total the tree adds.
    let body = json!({"engine": "resuming", "prompt": "help COST=0.002"}).to_string();
    let auth = format!("Bearer {}", server.token);
    let spawned = request(
        server.control(),
        "POST",
        "/sessions",
        &[
            ("Authorization", auth.as_str()),
            ("Content-Type", "application/json"),
            ("X-App-Source-Session-Id", parent.as_str()),
        ],
        Some(body.as_bytes()),
    );
    assert_eq!(spawned.status, 201, "{}", spawned.text());
    let child = spawned.json()["id"].as_str().unwrap().to_owned();
    assert_eq!(spawned.json()["parentId"], parent.as_str());
    server.wait_for_status(&child, "waiting_for_input");
    follow_up(&server, &child, "more COST=0.003", 2);
    assert_eq!(session(&server, &child)["costUsd"], 0.005);
    assert_dollars(&session(&server, &parent)["treeCostUsd"], 0.0203);

    // A resume that comes back as a new conversation counts its whole total.
    follow_up(&server, &parent, "FORGET COST=0.001", 4);
    let read = session(&server, &parent);
    assert_dollars(&read["costUsd"], 0.0163);
    assert_dollars(&read["treeCostUsd"], 0.0213);

    // A day's usage adds the turns' own parts.
    let days = server.call("GET", "/usage", None).json()["days"].clone();
    assert_eq!(days.as_array().unwrap().len(), 1, "{days}");
    assert_eq!(days[0]["turns"], 6);
    assert_dollars(&days[0]["costUsd"], 0.0213);
}
