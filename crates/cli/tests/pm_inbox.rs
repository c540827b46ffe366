//! Project events in the inbox over real HTTP, on a manual clock the tests
//! move (`POST /test/clock`): nobody told of their own work (a 10,000-item
//! batch of the owner's makes no row), an agent session's writes folded into
//! one row per session and board naming it, due dates notifying only the
//! assignee once per board and day, each board preference, quiet hours across
//! midnight and a daylight-saving night, overdue items sent through quiet
//! hours, the hourly digest by board, the daily briefing, pruning read rows a
//! month on, and the settings' checks.
//!
//! The clock is only moved forward (to 2030), so the notifier's "last day"
//! never lies ahead of it. Rows are made after the write has answered, so the
//! tests poll for them; a check that something did not arrive waits for a
//! row that proves the notifier has run since.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
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

/// An agent session's token: an `echo` engine's session records it.
struct Agent {
    session: String,
    token: String,
}

fn agent(server: &TestServer) -> Agent {
    let session = server.browser_session("echo", "work");
    let session = session["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&session, "waiting_for_input");
    let token_file = server
        .scratch()
        .join("record")
        .join(format!("token-{session}"));
    let token = std::fs::read_to_string(token_file)
        .unwrap()
        .trim()
        .to_owned();
    Agent { session, token }
}

impl Agent {
    fn item(&self, server: &TestServer, board: &str, name: &str, values: Value) -> String {
        id(&server.call_as(
            &self.token,
            "POST",
            &format!("/boards/{board}/items"),
            Some(&json!({"name": name, "values": values})),
        ))
    }

    fn patch(&self, server: &TestServer, item: &str, values: Value) {
        let reply = server.call_as(
            &self.token,
            "PATCH",
            &format!("/items/{item}"),
            Some(&json!({"values": values})),
        );
        assert_eq!(reply.status, 200, "{}", reply.text());
    }
}

/// `count` items in one batch, by `token` (the owner's when `None`).
fn batch(server: &TestServer, token: Option<&str>, board: &str, count: usize, values: Value) {
    // Short names: 10,000 items must fit the 1 MiB request limit.
    let items: Vec<Value> = (0..count)
        .map(|n| json!({"name": format!("i{n}"), "values": values}))
        .collect();
    let path = format!("/boards/{board}/items/batch");
    let body = json!({"items": items});
    let reply = match token {
        Some(token) => server.call_as(token, "POST", &path, Some(&body)),
        None => server.call("POST", &path, Some(&body)),
    };
    assert_eq!(reply.status, 201, "{}", reply.text());
}

/// Waits until the notifier has read every event so far: an agent's change
/// on a board of its own shows up, and with it everything before.
fn settled(server: &TestServer, agent: &Agent) {
    static MARKERS: AtomicUsize = AtomicUsize::new(0);
    let name = format!("marker {}", MARKERS.fetch_add(1, Ordering::Relaxed));
    let marker = board(server, "Marker");
    let item = agent.item(server, &marker, &name, json!({"status": "Working"}));
    agent.patch(server, &item, json!({"status": "Done"}));
    wait_for(
        server,
        "pm_event",
        &format!("Marker: {name}: Working → Done"),
    );
}

fn without_marker(titles: Vec<String>) -> Vec<String> {
    titles
        .into_iter()
        .filter(|t| !t.starts_with("Marker:"))
        .collect()
}

#[test]
fn the_owners_own_batch_of_ten_thousand_makes_no_row() {
    let server = server_with_engine();
    clock_at(&server, "2030-01-07T12:00:00Z");
    let me = me(&server);
    let agent = agent(&server);
    let ada = id(&server.call("POST", "/members", Some(&json!({"name": "Ada"}))));
    let board = board(&server, "Web");
    batch(
        &server,
        None,
        &board,
        10_000,
        json!({"people": [ada], "due": "2030-02-01"}),
    );
    let launch = item(&server, &board, "Launch", json!({"status": "Working"}));
    patch(&server, &launch, json!({"status": "Done", "people": [me]}));
    settled(&server, &agent);
    assert_eq!(
        without_marker(titles(&server, "pm_event")),
        Vec::<String>::new()
    );
}

#[test]
fn an_agent_sessions_batch_folds_into_one_row_naming_it() {
    let server = server_with_engine();
    clock_at(&server, "2030-01-07T12:00:00Z");
    let agent = agent(&server);
    let ada = id(&server.call("POST", "/members", Some(&json!({"name": "Ada"}))));
    let board = board(&server, "Web");
    batch(
        &server,
        Some(&agent.token),
        &board,
        312,
        json!({"people": [ada], "due": "2030-02-01"}),
    );
    let short = &agent.session;
    let title = format!("312 items changed on Web by agent session {short}");
    let row = wait_for(&server, "pm_event", &title);
    assert_eq!(row["count"], 312);
    assert_eq!(row["source"]["boardId"], board.as_str());
    assert_eq!(row["source"]["sessionId"], agent.session.as_str());
    assert_eq!(
        row["actions"],
        json!([{"kind": "open_board", "boardId": board},
               {"kind": "open_session", "sessionId": agent.session}])
    );
    assert_eq!(titles(&server, "pm_event"), [title]);
    // The item events themselves are all there, named by the session.
    let events = server.call("GET", "/events?limit=1000", None).json();
    assert_eq!(events.as_array().unwrap().len(), 624);
    assert_eq!(events[0]["actor"], format!("session:{}", agent.session));
}

#[test]
fn one_change_by_an_agent_names_the_item_and_the_session() {
    let server = server_with_engine();
    clock_at(&server, "2030-01-07T12:00:00Z");
    let agent = agent(&server);
    let board = board(&server, "Roadmap");
    let task = agent.item(&server, &board, "Task", json!({"status": "Working"}));
    agent.patch(&server, &task, json!({"status": "Done"}));
    let row = wait_for(&server, "pm_event", "Roadmap: Task: Working → Done");
    assert_eq!(
        row["body"],
        format!("On the board Roadmap, by agent session {}.", agent.session)
    );
    assert_eq!(row["count"], 1);
    let events = server.call("GET", "/events", None).json();
    assert_eq!(events[0]["actor"], format!("session:{}", agent.session));

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
        let reply = server.call_as(&agent.token, "POST", &path, Some(&body));
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (403, "agent_token_forbidden"),
            "{path}"
        );
    }
}

#[test]
fn items_due_today_notify_their_assignee_once_per_board_and_day() {
    let server = server_with_engine();
    clock_at(&server, "2030-01-07T12:00:00Z");
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    let me = me(&server);
    let agent = agent(&server);
    let ada = id(&server.call("POST", "/members", Some(&json!({"name": "Ada"}))));
    let (ops, web) = (board(&server, "Ops"), board(&server, "Web"));
    for board in [&ops, &web] {
        batch(
            &server,
            None,
            board,
            3,
            json!({"status": "Working", "people": [me], "due": "2030-01-08"}),
        );
        batch(
            &server,
            None,
            board,
            5,
            json!({"status": "Working", "people": [ada], "due": "2030-01-08"}),
        );
        batch(
            &server,
            None,
            board,
            7,
            json!({"status": "Working", "due": "2030-01-08"}),
        );
    }
    settled(&server, &agent);
    assert_eq!(
        without_marker(titles(&server, "pm_event")),
        Vec::<String>::new()
    );
    clock_at(&server, "2030-01-08T00:00:01Z");
    wait_for(&server, "pm_event", "3 items due today on Ops");
    let row = wait_for(&server, "pm_event", "3 items due today on Web");
    assert_eq!(row["count"], 3);
    settled(&server, &agent);
    let due: Vec<Value> = rows(&server, "pm_event")
        .into_iter()
        .filter(|r| r["title"].as_str().unwrap().contains("due today"))
        .collect();
    assert_eq!(due.len(), 2);
    assert!(due.iter().all(|r| r["count"] == 3), "{due:?}");
    // The next day they are overdue: one row per board.
    clock_at(&server, "2030-01-09T00:00:01Z");
    wait_for(&server, "pm_event", "3 items overdue on Ops");
    wait_for(&server, "pm_event", "3 items overdue on Web");
}

#[test]
fn past_dated_items_on_create_notify_nobody_unless_assigned_and_then_once() {
    let server = server_with_engine();
    clock_at(&server, "2030-01-07T12:00:00Z");
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    let me = me(&server);
    let agent = agent(&server);
    let board = board(&server, "Ops");
    batch(
        &server,
        None,
        &board,
        500,
        json!({"status": "Working", "due": "2029-12-01"}),
    );
    settled(&server, &agent);
    assert_eq!(
        without_marker(titles(&server, "pm_event")),
        Vec::<String>::new()
    );
    batch(
        &server,
        None,
        &board,
        27,
        json!({"status": "Working", "people": [me], "due": "2029-12-01"}),
    );
    let row = wait_for(&server, "pm_event", "27 items overdue on Ops");
    assert_eq!(row["count"], 27);
    settled(&server, &agent);
    assert_eq!(
        without_marker(titles(&server, "pm_event")),
        ["27 items overdue on Ops"]
    );
}

#[test]
fn board_preferences_all_assigned_only_and_none() {
    let server = server_with_engine();
    clock_at(&server, "2030-01-07T12:00:00Z");
    let me = me(&server);
    let agent = agent(&server);
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
        agent.patch(&server, &theirs, json!({"status": "Done"}));
        agent.patch(&server, &ours, json!({"status": "Done"}));
        // Due today: only where the preference lets them through.
        item(
            &server,
            board,
            "today",
            json!({"status": "Working", "people": [me], "due": "2030-01-07"}),
        );
    }
    settled(&server, &agent);
    let short = &agent.session;
    assert_eq!(
        without_marker(titles(&server, "pm_event")),
        [
            format!("2 items changed on All by agent session {short}"),
            "All: today is due today".to_owned(),
            "Mine: ours: Working → Done".to_owned(),
            "Mine: today is due today".to_owned(),
        ]
    );
}

#[test]
fn quiet_hours_across_midnight_hold_but_overdue_goes_at_once() {
    let server = server_with_engine();
    // 22:30 in Berlin (UTC+1 in winter).
    clock_at(&server, "2030-01-07T21:30:00Z");
    let me = me(&server);
    let agent = agent(&server);
    server.set_setting("pmInboxQuietHoursTimeZone", json!("Europe/Berlin"));
    server.set_setting("pmInboxQuietHoursStart", json!("22:00"));
    server.set_setting("pmInboxQuietHoursEnd", json!("08:00"));
    server.set_setting("pmInboxQuietHoursEnabled", json!(true));
    let board = board(&server, "Roadmap");
    let launch = item(&server, &board, "Launch", json!({"status": "Working"}));
    agent.patch(&server, &launch, json!({"status": "Done"}));
    item(
        &server,
        &board,
        "Late",
        json!({"status": "Working", "due": "2030-01-02", "people": [me]}),
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
    // Overdue once per item per day, however often a day is scanned: one
    // row on the 7th (when it was made) and one on the 8th.
    let overdue = titles(&server, "pm_event")
        .into_iter()
        .filter(|t| t.contains("Late is overdue"))
        .count();
    assert_eq!(overdue, 2);
}

#[test]
fn quiet_hours_end_at_local_time_across_a_daylight_saving_change() {
    let server = server_with_engine();
    // 2030-03-10 in New York: 02:00 EST jumps to 03:00 EDT. 22:30 EST on the 9th.
    clock_at(&server, "2030-03-10T03:30:00Z");
    let me = me(&server);
    let agent = agent(&server);
    server.set_setting("pmInboxQuietHoursTimeZone", json!("America/New_York"));
    server.set_setting("pmInboxQuietHoursEnabled", json!(true));
    let board = board(&server, "Roadmap");
    let launch = item(&server, &board, "Launch", json!({"status": "Working"}));
    agent.patch(&server, &launch, json!({"status": "Done"}));
    let marker = item(
        &server,
        &board,
        "Marker",
        json!({"due": "2030-03-01", "people": [me]}),
    );
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
    let server = server_with_engine();
    clock_at(&server, "2030-01-07T10:10:00Z");
    let me = me(&server);
    let agent = agent(&server);
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    server.set_setting("pmInboxDigestMode", json!(true));
    let (alpha, beta) = (board(&server, "Alpha"), board(&server, "Beta"));
    for (board, name) in [(&alpha, "one"), (&alpha, "two"), (&beta, "three")] {
        let item = item(&server, board, name, json!({"status": "Working"}));
        agent.patch(&server, &item, json!({"status": "Done"}));
    }
    // An overdue item is not batched: it proves the events were read.
    item(
        &server,
        &beta,
        "Late",
        json!({"due": "2030-01-01", "people": [me]}),
    );
    wait_for(
        &server,
        "pm_event",
        "Beta: Late is overdue (due 2030-01-01)",
    );
    assert!(rows(&server, "digest").is_empty());
    clock_at(&server, "2030-01-07T11:00:00Z");
    let digest = wait_for(&server, "digest", "Project digest: 3 events on 2 boards");
    let short = &agent.session;
    assert_eq!(
        digest["body"],
        format!(
            "Alpha (2)\n- 2 items changed (by agent session {short})\n\n\
             Beta (1)\n- three: Working → Done (by agent session {short})"
        )
    );
    assert_eq!(titles(&server, "pm_event").len(), 1, "only the overdue row");
}

#[test]
fn the_daily_digest_sums_the_day() {
    let server = server_with_engine();
    clock_at(&server, "2030-01-07T12:00:00Z");
    let agent = agent(&server);
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    server.set_setting("dailyDigestEnabled", json!(true));
    let board = board(&server, "Roadmap");
    let launch = item(&server, &board, "Launch", json!({"status": "Working"}));
    agent.patch(&server, &launch, json!({"status": "Done"}));
    wait_for(&server, "pm_event", "Roadmap: Launch: Working → Done");
    clock_at(&server, "2030-01-08T00:00:01Z");
    let digest = wait_for(&server, "digest", "Daily briefing for 2030-01-08");
    // No engine can write it (a `command` engine only): the facts alone.
    let body = digest["body"].as_str().unwrap();
    assert!(
        body.contains(&format!(
            "Project events:\n- 1 event yesterday\n\
             - Roadmap: Launch: Working → Done (by agent session {})",
            agent.session
        )),
        "{body}"
    );
    assert!(
        body.contains("Sessions:\n- 1 started, 0 finished, 0 failed; cost $0.00"),
        "{body}"
    );
}

#[test]
fn read_rows_go_a_month_on_and_unread_rows_stay() {
    let server = server_with_engine();
    clock_at(&server, "2030-01-07T12:00:00Z");
    let agent = agent(&server);
    let (read, unread) = (board(&server, "Read"), board(&server, "Unread"));
    for board in [&read, &unread] {
        let item = agent.item(&server, board, "Task", json!({"status": "Working"}));
        agent.patch(&server, &item, json!({"status": "Done"}));
    }
    let row = wait_for(&server, "pm_event", "Read: Task: Working → Done");
    wait_for(&server, "pm_event", "Unread: Task: Working → Done");
    let reply = server.call(
        "PATCH",
        &format!("/inbox/{}", row["id"].as_str().unwrap()),
        Some(&json!({"read": true})),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    // Days pass one at a time, as they would.
    for day in 8..=31 {
        clock_at(&server, &format!("2030-01-{day:02}T12:00:00Z"));
    }
    assert!(
        titles(&server, "pm_event").contains(&"Read: Task: Working → Done".to_owned()),
        "kept for a month"
    );
    clock_at(&server, "2030-02-07T12:00:00Z");
    let deadline = Instant::now() + Duration::from_secs(30);
    while titles(&server, "pm_event").contains(&"Read: Task: Working → Done".to_owned()) {
        assert!(Instant::now() < deadline, "the read row was never pruned");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(titles(&server, "pm_event").contains(&"Unread: Task: Working → Done".to_owned()));
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
