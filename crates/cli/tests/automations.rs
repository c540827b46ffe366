//! Recipes and schedules through a real server on a manual clock: a run by
//! hand fills the prompt's placeholders (a missing one is a 400 naming
//! `values`), the CLI lists and runs a recipe by name, bad schedules are
//! 400s naming their field, a user's schedule starts exactly one session
//! at its tick, an agent's waits `pending` with a `cron` inbox row until the
//! user approves it, and a run whose folder is gone fails with the reason
//! and one `recipes` inbox row.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

/// 2026-01-05T08:00:00Z, where the manual clock starts.
const START_MS: i64 = 1_767_600_000_000;

/// A server on a manual clock with an `echo` engine (cat: the prompt comes
/// back) and a `holder` engine that records its agent token in `scratch`.
fn server() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let holder = format!(
        "printf '%s' \"$APP_CLI_TOKEN\" > {}/token-$APP_SESSION_ID; exec sleep 300",
        scratch.path().display()
    );
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.echo]\nkind = \"command\"\ncommand = [\"/usr/bin/cat\"]\n\
             [engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {holder:?}]\n"
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
    let reply = server.call(
        "POST",
        "/recipes",
        Some(&json!({"name": name, "engine": "echo", "prompt": prompt, "cwd": cwd})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_str().unwrap().to_owned()
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
    assert_eq!(session["title"], "Daily notes");
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
