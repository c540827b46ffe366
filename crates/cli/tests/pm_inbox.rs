//! Project events in the inbox over real HTTP, on a manual clock the tests
//! move (`POST /test/clock`): pm_event rows for assignments, status and due
//! dates naming the board and who changed it, each board preference, quiet
//! hours across midnight and a daylight-saving night, overdue items sent
//! through quiet hours, the hourly digest by board, the daily digest, agent
//! item writes named by their session, and the settings' checks.
//!
//! The clock is only moved forward (to 2030), so the notifier's "last day"
//! never lies ahead of it. Rows are made after the write has answered, so the
//! tests poll for them; a check that something did not arrive waits for a
//! row that proves the notifier has run since.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

fn server() -> TestServer {
    TestServer::start_with(&["--manual-clock"])
}

fn clock_at(server: &TestServer, at: &str) {
    let reply = server.call("POST", "/test/clock", Some(&json!({"at": at})));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn id(reply: &common::Reply) -> String {
    assert!(reply.status < 300, "{}", reply.text());
    reply.json()["id"].as_str().unwrap().to_owned()
}

/// A board with a status (Done is done), people and date column.
fn board(server: &TestServer, name: &str) -> String {
    let workspace = id(&server.call("POST", "/workspaces", Some(&json!({"name": "W"}))));
    id(&server.call(
        "POST",
        "/boards",
        Some(&json!({"workspaceId": workspace, "name": name,
            "columns": [
                {"id": "status", "title": "Status", "type": "status",
                 "settings": {"labels": [{"name": "Working"}, {"name": "Done", "done": true}]}},
                {"id": "people", "title": "Owner", "type": "people"},
                {"id": "due", "title": "Due", "type": "date"}],
            "groups": [{"id": "g", "title": "G"}]})),
    ))
}

fn item(server: &TestServer, board: &str, name: &str, values: Value) -> String {
    id(&server.call(
        "POST",
        &format!("/boards/{board}/items"),
        Some(&json!({"name": name, "values": values})),
    ))
}

fn patch(server: &TestServer, item: &str, values: Value) {
    let reply = server.call(
        "PATCH",
        &format!("/items/{item}"),
        Some(&json!({"values": values})),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
}

fn rows(server: &TestServer, category: &str) -> Vec<Value> {
    let reply = server.call(
        "GET",
        &format!("/inbox?category={category}&state=all&limit=500&hidden=true"),
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().unwrap().clone()
}

fn titles(server: &TestServer, category: &str) -> Vec<String> {
    let mut titles: Vec<String> = rows(server, category)
        .iter()
        .map(|r| r["title"].as_str().unwrap().to_owned())
        .collect();
    titles.sort();
    titles
}

/// Polls until a row of `category` has this title, and returns it.
fn wait_for(server: &TestServer, category: &str, title: &str) -> Value {
    // Generous: the machine may be busy with other test binaries.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(row) = rows(server, category)
            .into_iter()
            .find(|r| r["title"] == title)
        {
            return row;
        }
        assert!(
            Instant::now() < deadline,
            "no {category} row {title:?}; have {:?}",
            titles(server, category)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn me(server: &TestServer) -> String {
    let me = server.call("GET", "/me", None).json();
    me["memberId"].as_str().unwrap().to_owned()
}

#[test]
fn the_account_has_its_own_member() {
    let server = server();
    let member = me(&server);
    let members = server.call("GET", "/members", None).json();
    let mine: Vec<&Value> = members
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["self"] == true)
        .collect();
    assert_eq!(mine.len(), 1, "{members}");
    assert_eq!(mine[0]["id"], member.as_str());
    let deleted = server.call("DELETE", &format!("/members/{member}"), None);
    assert_eq!(deleted.status, 409, "{}", deleted.text());
    // A new account gets one too.
    let other = server.call("POST", "/accounts", Some(&json!({"name": "ada"})));
    let token = other.json()["token"].as_str().unwrap().to_owned();
    let theirs = server.call_as(&token, "GET", "/me", None).json();
    assert!(theirs["memberId"].is_string(), "{theirs}");
    assert_ne!(theirs["memberId"], member.as_str());
}

#[test]
fn assignments_status_and_due_dates_become_rows_naming_board_and_actor() {
    let server = server();
    clock_at(&server, "2030-01-07T12:00:00Z");
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    let ada = id(&server.call("POST", "/members", Some(&json!({"name": "Ada"}))));
    let board = board(&server, "Roadmap");
    let launch = item(&server, &board, "Launch", json!({"status": "Working"}));
    patch(
        &server,
        &launch,
        json!({"status": "Done", "people": [ada], "due": "2030-02-01"}),
    );
    let status = wait_for(&server, "pm_event", "Roadmap: Launch: Working → Done");
    assert_eq!(status["body"], "On the board Roadmap, by you.");
    assert_eq!(status["source"]["boardId"], board.as_str());
    assert_eq!(status["source"]["itemId"], launch.as_str());
    assert_eq!(
        status["actions"],
        json!([{"kind": "open_item", "boardId": board, "itemId": launch}])
    );
    wait_for(&server, "pm_event", "Roadmap: Launch assigned to Ada");
    wait_for(&server, "pm_event", "Roadmap: Launch due 2030-02-01");
    patch(&server, &launch, json!({"due": "2030-02-03"}));
    wait_for(
        &server,
        "pm_event",
        "Roadmap: Launch due 2030-02-03 (was 2030-02-01)",
    );
}

#[test]
fn board_preferences_all_assigned_only_and_none() {
    let server = server();
    clock_at(&server, "2030-01-07T12:00:00Z");
    let me = me(&server);
    let ada = id(&server.call("POST", "/members", Some(&json!({"name": "Ada"}))));
    let (all, mine, none) = (
        board(&server, "All"),
        board(&server, "Mine"),
        board(&server, "None"),
    );
    server.set_setting(
        "pmInboxBoardPreferences",
        json!({mine.clone(): "assigned-only", none.clone(): "none"}),
    );
    for board in [&none, &mine, &all] {
        let ours = item(
            &server,
            board,
            "ours",
            json!({"status": "Working", "people": [me]}),
        );
        let theirs = item(
            &server,
            board,
            "theirs",
            json!({"status": "Working", "people": [ada]}),
        );
        patch(&server, &theirs, json!({"status": "Done"}));
        patch(&server, &ours, json!({"status": "Done"}));
    }
    // The last change made: once it is here, every earlier one was decided.
    wait_for(&server, "pm_event", "All: ours: Working → Done");
    let titles = titles(&server, "pm_event");
    assert!(
        titles.contains(&"All: theirs: Working → Done".to_owned()),
        "{titles:?}"
    );
    assert!(
        titles.contains(&"Mine: ours: Working → Done".to_owned()),
        "{titles:?}"
    );
    assert!(
        titles.contains(&"Mine: ours assigned to Me".to_owned()),
        "{titles:?}"
    );
    assert!(
        !titles.iter().any(|t| t.starts_with("Mine: theirs")),
        "{titles:?}"
    );
    assert!(!titles.iter().any(|t| t.starts_with("None:")), "{titles:?}");
}

#[test]
fn quiet_hours_across_midnight_hold_but_overdue_goes_at_once() {
    let server = server();
    // 22:30 in Berlin (UTC+1 in winter).
    clock_at(&server, "2030-01-07T21:30:00Z");
    server.set_setting("pmInboxQuietHoursTimeZone", json!("Europe/Berlin"));
    server.set_setting("pmInboxQuietHoursStart", json!("22:00"));
    server.set_setting("pmInboxQuietHoursEnd", json!("08:00"));
    server.set_setting("pmInboxQuietHoursEnabled", json!(true));
    let board = board(&server, "Roadmap");
    let launch = item(&server, &board, "Launch", json!({"status": "Working"}));
    patch(&server, &launch, json!({"status": "Done"}));
    item(
        &server,
        &board,
        "Late",
        json!({"status": "Working", "due": "2030-01-02"}),
    );
    wait_for(
        &server,
        "pm_event",
        "Roadmap: Late is overdue (due 2030-01-02)",
    );
    assert!(
        !titles(&server, "pm_event")
            .iter()
            .any(|t| t.contains("Launch")),
        "held in quiet hours"
    );
    // 07:59 the next morning: still quiet; 08:00: released.
    clock_at(&server, "2030-01-08T06:59:00Z");
    // A settings write wakes the notifier at once.
    server.set_setting("pmInboxQuietHoursEnd", json!("08:00"));
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !titles(&server, "pm_event")
            .iter()
            .any(|t| t.contains("Launch"))
    );
    clock_at(&server, "2030-01-08T07:00:00Z");
    wait_for(&server, "pm_event", "Roadmap: Launch: Working → Done");
    // Overdue once per item per day, however often the day is scanned.
    let overdue = titles(&server, "pm_event")
        .into_iter()
        .filter(|t| t.contains("Late is overdue"))
        .count();
    assert_eq!(overdue, 1);
}

#[test]
fn quiet_hours_end_at_local_time_across_a_daylight_saving_change() {
    let server = server();
    // 2030-03-10 in New York: 02:00 EST jumps to 03:00 EDT. 22:30 EST on the 9th.
    clock_at(&server, "2030-03-10T03:30:00Z");
    server.set_setting("pmInboxQuietHoursTimeZone", json!("America/New_York"));
    server.set_setting("pmInboxQuietHoursEnabled", json!(true));
    let board = board(&server, "Roadmap");
    let launch = item(&server, &board, "Launch", json!({"status": "Working"}));
    patch(&server, &launch, json!({"status": "Done"}));
    let marker = item(&server, &board, "Marker", json!({"due": "2030-03-01"}));
    wait_for(
        &server,
        "pm_event",
        "Roadmap: Marker is overdue (due 2030-03-01)",
    );
    // 07:59 EDT is 11:59 UTC: a naive offset from the evening (EST) would
    // call it 06:59 and hold on for another hour.
    clock_at(&server, "2030-03-10T11:59:00Z");
    patch(&server, &marker, json!({"due": "2030-03-02"}));
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !titles(&server, "pm_event")
            .iter()
            .any(|t| t.contains("Launch"))
    );
    clock_at(&server, "2030-03-10T12:00:00Z");
    wait_for(&server, "pm_event", "Roadmap: Launch: Working → Done");
}

#[test]
fn the_digest_mode_posts_one_row_an_hour_by_board() {
    let server = server();
    clock_at(&server, "2030-01-07T10:10:00Z");
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    server.set_setting("pmInboxDigestMode", json!(true));
    let (alpha, beta) = (board(&server, "Alpha"), board(&server, "Beta"));
    for (board, name) in [(&alpha, "one"), (&alpha, "two"), (&beta, "three")] {
        let item = item(&server, board, name, json!({"status": "Working"}));
        patch(&server, &item, json!({"status": "Done"}));
    }
    // An overdue item is not batched: it proves the events were read.
    item(&server, &beta, "Late", json!({"due": "2030-01-01"}));
    wait_for(
        &server,
        "pm_event",
        "Beta: Late is overdue (due 2030-01-01)",
    );
    assert!(rows(&server, "digest").is_empty());
    clock_at(&server, "2030-01-07T11:00:00Z");
    let digest = wait_for(&server, "digest", "Project digest: 4 events on 2 boards");
    let body = digest["body"].as_str().unwrap();
    assert!(
        body.starts_with(
            "Alpha (2)\n- one: Working → Done (by you)\n- two: Working → Done (by you)\n\nBeta (2)"
        ),
        "{body}"
    );
    assert_eq!(titles(&server, "pm_event").len(), 1, "only the overdue row");
}

#[test]
fn the_daily_digest_sums_the_day() {
    let server = server();
    clock_at(&server, "2030-01-07T12:00:00Z");
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    server.set_setting("dailyDigestEnabled", json!(true));
    let board = board(&server, "Roadmap");
    let launch = item(&server, &board, "Launch", json!({"status": "Working"}));
    patch(&server, &launch, json!({"status": "Done"}));
    wait_for(&server, "pm_event", "Roadmap: Launch: Working → Done");
    clock_at(&server, "2030-01-08T00:00:01Z");
    let digest = wait_for(&server, "digest", "Daily digest for 2030-01-07");
    assert_eq!(
        digest["body"],
        "Sessions: 0 started, 0 finished, 0 failed; cost $0.00.\nProject events: 1.\n\n\
         Roadmap (1)\n- Launch: Working → Done (by you)"
    );
}

#[test]
fn the_quiet_hours_settings_are_checked() {
    let server = server();
    for (key, value) in [
        ("pmInboxQuietHoursTimeZone", json!("Mars/Olympus_Mons")),
        ("pmInboxQuietHoursStart", json!("25:00")),
        ("pmInboxQuietHoursEnd", json!("8:00")),
    ] {
        let reply = server.call(
            "PATCH",
            &format!("/settings/{key}"),
            Some(&json!({"value": value})),
        );
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (400, "invalid_value"),
            "{key}"
        );
    }
    server.set_setting("pmInboxQuietHoursTimeZone", json!("America/New_York"));
    server.set_setting("pmInboxQuietHoursTimeZone", json!(""));
}

fn server_with_engine() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let record = scratch.path().join("record");
    std::fs::create_dir(&record).unwrap();
    let script = format!(
        "echo $APP_CLI_TOKEN > {r}/token-$APP_SESSION_ID; cat",
        r = record.display()
    );
    let toml = format!(
        "[engines.echo]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in_with(dir, &["--manual-clock"]).keeping(scratch)
}

#[test]
fn an_agent_moving_its_task_to_done_is_named_by_its_session() {
    let server = server_with_engine();
    let session = server.browser_session("echo", "work");
    let session = session["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&session, "waiting_for_input");
    let token_file = server
        .scratch()
        .join("record")
        .join(format!("token-{session}"));
    let agent = std::fs::read_to_string(token_file)
        .unwrap()
        .trim()
        .to_owned();
    let board = board(&server, "Roadmap");

    let created = server.call_as(
        &agent,
        "POST",
        &format!("/boards/{board}/items"),
        Some(&json!({"name": "Task", "values": {"status": "Working"}})),
    );
    let task = id(&created);
    let moved = server.call_as(
        &agent,
        "PATCH",
        &format!("/items/{task}"),
        Some(&json!({"values": {"status": "Done"}})),
    );
    assert_eq!(moved.status, 200, "{}", moved.text());
    let row = wait_for(&server, "pm_event", "Roadmap: Task: Working → Done");
    assert_eq!(
        row["body"],
        format!("On the board Roadmap, by agent session {session}.")
    );
    assert_eq!(row["source"]["sessionId"], session.as_str());
    let events = server.call("GET", "/events", None).json();
    assert_eq!(events[0]["actor"], format!("session:{session}"));

    // Items only: not columns, groups or boards.
    for (path, body) in [
        (
            format!("/boards/{board}/columns"),
            json!({"title": "X", "type": "text"}),
        ),
        (format!("/boards/{board}/groups"), json!({"title": "X"})),
        (
            "/boards".to_owned(),
            json!({"workspaceId": "w", "name": "X"}),
        ),
    ] {
        let reply = server.call_as(&agent, "POST", &path, Some(&body));
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (403, "agent_token_forbidden"),
            "{path}"
        );
    }
}
