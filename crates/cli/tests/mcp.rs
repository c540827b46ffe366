//! `POST /mcp` against a live server, driven by an MCP client that is not
//! ours (the official Python SDK, from `make py-deps`): its tools obey the
//! same rules and answer with the same codes as their HTTP routes, under
//! the same tokens; and a `claude` session is handed this server's MCP
//! configuration, with its own token and the strict flag, without the token
//! ever reaching its command line or a file.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{TestServer, workspace_root};
use serde_json::{Value, json};

fn python() -> PathBuf {
    let python = workspace_root().join("target/pyenv/bin/python");
    assert!(
        python.exists(),
        "{} is missing: run `make py-deps` first",
        python.display()
    );
    python
}

fn script(name: &str) -> PathBuf {
    workspace_root().join("crates/cli/tests/python").join(name)
}

/// Initialises an MCP session with `token` (naming `source` as the session
/// it acts from, as the CLI and the sessions' own MCP configuration do),
/// lists the tools and makes each call in order.
fn mcp_client(server: &TestServer, token: &str, source: &str, calls: &Value) -> Value {
    let output = Command::new(python())
        .arg(script("mcp_client.py"))
        .arg(format!("http://{}/mcp", server.control()))
        .arg(token)
        .arg(source)
        .arg(calls.to_string())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "the MCP client failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

fn board_of(server: &TestServer, token: &str, name: &str) -> String {
    let workspace = server
        .call_as(token, "POST", "/workspaces", Some(&json!({"name": name})))
        .json();
    let board = server.call_as(
        token,
        "POST",
        "/boards",
        Some(&json!({"workspaceId": workspace["id"], "name": name, "columns": [], "groups": []})),
    );
    assert_eq!(board.status, 201, "{}", board.text());
    board.json()["id"].as_str().unwrap().to_owned()
}

fn refusal_code(result: &Value) -> &str {
    assert_eq!(result["isError"], true, "{result}");
    result["structured"]["error"]["code"].as_str().unwrap()
}

#[test]
fn an_outside_client_gets_the_http_rules_through_mcp() {
    let server = TestServer::with_token_holders(|_| {});
    let ours = board_of(&server, &server.token, "ours");
    let second = server.call("POST", "/accounts", Some(&json!({"name": "second"})));
    let theirs = board_of(&server, second.json()["token"].as_str().unwrap(), "theirs");
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    let (parent_id, agent) = server.holder_session();
    let parent_id = parent_id.as_str();

    let spawn = json!(["spawn_session", {"engine": "holder", "prompt": "helper"}]);
    let first = mcp_client(
        &server,
        &agent,
        parent_id,
        &json!([
            spawn,
            ["read_board", {"boardId": ours}],
            ["read_board", {"boardId": theirs}],
            ["change_setting", {"key": "allowAgentTokenSpawn", "value": true}],
        ]),
    );
    assert_eq!(first["server"], "switchboard");
    let tools = first["tools"].as_object().unwrap();
    for name in [
        "spawn_session",
        "send_message",
        "list_sessions",
        "read_session",
        "stop_session",
        "post_alert",
        "read_setting",
        "change_setting",
        "list_boards",
        "read_board",
        "create_item",
        "change_item",
        "read_inbox",
        "request_input",
        "wait_input_request",
        "launch_bookmark",
        "list_recipes",
        "run_recipe",
        "create_schedule",
        "schedule_message",
        "list_rules",
        "create_rule",
    ] {
        assert!(tools.contains_key(name), "no tool {name}: {tools:?}");
    }
    assert_eq!(
        tools["create_item"]["required"],
        json!(["boardId", "name"]),
        "the body's own required fields follow the path's"
    );
    let results = first["results"].as_array().unwrap();
    let over_http = common::request(
        server.control(),
        "POST",
        "/sessions",
        &[
            ("Authorization", &format!("Bearer {agent}")),
            ("Content-Type", "application/json"),
            ("X-App-Source-Session-Id", parent_id),
        ],
        Some(spawn[1].to_string().as_bytes()),
    );
    assert_eq!(over_http.status, 403);
    assert_eq!(refusal_code(&results[0]), over_http.error_code());
    assert_eq!(refusal_code(&results[0]), "agent_token_spawn_disabled");
    assert_eq!(results[1]["isError"], false, "{}", results[1]);
    assert_eq!(results[1]["structured"]["board"]["id"], ours.as_str());
    assert_eq!(refusal_code(&results[2]), "not_found");
    assert_eq!(
        refusal_code(&results[3]),
        "guarded_setting",
        "a guarded key refuses an agent's token through MCP too"
    );
    assert_eq!(
        server
            .call("GET", "/sessions", None)
            .json()
            .as_array()
            .unwrap()
            .len(),
        1
    );

    server.set_setting("allowAgentTokenSpawn", json!(true));
    let second_run = mcp_client(&server, &agent, parent_id, &json!([spawn]));
    let spawned = &second_run["results"][0];
    assert_eq!(spawned["isError"], false, "{spawned}");
    let child = spawned["structured"]["id"].as_str().unwrap();
    let read = server
        .call("GET", &format!("/sessions/{child}"), None)
        .json();
    assert_eq!(
        read["parentId"], parent_id,
        "the agent's spawn is its child"
    );
}

#[test]
fn mcp_takes_no_request_without_a_token_the_control_server_accepts() {
    let server = TestServer::start();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string();
    for auth in [None, Some("Bearer not-a-token")] {
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        if let Some(auth) = auth {
            headers.push(("Authorization", auth));
        }
        let reply = common::request(
            server.control(),
            "POST",
            "/mcp",
            &headers,
            Some(body.as_bytes()),
        );
        assert_eq!(reply.status, 401, "{}", reply.text());
        assert_eq!(reply.error_code(), "unauthenticated");
    }
}

#[test]
fn a_request_the_transport_refuses_gets_the_contracts_error_shape() {
    let server = TestServer::start();
    let auth = format!("Bearer {}", server.token);
    let both = "application/json, text/event-stream";
    let list = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#;
    for (accept, body, status) in [
        // JSON, but no JSON-RPC message: malformed input, not a content type.
        (both, "[1, 2]", 400),
        (both, "{\"jsonrpc\": ", 400),
        ("application/json", list, 406),
    ] {
        let reply = common::request(
            server.control(),
            "POST",
            "/mcp",
            &[
                ("Authorization", auth.as_str()),
                ("Content-Type", "application/json"),
                ("Accept", accept),
            ],
            Some(body.as_bytes()),
        );
        assert_eq!(reply.status, status, "{body}: {}", reply.text());
        assert_eq!(reply.error_code(), "invalid_request", "{}", reply.text());
        let message = reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(!message.contains("Content-Type"), "{message}");
    }
}

/// What the fake `claude` recorded of each turn.
fn turns(record: &Path, count: usize) -> Vec<Value> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let text = std::fs::read_to_string(record).unwrap_or_default();
        let lines: Vec<Value> = text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        if lines.len() >= count {
            return lines;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{count} turns never recorded: {text}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_claude_session_is_handed_this_server_with_its_own_token_and_the_strict_flag() {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let record = scratch.path().join("turns.jsonl");
    let command = [
        python().display().to_string(),
        script("fake_claude_mcp.py").display().to_string(),
        record.display().to_string(),
    ];
    std::fs::write(
        dir.path().join("engines.toml"),
        format!("[engines.primary]\nkind = \"claude\"\ncommand = {command:?}\n"),
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &[]).keeping(scratch);
    let session = server.browser_session("primary", "first");
    let id = session["id"].as_str().unwrap();
    let first = &turns(&record, 1)[0];
    assert_eq!(
        first["server"]["url"],
        format!("http://{}/mcp", server.control())
    );
    assert_eq!(first["strict"], true);
    assert_eq!(
        first["call"]["isError"], false,
        "the session's own token opened MCP: {first}"
    );
    assert_eq!(first["call"]["session"]["id"], id);
    assert_eq!(
        first["tokenInArgv"], false,
        "the token stays off the command line"
    );

    server.set_setting("sessionStrictMcpConfig", json!(false));
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.wait_for_status(id, "waiting_for_input");
    let sent = server.call(
        "POST",
        &format!("/sessions/{id}/messages"),
        Some(&json!({"text": "again"})),
    );
    assert!(sent.status < 300, "{}", sent.text());
    let second = &turns(&record, 2)[1];
    assert_eq!(
        second["strict"], false,
        "the setting applies from the next turn"
    );
    assert_eq!(second["server"]["url"], first["server"]["url"]);
}
