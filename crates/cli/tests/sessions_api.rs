//! Agent sessions over HTTP: the spawn rules in the contract's order, the
//! scoped token's exact powers, the CLI an agent uses from inside a session,
//! and a server killed with sessions running.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Reply, TestServer, request};
use serde_json::{Value, json};

/// A `command` engine that records its APP_* environment per turn and then
/// echoes its input, plus one that runs the CLI from inside the session.
fn server_with_engines() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let record = scratch.path().join("record");
    std::fs::create_dir(&record).unwrap();
    let script = format!(
        "env | grep ^APP_ > {}/env-$APP_SESSION_ID-$APP_TURN; cat",
        record.display()
    );
    let spawner = format!(
        "{} spawn --engine echo --json 'helper work' > {}/spawned-$APP_SESSION_ID 2>&1; echo done",
        common::binary(),
        record.display()
    );
    let toml = format!(
        "[engines.echo]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}]\n\n\
         [engines.spawner]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {spawner:?}]\n\n\
         [engines.slow]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"sleep 30\"]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in(dir).keeping(scratch)
}

fn ui_spawn(server: &TestServer, engine: &str, prompt: &str) -> Value {
    let session = server.browser_session(engine, prompt);
    assert_eq!(session["agentDriven"], false);
    session
}

fn recorded_env(dir: &Path, session: &str, turn: u32) -> Vec<(String, String)> {
    let path = dir.join("record").join(format!("env-{session}-{turn}"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

fn env_value(env: &[(String, String)], key: &str) -> String {
    env.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

fn control_spawn(server: &TestServer, token: &str, source: Option<&str>) -> common::Reply {
    let auth = format!("Bearer {token}");
    let mut headers = vec![
        ("Authorization", auth.as_str()),
        ("Content-Type", "application/json"),
    ];
    if let Some(source) = source {
        headers.push(("X-App-Source-Session-Id", source));
    }
    let body = json!({"engine": "echo", "prompt": "hi"}).to_string();
    request(
        server.control(),
        "POST",
        "/sessions",
        &headers,
        Some(body.as_bytes()),
    )
}

#[test]
fn the_scoped_token_has_exactly_the_agent_powers_and_dies_with_its_session() {
    let server = server_with_engines();
    let cookie = server.browser_cookie();
    let session = ui_spawn(&server, "echo", "hello there");
    let id = session["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");

    let env = recorded_env(server.scratch(), &id, 1);
    assert_eq!(env_value(&env, "APP_SESSION_ID"), id);
    assert_eq!(env_value(&env, "APP_TURN"), "1");
    assert_eq!(
        env_value(&env, "APP_CONTROL_URL"),
        format!("http://{}", server.control())
    );
    let agent = env_value(&env, "APP_CLI_TOKEN");
    assert!(agent.len() >= 22);

    let transcript = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json();
    assert!(
        transcript["turns"][0]["output"]
            .as_str()
            .unwrap()
            .contains("hello there")
    );

    // Reads, non-guarded settings and alerts: yes.
    assert_eq!(server.call_as(&agent, "GET", "/settings", None).status, 200);
    assert_eq!(server.call_as(&agent, "GET", "/boards", None).status, 200);
    assert_eq!(
        server
            .call_as(
                &agent,
                "PATCH",
                "/settings/pmColorMode",
                Some(&json!({"value": "dark"}))
            )
            .status,
        200
    );
    let alert = server.call_as(
        &agent,
        "POST",
        "/alert",
        Some(&json!({"title": "Need a key", "body": "for the deploy"})),
    );
    assert_eq!(alert.status, 201, "{}", alert.text());
    assert_eq!(alert.json()["source"]["sessionId"], id);
    assert_eq!(
        alert.json()["actions"],
        serde_json::json!([{"kind": "open_session", "sessionId": id}])
    );
    // Guarded settings, accounts, restart while it is off, workspaces: no.
    for key in [
        "allowAgentTokenSpawn",
        "cliServerEnabled",
        "agentDrivenMaxConcurrent",
        "requireSpawnSourceSession",
    ] {
        let reply = server.call_as(
            &agent,
            "PATCH",
            &format!("/settings/{key}"),
            Some(&json!({"value": true})),
        );
        assert_eq!(reply.status, 403, "{key}");
        assert_eq!(reply.error_code(), "guarded_setting");
    }
    assert_eq!(
        server
            .call_as(&agent, "POST", "/accounts", Some(&json!({"name": "x"})))
            .error_code(),
        "owner_only"
    );
    assert_eq!(
        server
            .call_as(&agent, "POST", "/workspaces", Some(&json!({"name": "x"})))
            .error_code(),
        "agent_token_forbidden"
    );
    assert_eq!(
        server
            .call_as(&agent, "POST", "/app/restart", None)
            .error_code(),
        "restart_disabled"
    );
    // The inbox is the user's to mark and the hooks theirs to manage; an
    // agent may read the inbox and add to it, nothing more.
    let row_id = alert.json()["id"].as_str().unwrap().to_owned();
    for (method, path, body) in [
        (
            "PATCH",
            format!("/inbox/{row_id}"),
            Some(json!({"read": true})),
        ),
        ("POST", "/inbox/read-all".to_owned(), None),
        ("GET", "/webhooks".to_owned(), None),
        ("POST", "/webhooks".to_owned(), Some(json!({"name": "x"}))),
        ("DELETE", "/webhooks/any".to_owned(), None),
    ] {
        let reply = server.call_as(&agent, method, &path, body.as_ref());
        assert_eq!(
            reply.error_code(),
            "agent_token_forbidden",
            "{method} {path}"
        );
    }
    assert_eq!(server.call_as(&agent, "GET", "/inbox", None).status, 200);
    assert_eq!(
        server.call_as(&agent, "GET", "/inbox/counts", None).status,
        200
    );

    // A follow-up is turn 2 with the same token; stopping ends the token.
    let reply = request(
        &server.ui,
        "POST",
        &format!("/api/sessions/{id}/messages"),
        &[("Cookie", &cookie), ("Content-Type", "application/json")],
        Some(br#"{"text": "again"}"#),
    );
    assert_eq!(reply.status, 202, "{}", reply.text());
    // Turn 2's row exists (and the session still reads waiting_for_input)
    // before its engine runs, so only the turn's own status says it is over.
    let deadline = Instant::now() + Duration::from_secs(20);
    while server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json()["turns"][1]["status"]
        != "done"
    {
        assert!(Instant::now() < deadline, "the follow-up never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        env_value(&recorded_env(server.scratch(), &id, 2), "APP_TURN"),
        "2"
    );

    let stopped = server.call("POST", &format!("/sessions/{id}/stop"), None);
    assert_eq!(stopped.status, 202);
    server.wait_for_status(&id, "stopped");
    let dead = server.call_as(&agent, "GET", "/settings", None);
    assert_eq!(dead.status, 401);
}

#[test]
fn control_spawns_follow_the_rules_in_order() {
    let server = server_with_engines();
    let parent = ui_spawn(&server, "echo", "parent");
    let parent_id = parent["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&parent_id, "waiting_for_input");
    let agent = env_value(
        &recorded_env(server.scratch(), &parent_id, 1),
        "APP_CLI_TOKEN",
    );
    let owner = server.token.clone();

    // 1. agent-driven sessions off (the default): refused whatever the token.
    for token in [&owner, &agent] {
        let reply = control_spawn(&server, token, Some(&parent_id));
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (403, "agent_driven_sessions_disabled")
        );
    }
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    // 2. the agent's own token may not spawn until allowed; the cli token may.
    let reply = control_spawn(&server, &agent, Some(&parent_id));
    assert_eq!(
        (reply.status, reply.error_code().as_str()),
        (403, "agent_token_spawn_disabled")
    );
    // 3. the source session header is required and must name a live session.
    let reply = control_spawn(&server, &owner, None);
    assert_eq!(
        (reply.status, reply.error_code().as_str()),
        (403, "source_session_required")
    );
    let reply = control_spawn(&server, &owner, Some("not-a-session"));
    assert_eq!(reply.error_code(), "source_session_required");
    let child = control_spawn(&server, &owner, Some(&parent_id));
    assert_eq!(child.status, 201, "{}", child.text());
    assert_eq!(
        server
            .call("GET", "/settings/cliSpawnSpacingSeconds", None)
            .json()["value"],
        0
    );
    assert_eq!(child.json()["agentDriven"], true);

    server.set_setting("allowAgentTokenSpawn", json!(true));
    let other_parent = ui_spawn(&server, "echo", "other");
    let other_id = other_parent["id"].as_str().unwrap().to_owned();
    let reply = control_spawn(&server, &agent, Some(&other_id));
    assert_eq!(
        reply.error_code(),
        "source_session_required",
        "an agent may only name its own session"
    );
    assert_eq!(control_spawn(&server, &agent, Some(&parent_id)).status, 201);

    // 4. the concurrency ceiling counts active agent-driven sessions.
    server.set_setting("agentDrivenMaxConcurrent", json!(2));
    let reply = control_spawn(&server, &owner, Some(&parent_id));
    assert_eq!(
        (reply.status, reply.error_code().as_str()),
        (429, "concurrency_limit")
    );
    server.set_setting("requireSpawnSourceSession", json!(false));
    server.set_setting("agentDrivenMaxConcurrent", json!(3));
    // 5. spacing queues, never refuses. The stored-not-enforced limits are kept with each session
    // as they were when it was spawned.
    server.set_setting("cliSpawnSpacingSeconds", json!(60));
    server.set_setting("agentDrivenMaxDollarsPerSession", json!(0.5));
    let queued = control_spawn(&server, &owner, None);
    assert_eq!(queued.status, 202, "{}", queued.text());
    assert_eq!(queued.json()["status"], "queued");
    assert!(queued.json()["startsAt"].as_str().is_some());

    let session = |reply: &Reply| {
        server
            .call(
                "GET",
                &format!("/sessions/{}", reply.json()["id"].as_str().unwrap()),
                None,
            )
            .json()
    };
    assert_eq!(session(&queued)["maxDollarsPerSession"], json!(0.5));
    assert_eq!(session(&child)["maxDollarsPerSession"], json!(5.0));
    assert!(session(&child).get("costUsd").is_some());
}

#[test]
fn an_agent_spawns_a_helper_with_one_command() {
    let server = server_with_engines();
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("allowAgentTokenSpawn", json!(true));
    let parent = ui_spawn(&server, "spawner", "make a helper");
    let parent_id = parent["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&parent_id, "waiting_for_input");
    let output = std::fs::read_to_string(
        server
            .scratch()
            .join("record")
            .join(format!("spawned-{parent_id}")),
    )
    .unwrap();
    let helper: Value = serde_json::from_str(&output).unwrap_or_else(|e| panic!("{e}: {output}"));
    assert_eq!(helper["agentDriven"], true);
    assert_eq!(helper["parentId"], parent_id);
    let sessions = server.call("GET", "/sessions", None).json();
    assert_eq!(sessions.as_array().unwrap().len(), 2);
}

#[test]
fn sessions_come_back_after_the_server_is_killed() {
    let server = server_with_engines();
    server.set_setting("autoResumeOnCrash", json!(false));
    let running = ui_spawn(&server, "slow", "long work");
    let running_id = running["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&running_id, "running");
    let waiting = ui_spawn(&server, "echo", "short");
    let waiting_id = waiting["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&waiting_id, "waiting_for_input");

    let server = server.crash_and_restart();
    server.wait_for_status(&running_id, "interrupted");
    server.wait_for_status(&waiting_id, "interrupted");
    let orphans = Command::new("pgrep")
        .args(["-f", "sleep 30"])
        .output()
        .unwrap();
    let leftover: Vec<u32> = String::from_utf8_lossy(&orphans.stdout)
        .lines()
        .filter_map(|l| l.parse().ok())
        .collect();
    for pid in leftover {
        let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        assert!(
            !String::from_utf8_lossy(&environ).contains(&running_id),
            "the dead server's engine process {pid} was left running"
        );
    }
}

/// The agent token of a session on the recording `echo` engine, once its first
/// turn has run.
fn agent_token(server: &TestServer) -> String {
    let session = ui_spawn(server, "echo", "hello");
    let id = session["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");
    env_value(&recorded_env(server.scratch(), &id, 1), "APP_CLI_TOKEN")
}

#[test]
fn an_invalid_engines_file_is_a_generic_logged_5xx() {
    let server = server_with_engines();
    let engines = server.data_dir().join("engines.toml");
    std::fs::write(&engines, "[engines.echo\nkind = ").unwrap();
    let path = engines.display().to_string();
    let spawn = server.browser_spawn(
        &server.browser_cookie(),
        &json!({"engine": "echo", "prompt": "x"}),
    );
    for reply in [server.call("GET", "/engines", None), spawn] {
        assert_eq!(reply.status, 500, "{}", reply.text());
        assert_eq!(reply.error_code(), "engines_config_invalid");
        let message = reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(
            message,
            "The engines file is invalid; the server log says what is wrong."
        );
        for secret in [path.as_str(), "engines.toml", "TOML", "line 1", "expected"] {
            assert!(
                !reply.text().contains(secret),
                "{secret} in {}",
                reply.text()
            );
        }
    }
}

#[test]
fn an_agent_restarts_the_app_only_while_the_setting_allows_it() {
    let server = server_with_engines();
    let agent = agent_token(&server);
    for token in [agent.as_str(), server.token.as_str()] {
        let reply = server.call_as(token, "POST", "/app/restart", None);
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (403, "restart_disabled")
        );
    }
    server.set_setting("allowAgentAppRestart", json!(true));
    let before = std::fs::read_to_string(server.data_dir().join("server.json")).unwrap();
    assert_eq!(
        server.call_as(&agent, "POST", "/app/restart", None).status,
        202
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::fs::read_to_string(server.data_dir().join("server.json"))
        .is_ok_and(|now| now == before)
        || !server.data_dir().join("server.json").exists()
    {
        assert!(Instant::now() < deadline, "no restart happened");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn agents_write_their_dashboards_and_items_but_not_boards() {
    let server = server_with_engines();
    let agent = agent_token(&server);
    let workspace = server
        .call("POST", "/workspaces", Some(&json!({"name": "W"})))
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let board = server.call(
        "POST",
        "/boards",
        Some(&json!({"workspaceId": workspace, "name": "B",
            "columns": [{"id": "n", "title": "N", "type": "number"}],
            "groups": [{"id": "g", "title": "G"}]})),
    );
    assert_eq!(board.status, 201, "{}", board.text());
    let board = board.json()["id"].as_str().unwrap().to_owned();

    let created = server.call_as(
        &agent,
        "POST",
        "/dashboards",
        Some(&json!({"workspaceId": workspace, "name": "Mine",
            "config": {"boardIds": [board], "widgets": []}})),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let dashboard = created.json()["id"].as_str().unwrap().to_owned();
    let renamed = server.call_as(
        &agent,
        "PATCH",
        &format!("/dashboards/{dashboard}"),
        Some(&json!({"name": "Renamed"})),
    );
    assert_eq!(renamed.status, 200, "{}", renamed.text());
    assert_eq!(renamed.json()["name"], "Renamed");
    // Ownership is checked as for everyone: another account's workspace is missing.
    let other = server.call("POST", "/accounts", Some(&json!({"name": "Other"})));
    let other_token = other.json()["token"].as_str().unwrap().to_owned();
    let elsewhere = server
        .call_as(
            &other_token,
            "POST",
            "/workspaces",
            Some(&json!({"name": "X"})),
        )
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let refused = server.call_as(
        &agent,
        "POST",
        "/dashboards",
        Some(&json!({"workspaceId": elsewhere, "name": "No",
            "config": {"boardIds": [], "widgets": []}})),
    );
    assert_eq!(refused.status, 404, "{}", refused.text());
    assert_eq!(
        server
            .call_as(&agent, "DELETE", &format!("/dashboards/{dashboard}"), None)
            .status,
        204
    );

    let item = server.call_as(
        &agent,
        "POST",
        &format!("/boards/{board}/items"),
        Some(&json!({"name": "task", "values": {"n": 1}})),
    );
    assert_eq!(item.status, 201, "{}", item.text());
    let item = item.json()["id"].as_str().unwrap().to_owned();
    let batch = server.call_as(
        &agent,
        "POST",
        &format!("/boards/{board}/items/batch"),
        Some(&json!({"items": [{"name": "a"}, {"name": "b"}]})),
    );
    assert_eq!(batch.status, 201, "{}", batch.text());
    let changed = server.call_as(
        &agent,
        "PATCH",
        &format!("/items/{item}"),
        Some(&json!({"values": {"n": 2}})),
    );
    assert_eq!(changed.status, 200, "{}", changed.text());
    assert_eq!(changed.json()["values"]["n"], 2);
    for (method, path, body) in [
        (
            "POST",
            "/boards".to_owned(),
            json!({"workspaceId": workspace, "name": "X"}),
        ),
        ("PATCH", format!("/boards/{board}"), json!({"name": "X"})),
        (
            "POST",
            format!("/boards/{board}/columns"),
            json!({"title": "T", "type": "text"}),
        ),
        (
            "POST",
            format!("/boards/{board}/groups"),
            json!({"title": "T"}),
        ),
    ] {
        let reply = server.call_as(&agent, method, &path, Some(&body));
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (403, "agent_token_forbidden"),
            "{method} {path}"
        );
    }
    let deleted = server.call_as(&agent, "DELETE", &format!("/items/{item}"), None);
    assert_eq!(deleted.status, 403);
}

/// A fork over HTTP: `GET /engines` says a `command` engine cannot fork,
/// and forking on one, or forking a session that is not the caller's, is
/// refused before anything starts.
#[test]
fn forks_a_command_engine_cannot_make_are_refused() {
    let server = server_with_engines();
    let engines = server.call("GET", "/engines", None).json();
    let echo = engines
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "echo")
        .unwrap();
    assert_eq!(echo["canFork"], false, "{engines}");

    let source = ui_spawn(&server, "echo", "hi");
    let id = source["id"].as_str().unwrap();
    server.wait_for_status(id, "waiting_for_input");
    let cookie = server.browser_cookie();
    let fork =
        |from: &str| server.browser_spawn(&cookie, &json!({"prompt": "again", "forkFrom": from}));
    let reply = fork(id);
    assert_eq!(reply.status, 409, "{}", reply.text());
    assert_eq!(reply.error_code(), "fork_unsupported");
    assert!(
        reply.text().contains("`echo` (kind command)"),
        "{}",
        reply.text()
    );
    let reply = fork("no-such-session");
    assert_eq!(reply.status, 404, "{}", reply.text());
    assert_eq!(reply.error_code(), "not_found");
    let listed = server.call("GET", "/sessions", None).json();
    assert_eq!(listed.as_array().unwrap().len(), 1);
}
