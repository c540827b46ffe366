//! Sessions that need the user, in the inbox, against a real server: a
//! failing session, a fake Claude Code asking through `AskUserQuestion`, a
//! reply that asks without the tool, and routine turns each make (or leave
//! out) the session's one `session` row; a second notice updates the unread
//! row; `POST /sessions/<id>/seen` reads it, so the next one is a new row;
//! a sub-agent's routine turn stays out even while routine turns are shown.

mod common;

use std::time::{Duration, Instant};

use common::sse::Stream;
use common::{Reply, TestServer, fixture, request};
use serde_json::{Value, json};

fn server_with_engines() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let fail = "echo 'engine exploded' >&2; exit 3";
    let asks = "echo 'Built it.'; echo; echo 'Should I deploy it to staging'";
    let toml = format!(
        "[engines.ask]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {ask:?}]\n\n\
         [engines.routine]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {routine:?}]\n\n\
         [engines.fail]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {fail:?}]\n\n\
         [engines.asks]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {asks:?}]\n\n\
         [engines.real-claude]\nkind = \"claude\"\ncommand = [\"/bin/sh\", \"-c\", {replay:?}, {real_claude:?}]\n\n\
         [engines.real-codex]\nkind = \"codex\"\ncommand = [\"/bin/sh\", \"-c\", {replay:?}, {real_codex:?}]\n",
        ask = fixture("ask-claude"),
        routine = fixture("typed-claude"),
        // What the pinned CLIs printed (fixtures/real/README.md), replayed.
        replay = "cat \"$0\"",
        real_claude = fixture("real/claude-plain.jsonl"),
        real_codex = fixture("real/codex-plain.jsonl"),
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    let server = TestServer::start_in(dir);
    // These fake engines would answer the utility model's title question
    // too; the rows here are named by the prompt.
    server.set_setting("sessionTitleStyle", json!("custom"));
    server
}

fn id_of(session: &Value) -> String {
    session["id"].as_str().unwrap().to_owned()
}

/// Every `session` row about `session_id`, newest first, hidden or not.
fn rows_of(server: &TestServer, session_id: &str) -> Vec<Value> {
    let reply = server.call("GET", "/inbox?category=session&state=all&hidden=true", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
        .json()
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["source"]["sessionId"] == session_id)
        .cloned()
        .collect()
}

/// Polls until the rows about `session_id` satisfy `done`, and returns them.
fn wait_for_rows(
    server: &TestServer,
    session_id: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let rows = rows_of(server, session_id);
        if done(&rows) {
            return rows;
        }
        assert!(Instant::now() < deadline, "rows never came: {rows:#?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Turn ends are read one after another, so once a session failing after
/// them has its row, every earlier turn end has been decided.
fn after_earlier_turn_ends(server: &TestServer) {
    let id = id_of(&server.browser_session("fail", "barrier"));
    wait_for_rows(server, &id, |rows| rows.len() == 1);
}

/// A follow-up as the web app sends it (the user's own session).
fn message(server: &TestServer, cookie: &str, id: &str, text: &str) {
    let reply = request(
        &server.ui,
        "POST",
        &format!("/api/sessions/{id}/messages"),
        &[("Cookie", cookie), ("Content-Type", "application/json")],
        Some(json!({ "text": text }).to_string().as_bytes()),
    );
    assert_eq!(reply.status, 202, "{}", reply.text());
}

fn seen(server: &TestServer, id: &str) -> Reply {
    server.call("POST", &format!("/sessions/{id}/seen"), None)
}

#[test]
fn a_failing_session_is_one_failed_row_announced_on_the_stream() {
    let server = server_with_engines();
    let mut stream = Stream::bearer(&server, &server.token, None);
    let id = id_of(&server.browser_session("fail", "build the thing"));
    server.wait_for_status(&id, "failed");
    let rows = wait_for_rows(&server, &id, |rows| !rows.is_empty());
    assert_eq!(rows.len(), 1, "{rows:#?}");
    let row = &rows[0];
    assert_eq!(row["category"], "session");
    assert_eq!(row["reason"], "failed");
    assert_eq!(row["count"], 1);
    let title = row["title"].as_str().unwrap();
    assert!(title.starts_with("build the thing failed: "), "{title}");
    assert!(row["body"].is_string());
    assert_eq!(row["source"], json!({ "sessionId": id }));
    assert_eq!(
        row["actions"],
        json!([{ "kind": "open_session", "sessionId": id }])
    );
    let event = stream.until(|e| e.name == "inbox").pop().unwrap().data;
    assert_eq!(
        (event["change"].as_str(), &event["id"]),
        (Some("created"), &row["id"])
    );
    // Nothing else about it arrives later.
    after_earlier_turn_ends(&server);
    assert_eq!(rows_of(&server, &id).len(), 1);
}

#[test]
fn a_question_updates_the_unread_row_and_once_seen_the_next_is_new() {
    let server = server_with_engines();
    let cookie = server.browser_cookie();
    let id = id_of(&server.browser_session("ask", "pick a database"));
    server.wait_for_status(&id, "waiting_for_input");
    let first = wait_for_rows(&server, &id, |rows| !rows.is_empty()).remove(0);
    assert_eq!(first["reason"], "question");
    assert_eq!(
        first["title"],
        "pick a database asks: Turn 1: which database should I use?"
    );
    assert_eq!(
        first["body"],
        "Turn 1: which database should I use?\n- SQLite\n- Postgres"
    );

    // A second question while the row is unread: the same row, count 2.
    message(&server, &cookie, &id, "what are the options again?");
    let rows = wait_for_rows(&server, &id, |rows| rows[0]["count"] == 2);
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0]["id"], first["id"]);
    assert!(rows[0]["title"].as_str().unwrap().contains("Turn 2"));

    // Opening the session reads it.
    let reply = seen(&server, &id);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json(), json!({ "count": 1 }));
    assert!(rows_of(&server, &id)[0]["readAt"].is_string());
    assert_eq!(seen(&server, &id).json(), json!({ "count": 0 }));

    // The next question is a new row.
    message(&server, &cookie, &id, "and now?");
    let rows = wait_for_rows(&server, &id, |rows| rows.len() == 2);
    assert_ne!(rows[0]["id"], first["id"]);
    assert_eq!(rows[0]["count"], 1);
    assert!(rows[0]["readAt"].is_null());
    assert!(rows[0]["title"].as_str().unwrap().contains("Turn 3"));

    // The web app marks it from the UI server with its cookie.
    let reply = request(
        &server.ui,
        "POST",
        &format!("/api/sessions/{id}/seen"),
        &[("Cookie", cookie.as_str())],
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json(), json!({ "count": 1 }));
    assert_eq!(seen(&server, "no-such-session").status, 404);
}

#[test]
fn routine_turns_stay_out_by_default_and_come_in_when_shown() {
    let server = server_with_engines();
    let cookie = server.browser_cookie();
    let id = id_of(&server.browser_session("routine", "fix the test"));
    server.wait_for_status(&id, "waiting_for_input");
    after_earlier_turn_ends(&server);
    assert_eq!(rows_of(&server, &id), Vec::<Value>::new());

    server.set_setting("hideRoutineUpdatesFromInbox", json!(false));
    message(&server, &cookie, &id, "again");
    let rows = wait_for_rows(&server, &id, |rows| !rows.is_empty());
    assert_eq!(rows[0]["reason"], "routine");
    assert_eq!(rows[0]["title"], "fix the test finished a turn");
    assert!(
        rows[0]["body"]
            .as_str()
            .unwrap()
            .ends_with("The tests pass now.")
    );
}

#[test]
fn a_reply_that_asks_is_a_question_unless_detection_is_off() {
    let server = server_with_engines();
    let id = id_of(&server.browser_session("asks", "build"));
    let rows = wait_for_rows(&server, &id, |rows| !rows.is_empty());
    assert_eq!(rows[0]["reason"], "question");
    assert_eq!(rows[0]["body"], "Should I deploy it to staging");

    server.set_setting("autoDetectQuestions", json!(false));
    let quiet = id_of(&server.browser_session("asks", "build"));
    server.wait_for_status(&quiet, "waiting_for_input");
    after_earlier_turn_ends(&server);
    assert_eq!(rows_of(&server, &quiet), Vec::<Value>::new());
}

/// A session's `turnEnd` once the attention rule has read its turn.
fn judged(server: &TestServer, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        if !session["turnEnd"].is_null() {
            return session["turnEnd"].clone();
        }
        assert!(Instant::now() < deadline, "never judged: {session:#}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn needs_you_holds_what_asked_and_a_turn_that_did_its_work_is_done() {
    let server = server_with_engines();
    // (engine, prompt, verdict): real output of both CLIs, which answer and ask nothing;
    // Claude Code's question tool; a reply whose end asks; a reply that reports its work.
    let table = [
        ("real-claude", "say hello", "done"),
        ("real-codex", "say hello", "done"),
        ("ask", "pick a database", "asked"),
        ("asks", "build", "asked"),
        ("routine", "fix the test", "done"),
    ];
    let ids: Vec<(String, &str, &str)> = table
        .iter()
        .map(|(engine, prompt, verdict)| {
            let id = id_of(&server.browser_session(engine, prompt));
            (id, *engine, *verdict)
        })
        .collect();
    for (id, engine, verdict) in &ids {
        let session = server.wait_for_status(id, "waiting_for_input");
        assert_eq!(judged(&server, id), *verdict, "{engine}: {session:#}");
    }
    // A failed session needs the user by its status; it has no turn verdict.
    let failed = id_of(&server.browser_session("fail", "explode"));
    let session = server.wait_for_status(&failed, "failed");
    assert!(session["turnEnd"].is_null(), "{session:#}");

    // With detection off, a reply that asks in words is a turn like any other.
    server.set_setting("autoDetectQuestions", json!(false));
    let quiet = id_of(&server.browser_session("asks", "build"));
    server.wait_for_status(&quiet, "waiting_for_input");
    assert_eq!(judged(&server, &quiet), "done");
}

#[test]
fn inbox_show_sessions_off_hides_the_rows_without_deleting_them() {
    let server = server_with_engines();
    let id = id_of(&server.browser_session("fail", "go"));
    wait_for_rows(&server, &id, |rows| rows.len() == 1);
    server.set_setting("inboxShowSessions", json!(false));
    let shown = server.call("GET", "/inbox", None).json();
    assert!(
        shown
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["category"] != "session"),
        "{shown:#?}"
    );
    let counts = server.call("GET", "/inbox/counts", None).json();
    assert!(counts.get("session").is_none(), "{counts}");
    assert_eq!(rows_of(&server, &id).len(), 1);
    server.set_setting("inboxShowSessions", json!(true));
    let shown = server.call("GET", "/inbox?category=session", None).json();
    assert_eq!(shown.as_array().unwrap().len(), 1);
}

/// A session spawned over the control server naming `parent` as its source.
fn spawn_child(server: &TestServer, parent: &str, engine: &str) -> String {
    let auth = format!("Bearer {}", server.token);
    let body = json!({ "engine": engine, "prompt": "sub-task" }).to_string();
    let reply = request(
        server.control(),
        "POST",
        "/sessions",
        &[
            ("Authorization", auth.as_str()),
            ("Content-Type", "application/json"),
            ("X-App-Source-Session-Id", parent),
        ],
        Some(body.as_bytes()),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let child = reply.json();
    assert_eq!(child["parentId"], parent);
    id_of(&child)
}

#[test]
fn a_sub_agent_reaches_the_inbox_with_a_question_or_a_failure_never_a_routine_turn() {
    let server = server_with_engines();
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("hideRoutineUpdatesFromInbox", json!(false));
    let parent = id_of(&server.browser_session("ask", "lead"));
    server.wait_for_status(&parent, "waiting_for_input");

    let routine = spawn_child(&server, &parent, "routine");
    server.wait_for_status(&routine, "waiting_for_input");
    let asks = spawn_child(&server, &parent, "ask");
    let fails = spawn_child(&server, &parent, "fail");
    wait_for_rows(&server, &asks, |rows| rows.len() == 1);
    wait_for_rows(&server, &fails, |rows| rows.len() == 1);
    after_earlier_turn_ends(&server);
    assert_eq!(rows_of(&server, &routine), Vec::<Value>::new());
    assert_eq!(rows_of(&server, &asks)[0]["reason"], "question");
    assert_eq!(rows_of(&server, &fails)[0]["reason"], "failed");
}
