//! The permission broker against a real server: the built binary's
//! `switchboard hook pre-tool-use`, fed recorded Claude Code hook inputs with
//! a real session's environment (its scoped token, control URL and id, as a
//! `command` engine recorded them), at each level; a waiting approval then
//! allow or deny, the ten-minute limit on a manual clock, "always for this
//! session", agent tokens refused as deciders, the email lockdown, a codex
//! engine's own level in its sandbox flags, and the hook with the control
//! server off.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

/// A `holder` engine records its environment and sleeps, so the test can
/// run the hook as that session would.
fn server(args: &[&str]) -> (TestServer, PathBuf) {
    server_logging(args, None)
}

/// [`server`], its debug log (every request's path) going to `log`.
fn server_logging(args: &[&str], log: Option<&Path>) -> (TestServer, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    // Outside the data directory, which the sandbox hides from engines.
    let scratch = tempfile::tempdir().unwrap();
    let record = scratch.path().join("record");
    let project = scratch.path().join("project");
    std::fs::create_dir_all(&record).unwrap();
    std::fs::create_dir_all(project.join("src")).unwrap();
    let r = record.display();
    let holder = format!(
        "printf '%s\\n%s\\n' \"$APP_CLI_TOKEN\" \"$APP_CONTROL_URL\" > {r}/env-$APP_SESSION_ID; exec sleep 300"
    );
    // A stand-in for Claude Code that keeps what `--settings` said.
    let claude = format!(
        "while [ $# -gt 0 ]; do case \"$1\" in --settings) printf '%s' \"$2\" > {r}/settings-$APP_SESSION_ID; shift 2;; *) shift;; esac; done; {holder}"
    );
    // A stand-in for Claude Code that runs the hook `--settings` names, as
    // Claude Code would before a `Read`: inside its sandbox, with its
    // environment, and the data directory the CLI would look in.
    let hook_input = r#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"README.md"}}"#;
    let claude_hook = format!(
        "while [ $# -gt 0 ]; do case \"$1\" in --settings) settings=\"$2\"; shift 2;; *) shift;; esac; done; \
         hook=$(printf '%s' \"$settings\" | sed -n 's/.*\"command\":\"\\([^\"]*\\)\".*/\\1/p'); \
         printf '%s' '{hook_input}' | /bin/sh -c \"$hook\" > {r}/hook-$APP_SESSION_ID.part; \
         mv {r}/hook-$APP_SESSION_ID.part {r}/hook-$APP_SESSION_ID; {holder}"
    );
    // A stand-in for Codex that keeps its argv.
    let codex = format!("printf '%s\\n' \"$@\" > {r}/argv-$APP_SESSION_ID; {holder}");
    let data_dir = dir.path().display().to_string();
    let toml = format!(
        "[engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {holder:?}]\n\n\
         [engines.claude]\nkind = \"claude\"\ncommand = [\"/bin/sh\", \"-c\", {claude:?}, \"claude\"]\n\n\
         [engines.claude_hook]\nkind = \"claude\"\ncommand = [\"/bin/sh\", \"-c\", {claude_hook:?}, \"claude\"]\n\
         env = {{ SWITCHBOARD_DATA_DIR = {data_dir:?} }}\n\n\
         [engines.codex]\nkind = \"codex\"\ncommand = [\"/bin/sh\", \"-c\", {codex:?}, \"codex\"]\n\n\
         [engines.codex_own]\nkind = \"codex\"\ncommand = [\"/bin/sh\", \"-c\", {codex:?}, \"codex\"]\n\
         permission_level = \"autonomous\"\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    let server = match log {
        Some(log) => TestServer::start_logging(dir, args, log),
        None => TestServer::start_in_with(dir, args),
    };
    (server.keeping(scratch), project)
}

/// A live session's environment, as its engine sees it.
#[derive(Clone)]
struct SessionEnv {
    id: String,
    token: String,
    url: String,
}

fn spawn(server: &TestServer, project: &Path, extra: Value) -> SessionEnv {
    let mut body = json!({"engine": "holder", "prompt": "work", "cwd": project});
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    // As the user does in the web app: never held back by spawn spacing.
    let reply = server.browser_spawn(&server.browser_cookie(), &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    let path = server.scratch().join("record").join(format!("env-{id}"));
    let deadline = Instant::now() + Duration::from_secs(20);
    let text = loop {
        if let Ok(text) = std::fs::read_to_string(&path)
            && text.lines().count() == 2
        {
            break text;
        }
        assert!(Instant::now() < deadline, "the session never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut lines = text.lines();
    SessionEnv {
        id,
        token: lines.next().unwrap().to_owned(),
        url: lines.next().unwrap().to_owned(),
    }
}

/// What Claude Code sends its `PreToolUse` hook.
fn hook_input(session: &SessionEnv, project: &Path, tool: &str, input: Value) -> Value {
    json!({
        "session_id": "0b3c2f9e-5f1e-4c1a-9d7e-2a1f3c4d5e6f",
        "transcript_path": "/home/me/.claude/projects/p/0b3c2f9e.jsonl",
        "cwd": project,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": format!("toolu_01{}", session.id.len()),
    })
}

fn start_hook(session: &SessionEnv, input: &Value) -> Child {
    let mut command = Command::new(common::binary());
    command
        .args(["hook", "pre-tool-use"])
        .env("SWITCHBOARD_DATA_DIR", "/nonexistent");
    feed_hook(command, session, input.to_string().as_bytes())
}

/// Runs `command` as Claude Code runs a hook: the session's environment,
/// `stdin` as its input.
fn feed_hook(mut command: Command, session: &SessionEnv, stdin: &[u8]) -> Child {
    let mut child = command
        .env("APP_CLI_TOKEN", &session.token)
        .env("APP_CONTROL_URL", &session.url)
        .env("APP_SESSION_ID", &session.id)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    child
}

/// `(permissionDecision, permissionDecisionReason)` the hook printed.
fn finish_hook(child: Child) -> (String, String) {
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse", "{answer}");
    (
        specific["permissionDecision"].as_str().unwrap().to_owned(),
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .to_owned(),
    )
}

fn hook(session: &SessionEnv, input: &Value) -> String {
    finish_hook(start_hook(session, input)).0
}

/// Waits for the one pending approval of `session`.
fn pending_approval(server: &TestServer, session: &SessionEnv) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let list = server.call("GET", "/approvals", None).json();
        let found = list["approvals"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["sessionId"] == session.id.as_str())
            .cloned();
        if let Some(found) = found {
            return found;
        }
        assert!(Instant::now() < deadline, "no approval appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn decide(server: &TestServer, id: &Value, body: Value) {
    let path = format!("/approvals/{}", id.as_str().unwrap());
    let reply = server.call("POST", &path, Some(&body));
    assert_eq!(reply.status, 200, "{}", reply.text());
}

/// Runs a call that must ask; the test answers `deny` and checks the tool.
fn asks(server: &TestServer, session: &SessionEnv, input: &Value) -> bool {
    let child = start_hook(session, input);
    let approval = pending_approval(server, session);
    assert_eq!(approval["tool"], input["tool_name"]);
    decide(server, &approval["id"], json!({"decision": "deny"}));
    finish_hook(child).0 == "deny"
}

#[test]
fn the_hook_answers_the_decision_table_at_each_level() {
    let (server, project) = server(&[]);
    server.set_setting("autoApprovePlans", json!(true));
    let session = spawn(&server, &project, json!({}));
    let inside = project.join("src/main.rs");
    let read = hook_input(&session, &project, "Read", json!({"file_path": inside}));
    let edit = hook_input(
        &session,
        &project,
        "Edit",
        json!({"file_path": inside, "old_string": "a", "new_string": "b"}),
    );
    let write_out = hook_input(
        &session,
        &project,
        "Write",
        json!({"file_path": "/tmp/elsewhere.txt", "content": "x"}),
    );
    let bash = hook_input(
        &session,
        &project,
        "Bash",
        json!({"command": "cargo test", "description": "Run tests"}),
    );
    let plan = hook_input(
        &session,
        &project,
        "ExitPlanMode",
        json!({"plan": "1. Fix it"}),
    );

    server.set_setting("agentPermissionLevel", json!("read_only"));
    assert_eq!(hook(&session, &read), "allow");
    for denied in [&edit, &write_out, &bash] {
        assert_eq!(hook(&session, denied), "deny", "{denied}");
    }
    let (_, reason) = finish_hook(start_hook(&session, &bash));
    assert!(reason.contains("read-only"), "{reason}");
    assert_eq!(hook(&session, &plan), "allow", "autoApprovePlans is on");

    server.set_setting("agentPermissionLevel", json!("guarded"));
    assert_eq!(hook(&session, &read), "allow");
    assert_eq!(hook(&session, &edit), "allow");
    assert!(asks(&server, &session, &write_out));
    assert!(asks(&server, &session, &bash));

    server.set_setting("agentPermissionLevel", json!("autonomous"));
    for allowed in [&read, &edit, &write_out, &bash] {
        assert_eq!(hook(&session, allowed), "allow", "{allowed}");
    }
    let shadow = hook_input(
        &session,
        &project,
        "Read",
        json!({"file_path": "/etc/shadow"}),
    );
    assert!(
        asks(&server, &session, &shadow),
        "a sensitive file asks below full"
    );

    server.set_setting("agentPermissionLevel", json!("full"));
    for allowed in [&read, &edit, &write_out, &bash, &shadow] {
        assert_eq!(hook(&session, allowed), "allow", "{allowed}");
    }
    server.set_setting("autoApprovePlans", json!(false));
    assert!(
        asks(&server, &session, &plan),
        "a plan asks while autoApprovePlans is off"
    );

    // Every decision is on record and in the transcript (an approval's
    // outcome is written as the hook hears it, so wait for the last one).
    let records = records_of(&server, &session, 21);
    assert_eq!(records[0]["tool"], "Read");
    assert_eq!(records[0]["level"], "read_only");
    assert_eq!(records[0]["decision"], "allow");
    let path = format!("/sessions/{}/transcript?format=json&limit=500", session.id);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let entries = server.call("GET", &path, None).json()["entries"].clone();
        let permissions = entries
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "permission")
            .count();
        if permissions == records.len() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{permissions} permission entries"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The real CLI's own tools reach the table by name through the server:
/// loading schemas, starting a local agent and Switchboard's own MCP tools
/// are allowed without an approval even at `read_only` (but for its tools
/// that change state, which `read_only` denies); another server's MCP tool
/// still asks at `guarded`.
#[test]
fn the_real_clis_own_tools_and_switchboards_mcp_tools_are_not_asked_about() {
    let (server, project) = server(&[]);
    let session = spawn(&server, &project, json!({}));
    let call = |tool: &str, input: Value| hook_input(&session, &project, tool, input);
    let never_asked = [
        call(
            "ToolSearch",
            json!({"query": "select:mcp__switchboard__list_boards"}),
        ),
        call("Agent", json!({"description": "Look", "prompt": "find it"})),
        call("Skill", json!({"skill": "simplify"})),
        call("mcp__switchboard__list_boards", json!({})),
    ];
    let creates = call(
        "mcp__switchboard__create_item",
        json!({"boardId": "b", "name": "x"}),
    );
    for level in ["read_only", "guarded"] {
        server.set_setting("agentPermissionLevel", json!(level));
        for input in &never_asked {
            assert_eq!(hook(&session, input), "allow", "{level} {input}");
        }
        let want = if level == "read_only" {
            "deny"
        } else {
            "allow"
        };
        assert_eq!(hook(&session, &creates), want, "{level}");
    }
    let other = call("mcp__github__create_issue", json!({"title": "x"}));
    assert!(asks(&server, &session, &other));
    let records = records_of(&server, &session, 11);
    let rules: Vec<&str> = records.iter().filter_map(|r| r["rule"].as_str()).collect();
    assert_eq!(
        rules[..5],
        [
            "internal",
            "internal",
            "internal",
            "switchboard_mcp",
            "read_only"
        ]
    );
}

/// The session's decisions once there are `count` of them.
fn records_of(server: &TestServer, session: &SessionEnv, count: usize) -> Vec<Value> {
    let path = format!("/sessions/{}/permissions", session.id);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let records = server.call("GET", &path, None).json()["permissions"].clone();
        let records = records.as_array().unwrap().clone();
        if records.len() >= count {
            return records;
        }
        assert!(Instant::now() < deadline, "{records:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Claude Code is handed the hook through `--settings`: running the command
/// it names, as Claude Code would, answers for the session.
#[test]
fn claude_code_runs_this_binary_as_its_pre_tool_use_hook() {
    let (server, project) = server(&[]);
    server.set_setting("agentPermissionLevel", json!("read_only"));
    let session = spawn(&server, &project, json!({"engine": "claude"}));
    let path = server
        .scratch()
        .join("record")
        .join(format!("settings-{}", session.id));
    let settings: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let hook = &settings["hooks"]["PreToolUse"][0];
    assert_eq!(hook["matcher"], "*");
    assert_eq!(hook["hooks"][0]["type"], "command");
    assert!(
        hook["hooks"][0]["timeout"].as_u64().unwrap() > 600,
        "{settings}"
    );
    let command = hook["hooks"][0]["command"].as_str().unwrap();
    // With agentFindBatchingEnabled (on by default) the hook also batches finds.
    assert!(
        command.ends_with(" hook pre-tool-use --batch-find"),
        "{command}"
    );
    for (tool, input, want) in [
        ("Read", json!({"file_path": "README.md"}), "allow"),
        ("Bash", json!({"command": "ls"}), "deny"),
    ] {
        let mut shell = Command::new("/bin/sh");
        shell.args(["-c", command]);
        let input = hook_input(&session, &project, tool, input);
        let child = feed_hook(shell, &session, input.to_string().as_bytes());
        assert_eq!(finish_hook(child).0, want, "{tool}");
    }
}

#[test]
fn an_approval_waits_for_the_user_and_can_be_remembered_for_the_session() {
    let (server, project) = server(&[]);
    let session = spawn(&server, &project, json!({}));
    let bash = |command: &str| hook_input(&session, &project, "Bash", json!({"command": command}));

    // Allowed once: the next such call asks again.
    let child = start_hook(&session, &bash("cargo test"));
    let approval = pending_approval(&server, &session);
    assert_eq!(approval["state"], "pending");
    assert_eq!(approval["input"]["command"], "cargo test");
    // The engine's own token cannot answer its own approval.
    let path = format!("/approvals/{}", approval["id"].as_str().unwrap());
    let by_agent = server.call_as(
        &session.token,
        "POST",
        &path,
        Some(&json!({"decision": "allow"})),
    );
    assert_eq!(by_agent.status, 403, "{}", by_agent.text());
    assert_eq!(
        server
            .call_as(&session.token, "GET", "/approvals", None)
            .status,
        403
    );
    decide(
        &server,
        &approval["id"],
        json!({"decision": "allow", "remember": "once"}),
    );
    assert_eq!(finish_hook(child).0, "allow");
    let inbox = server
        .call("GET", "/inbox?category=cli_pending", None)
        .json();
    assert_eq!(
        inbox[0]["source"]["sessionId"],
        session.id.as_str(),
        "{inbox}"
    );
    // Answered once is answered.
    let again = server.call("POST", &path, Some(&json!({"decision": "deny"})));
    assert_eq!(again.status, 409);

    // Denied: the model reads why.
    let child = start_hook(&session, &bash("cargo test --release"));
    let approval = pending_approval(&server, &session);
    decide(&server, &approval["id"], json!({"decision": "deny"}));
    let (decision, reason) = finish_hook(child);
    assert_eq!(decision, "deny");
    assert!(reason.contains("denied"), "{reason}");

    // Always for this session: the same program is allowed without asking.
    let child = start_hook(&session, &bash("cargo build"));
    let approval = pending_approval(&server, &session);
    decide(
        &server,
        &approval["id"],
        json!({"decision": "allow", "remember": "session"}),
    );
    assert_eq!(finish_hook(child).0, "allow");
    assert_eq!(hook(&session, &bash("cargo clippy")), "allow");
    let records = records_of(&server, &session, 4);
    assert!(
        records.iter().any(|r| r["rule"] == "remembered"),
        "{records:?}"
    );
    // ...but not another program.
    assert!(asks(&server, &session, &bash("rm -rf target")));

    // The CLI lists and answers too.
    let child = start_hook(&session, &bash("make"));
    let approval = pending_approval(&server, &session);
    let id = approval["id"].as_str().unwrap();
    let listed = server.cli(&["approvals"]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains(id));
    let answered = server.cli(&["approvals", "allow", id, "--remember", "session"]);
    assert!(
        answered.status.success(),
        "{}",
        String::from_utf8_lossy(&answered.stderr)
    );
    assert_eq!(finish_hook(child).0, "allow");
}

#[test]
fn an_unanswered_approval_is_denied_after_ten_minutes_on_the_servers_clock() {
    let (server, project) = server(&["--manual-clock"]);
    let session = spawn(&server, &project, json!({}));
    let input = hook_input(
        &session,
        &project,
        "Bash",
        json!({"command": "make deploy"}),
    );
    let child = start_hook(&session, &input);
    let approval = pending_approval(&server, &session);
    let advance = |ms: i64| {
        let reply = server.call("POST", "/test/clock", Some(&json!({"advanceMs": ms})));
        assert_eq!(reply.status, 204, "{}", reply.text());
    };
    advance(599_000);
    std::thread::sleep(Duration::from_millis(200));
    let path = format!("/approvals/{}", approval["id"].as_str().unwrap());
    assert_eq!(server.call("GET", &path, None).json()["state"], "pending");
    advance(1_000);
    let (decision, reason) = finish_hook(child);
    assert_eq!(decision, "deny");
    assert!(reason.contains("10 minutes"), "{reason}");
    assert_eq!(server.call("GET", &path, None).json()["state"], "expired");
}

/// A user who reads an ask for longer than one poll's wait (20 s on the
/// server's clock) still decides it: the hook asks again with a body-less
/// POST, which the server takes, and hears the user's answer.
#[test]
fn an_approval_answered_after_the_first_poll_reaches_the_hook() {
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("server.log");
    let (server, project) = server_logging(&["--manual-clock"], Some(&log));
    let session = spawn(&server, &project, json!({}));
    let input = hook_input(&session, &project, "Bash", json!({"command": "make"}));
    let child = start_hook(&session, &input);
    let approval = pending_approval(&server, &session);
    let id = approval["id"].as_str().unwrap();
    let poll = format!("/sessions/{}/permission-check/{id}", session.id);
    // The first wait may begin after the approval shows, so the clock moves
    // a wait at a time until the hook's second request is in: ten moves at
    // most, well inside the approval's ten minutes.
    let polled = || std::fs::read_to_string(&log).unwrap().contains(&poll);
    let asked_again = (0..10).any(|_| {
        let reply = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 20_000})));
        assert_eq!(reply.status, 204, "{}", reply.text());
        (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            polled()
        })
    });
    assert!(
        asked_again,
        "the hook never asked again: {}",
        std::fs::read_to_string(&log).unwrap()
    );
    decide(&server, &approval["id"], json!({"decision": "allow"}));
    let (decision, reason) = finish_hook(child);
    assert_eq!(
        (decision.as_str(), reason.as_str()),
        ("allow", "the user approved this call")
    );
    let records = records_of(&server, &session, 1);
    assert_eq!(records[0]["rule"], "approved", "{records:?}");
}

#[test]
fn an_email_triggered_session_is_locked_down() {
    let (server, project) = server(&[]);
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("allowAgentTokenSpawn", json!(true));
    server.set_setting("agentPermissionLevel", json!("full"));
    let email = spawn(&server, &project, json!({"trigger": "email"}));
    let shown = server
        .call("GET", &format!("/sessions/{}", email.id), None)
        .json();
    assert_eq!(shown["trigger"], "email");

    // Read-only whatever the level.
    let bash = hook_input(&email, &project, "Bash", json!({"command": "ls"}));
    assert_eq!(hook(&email, &bash), "deny");
    let read = hook_input(&email, &project, "Read", json!({"file_path": "README.md"}));
    assert_eq!(hook(&email, &read), "allow");

    // Its token may not spawn, raise its level, or write boards or dashboards.
    let as_email = |method: &str, path: &str, body: Value| {
        server.call_as(&email.token, method, path, Some(&body))
    };
    let spawned = as_email(
        "POST",
        "/sessions",
        json!({"engine": "holder", "prompt": "x"}),
    );
    assert_eq!(
        (spawned.status, spawned.error_code().as_str()),
        (403, "email_session_locked")
    );
    // The lockdown's own refusal: any agent token is refused
    // `agentPermissionLevel` anyway (`guarded_setting`).
    for (method, path, body) in [
        (
            "PATCH",
            "/settings/agentPermissionLevel",
            json!({"value": "full"}),
        ),
        ("POST", "/boards", json!({"name": "b"})),
        ("POST", "/dashboards", json!({"name": "d"})),
    ] {
        let refused = as_email(method, path, body);
        assert_eq!(
            (refused.status, refused.error_code().as_str()),
            (403, "email_session_locked"),
            "{path}: {}",
            refused.text()
        );
    }
    // Reading still works.
    assert_eq!(
        server
            .call_as(&email.token, "GET", "/settings", None)
            .status,
        200
    );

    // An ordinary agent may not mark what it spawns as email-triggered (or unmark it).
    let plain = spawn(&server, &project, json!({}));
    let body = json!({"engine": "holder", "prompt": "x", "trigger": "email"});
    let marked = server.call_as(&plain.token, "POST", "/sessions", Some(&body));
    assert_eq!(
        (marked.status, marked.error_code().as_str()),
        (403, "trigger_forbidden")
    );
}

/// Whatever goes wrong, the engine hears a deny whose reason says why, never
/// an allow or a crash: input that is not JSON, a server it cannot reach, a
/// server that refuses. The level is `full`, so a working check would allow.
#[test]
fn the_hook_denies_when_it_cannot_check() {
    let (server, project) = server(&[]);
    server.set_setting("agentPermissionLevel", json!("full"));
    let session = spawn(&server, &project, json!({}));
    let read = hook_input(
        &session,
        &project,
        "Read",
        json!({"file_path": "README.md"}),
    );
    assert_eq!(hook(&session, &read), "allow");

    let mut command = Command::new(common::binary());
    command
        .args(["hook", "pre-tool-use"])
        .env("SWITCHBOARD_DATA_DIR", "/nonexistent");
    let (decision, reason) = finish_hook(feed_hook(command, &session, b"{\"tool_name\": "));
    assert_eq!(decision, "deny");
    assert!(reason.contains("not JSON"), "{reason}");

    let unreachable = SessionEnv {
        url: "http://127.0.0.1:1".into(),
        ..session.clone()
    };
    let (decision, reason) = finish_hook(start_hook(&unreachable, &read));
    assert_eq!(decision, "deny");
    assert!(reason.contains("cannot reach"), "{reason}");

    let elsewhere = SessionEnv {
        id: "not-this-session".into(),
        ..session.clone()
    };
    let (decision, reason) = finish_hook(start_hook(&elsewhere, &read));
    assert_eq!(decision, "deny");
    assert!(reason.contains("not_this_session"), "{reason}");
}

/// The sandbox flags a `codex` session's engine was started with.
fn codex_sandbox(server: &TestServer, session: &SessionEnv) -> Vec<String> {
    let path = server
        .scratch()
        .join("record")
        .join(format!("argv-{}", session.id));
    let argv: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let start = argv.iter().position(|a| a == "--sandbox").unwrap();
    // `--sandbox MODE`, and `-c KEY=VALUE` when the level lets the network in
    // (the MCP server's own `-c` follows).
    let end = match (argv.get(start + 2), argv.get(start + 3)) {
        (Some(flag), Some(value)) if flag == "-c" && value.starts_with("sandbox_") => start + 4,
        _ => start + 2,
    };
    argv[start..end].to_vec()
}

/// A second engine (kind `codex`) with a `permission_level` of its own in
/// engines.toml runs at that level whatever `agentPermissionLevel` says; one
/// without follows the setting, and an email trigger still locks both down.
#[test]
fn a_codex_engine_with_its_own_level_gets_that_levels_sandbox() {
    let (server, project) = server(&[]);
    server.set_setting("agentPermissionLevel", json!("read_only"));
    let own = spawn(&server, &project, json!({"engine": "codex_own"}));
    assert_eq!(
        codex_sandbox(&server, &own),
        [
            "--sandbox",
            "workspace-write",
            "-c",
            "sandbox_workspace_write.network_access=true"
        ]
    );
    let plain = spawn(&server, &project, json!({"engine": "codex"}));
    assert_eq!(codex_sandbox(&server, &plain), ["--sandbox", "read-only"]);

    server.set_setting("agentPermissionLevel", json!("full"));
    let own = spawn(&server, &project, json!({"engine": "codex_own"}));
    assert_eq!(
        codex_sandbox(&server, &own)[..2],
        ["--sandbox", "workspace-write"]
    );
    let plain = spawn(&server, &project, json!({"engine": "codex"}));
    assert_eq!(
        codex_sandbox(&server, &plain),
        ["--sandbox", "danger-full-access"]
    );

    let email = spawn(
        &server,
        &project,
        json!({"engine": "codex_own", "trigger": "email"}),
    );
    assert_eq!(codex_sandbox(&server, &email), ["--sandbox", "read-only"]);
}

/// With `cliServerEnabled` off the server gives its sessions no
/// `APP_CONTROL_URL`, so the hook falls back to `server.json` in the data
/// directory, which the sandbox hides from the engine: the hook Claude Code
/// runs denies every call, at `full` too, and says why.
#[test]
fn with_the_control_server_off_the_hook_denies_everything() {
    let (server, project) = server(&[]);
    server.set_setting("agentPermissionLevel", json!("full"));
    server.set_setting("cliServerEnabled", json!(false));
    let server = server.restart();
    assert!(server.control.is_none());

    let session = spawn(&server, &project, json!({"engine": "claude_hook"}));
    assert_eq!(session.url, "", "the engine was given a control URL");
    // The engine ran the hook before it recorded its environment.
    let path = server
        .scratch()
        .join("record")
        .join(format!("hook-{}", session.id));
    let output = std::fs::read_to_string(path).unwrap();
    let answer: Value = serde_json::from_str(&output).unwrap();
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse", "{answer}");
    assert_eq!(specific["permissionDecision"], "deny", "{answer}");
    let reason = specific["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("control server is off"), "{reason}");
    assert!(reason.contains("cliServerEnabled"), "{reason}");
}
