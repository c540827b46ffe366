//! An agent's pause and archive against a real server, with real `command`
//! engine sessions and their own agent tokens: at `read_only` they wait for
//! the user's approval (a `cli_pending` row), allowed they are carried out,
//! refused or expired nothing happens; `sessionSelfArchiveWithoutApproval`
//! lets a session archive itself from inside its turn without asking, done
//! when the turn ends; at `guarded` and for the user nothing asks.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, written};
use serde_json::{Value, json};

/// `holder` records its agent token and works (sleeps); `tidy` archives
/// itself with its own token from inside its turn, records the reply, and
/// ends the turn a moment later.
fn server(args: &[&str]) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let r = scratch.path().display();
    let holder =
        format!("printf '%s' \"$APP_CLI_TOKEN\" > {r}/token-$APP_SESSION_ID; exec sleep 300");
    let tidy = format!(
        "curl -s -w '\\n%{{http_code}}' -X POST -H \"Authorization: Bearer $APP_CLI_TOKEN\" \
         \"$APP_CONTROL_URL/sessions/$APP_SESSION_ID/archive\" > {r}/reply.part; \
         mv {r}/reply.part {r}/reply-$APP_SESSION_ID; sleep 1; echo done"
    );
    let toml = format!(
        "[engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {holder:?}]\n\n\
         [engines.tidy]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {tidy:?}]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in_with(dir, args).keeping(scratch)
}

/// A working `holder` session, once it is `running`: its id and agent token.
fn holder(server: &TestServer) -> (String, String) {
    let (id, token) = server.holder_session();
    server.wait_for_status(&id, "running");
    (id, token)
}

fn session(server: &TestServer, id: &str) -> Value {
    server.call("GET", &format!("/sessions/{id}"), None).json()
}

fn cli_pending(server: &TestServer) -> Vec<Value> {
    server
        .call("GET", "/inbox?category=cli_pending", None)
        .json()
        .as_array()
        .unwrap()
        .clone()
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(Instant::now() < deadline, "{what} never happened");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn ask(server: &TestServer, token: &str, action: &str, id: &str) -> common::Reply {
    server.call_as(token, "POST", &format!("/sessions/{id}/{action}"), None)
}

/// Asks with `token`, checks the 202 and its approval and inbox row, and
/// returns the approval's id.
fn asked(server: &TestServer, token: &str, asker: &str, action: &str, target: &str) -> String {
    let reply = ask(server, token, action, target);
    assert_eq!(reply.status, 202, "{}", reply.text());
    let approval = &reply.json()["approval"];
    assert_eq!(approval["tool"], format!("switchboard_{action}_session"));
    assert_eq!(approval["target"], target);
    assert_eq!(approval["sessionId"], asker);
    assert_eq!(approval["state"], "pending");
    let rows = cli_pending(server);
    let row = rows
        .iter()
        .find(|r| r["source"]["sessionId"] == asker)
        .unwrap_or_else(|| panic!("no cli_pending row: {rows:?}"));
    let title = row["title"].as_str().unwrap();
    assert!(title.contains(&format!("asks to {action}")), "{title}");
    approval["id"].as_str().unwrap().to_owned()
}

fn decide(server: &TestServer, approval: &str, decision: &str) {
    let reply = server.call(
        "POST",
        &format!("/approvals/{approval}"),
        Some(&json!({"decision": decision})),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
}

/// The asking session's decisions on record, once `count` are there.
fn decisions(server: &TestServer, asker: &str, count: usize) -> Vec<Value> {
    let mut found = Vec::new();
    wait_until("the decision's record", || {
        found = server
            .call("GET", &format!("/sessions/{asker}/permissions"), None)
            .json()["permissions"]
            .as_array()
            .unwrap()
            .clone();
        found.len() >= count
    });
    found
}

#[test]
fn at_read_only_an_agents_archive_of_another_session_waits_for_the_users_approval() {
    let server = server(&[]);
    server.set_setting("agentPermissionLevel", json!("read_only"));
    let (asker, token) = holder(&server);
    let (target, _) = holder(&server);

    let approval = asked(&server, &token, &asker, "archive", &target);
    assert_eq!(session(&server, &target)["archived"], false);
    assert_eq!(session(&server, &target)["status"], "running");

    decide(&server, &approval, "allow");
    wait_until("the approved archive", || {
        session(&server, &target)["archived"] == true
    });
    let record = &decisions(&server, &asker, 1)[0];
    assert_eq!(record["decision"], "allow");
    assert_eq!(record["tool"], "switchboard_archive_session");
    assert_eq!(record["approvalId"], approval.as_str());
}

#[test]
fn a_refused_pause_or_archive_leaves_the_session_be() {
    let server = server(&[]);
    server.set_setting("agentPermissionLevel", json!("read_only"));
    let (asker, token) = holder(&server);
    let (target, _) = holder(&server);

    let archive = asked(&server, &token, &asker, "archive", &target);
    decide(&server, &archive, "deny");
    let pause = asked(&server, &token, &asker, "pause", &target);
    decide(&server, &pause, "deny");
    let records = decisions(&server, &asker, 2);
    assert!(
        records.iter().all(|r| r["decision"] == "deny"),
        "{records:?}"
    );
    let now = session(&server, &target);
    assert_eq!(now["archived"], false);
    assert_eq!(now["status"], "running");
}

#[test]
fn an_unanswered_ask_expires_after_ten_minutes_and_nothing_happens() {
    let server = server(&["--manual-clock"]);
    server.set_setting("agentPermissionLevel", json!("read_only"));
    let (asker, token) = holder(&server);
    let (target, _) = holder(&server);

    let approval = asked(&server, &token, &asker, "pause", &target);
    let advanced = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 600_000})));
    assert_eq!(advanced.status, 204, "{}", advanced.text());
    let path = format!("/approvals/{approval}");
    wait_until("the expiry", || {
        server.call("GET", &path, None).json()["state"] == "expired"
    });
    assert_eq!(decisions(&server, &asker, 1)[0]["decision"], "deny");
    // Ten silent minutes on the clock may have the stall watchdog relaunch
    // the holder (`starting` again); it is never paused.
    let now = session(&server, &target);
    assert!(
        now["status"] == "running" || now["status"] == "starting",
        "{now}"
    );
}

#[test]
fn with_the_setting_on_a_session_archives_itself_at_its_turns_end_without_asking() {
    let server = server(&[]);
    server.set_setting("agentPermissionLevel", json!("read_only"));
    server.set_setting("sessionSelfArchiveWithoutApproval", json!(true));
    let cookie = server.browser_cookie();
    let reply = server.browser_spawn(
        &cookie,
        &json!({"engine": "tidy", "prompt": "tidy up", "cwd": server.scratch()}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();

    let answer = written(&server.scratch().join(format!("reply-{id}")));
    let (body, status) = answer.rsplit_once('\n').unwrap();
    assert_eq!(status, "202", "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(body).unwrap(),
        json!({"archiveAtTurnEnd": true})
    );
    wait_until("the self-archive", || {
        session(&server, &id)["archived"] == true
    });
    // The turn was left to end on its own, not cut short by the archive.
    assert_eq!(session(&server, &id)["status"], "finished");
    assert!(
        cli_pending(&server).is_empty(),
        "{:?}",
        cli_pending(&server)
    );
    let approvals = server.call("GET", "/approvals?state=all", None).json();
    assert_eq!(approvals["approvals"], json!([]));
}

#[test]
fn self_archiving_asks_with_the_setting_off_and_pausing_oneself_always_asks() {
    let server = server(&[]);
    server.set_setting("agentPermissionLevel", json!("read_only"));
    let (asker, token) = holder(&server);
    asked(&server, &token, &asker, "archive", &asker);

    server.set_setting("sessionSelfArchiveWithoutApproval", json!(true));
    asked(&server, &token, &asker, "pause", &asker);
    // Another session's archive still asks.
    let (target, _) = holder(&server);
    asked(&server, &token, &asker, "archive", &target);
    assert_eq!(session(&server, &target)["archived"], false);
}

#[test]
fn at_guarded_and_for_the_user_pause_and_archive_go_through_at_once() {
    let server = server(&[]);
    server.set_setting("agentPermissionLevel", json!("guarded"));
    let (_, token) = holder(&server);
    let (paused, _) = holder(&server);
    let (archived, _) = holder(&server);

    let reply = ask(&server, &token, "pause", &paused);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["status"], "paused");
    let reply = ask(&server, &token, "archive", &archived);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["archived"], true);

    server.set_setting("agentPermissionLevel", json!("read_only"));
    let (other, _) = holder(&server);
    let reply = server.call("POST", &format!("/sessions/{other}/archive"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["archived"], true);
    assert!(
        cli_pending(&server).is_empty(),
        "{:?}",
        cli_pending(&server)
    );
}

#[test]
fn an_agent_cannot_ask_about_a_session_that_does_not_exist() {
    let server = server(&[]);
    server.set_setting("agentPermissionLevel", json!("read_only"));
    let (_, token) = holder(&server);
    let reply = ask(&server, &token, "archive", "no-such-session");
    assert_eq!(reply.status, 404, "{}", reply.text());
    assert!(
        cli_pending(&server).is_empty(),
        "{:?}",
        cli_pending(&server)
    );
}
