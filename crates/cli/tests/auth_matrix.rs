//! The spec's Authentication rules 1–7 and the rows of its Errors table,
//! each tried with the owner's cli token, a session's agent token and a
//! second account's cli token, so that a later change cannot loosen one
//! without a test failing here. (The sensitive-file row is the operating
//! system's: `tests/sandbox.rs`; the control-server-off row:
//! `tests/foundation.rs` and `tests/permissions.rs`.)

mod common;

use common::TestServer;
use serde_json::{Value, json};

struct Tokens {
    cli: String,
    agent: String,
    agent_session: String,
    second: String,
}

fn server() -> (TestServer, Tokens) {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let holder = format!(
        "printf '%s\\n%s' \"$APP_CLI_TOKEN\" \"$APP_SESSION_ID\" > {}/env-$APP_SESSION_ID; exec sleep 300",
        scratch.path().display()
    );
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {holder:?}]\n"
        ),
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &[]).keeping(scratch);
    let session = server.browser_session("holder", "work");
    let id = session["id"].as_str().unwrap().to_owned();
    let (agent, named) = session_env(&server, &id);
    // Rule 2: the session got a scoped token and its own id.
    assert_eq!(named, id);
    assert_ne!(agent, server.token);
    let second = server.call("POST", "/accounts", Some(&json!({"name": "second"})));
    assert_eq!(second.status, 201, "{}", second.text());
    let tokens = Tokens {
        cli: server.token.clone(),
        agent,
        agent_session: id,
        second: second.json()["token"].as_str().unwrap().to_owned(),
    };
    (server, tokens)
}

fn session_env(server: &TestServer, id: &str) -> (String, String) {
    let text = common::written(&server.scratch().join(format!("env-{id}")));
    let mut lines = text.lines();
    let token = lines.next().unwrap_or_default().to_owned();
    (token, lines.next().unwrap_or_default().to_owned())
}

fn outcome(
    server: &TestServer,
    token: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, String) {
    let reply = server.call_as(token, method, path, body);
    let code = if reply.status >= 400 {
        reply.error_code()
    } else {
        String::new()
    };
    (reply.status, code)
}

fn spawn_body() -> Value {
    json!({"engine": "holder", "prompt": "helper"})
}

#[test]
fn rule_1_and_the_first_error_row_keep_accounts_apart() {
    let (server, t) = server();
    let workspace = server
        .call("POST", "/workspaces", Some(&json!({"name": "w"})))
        .json();
    let board = server
        .call(
            "POST",
            "/boards",
            Some(
                &json!({"workspaceId": workspace["id"], "name": "b", "columns": [], "groups": []}),
            ),
        )
        .json();
    let board_id = board["id"].as_str().unwrap();
    let full = format!("/boards/{board_id}/full");
    assert_eq!(outcome(&server, &t.cli, "GET", &full, None).0, 200);
    assert_eq!(
        outcome(&server, &t.agent, "GET", &full, None).0,
        200,
        "an agent acts for its account"
    );
    assert_eq!(
        outcome(&server, &t.second, "GET", &full, None),
        (404, "not_found".into())
    );

    let theirs = server
        .call_as(
            &t.second,
            "POST",
            "/workspaces",
            Some(&json!({"name": "theirs"})),
        )
        .json();
    let config = json!({"boardIds": [board_id], "widgets": [], "filters": {}});
    let dashboard = |token: &str, workspace: &Value| {
        outcome(
            &server,
            token,
            "POST",
            "/dashboards",
            Some(&json!({"workspaceId": workspace["id"], "name": "d", "config": config})),
        )
    };
    assert_eq!(dashboard(&t.cli, &workspace).0, 201);
    assert_eq!(dashboard(&t.agent, &workspace).0, 201);
    assert_eq!(
        dashboard(&t.second, &theirs).0,
        404,
        "a config naming another account's board"
    );
    let listed = server.call_as(
        &t.second,
        "GET",
        &format!("/dashboards?workspaceId={}", theirs["id"].as_str().unwrap()),
        None,
    );
    assert_eq!(listed.json(), json!([]), "and nothing was created");
}

#[test]
fn rules_3_and_5_and_their_error_rows_govern_spawns() {
    let (server, t) = server();
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    // Rule 5 (requireSpawnSourceSession, on by default): no header, no spawn.
    for token in [&t.cli, &t.second] {
        assert_eq!(
            outcome(&server, token, "POST", "/sessions", Some(&spawn_body())),
            (403, "source_session_required".into())
        );
    }
    // Rule 3: an agent's token is refused first, whatever else holds.
    assert_eq!(
        outcome(&server, &t.agent, "POST", "/sessions", Some(&spawn_body())),
        (403, "agent_token_spawn_disabled".into())
    );
    let with_header = |token: &str, source: &str| {
        let reply = common::request(
            server.control(),
            "POST",
            "/sessions",
            &[
                ("Authorization", &format!("Bearer {token}")),
                ("Content-Type", "application/json"),
                ("X-App-Source-Session-Id", source),
            ],
            Some(spawn_body().to_string().as_bytes()),
        );
        let code = if reply.status >= 400 {
            reply.error_code()
        } else {
            String::new()
        };
        (reply.status, code)
    };
    assert_eq!(
        with_header(&t.cli, &t.agent_session).0,
        201,
        "the global cli token always spawns"
    );
    assert_eq!(
        with_header(&t.second, &t.agent_session),
        (403, "source_session_required".into()),
        "another account's session is no source"
    );
    server.set_setting("allowAgentTokenSpawn", json!(true));
    assert_eq!(with_header(&t.agent, &t.agent_session).0, 201);
    assert_eq!(
        outcome(&server, &t.agent, "POST", "/sessions", Some(&spawn_body())),
        (403, "source_session_required".into())
    );

    // The concurrency row: the limit is global, whoever asks.
    server.set_setting("requireSpawnSourceSession", json!(false));
    server.set_setting("agentDrivenMaxConcurrent", json!(2));
    for (who, token) in [("cli", &t.cli), ("agent", &t.agent), ("second", &t.second)] {
        let (status, code) = outcome(&server, token, "POST", "/sessions", Some(&spawn_body()));
        assert_eq!((status, code.as_str()), (429, "concurrency_limit"), "{who}");
    }
}

#[test]
fn rules_4_and_6_refuse_team_chat_and_restart() {
    let (server, t) = server();
    let message = json!({"channel": "C1", "text": "x"});
    assert_eq!(
        outcome(
            &server,
            &t.agent,
            "POST",
            "/teamchat/messages",
            Some(&message)
        ),
        (403, "agent_token_team_chat_disabled".into())
    );
    for token in [&t.cli, &t.second] {
        // Not the agent rule: only the feature switch (chatAppEnabled, off).
        assert_eq!(
            outcome(&server, token, "POST", "/teamchat/messages", Some(&message)),
            (403, "team_chat_disabled".into())
        );
    }
    for token in [&t.cli, &t.agent, &t.second] {
        assert_eq!(
            outcome(&server, token, "POST", "/app/restart", None),
            (403, "restart_disabled".into())
        );
    }
}

#[test]
fn rule_7_locks_an_email_triggered_session_down() {
    let (server, t) = server();
    let body = json!({"engine": "holder", "prompt": "read mail", "trigger": "email"});
    // Only the user or a cli token may say a session came from email.
    assert_eq!(
        outcome(&server, &t.agent, "POST", "/sessions", Some(&body)),
        (403, "trigger_forbidden".into())
    );
    let spawned = server.browser_spawn(&server.browser_cookie(), &body);
    assert_eq!(spawned.status, 201, "{}", spawned.text());
    let id = spawned.json()["id"].as_str().unwrap().to_owned();
    let (email, _) = session_env(&server, &id);
    for (method, path, body) in [
        ("POST", "/sessions", Some(spawn_body())),
        (
            "PATCH",
            "/settings/agentPermissionLevel",
            Some(json!({"value": "full"})),
        ),
        ("PATCH", "/settings/theme", Some(json!({"value": "dark"}))),
        ("POST", "/workspaces", Some(json!({"name": "x"}))),
        (
            "POST",
            "/dashboards",
            Some(json!({"workspaceId": "w", "name": "d", "config": {}})),
        ),
    ] {
        assert_eq!(
            outcome(&server, &email, method, path, body.as_ref()),
            (403, "email_session_locked".into()),
            "{method} {path}"
        );
    }
    assert_eq!(
        outcome(&server, &email, "GET", "/settings", None).0,
        200,
        "reading is allowed"
    );
    let session = server.call("GET", &format!("/sessions/{id}"), None).json();
    assert_eq!(session["trigger"], "email");
}

#[test]
fn the_utility_model_s_record_is_the_owner_s_and_agents_add_tasks_as_their_session() {
    let (server, t) = server();
    for path in ["/utility/calls", "/utility/spend"] {
        assert_eq!(outcome(&server, &t.cli, "GET", path, None).0, 200, "{path}");
        assert_eq!(
            outcome(&server, &t.agent, "GET", path, None),
            (403, "agent_token_forbidden".to_owned()),
            "{path}"
        );
        assert_eq!(
            outcome(&server, &t.second, "GET", path, None),
            (403, "owner_only".to_owned()),
            "{path}"
        );
    }
    for path in ["/summaries", "/forensics"] {
        assert_eq!(outcome(&server, &t.cli, "GET", path, None).0, 200, "{path}");
        assert_eq!(
            outcome(&server, &t.agent, "GET", path, None),
            (403, "agent_token_forbidden".to_owned()),
            "{path}"
        );
    }
    let added = server.call_as(
        &t.agent,
        "POST",
        "/tasks",
        Some(&json!({"text": "Write the migration notes"})),
    );
    assert_eq!(added.status, 201, "{}", added.text());
    let task = added.json();
    assert_eq!(task["sourceSessionId"], t.agent_session.as_str());
    let id = task["id"].as_str().unwrap();
    // An agent adds; changing and removing stay the user's.
    assert_eq!(
        outcome(
            &server,
            &t.agent,
            "PATCH",
            &format!("/tasks/{id}"),
            Some(&json!({"state": "done"}))
        ),
        (403, "agent_token_forbidden".to_owned())
    );
    assert_eq!(
        outcome(&server, &t.agent, "DELETE", &format!("/tasks/{id}"), None),
        (403, "agent_token_forbidden".to_owned())
    );
    // Another account neither sees nor touches it.
    let theirs = server.call_as(&t.second, "GET", "/tasks", None).json();
    assert_eq!(theirs["tasks"], json!([]));
    assert_eq!(
        outcome(&server, &t.second, "DELETE", &format!("/tasks/{id}"), None),
        (404, "not_found".to_owned())
    );
    let mine = server.call("GET", "/tasks", None).json();
    assert_eq!(mine["tasks"][0]["text"], "Write the migration notes");
    let by_user = server.call("POST", "/tasks", Some(&json!({"text": "Mine"})));
    assert!(
        by_user.json()["sourceSessionId"].is_null(),
        "{}",
        by_user.text()
    );
}
