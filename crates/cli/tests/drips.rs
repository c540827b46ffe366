//! Scheduled messages and drips through a real server on a manual clock:
//! a one-off note reaches the inbox at its time and not before (from the
//! API, the CLI and an agent's token, whose row names its session), a
//! recurring one keeps its local time across a daylight-saving change, a
//! folder drip releases its files in order on its cadence and says once
//! when it runs dry, `dripGlobalPause` consumes ticks without releasing,
//! a server down across several ticks delivers at most one of each on its
//! return, the settings turn the routes off, and bad input is a 400 naming
//! its field that changes nothing.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

/// 2026-01-05T08:00:00Z, where the manual clock starts.
const START_MS: i64 = 1_767_600_000_000;

/// A server on a manual clock started at `start_ms`, in `dir`, whose
/// `holder` engine (a script in `scratch`) records each session's agent
/// token beside itself and stays up.
fn server_in(dir: tempfile::TempDir, scratch: tempfile::TempDir, start_ms: i64) -> TestServer {
    let script = scratch.path().join("holder.sh");
    let record = "#!/bin/sh\nprintf '%s' \"$APP_CLI_TOKEN\" > \"$(dirname \"$0\")/token-$APP_SESSION_ID\"\nexec sleep 300\n";
    std::fs::write(&script, record).unwrap();
    let engines =
        format!("[engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", {script:?}]\n");
    std::fs::write(dir.path().join("engines.toml"), engines).unwrap();
    let start = start_ms.to_string();
    TestServer::start_in_with(dir, &["--manual-clock-start-ms", &start]).keeping(scratch)
}

fn server() -> TestServer {
    server_in(
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        START_MS,
    )
}

fn move_clock(server: &TestServer, at: &str) {
    let reply = server.call("POST", "/test/clock", Some(&json!({"at": at})));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

/// The inbox's `note` rows that scheduled messages and drips made, oldest
/// first (other features make notes too).
fn notes(server: &TestServer) -> Vec<Value> {
    let reply = server.call("GET", "/inbox?category=note", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let mut rows = reply.json().as_array().cloned().unwrap_or_default();
    rows.retain(|row| {
        ["scheduled_message", "drip", "drip_exhausted", "late"]
            .contains(&row["reason"].as_str().unwrap_or_default())
    });
    rows.reverse();
    rows
}

/// Waits until the inbox holds `count` notes, then a little longer to see
/// that no more come.
fn wait_for_notes(server: &TestServer, count: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let rows = notes(server);
        if rows.len() >= count {
            std::thread::sleep(Duration::from_millis(400));
            let settled = notes(server);
            assert_eq!(settled.len(), count, "{settled:#?}");
            return settled;
        }
        assert!(Instant::now() < deadline, "notes: {rows:#?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Asserts that the inbox still holds `count` notes after the server had
/// time to deliver one.
fn still(server: &TestServer, count: usize) {
    std::thread::sleep(Duration::from_millis(500));
    let rows = notes(server);
    assert_eq!(rows.len(), count, "{rows:#?}");
}

fn created(reply: common::Reply) -> Value {
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

fn refused(reply: &common::Reply, status: u16, field: &str) {
    assert_eq!(reply.status, status, "{}", reply.text());
    assert_eq!(reply.json()["error"]["field"], field, "{}", reply.text());
}

#[test]
fn scheduled_messages_arrive_at_their_time_from_the_api_the_cli_and_an_agent() {
    let server = server();
    // A one-off at 09:30 Berlin time (08:30 UTC), made by the owner.
    let message = created(server.call(
        "POST",
        "/scheduled-messages",
        Some(
            &json!({"markdown": "# Water the plants\nThe ones on the balcony too.",
                     "at": "2026-01-05T09:30", "timeZone": "Europe/Berlin"}),
        ),
    ));
    assert_eq!(message["title"], "Water the plants");
    assert_eq!(message["nextAt"], "2026-01-05T08:30:00.000Z");
    move_clock(&server, "2026-01-05T08:29:50Z");
    still(&server, 0);
    move_clock(&server, "2026-01-05T08:30:01Z");
    let rows = wait_for_notes(&server, 1);
    assert_eq!(rows[0]["title"], "Water the plants");
    assert!(rows[0]["body"].as_str().unwrap().contains("balcony"));
    let id = message["id"].as_str().unwrap();
    let done = server
        .call("GET", &format!("/scheduled-messages/{id}"), None)
        .json();
    assert_eq!(
        (done["state"].clone(), done["deliveries"].clone()),
        (json!("done"), json!(1))
    );

    // From the CLI, listed by it too.
    let added = server.cli(&[
        "messages",
        "add",
        "--markdown",
        "Stand-up in ten minutes",
        "--at",
        "2026-01-05T09:50:00+01:00",
    ]);
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );
    let listed = server.cli(&["messages", "list"]);
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(listed.contains("Stand-up in ten minutes"), "{listed}");
    let bad = server.cli(&["messages", "add", "--markdown", "x", "--at", "later"]);
    assert!(!bad.status.success());
    move_clock(&server, "2026-01-05T08:50:00Z");
    let rows = wait_for_notes(&server, 2);
    assert_eq!(rows[1]["title"], "Stand-up in ten minutes");

    // An agent's token may make one: active at once, its row names the session.
    let (session, token) = server.holder_session();
    let by_agent = created(server.call_as(
        &token,
        "POST",
        "/scheduled-messages",
        Some(&json!({"markdown": "Build finished", "at": "2026-01-05T09:00:00Z"})),
    ));
    assert_eq!(by_agent["createdBySession"], json!(session));
    assert_eq!(by_agent["state"], "active");
    let forbidden = server.call_as(
        &token,
        "DELETE",
        &format!("/scheduled-messages/{}", by_agent["id"].as_str().unwrap()),
        None,
    );
    assert_eq!(forbidden.status, 403, "{}", forbidden.text());
    move_clock(&server, "2026-01-05T09:00:00Z");
    let rows = wait_for_notes(&server, 3);
    assert_eq!(rows[2]["source"]["sessionId"], json!(session));
    assert_eq!(rows[2]["actions"][0]["kind"], "open_session");
}

#[test]
fn a_recurring_message_keeps_its_local_time_across_a_daylight_saving_change() {
    let server = server();
    move_clock(&server, "2026-03-27T12:00:00Z");
    let message = created(server.call(
        "POST",
        "/scheduled-messages",
        Some(
            &json!({"markdown": "Daily review", "rrule": "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
                     "timeZone": "Europe/Berlin"}),
        ),
    ));
    // 09:00 in Berlin: 08:00 UTC in winter time.
    assert_eq!(message["nextAt"], "2026-03-28T08:00:00.000Z");
    move_clock(&server, "2026-03-28T08:00:02Z");
    wait_for_notes(&server, 1);
    let id = message["id"].as_str().unwrap();
    let after = server
        .call("GET", &format!("/scheduled-messages/{id}"), None)
        .json();
    // Summer time began that night: 09:00 is 07:00 UTC.
    assert_eq!(after["nextAt"], "2026-03-29T07:00:00.000Z");
    move_clock(&server, "2026-03-29T06:59:00Z");
    still(&server, 1);
    move_clock(&server, "2026-03-29T07:00:02Z");
    wait_for_notes(&server, 2);

    // Paused, it delivers nothing; resumed, it waits for its next tick.
    let paused = server.call("POST", &format!("/scheduled-messages/{id}/pause"), None);
    assert_eq!(paused.json()["state"], "paused", "{}", paused.text());
    move_clock(&server, "2026-03-30T07:00:02Z");
    still(&server, 2);
    let resumed = server.call("POST", &format!("/scheduled-messages/{id}/resume"), None);
    assert_eq!(resumed.json()["nextAt"], "2026-03-31T07:00:00.000Z");
    let twice = server.call("POST", &format!("/scheduled-messages/{id}/resume"), None);
    assert_eq!(twice.status, 409, "{}", twice.text());
}

#[test]
fn bad_input_is_a_400_naming_its_field_and_changes_nothing() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let missing = folder.path().join("missing").display().to_string();
    let folder_missing =
        json!({"name": "Tips", "cron": "0 9 * * *", "timeZone": "UTC", "folder": missing});
    refused(
        &server.call("POST", "/drips", Some(&folder_missing)),
        400,
        "folder",
    );
    // Each case: the field the 400 names, where it is sent, and the body.
    for case in [
        r#"rrule scheduled-messages {"markdown":"x","rrule":"FREQ=NEVER","timeZone":"UTC"}"#,
        r#"cron scheduled-messages {"markdown":"x","cron":"61 * * * *","timeZone":"UTC"}"#,
        r#"timeZone scheduled-messages {"markdown":"x","rrule":"FREQ=DAILY","timeZone":"Mars/Olympus"}"#,
        r#"timeZone scheduled-messages {"markdown":"x","at":"2026-01-05T10:00"}"#,
        r#"at scheduled-messages {"markdown":"x","at":"2025-12-31T10:00:00Z"}"#,
        r#"markdown scheduled-messages {"markdown":"  ","at":"2026-01-06T10:00:00Z"}"#,
        r#"at scheduled-messages {"markdown":"x"}"#,
        r#"cron drips {"name":"Tips","cron":"0 9 * *","timeZone":"UTC"}"#,
        r#"rrule drips {"name":"Tips","rrule":"FREQ=DAILY;BYHOUR=25","timeZone":"UTC"}"#,
        r#"timeZone drips {"name":"Tips","cron":"0 9 * * *","timeZone":"Europe/Nowhere"}"#,
        r#"name drips {"name":"","cron":"0 9 * * *","timeZone":"UTC"}"#,
    ] {
        let mut parts = case.splitn(3, ' ');
        let (field, path, body) = (parts.next(), parts.next(), parts.next());
        let body: Value = serde_json::from_str(body.unwrap()).unwrap();
        let reply = server.call("POST", &format!("/{}", path.unwrap()), Some(&body));
        refused(&reply, 400, field.unwrap());
    }
    // Every bad field at once, each a sentence under its own name.
    let fields = |reply: common::Reply| -> Vec<(String, String)> {
        assert_eq!(reply.status, 400, "{}", reply.text());
        let body = reply.json();
        assert_eq!(
            body["error"]["message"],
            body["error"]["fields"][0]["message"]
        );
        body["error"]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let text = |key: &str| f[key].as_str().unwrap().to_owned();
                (text("field"), text("message"))
            })
            .collect()
    };
    let said = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(f, m)| ((*f).to_owned(), (*m).to_owned()))
            .collect()
    };
    let late = json!({"markdown": " ", "at": "2026-01-05T07:00:00Z"});
    assert_eq!(
        fields(server.call("POST", "/scheduled-messages", Some(&late))),
        said(&[
            ("markdown", "Write the note."),
            ("at", "That time has passed: 07:00 this morning."),
        ])
    );
    let drip = json!({"name": "", "cron": "61 25 * * *", "timeZone": "Mars/Olympus",
                      "folder": missing});
    assert_eq!(
        fields(server.call("POST", "/drips", Some(&drip))),
        said(&[
            ("name", "Name the drip."),
            (
                "folder",
                &format!("No folder {missing} exists on this machine.")
            ),
            (
                "timeZone",
                "No time zone is called Mars/Olympus: use a name such as Europe/Berlin.",
            ),
            ("cron", "The minute must be 0–59, not 61."),
            ("cron", "The hour must be 0–23, not 25."),
        ])
    );
    let unknown = server.call(
        "POST",
        "/drips",
        Some(&json!({"name": "x", "color": "red"})),
    );
    assert_eq!(unknown.status, 400, "{}", unknown.text());
    assert_eq!(
        server.call("GET", "/scheduled-messages", None).json()["messages"],
        json!([])
    );
    assert_eq!(
        server.call("GET", "/drips", None).json()["drips"],
        json!([])
    );
}

/// A folder drip of three files, released every day at 09:00 UTC.
fn folder_drip(server: &TestServer, folder: &std::path::Path) -> String {
    for (name, text) in [
        ("10-last.md", "# Last\nThe end."),
        ("2-card.html", "<!doctype html><p>A card</p>"),
        ("1-welcome.md", "# Welcome\nDay one."),
    ] {
        std::fs::write(folder.join(name), text).unwrap();
    }
    let drip = created(server.call(
        "POST",
        "/drips",
        Some(&json!({"name": "Course", "folder": folder, "cron": "0 9 * * *", "timeZone": "UTC"})),
    ));
    assert_eq!(
        (drip["remaining"].clone(), drip["nextAt"].clone()),
        (json!(3), json!("2026-01-05T09:00:00.000Z"))
    );
    drip["id"].as_str().unwrap().to_owned()
}

#[test]
fn a_drip_releases_in_order_the_global_pause_skips_and_an_empty_queue_says_so() {
    let server = server();
    let folder = tempfile::tempdir().unwrap();
    let id = folder_drip(&server, folder.path());
    move_clock(&server, "2026-01-05T08:59:00Z");
    still(&server, 0);
    move_clock(&server, "2026-01-05T09:00:01Z");
    let rows = wait_for_notes(&server, 1);
    assert_eq!(rows[0]["title"], "Course: 1-welcome");
    assert!(rows[0]["body"].as_str().unwrap().contains("Day one."));

    // The global pause: the tick passes, nothing is released, cadence kept.
    server.set_setting("dripGlobalPause", json!(true));
    move_clock(&server, "2026-01-06T09:00:01Z");
    still(&server, 1);
    let drip = server.call("GET", &format!("/drips/{id}"), None).json();
    assert_eq!(drip["skipped"], 1, "{drip}");
    assert_eq!(drip["nextAt"], "2026-01-07T09:00:00.000Z");
    server.set_setting("dripGlobalPause", json!(false));
    still(&server, 1);

    move_clock(&server, "2026-01-07T09:00:01Z");
    let rows = wait_for_notes(&server, 2);
    assert_eq!(rows[1]["title"], "Course: 2-card");
    // An HTML item is not put in the inbox as markup; the drip opens it.
    assert!(!rows[1]["body"].as_str().unwrap().contains("<p>"));
    assert_eq!(rows[1]["actions"][0]["kind"], "open_path");
    move_clock(&server, "2026-01-08T09:00:01Z");
    let rows = wait_for_notes(&server, 3);
    assert_eq!(rows[2]["title"], "Course: 10-last");
    move_clock(&server, "2026-01-09T09:00:01Z");
    let rows = wait_for_notes(&server, 4);
    assert_eq!(rows[3]["title"], "Course: nothing left to release");
    move_clock(&server, "2026-01-10T09:00:01Z");
    still(&server, 4);
    let drip = server.call("GET", &format!("/drips/{id}"), None).json();
    assert_eq!(
        (drip["exhausted"].clone(), drip["released"].clone()),
        (json!(true), json!(3))
    );

    // The items as they went; the HTML one previewed only sandboxed.
    let items = server
        .call("GET", &format!("/drips/{id}/items"), None)
        .json()["items"]
        .clone();
    let card = items[1]["id"].as_str().unwrap();
    let preview = server.call("GET", &format!("/drips/{id}/items/{card}/preview"), None);
    assert_eq!(preview.status, 200, "{}", preview.text());
    let policy = preview
        .header("content-security-policy")
        .unwrap_or_default();
    assert!(
        policy.starts_with("sandbox;") && policy.contains("default-src 'none'"),
        "{policy}"
    );
    assert!(
        preview
            .text()
            .starts_with("<!doctype html><meta http-equiv=\"Content-Security-Policy\"")
    );
    let markdown = items[0]["id"].as_str().unwrap();
    let not_html = server.call(
        "GET",
        &format!("/drips/{id}/items/{markdown}/preview"),
        None,
    );
    assert_eq!(not_html.error_code(), "not_html");
    server.set_setting("dripHtmlPreviewEnabled", json!(false));
    let off = server.call("GET", &format!("/drips/{id}/items/{card}/preview"), None);
    assert_eq!(off.error_code(), "drip_html_preview_disabled");
    // A refusal from that address is sandboxed too, an agent's included.
    let (_, token) = server.holder_session();
    let as_agent = server.call_as(
        &token,
        "GET",
        &format!("/drips/{id}/items/{card}/preview"),
        None,
    );
    assert_eq!(as_agent.status, 403, "{}", as_agent.text());
    for refused in [&not_html, &off, &as_agent] {
        let policy = refused
            .header("content-security-policy")
            .unwrap_or_default();
        assert!(policy.starts_with("sandbox;"), "{policy}");
    }

    // Drips are the user's: an agent's token neither lists nor makes one.
    assert_eq!(server.call_as(&token, "GET", "/drips", None).status, 403);
    // The features off: their routes say so.
    server.set_setting("dripEnabled", json!(false));
    assert_eq!(
        server.call("GET", "/drips", None).error_code(),
        "drips_disabled"
    );
    server.set_setting("scheduledMessagesEnabled", json!(false));
    let off = server.call("GET", "/scheduled-messages", None);
    assert_eq!(off.error_code(), "scheduled_messages_disabled");
}

#[test]
fn a_server_down_across_several_ticks_delivers_at_most_one_of_each() {
    let mut server = server();
    let folder = tempfile::tempdir().unwrap();
    let id = folder_drip(&server, folder.path());
    created(server.call(
        "POST",
        "/scheduled-messages",
        Some(&json!({"markdown": "Hourly check", "cron": "0 * * * *", "timeZone": "UTC"})),
    ));
    server.stop();
    // Back four and a half days later: five drip ticks and 98 hourly ones passed.
    let dir = std::mem::replace(&mut server.dir, tempfile::tempdir().unwrap());
    let scratch = server.scratch.take().unwrap();
    let back_ms = START_MS + 4 * 86_400_000 + 3_600_000 + 1_800_000;
    let server = server_in(dir, scratch, back_ms);
    let rows = wait_for_notes(&server, 2);
    let titles: Vec<&str> = rows.iter().filter_map(|r| r["title"].as_str()).collect();
    assert!(titles.contains(&"Course: 1-welcome"), "{titles:?}");
    assert!(titles.contains(&"Hourly check"), "{titles:?}");
    assert!(rows.iter().all(|r| r["reason"] == "late"), "{rows:#?}");
    let drip = server.call("GET", &format!("/drips/{id}"), None).json();
    assert_eq!(drip["nextAt"], "2026-01-10T09:00:00.000Z");
    assert_eq!(drip["remaining"], 2);
    // The next ticks go on as usual.
    move_clock(&server, "2026-01-09T10:00:01Z");
    wait_for_notes(&server, 3);
}

#[test]
fn release_next_now_delivers_the_next_item_and_the_ticks_go_on() {
    let server = server();
    let drip = created(server.call(
        "POST",
        "/drips",
        Some(&json!({"name": "Tips", "cron": "0 9 * * *", "timeZone": "UTC"})),
    ));
    let id = drip["id"].as_str().unwrap();
    for (name, content) in [("one.md", "First tip."), ("two.md", "Second tip.")] {
        created(server.call(
            "POST",
            &format!("/drips/{id}/items"),
            Some(&json!({"name": name, "content": content})),
        ));
    }
    let released = server.call("POST", &format!("/drips/{id}/release"), None);
    assert_eq!(released.status, 200, "{}", released.text());
    let after = released.json();
    assert_eq!(
        (after["released"].clone(), after["remaining"].clone()),
        (json!(1), json!(1))
    );
    // Its ticks go on as they were.
    assert_eq!(after["nextAt"], drip["nextAt"]);
    let rows = wait_for_notes(&server, 1);
    assert!(
        rows[0]["body"].as_str().unwrap().contains("First tip."),
        "{rows:#?}"
    );

    // The next tick releases the item after it; then nothing waits.
    move_clock(&server, "2026-01-05T09:00:05Z");
    let rows = wait_for_notes(&server, 2);
    assert!(
        rows[1]["body"].as_str().unwrap().contains("Second tip."),
        "{rows:#?}"
    );
    let empty = server.call("POST", &format!("/drips/{id}/release"), None);
    assert_eq!(empty.status, 409, "{}", empty.text());
    assert_eq!(empty.error_code(), "nothing_waiting");
    assert_eq!(server.call("POST", "/drips/nope/release", None).status, 404);
}
