//! Automation rules through a real server: the board-to-agent loop (an
//! item moved to "Ready for agent" starts a session on the item, links it,
//! and moves to "Review" with the session's summary when it finishes), a
//! webhook delivery that matches starting a recipe with its fields, an
//! agent's rule waiting for approval behind an `automations` inbox row, a
//! session a rule started refused when it tries to make a rule, rules that
//! would start themselves refused, and two rules firing each other stopped
//! by the hourly cap with one inbox row.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, request};
use serde_json::{Value, json};

/// A stand-in for Claude Code: one turn that answers with a summary, and
/// records its prompt.
const SUMMARY_CLAUDE: &str = r#"prompt=""
while [ $# -gt 0 ]; do case "$1" in -p) prompt="$2"; shift;; esac; shift; done
printf '%s' "$prompt" > "$SCRATCH/prompt-$APP_SESSION_ID"
printf '{"type":"system","subtype":"init","session_id":"c-%s","cwd":"/w","model":"claude-sonnet-4-5","tools":["Bash"],"permissionMode":"default","claude_code_version":"2.1.330"}\n' "$APP_SESSION_ID"
printf '{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"Fixed the login: tokens now refresh.","session_id":"c-%s","total_cost_usd":0.01,"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":20}}\n' "$APP_SESSION_ID"
"#;

/// Engines `echo`, `holder` (keeps its session, leaving its token in the
/// scratch folder) and `summary` (a Claude Code that finishes its turn);
/// agent-driven sessions (external scripts) off, as a new user has them.
fn out_of_the_box() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let claude = scratch.path().join("summary-claude.sh");
    std::fs::write(&claude, SUMMARY_CLAUDE).unwrap();
    let holder = format!(
        "printf '%s' \"$APP_CLI_TOKEN\" > {}/token-$APP_SESSION_ID; exec sleep 300",
        scratch.path().display()
    );
    let scratch_dir = scratch.path().display().to_string();
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.echo]\nkind = \"command\"\ncommand = [\"/usr/bin/cat\"]\n\
             [engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {holder:?}]\n\
             [engines.summary]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {claude:?}]\n\
             env = {{ SCRATCH = {scratch_dir:?} }}\n"
        ),
    )
    .unwrap();
    TestServer::start_in_with(dir, &[]).keeping(scratch)
}

/// The same engines, with scripts let in: agent-driven sessions on, no
/// source session asked for, no spacing.
fn server() -> TestServer {
    let server = out_of_the_box();
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("requireSpawnSourceSession", json!(false));
    server.set_setting("agentDrivenMaxConcurrent", json!(10));
    server.set_setting("cliSpawnSpacingSeconds", json!(0));
    server.set_setting("webhooksEnabled", json!(true));
    server
}

fn created(server: &TestServer, path: &str, body: Value) -> Value {
    let reply = server.call("POST", path, Some(&body));
    assert_eq!(reply.status, 201, "{path}: {}", reply.text());
    reply.json()
}

fn id(value: &Value) -> String {
    value["id"].as_str().unwrap().to_owned()
}

/// A board made from the `first-agent-board` preset and one item on it.
fn agent_board(server: &TestServer) -> (String, String) {
    let workspace = created(server, "/workspaces", json!({"name": "Agents"}));
    let board = created(
        server,
        "/boards",
        json!({"workspaceId": id(&workspace), "name": "Agent tasks", "preset": "first-agent-board"}),
    );
    let item = created(
        server,
        &format!("/boards/{}/items", id(&board)),
        json!({"name": "Fix the login", "values": {"prompt": "Tokens expire too early.", "status": "Queued"}}),
    );
    (id(&board), id(&item))
}

fn set_status(server: &TestServer, item: &str, status: &str) {
    let reply = server.call(
        "PATCH",
        &format!("/items/{item}"),
        Some(&json!({"values": {"status": status}})),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
}

/// Waits until `read` gives something `done` accepts; the last read.
fn wait_for(mut read: impl FnMut() -> Value, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let value = read();
        if done(&value) {
            return value;
        }
        assert!(Instant::now() < deadline, "never came: {value:#}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn firings(server: &TestServer, rule: &str) -> Value {
    server
        .call("GET", &format!("/rules/{rule}/firings"), None)
        .json()["firings"]
        .clone()
}

#[test]
fn an_item_ready_for_an_agent_becomes_a_session_and_comes_back_for_review() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let (board, item) = agent_board(&server);
    let (recipe, rule) = agent_loop(&server, &board, folder.path());
    assert_eq!(rule["state"], "active");
    // Another status fires nothing.
    set_status(&server, &item, "Running");
    set_status(&server, &item, "Ready for agent");
    let done = wait_for(
        || server.call("GET", &format!("/items/{item}"), None).json(),
        |item| item["values"]["status"] == "Review",
    );
    assert_eq!(
        done["values"]["summary"], "Fixed the login: tokens now refresh.",
        "{done:#}"
    );
    let link = done["values"]["session"].as_str().unwrap();
    let history = firings(&server, &id(&rule));
    assert_eq!(history.as_array().unwrap().len(), 1, "{history:#}");
    assert_eq!(history[0]["outcome"], "done", "{history:#}");
    let session_id = history[0]["sessionId"].as_str().unwrap();
    assert!(link.contains(session_id), "{link}");
    let session = server
        .call("GET", &format!("/sessions/{session_id}"), None)
        .json();
    assert_eq!(session["status"], "waiting_for_input", "{session:#}");
    let prompt = common::written(&server.scratch().join(format!("prompt-{session_id}")));
    assert!(
        prompt.contains("Fix the login") && prompt.contains("Tokens expire too early."),
        "{prompt}"
    );
    // The rule's own moves (Running, Review) fired nothing more.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(firings(&server, &id(&rule)).as_array().unwrap().len(), 1);
    let runs = server
        .call("GET", &format!("/recipes/{}/runs", id(&recipe)), None)
        .json();
    assert_eq!(runs["runs"][0]["state"], "finished", "{runs:#}");
}

/// A rule from the agent board preset: Ready for agent starts the recipe,
/// and the item follows its session (Running, Review, Failed).
fn agent_loop(server: &TestServer, board: &str, folder: &std::path::Path) -> (Value, Value) {
    let recipe = created(
        server,
        "/recipes",
        json!({"name": "Work an item", "engine": "summary", "cwd": folder,
               "prompt": "{{item.name}}\n\n{{item.prompt}}"}),
    );
    let rule = created(
        server,
        "/rules",
        json!({"name": "Agent loop",
               "when": {"kind": "item_status", "boardId": board, "status": "Ready for agent"},
               "then": [{"kind": "start_recipe", "recipeId": id(&recipe),
                         "item": {"runningStatus": "Running", "finishedStatus": "Review",
                                  "failedStatus": "Failed"}}]}),
    );
    (recipe, rule)
}

#[test]
fn the_users_own_rule_works_on_the_first_day_and_its_done_turn_needs_nobody() {
    let server = out_of_the_box();
    let defaults = server.call("GET", "/settings/agentDrivenSessionsEnabled", None);
    assert_eq!(defaults.json()["value"], false, "{}", defaults.text());
    let folder = tempfile::tempdir().unwrap();
    let (board, item) = agent_board(&server);
    let (_, rule) = agent_loop(&server, &board, folder.path());
    set_status(&server, &item, "Ready for agent");
    let done = wait_for(
        || server.call("GET", &format!("/items/{item}"), None).json(),
        |item| item["values"]["status"] == "Review" || item["values"]["status"] == "Failed",
    );
    assert_eq!(done["values"]["status"], "Review", "{done:#}");
    let history = firings(&server, &id(&rule));
    let session_id = history[0]["sessionId"].as_str().unwrap().to_owned();
    // Its turn did its work and asked nothing: done, not waiting on the user.
    let session = wait_for(
        || {
            server
                .call("GET", &format!("/sessions/{session_id}"), None)
                .json()
        },
        |s| !s["turnEnd"].is_null(),
    );
    assert_eq!(session["status"], "waiting_for_input", "{session:#}");
    assert_eq!(session["turnEnd"], "done", "{session:#}");
    assert_eq!(session["agentDriven"], true, "{session:#}");
}

#[test]
fn a_rule_run_a_setting_refuses_fails_its_item_and_its_row_offers_the_setting() {
    let server = out_of_the_box();
    server.set_setting("agentDrivenMaxConcurrent", json!(0));
    let folder = tempfile::tempdir().unwrap();
    let (board, item) = agent_board(&server);
    let (recipe, rule) = agent_loop(&server, &board, folder.path());
    set_status(&server, &item, "Ready for agent");
    let failed = wait_for(
        || server.call("GET", &format!("/items/{item}"), None).json(),
        |item| item["values"]["status"] == "Failed",
    );
    let summary = failed["values"]["summary"].as_str().unwrap_or_default();
    assert!(
        summary.contains("did not start") && !summary.contains("agentDrivenMaxConcurrent"),
        "the reason in words, the setting by its label: {failed:#}"
    );
    let history = firings(&server, &id(&rule));
    assert_eq!(history[0]["outcome"], "failed", "{history:#}");
    assert!(
        history[0]["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("did not start:"),
        "{history:#}"
    );
    let rows = wait_for(
        || server.call("GET", "/inbox?category=recipes", None).json(),
        |rows| rows.as_array().is_some_and(|rows| !rows.is_empty()),
    );
    let actions = &rows[0]["actions"];
    assert_eq!(
        actions[0],
        json!({"kind": "open_path", "path": format!("/automations#runs={}", id(&recipe))}),
        "{rows:#}"
    );
    assert_eq!(actions[1]["kind"], "open_setting", "{rows:#}");
    assert_eq!(actions[1]["key"], "agentDrivenMaxConcurrent", "{rows:#}");
    let label = actions[1]["label"].as_str().unwrap();
    assert!(
        !label.is_empty() && label != "agentDrivenMaxConcurrent",
        "{rows:#}"
    );
    assert!(
        rows[0]["body"].as_str().unwrap_or_default().contains(label),
        "{rows:#}"
    );
    // Nothing was left half-started: no session, the item not stuck as if an agent were on it.
    let sessions = server.call("GET", "/sessions", None).json();
    assert_eq!(sessions.as_array().map(Vec::len), Some(0), "{sessions:#}");
}

#[test]
fn a_matching_webhook_delivery_starts_a_recipe_with_its_fields() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let hook = created(&server, "/webhooks", json!({"name": "CI"}));
    let path = hook["url"]
        .as_str()
        .unwrap()
        .trim_start_matches(&format!("http://{}", server.control()))
        .to_owned();
    let recipe = created(
        &server,
        "/recipes",
        json!({"name": "Investigate CI", "engine": "echo", "cwd": folder.path(),
               "permissionLevel": "full",
               "prompt": "Investigate the failure on {{branch}}: {{title}}"}),
    );
    let rule = created(
        &server,
        "/rules",
        json!({"name": "CI failed on main",
               "when": {"kind": "webhook", "webhookId": id(&hook),
                        "match": {"workflow_run.conclusion": "failure"}},
               "then": [{"kind": "start_recipe", "recipeId": id(&recipe),
                         "values": {"branch": "{{body.workflow_run.head_branch}}"}}]}),
    );
    let deliver = |conclusion: &str| {
        let body = json!({"title": "CI run 41",
                          "workflow_run": {"conclusion": conclusion, "head_branch": "main"}});
        let reply = request(
            server.control(),
            "POST",
            &path,
            &[("Content-Type", "application/json")],
            Some(body.to_string().as_bytes()),
        );
        assert_eq!(reply.status, 202, "{}", reply.text());
    };
    server.set_setting("agentPermissionLevel", json!("guarded"));
    deliver("success");
    deliver("failure");
    wait_for(
        || firings(&server, &id(&rule)),
        |f| f.as_array().is_some_and(|f| !f.is_empty()),
    );
    std::thread::sleep(Duration::from_millis(300));
    let history = firings(&server, &id(&rule));
    assert_eq!(history.as_array().unwrap().len(), 1, "{history:#}");
    let session_id = history[0]["sessionId"].as_str().unwrap().to_owned();
    // A rule's run is agent-driven: its `full` recipe runs at the agents' level.
    let session = server
        .call("GET", &format!("/sessions/{session_id}"), None)
        .json();
    assert_eq!(session["permissionLevel"], "guarded", "{session:#}");
    // The session's prompt is the recipe's, filled from the delivery.
    wait_for(
        || {
            let reply = server.call(
                "GET",
                &format!("/sessions/{session_id}/transcript?format=json"),
                None,
            );
            Value::String(reply.text())
        },
        |t| {
            t.as_str()
                .unwrap()
                .contains("Investigate the failure on main: CI run 41")
        },
    );
}

#[test]
fn an_agents_rule_waits_for_approval_and_a_rules_session_makes_none() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let (board, _item) = agent_board(&server);
    let session = server.browser_session("holder", "work");
    let token = common::written(
        &server
            .scratch()
            .join(format!("token-{}", session["id"].as_str().unwrap())),
    );
    let fields = json!({"name": "Tell me",
                        "when": {"kind": "item_group", "boardId": board, "groupId": "finished"},
                        "then": [{"kind": "inbox", "title": "{{item.name}} is finished"}]});
    let reply = server.call_as(&token, "POST", "/rules", Some(&fields));
    assert_eq!(reply.status, 201, "{}", reply.text());
    let rule = reply.json();
    assert_eq!(rule["state"], "pending");
    assert_eq!(rule["createdByAgent"], true);
    let rows = server
        .call("GET", "/inbox?category=automations", None)
        .json();
    let row = &rows[0];
    assert_eq!(
        row["actions"][0],
        json!({"kind": "approve_rule", "ruleId": rule["id"]}),
        "{rows:#}"
    );
    let approve = format!("/rules/{}/approve", id(&rule));
    assert_eq!(server.call_as(&token, "POST", &approve, None).status, 403);
    let approved = server.call("POST", &approve, None);
    assert_eq!(approved.status, 200, "{}", approved.text());
    assert_eq!(approved.json()["state"], "active");
    assert_eq!(server.call("POST", &approve, None).status, 409);

    // A session that a rule started may not make rules.
    let recipe = created(
        &server,
        "/recipes",
        json!({"name": "Hold", "engine": "holder", "cwd": folder.path(), "prompt": "hold"}),
    );
    let starter = created(
        &server,
        "/rules",
        json!({"name": "Start a holder",
               "when": {"kind": "item_status", "boardId": board, "status": "Ready for agent"},
               "then": [{"kind": "start_recipe", "recipeId": id(&recipe)}]}),
    );
    let (_, item) = agent_board_item(&server, &board);
    set_status(&server, &item, "Ready for agent");
    let history = wait_for(
        || firings(&server, &id(&starter)),
        |f| f[0]["sessionId"].is_string(),
    );
    let rules_session = history[0]["sessionId"].as_str().unwrap();
    let rules_token = common::written(&server.scratch().join(format!("token-{rules_session}")));
    let refused = server.call_as(&rules_token, "POST", "/rules", Some(&fields));
    assert_eq!(refused.status, 403, "{}", refused.text());
    assert_eq!(
        server.call("GET", "/rules", None).json()["rules"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

fn agent_board_item(server: &TestServer, board: &str) -> (String, String) {
    let item = created(
        server,
        &format!("/boards/{board}/items"),
        json!({"name": "Another", "values": {"status": "Queued"}}),
    );
    (board.to_owned(), id(&item))
}

#[test]
fn loops_are_refused_and_a_chain_stops_at_the_hourly_cap() {
    let server = server();
    let (board, item) = agent_board(&server);
    let before = server.call("GET", "/rules", None).json();
    for (when, then, field) in [
        (
            json!({"kind": "item_status", "boardId": board, "status": "Running"}),
            json!([{"kind": "update_item", "values": {"status": "running"}}]),
            "then",
        ),
        (
            json!({"kind": "item_status", "boardId": "no-such-board", "status": "Running"}),
            json!([{"kind": "inbox", "title": "x"}]),
            "when.boardId",
        ),
        (
            json!({"kind": "webhook", "webhookId": "no-such-hook"}),
            json!([{"kind": "inbox", "title": "x"}]),
            "when.webhookId",
        ),
        (
            json!({"kind": "session_end", "outcome": "failed"}),
            json!([{"kind": "start_recipe", "recipeId": "r"}]),
            "then",
        ),
    ] {
        let reply = server.call(
            "POST",
            "/rules",
            Some(&json!({"name": "Bad", "when": when, "then": then})),
        );
        assert_eq!(reply.status, 400, "{}", reply.text());
        assert_eq!(reply.json()["error"]["field"], field, "{}", reply.text());
    }
    assert_eq!(server.call("GET", "/rules", None).json(), before);

    // Two rules that fire each other: each stops at its hourly cap.
    let ping = created(
        &server,
        "/rules",
        json!({"name": "Ping", "when": {"kind": "item_status", "boardId": board, "status": "Running"},
               "then": [{"kind": "update_item", "values": {"status": "Review"}}]}),
    );
    let pong = created(
        &server,
        "/rules",
        json!({"name": "Pong", "when": {"kind": "item_status", "boardId": board, "status": "Review"},
               "then": [{"kind": "update_item", "values": {"status": "Running"}}]}),
    );
    set_status(&server, &item, "Running");
    // Ping fires 30 times, Pong answers each, and Ping's 31st is skipped:
    // nothing moves the item after that.
    wait_for(
        || firings(&server, &id(&ping)),
        |f| f[0]["outcome"] == "skipped",
    );
    std::thread::sleep(Duration::from_millis(500));
    for rule in [&ping, &pong] {
        let history = firings(&server, &id(rule));
        let acted = history
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["outcome"] != "skipped")
            .count();
        assert_eq!(acted, 30, "{history:#}");
    }
    let rows = server
        .call("GET", "/inbox?category=automations", None)
        .json();
    let capped: Vec<&Value> = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["title"]
                .as_str()
                .unwrap()
                .contains("30 times within an hour")
        })
        .collect();
    assert_eq!(capped.len(), 1, "{rows:#}");
    assert!(
        capped[0]["title"].as_str().unwrap().contains("Ping"),
        "{rows:#}"
    );
}

#[test]
fn test_says_what_a_rule_would_do_and_does_nothing() {
    let server = out_of_the_box();
    let folder = tempfile::tempdir().unwrap();
    let project = folder.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let (board, _) = agent_board(&server);
    let (_, rule) = agent_loop(&server, &board, &project);
    let tested = server.call("POST", &format!("/rules/{}/test", id(&rule)), None);
    assert_eq!(tested.status, 200, "{}", tested.text());
    assert_eq!(
        tested.json(),
        json!({
            "when": "When an item moves to “Ready for agent”",
            "would": ["Start a session of the recipe “Work an item”, and move the item to \
                       “Running” as it starts, to “Review” when it finishes, to “Failed” when \
                       it fails."],
            "problems": [],
        })
    );
    // What would fail today is said: here, the recipe's folder is gone.
    std::fs::remove_dir(&project).unwrap();
    let gone = server
        .call("POST", &format!("/rules/{}/test", id(&rule)), None)
        .json();
    assert!(
        gone["problems"][0]
            .as_str()
            .unwrap()
            .contains("no longer exists"),
        "{gone}"
    );
    // A dry run: nothing fired, nothing started.
    assert_eq!(firings(&server, &id(&rule)), json!([]));
    assert_eq!(server.call("GET", "/sessions", None).json(), json!([]));
    assert_eq!(server.call("POST", "/rules/nope/test", None).status, 404);
}
