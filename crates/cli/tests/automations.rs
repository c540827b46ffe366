//! Recipes and schedules through a real server on a manual clock: a run by
//! hand fills the prompt's placeholders (a missing one is a 400 naming
//! `values`), the CLI lists and runs a recipe by name, bad schedules are
//! 400s naming their field, a user's schedule starts exactly one session
//! at its tick, an agent's waits `pending` with a `cron` inbox row until the
//! user approves it, and a run whose folder is gone fails with the reason
//! and one `recipes` inbox row. A recipe's permission level is its
//! session's for life (no higher than the setting when an agent runs it,
//! and never pinned through `POST /sessions`), its spend cap stops a session
//! that reaches it between turns and ends the run `incomplete`, and a run
//! whose session waits for the user 30 minutes of clock is marked `stalled`
//! once, then still finishes.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

/// 2026-01-05T08:00:00Z, where the manual clock starts.
const START_MS: i64 = 1_767_600_000_000;

/// A stand-in for Codex that keeps each turn's argv in `argv-<session>`.
const ARGV_CODEX: &str = r#"case "$1" in --version) echo "codex-cli 0.0.0"; exit 0;; esac
printf '%s\n' "$@" > "$SCRATCH/argv-$APP_SESSION_ID.part"
mv "$SCRATCH/argv-$APP_SESSION_ID.part" "$SCRATCH/argv-$APP_SESSION_ID"
"#;

/// A stand-in for Claude Code whose conversation costs $0.30 after its
/// first turn, which asks whether to go on, and $0.60 (Claude's cumulative
/// total) once resumed.
const SPENDER_CLAUDE: &str = r#"resume=""
while [ $# -gt 0 ]; do case "$1" in --resume) resume="$2"; shift;; esac; shift; done
if [ -n "$resume" ]; then sid="$resume"; cost=0.6; said="Spent more."; else sid="c-$APP_SESSION_ID"; cost=0.3; said="Spent some. Shall I spend more?"; fi
printf '{"type":"system","subtype":"init","session_id":"%s","cwd":"/w","model":"claude-sonnet-4-5","tools":["Bash"],"permissionMode":"default","claude_code_version":"2.1.330"}\n' "$sid"
printf '{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"%s","session_id":"%s","total_cost_usd":%s,"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":20}}\n' "$said" "$sid" "$cost"
"#;

/// A server on a manual clock with an `echo` engine (cat: the prompt comes
/// back), a `holder` engine that records its agent token in `scratch`, an
/// `argv` engine (kind codex) that records its argv there, and a `spender`
/// engine (kind claude) that reports a rising cost.
fn server() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let holder = format!(
        "printf '%s' \"$APP_CLI_TOKEN\" > {}/token-$APP_SESSION_ID; exec sleep 300",
        scratch.path().display()
    );
    let argv = scratch.path().join("argv-codex.sh");
    std::fs::write(&argv, ARGV_CODEX).unwrap();
    let spender = scratch.path().join("spender-claude.sh");
    std::fs::write(&spender, SPENDER_CLAUDE).unwrap();
    let scratch_dir = scratch.path().display().to_string();
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.echo]\nkind = \"command\"\ncommand = [\"/usr/bin/cat\"]\n\
             [engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {holder:?}]\n\
             [engines.argv]\nkind = \"codex\"\ncommand = [\"/bin/sh\", {argv:?}]\n\
             env = {{ SCRATCH = {scratch_dir:?} }}\n\
             [engines.spender]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {spender:?}]\n"
        ),
    )
    .unwrap();
    let server =
        TestServer::start_in_with(dir, &["--manual-clock-start-ms", &START_MS.to_string()])
            .keeping(scratch);
    // A run by a cli token is agent-driven, as its spawn would be.
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("requireSpawnSourceSession", json!(false));
    server.set_setting("agentDrivenMaxConcurrent", json!(10));
    server
}

fn recipe(server: &TestServer, name: &str, cwd: &std::path::Path, prompt: &str) -> String {
    recipe_with(
        server,
        json!({"name": name, "engine": "echo", "prompt": prompt, "cwd": cwd}),
    )
}

fn recipe_with(server: &TestServer, fields: Value) -> String {
    let reply = server.call("POST", "/recipes", Some(&fields));
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_str().unwrap().to_owned()
}

/// Runs a recipe by hand with `token` (the cli token when `None`): its session.
fn run_by(server: &TestServer, token: Option<&str>, recipe: &str) -> String {
    let path = format!("/recipes/{recipe}/runs");
    let reply = match token {
        Some(token) => server.call_as(token, "POST", &path, None),
        None => server.call("POST", &path, None),
    };
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["sessionId"].as_str().unwrap().to_owned()
}

fn session(server: &TestServer, id: &str) -> Value {
    server.call("GET", &format!("/sessions/{id}"), None).json()
}

/// Waits until the recipe's newest run is in `state`.
fn wait_for_run_state(server: &TestServer, recipe: &str, state: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let runs = runs(server, recipe);
        if runs.first().is_some_and(|r| r["state"] == state) {
            return runs[0].clone();
        }
        assert!(Instant::now() < deadline, "runs: {runs:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The sandbox mode the `argv` engine's turn of `session` was given.
fn codex_sandbox(server: &TestServer, session: &str) -> String {
    let path = server.scratch().join(format!("argv-{session}"));
    let argv = common::written(&path);
    let lines: Vec<&str> = argv.lines().collect();
    let at = lines.iter().position(|a| *a == "--sandbox").unwrap();
    lines[at + 1].to_owned()
}

fn runs(server: &TestServer, recipe: &str) -> Vec<Value> {
    let reply = server.call("GET", &format!("/recipes/{recipe}/runs"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["runs"].as_array().unwrap().clone()
}

/// Waits until the recipe has `count` runs, each with its session.
fn wait_for_runs(server: &TestServer, recipe: &str, count: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let runs = runs(server, recipe);
        if runs.len() == count && runs.iter().all(|r| r["sessionId"].is_string()) {
            return runs;
        }
        assert!(Instant::now() < deadline, "runs: {runs:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn move_clock(server: &TestServer, at: &str) {
    let reply = server.call("POST", "/test/clock", Some(&json!({"at": at})));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

/// Waits until the category holds at least `count` rows, and returns them.
fn wait_for_inbox(server: &TestServer, category: &str, count: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let rows = inbox(server, category);
        if rows.len() >= count || Instant::now() >= deadline {
            return rows;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn inbox(server: &TestServer, category: &str) -> Vec<Value> {
    let reply = server.call("GET", &format!("/inbox?category={category}"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().unwrap().clone()
}

#[test]
fn a_recipe_runs_by_hand_and_from_the_cli_with_its_values() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let id = recipe(
        &server,
        "Daily notes",
        folder.path(),
        "Write notes about {{topic}}",
    );
    let listed = server.call("GET", "/recipes", None).json();
    assert_eq!(listed["recipes"][0]["placeholders"], json!(["topic"]));

    let reply = server.call(
        "POST",
        &format!("/recipes/{id}/runs"),
        Some(&json!({"values": {"topic": "rust"}})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let session_id = reply.json()["sessionId"].as_str().unwrap().to_owned();
    let session = server
        .call("GET", &format!("/sessions/{session_id}"), None)
        .json();
    assert!(
        session["prompt"]
            .as_str()
            .unwrap()
            .contains("Write notes about rust"),
        "{session}"
    );
    // Named for the run: the recipe, what it is about, when.
    let title = session["title"].as_str().unwrap_or_default();
    assert!(title.starts_with("Daily notes — topic=rust, "), "{session}");
    assert_eq!(runs(&server, &id)[0]["sessionId"], json!(session_id));

    let missing = server.call("POST", &format!("/recipes/{id}/runs"), Some(&json!({})));
    assert_eq!(missing.status, 400, "{}", missing.text());
    assert_eq!(missing.json()["error"]["field"], "values");

    let list = server.cli(&["recipes", "list"]);
    assert!(list.status.success());
    assert!(String::from_utf8_lossy(&list.stdout).contains("Daily notes"));
    let run = server.cli(&["recipes", "run", "daily notes", "--value", "topic=cli"]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("Started session"));
    wait_for_runs(&server, &id, 2);
    let unknown = server.cli(&["recipes", "run", "nothing like it"]);
    assert!(!unknown.status.success());
}

/// The `{field, message}` pairs of a 400's `error.fields`, whose first is
/// also its `field` and `message`.
fn field_errors(reply: &common::Reply) -> Vec<(String, String)> {
    assert_eq!(reply.status, 400, "{}", reply.text());
    let error = &reply.json()["error"];
    assert_eq!(error["field"], error["fields"][0]["field"], "{error}");
    assert_eq!(error["message"], error["fields"][0]["message"], "{error}");
    error["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let text = |key: &str| f[key].as_str().unwrap().to_owned();
            (text("field"), text("message"))
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(f, m)| ((*f).to_owned(), (*m).to_owned()))
        .collect()
}

#[test]
fn a_form_hears_every_bad_field_at_once_in_words() {
    let server = server();
    let empty = server.call("POST", "/recipes", Some(&json!({})));
    assert_eq!(
        field_errors(&empty),
        pairs(&[
            ("name", "Give the recipe a name."),
            ("engine", "Choose an engine."),
            ("prompt", "Write the prompt the session starts with."),
            ("cwd", "Give the folder the session starts in."),
        ])
    );
    // A folder that never existed is refused when the recipe is saved.
    let folder = tempfile::tempdir().unwrap();
    let never = folder.path().join("never").display().to_string();
    let nowhere = server.call(
        "POST",
        "/recipes",
        Some(&json!({"name": "Nowhere", "engine": "echo", "prompt": "p", "cwd": never})),
    );
    assert_eq!(
        field_errors(&nowhere),
        pairs(&[("cwd", &format!("No folder {never} exists on this machine."))])
    );
    assert_eq!(
        server.call("GET", "/recipes", None).json()["recipes"],
        json!([])
    );

    let id = recipe(&server, "Triage", folder.path(), "Triage {{label}}");
    let schedule = server.call(
        "POST",
        "/schedules",
        Some(&json!({"recipeId": id, "cron": "61 25 * * *", "timeZone": "Mars/Olympus"})),
    );
    assert_eq!(
        field_errors(&schedule),
        pairs(&[
            (
                "timeZone",
                "No time zone is called Mars/Olympus: use a name such as Europe/Berlin."
            ),
            ("cron", "The minute must be 0–59, not 61."),
            ("cron", "The hour must be 0–23, not 25."),
            ("values", "Give a value for {{label}}."),
        ])
    );
    let rule = server.call(
        "POST",
        "/rules",
        Some(
            &json!({"name": "", "when": {"kind": "item_status", "boardId": "", "status": ""},
                     "then": [{"kind": "inbox", "title": ""}]}),
        ),
    );
    assert_eq!(
        field_errors(&rule),
        pairs(&[
            ("name", "Give the rule a name."),
            ("when.boardId", "Choose the board."),
            ("when.status", "Choose the status."),
            ("then.title", "Give the inbox row a title."),
        ])
    );
}

#[test]
fn schedules_run_at_their_tick_and_an_agents_waits_for_approval() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let mine = recipe(&server, "Morning", folder.path(), "Good morning");
    let theirs = recipe(&server, "Agent job", folder.path(), "Tidy up");

    let bad_cron = server.call(
        "POST",
        "/schedules",
        Some(&json!({"recipeId": mine, "cron": "61 * * *", "timeZone": "UTC"})),
    );
    assert_eq!(bad_cron.status, 400, "{}", bad_cron.text());
    assert_eq!(bad_cron.json()["error"]["field"], "cron");
    let bad_zone = server.call(
        "POST",
        "/schedules",
        Some(&json!({"recipeId": mine, "cron": "30 9 * * *", "timeZone": "Mars/Olympus"})),
    );
    assert_eq!(bad_zone.status, 400, "{}", bad_zone.text());
    assert_eq!(bad_zone.json()["error"]["field"], "timeZone");

    // The user's schedule: one session at its tick, none before.
    let reply = server.call(
        "POST",
        "/schedules",
        Some(&json!({"recipeId": mine, "cron": "30 9 * * *", "timeZone": "UTC"})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let schedule = reply.json();
    assert_eq!(schedule["state"], "active");
    assert_eq!(schedule["nextAt"], "2026-01-05T09:30:00.000Z");
    move_clock(&server, "2026-01-05T09:29:00Z");
    std::thread::sleep(Duration::from_millis(300));
    assert!(runs(&server, &mine).is_empty());
    move_clock(&server, "2026-01-05T09:30:05Z");
    let started = wait_for_runs(&server, &mine, 1);
    assert_eq!(started[0]["scheduledFor"], "2026-01-05T09:30:00.000Z");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(runs(&server, &mine).len(), 1);
    let schedule_id = schedule["id"].as_str().unwrap();
    let paused = server.call("POST", &format!("/schedules/{schedule_id}/pause"), None);
    assert_eq!(paused.json()["state"], "paused");
    let deleted = server.call("DELETE", &format!("/schedules/{schedule_id}"), None);
    assert_eq!(deleted.status, 204);

    // An agent's schedule waits for the user.
    let (_, token) = server.holder_session();
    let reply = server.call_as(
        &token,
        "POST",
        "/schedules",
        Some(&json!({"recipeId": theirs, "cron": "0 11 * * *", "timeZone": "UTC"})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let pending = reply.json();
    assert_eq!(pending["state"], "pending");
    let pending_id = pending["id"].as_str().unwrap();
    let rows = inbox(&server, "cron");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(rows[0]["title"].as_str().unwrap().contains("Agent job"));
    assert!(rows[0]["body"].as_str().unwrap().contains("0 11 * * *"));
    assert_eq!(rows[0]["actions"][0]["kind"], "approve_schedule");
    move_clock(&server, "2026-01-05T11:00:05Z");
    std::thread::sleep(Duration::from_millis(500));
    assert!(runs(&server, &theirs).is_empty());

    let refused = server.call_as(
        &token,
        "POST",
        &format!("/schedules/{pending_id}/approve"),
        None,
    );
    assert_eq!(refused.status, 403, "{}", refused.text());
    let approved = server.call("POST", &format!("/schedules/{pending_id}/approve"), None);
    assert_eq!(approved.status, 200, "{}", approved.text());
    assert_eq!(approved.json()["nextAt"], "2026-01-06T11:00:00.000Z");
    move_clock(&server, "2026-01-06T11:00:05Z");
    wait_for_runs(&server, &theirs, 1);
}

#[test]
fn a_run_whose_folder_is_gone_fails_with_one_inbox_row() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let gone = folder.path().join("project");
    std::fs::create_dir(&gone).unwrap();
    let id = recipe(&server, "Gone", &gone, "Hello");
    std::fs::remove_dir(&gone).unwrap();

    let reply = server.call("POST", &format!("/recipes/{id}/runs"), None);
    assert_eq!(reply.status, 409, "{}", reply.text());
    assert_eq!(reply.error_code(), "recipe_run_failed");
    assert!(
        reply.text().contains("no longer exists"),
        "{}",
        reply.text()
    );
    let recorded = runs(&server, &id);
    assert_eq!(recorded[0]["state"], "failed");
    let rows = inbox(&server, "recipes");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(
        rows[0]["body"]
            .as_str()
            .unwrap()
            .contains("no longer exists")
    );

    // `inboxShowRecipes` off hides the category unless `hidden=true`.
    server.set_setting("inboxShowRecipes", json!(false));
    let shown = server.call("GET", "/inbox", None).json();
    assert!(
        shown
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["category"] != "recipes"),
        "{shown}"
    );
    let all = server.call("GET", "/inbox?hidden=true", None).json();
    assert!(
        all.as_array()
            .unwrap()
            .iter()
            .any(|r| r["category"] == "recipes"),
        "{all}"
    );
}

#[test]
fn a_recipes_permission_level_is_its_sessions_and_an_agent_gains_nothing() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    server.set_setting("agentPermissionLevel", json!("full"));
    let careful = recipe_with(
        &server,
        json!({"name": "Careful", "engine": "argv", "prompt": "Look only",
               "cwd": folder.path(), "permissionLevel": "read_only"}),
    );
    let listed = server
        .call("GET", &format!("/recipes/{careful}"), None)
        .json();
    assert_eq!(listed["createdByAgent"], false, "{listed}");

    // The user's run: read-only whatever the setting says, in the engine's
    // flags and in the permission hook's answers.
    let id = run_by(&server, None, &careful);
    assert_eq!(session(&server, &id)["permissionLevel"], "read_only");
    assert_eq!(codex_sandbox(&server, &id), "read-only");
    let hook = json!({
        "hook_event_name": "PreToolUse",
        "cwd": folder.path(),
        "tool_name": "Bash",
        "tool_input": {"command": "touch x"},
    });
    let answer = server
        .call(
            "POST",
            &format!("/sessions/{id}/permission-check"),
            Some(&hook),
        )
        .json();
    assert_eq!(answer["decision"], "deny", "{answer}");
    assert_eq!(answer["rule"], "read_only", "{answer}");

    // A level named in `POST /sessions` is not read: the setting applies.
    server.set_setting("agentPermissionLevel", json!("guarded"));
    server.set_setting("allowAgentTokenSpawn", json!(true));
    let (_, token) = server.holder_session();
    let reply = server.call_as(
        &token,
        "POST",
        "/sessions",
        Some(
            &json!({"engine": "argv", "prompt": "p", "cwd": folder.path(),
                     "permissionLevel": "full"}),
        ),
    );
    assert!(
        reply.status == 201 || reply.status == 202,
        "{}",
        reply.text()
    );
    let plain = reply.json()["id"].as_str().unwrap().to_owned();
    assert_eq!(session(&server, &plain)["permissionLevel"], Value::Null);
    assert_eq!(codex_sandbox(&server, &plain), "workspace-write");

    // A `full` recipe: the user's run gets it, an agent's run only the setting's.
    let bold = recipe_with(
        &server,
        json!({"name": "Bold", "engine": "argv", "prompt": "Do it all",
               "cwd": folder.path(), "permissionLevel": "full"}),
    );
    let users = run_by(&server, None, &bold);
    assert_eq!(session(&server, &users)["permissionLevel"], "full");
    assert_eq!(codex_sandbox(&server, &users), "danger-full-access");
    let agents = run_by(&server, Some(&token), &bold);
    assert_eq!(session(&server, &agents)["permissionLevel"], "guarded");
    assert_eq!(codex_sandbox(&server, &agents), "workspace-write");
}

#[test]
fn a_run_whose_session_reaches_its_spend_cap_is_stopped_and_told_once() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let id = recipe_with(
        &server,
        json!({"name": "Budget", "engine": "spender", "prompt": "Spend a little",
               "cwd": folder.path(), "spendCapUsd": 0.5}),
    );
    let session_id = run_by(&server, None, &id);
    // The first turn spends $0.30: under the cap, the run goes on.
    let first = server.wait_for_status(&session_id, "waiting_for_input");
    assert_eq!(first["costUsd"], 0.3, "{first}");
    // The smaller of the recipe's cap and the setting's $5.
    assert_eq!(first["maxDollarsPerSession"], 0.5, "{first}");
    std::thread::sleep(Duration::from_millis(300));
    let run = &runs(&server, &id)[0];
    assert_eq!(run["state"], "started", "{run}");
    assert_eq!(run["spendCapUsd"], 0.5, "{run}");

    // The next turn brings it to $0.60: the run ends, the session stops.
    let reply = server.call(
        "POST",
        &format!("/sessions/{session_id}/messages"),
        Some(&json!({"text": "Spend some more"})),
    );
    assert_eq!(reply.status, 202, "{}", reply.text());
    let ended = wait_for_run_state(&server, &id, "incomplete");
    let reason = ended["reason"].as_str().unwrap();
    assert!(
        reason.contains("reached its spend cap of $0.50"),
        "{reason}"
    );
    server.wait_for_status(&session_id, "stopped");
    std::thread::sleep(Duration::from_millis(300));
    let rows = inbox(&server, "recipes");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["count"], 1, "{rows:?}");
    assert_eq!(rows[0]["reason"], "incomplete");
    assert!(
        rows[0]["body"].as_str().unwrap().contains("spend cap"),
        "{rows:?}"
    );
}

#[test]
fn a_run_waiting_on_the_user_for_30_minutes_stalls_once_then_finishes() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let id = recipe(
        &server,
        "Waits",
        folder.path(),
        "Which branch should I use?",
    );
    let session_id = run_by(&server, None, &id);
    server.wait_for_status(&session_id, "waiting_for_input");

    move_clock(&server, "2026-01-05T08:29:00Z");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(runs(&server, &id)[0]["state"], "started");
    assert!(inbox(&server, "recipes").is_empty());

    move_clock(&server, "2026-01-05T08:31:00Z");
    let stalled = wait_for_run_state(&server, &id, "stalled");
    assert_eq!(stalled["endedAt"], Value::Null, "{stalled}");
    assert!(
        stalled["reason"]
            .as_str()
            .unwrap()
            .contains("waited for you"),
        "{stalled}"
    );
    // The row follows the run's state, not in the same write.
    let rows = wait_for_inbox(&server, "recipes", 1);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["reason"], "stalled");

    // Once: more time adds no second row.
    move_clock(&server, "2026-01-05T10:00:00Z");
    std::thread::sleep(Duration::from_millis(500));
    let rows = inbox(&server, "recipes");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["count"], 1, "{rows:?}");

    // Archived (its work done), the stalled run still ends finished, untold.
    let archived = server.call("POST", &format!("/sessions/{session_id}/archive"), None);
    assert_eq!(archived.status, 200, "{}", archived.text());
    let finished = wait_for_run_state(&server, &id, "finished");
    assert!(finished["endedAt"].is_string(), "{finished}");
    std::thread::sleep(Duration::from_millis(300));
    let rows = inbox(&server, "recipes");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["count"], 1, "{rows:?}");
}

#[test]
fn run_now_starts_a_schedules_recipe_with_its_values_and_leaves_its_ticks() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let id = recipe(
        &server,
        "Notes",
        folder.path(),
        "Write notes about {{topic}}",
    );
    let made = server.call(
        "POST",
        "/schedules",
        Some(
            &json!({"recipeId": id, "cron": "30 9 * * *", "timeZone": "UTC",
                     "values": {"topic": "rust"}}),
        ),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let schedule = made.json();
    let sid = schedule["id"].as_str().unwrap();

    let ran = server.call("POST", &format!("/schedules/{sid}/run"), None);
    assert_eq!(ran.status, 201, "{}", ran.text());
    let session_id = ran.json()["sessionId"].as_str().unwrap().to_owned();
    let session = server
        .call("GET", &format!("/sessions/{session_id}"), None)
        .json();
    assert!(
        session["prompt"]
            .as_str()
            .unwrap_or_default()
            .contains("Write notes about rust"),
        "{session}"
    );
    wait_for_runs(&server, &id, 1);
    let after = server.call("GET", "/schedules", None).json();
    assert_eq!(
        after["schedules"][0]["nextAt"], schedule["nextAt"],
        "{after}"
    );
    assert_eq!(server.call("POST", "/schedules/nope/run", None).status, 404);
}
