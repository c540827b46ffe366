//! The live event stream against a real server: `output` and `session`
//! events of a `command` engine, resumes with `Last-Event-ID`, per-account
//! isolation, a stalled reader dropped without slowing the API, `settings`
//! and `board` events, and the UI server's `/api/stream` with its keep-alive
//! and a clean shutdown with a stream open.
//! SSE is read off a plain socket, line by line, with deadlines everywhere.

mod common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::sse::{Received, Stream};
use common::{TestServer, request};
use serde_json::json;

fn server_with_engines() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let keep_token = format!(
        "printf %s \"$APP_CLI_TOKEN\" > {}/agent-token; cat",
        scratch.path().display()
    );
    let toml = format!(
        "[engines.cat]\nkind = \"command\"\ncommand = [\"/bin/cat\"]\n\n\
         [engines.flood]\nkind = \"command\"\n\
         command = [\"/bin/sh\", \"-c\", \"for i in $(seq 40); do head -c 1000000 /dev/zero | tr '\\\\0' x; sleep 0.1; done\"]\n\n\
         [engines.agent]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {keep_token:?}]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in(dir).keeping(scratch)
}

fn alert(server: &TestServer, token: &str, title: &str) {
    let reply = server.call_as(token, "POST", "/alert", Some(&json!({ "title": title })));
    assert_eq!(reply.status, 201, "{}", reply.text());
}

#[test]
fn a_command_engines_output_and_status_moves_arrive_live() {
    let server = server_with_engines();
    let mut stream = Stream::bearer(&server, &server.token, None);
    let id = server.browser_session("cat", "hello from the stream")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let events = stream.until(|e| e.is_waiting(&id));

    let outputs: Vec<&Received> = events.iter().filter(|e| e.name == "output").collect();
    let (input, outputs) = outputs.split_first().expect("output events");
    assert_eq!(
        input.data["entry"]["kind"], "input",
        "the turn opens with its input"
    );
    assert_eq!(input.data["entry"]["text"], "hello from the stream");
    assert_eq!(input.data["entry"]["source"], "prompt");
    let output: String = outputs
        .iter()
        .map(|e| {
            assert_eq!(e.data["sessionId"], id.as_str());
            assert_eq!(e.data["turn"], 1);
            assert!(e.data["seq"].as_i64().is_some(), "{:?}", e.data);
            assert_eq!(e.data["entry"]["kind"], "stdout");
            e.data["entry"]["text"].as_str().unwrap().to_owned()
        })
        .collect();
    assert!(output.contains("hello from the stream"), "{output:?}");

    let statuses: Vec<&str> = events
        .iter()
        .filter(|e| e.name == "session" && e.data["id"] == id.as_str())
        .map(|e| e.data["status"].as_str().unwrap())
        .collect();
    // Each event carries the session as read after its change, so a quick
    // turn may skip `running`; what arrives never goes backwards.
    let order = ["starting", "running", "waiting_for_input"];
    let places: Vec<usize> = statuses
        .iter()
        .map(|s| order.iter().position(|o| o == s).unwrap())
        .collect();
    assert!(places.is_sorted(), "{statuses:?}");
    assert!(
        statuses.len() >= 2,
        "the spawn and the end of the turn: {statuses:?}"
    );
    // A session event carries the session as GET /sessions/<id> does.
    let last = events.last().unwrap();
    let read = server.call("GET", &format!("/sessions/{id}"), None).json();
    assert_eq!(last.data["engine"], read["engine"]);
    assert_eq!(last.data["cwd"], read["cwd"]);

    let mut ids: Vec<&str> = events.iter().map(|e| e.id.as_str()).collect();
    ids.dedup();
    assert_eq!(ids.len(), events.len(), "ids are unique");

    let archived = server.call("POST", &format!("/sessions/{id}/archive"), None);
    assert_eq!(archived.status, 200, "{}", archived.text());
    let events = stream.until(|e| e.name == "session" && e.data["archived"] == true);
    assert_eq!(events.last().unwrap().data["status"], "finished");
}

#[test]
fn a_reconnect_with_last_event_id_misses_nothing() {
    let server = TestServer::start();
    let mut watcher = Stream::bearer(&server, &server.token, None);
    let mut first = Stream::bearer(&server, &server.token, None);
    for n in 0..3 {
        alert(&server, &server.token, &format!("before {n}"));
    }
    let seen = first.until(|e| e.data["title"] == "before 2");
    let last_seen = seen.last().unwrap().id.clone();
    drop(first);
    for n in 0..5 {
        alert(&server, &server.token, &format!("while away {n}"));
    }
    server.set_setting("sessionAutoFocusInput", json!(false));

    let mut again = Stream::bearer(&server, &server.token, Some(&last_seen));
    let resumed = again.until(|e| e.name == "settings");
    let everything = watcher.until(|e| e.name == "settings");
    let after: Vec<(String, String)> = everything
        .iter()
        .skip_while(|e| e.id != last_seen)
        .skip(1)
        .map(|e| (e.id.clone(), e.name.clone()))
        .collect();
    let got: Vec<(String, String)> = resumed
        .iter()
        .map(|e| (e.id.clone(), e.name.clone()))
        .collect();
    assert_eq!(got, after);
    assert_eq!(got.len(), 6, "five alerts and the setting");

    // An id the server does not hold (here: not one of this run's) asks for a refetch.
    let mut stale = Stream::bearer(&server, &server.token, Some("1-1"));
    let reset = stale.next(Duration::from_secs(10)).unwrap();
    assert_eq!(reset.name, "reset");
}

#[test]
fn an_account_never_receives_another_accounts_events() {
    let server = server_with_engines();
    let other = server
        .call("POST", "/accounts", Some(&json!({"name": "other"})))
        .json()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut mine = Stream::bearer(&server, &server.token, None);
    let mut theirs = Stream::bearer(&server, &other, None);

    let id = server.browser_session("cat", "private words")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    alert(&server, &server.token, "private alert");
    mine.until(|e| e.is_waiting(&id));

    // The other account's own alert comes after everything above: whatever
    // it received before it is what leaked.
    alert(&server, &other, "their own");
    let received = theirs.until(|e| e.name == "inbox");
    assert_eq!(received.len(), 1, "{received:#?}");
    assert_eq!(received[0].data["title"], "their own");
}

#[test]
fn a_client_that_never_reads_is_dropped_without_slowing_the_api() {
    let server = server_with_engines();
    let mut stalled = Stream::bearer(&server, &server.token, None);
    let mut live = Stream::bearer(&server, &server.token, None);
    // 40 MB of output in 64 KiB events: far more than the socket buffers
    // and the subscriber's 256-event buffer hold. Written a megabyte at a
    // time, a tenth of a second apart, so a client that reads keeps up even
    // in a debug build on a busy machine; unpaced, it too could fall 256
    // events behind and be dropped, as the contract says it should.
    let id = server.browser_session("flood", "go")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let watched = id.clone();
    // The reading client reads on its own thread, so probing the API never
    // keeps it from keeping up.
    let reader = std::thread::spawn(move || {
        let mut output_bytes = 0;
        let deadline = Instant::now() + Duration::from_secs(120);
        while let Some(event) = live.next(deadline.saturating_duration_since(Instant::now())) {
            if event.name == "output" && event.data["entry"]["kind"] == "stdout" {
                output_bytes += event.data["entry"]["text"].as_str().unwrap().len();
            }
            if event.is_waiting(&watched) {
                break;
            }
        }
        output_bytes
    });
    let mut slowest = Duration::ZERO;
    while !reader.is_finished() {
        let started = Instant::now();
        let reply = server.call("GET", "/settings", None);
        assert_eq!(reply.status, 200);
        slowest = slowest.max(started.elapsed());
        std::thread::sleep(Duration::from_millis(20));
    }
    let output_bytes = reader.join().unwrap();
    assert_eq!(
        output_bytes, 40_000_000,
        "the reading client got everything"
    );
    // Loose on purpose (a shared machine): a stalled client would make this unbounded.
    assert!(
        slowest < Duration::from_secs(5),
        "GET /settings took {slowest:?}"
    );

    // Now read the stalled client: what was buffered, then reset, then the end.
    let mut last = None;
    let deadline = Instant::now() + Duration::from_secs(60);
    while let Some(event) = stalled.next(Duration::from_secs(5)) {
        last = Some(event);
        assert!(Instant::now() < deadline, "the stalled stream never ended");
    }
    assert!(stalled.ended, "the server closed the stalled stream");
    assert_eq!(last.map(|e| e.name).as_deref(), Some("reset"));
}

#[test]
fn settings_and_board_changes_are_announced() {
    let server = TestServer::start();
    let other = server
        .call("POST", "/accounts", Some(&json!({"name": "other"})))
        .json()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut stream = Stream::bearer(&server, &server.token, None);
    let mut theirs = Stream::bearer(&server, &other, None);

    server.set_setting("sessionAutoFocusInput", json!(false));
    let setting = stream.until(|e| e.name == "settings").pop().unwrap();
    assert_eq!(
        setting.data,
        json!({"key": "sessionAutoFocusInput", "value": false})
    );
    // Settings belong to the installation: every account hears of a change.
    let setting = theirs.until(|e| e.name == "settings").pop().unwrap();
    assert_eq!(setting.data["key"], "sessionAutoFocusInput");
    let reset = server.call("DELETE", "/settings/sessionAutoFocusInput", None);
    assert_eq!(reset.status, 200);
    let setting = stream.until(|e| e.name == "settings").pop().unwrap();
    assert_eq!(
        setting.data,
        json!({"key": "sessionAutoFocusInput", "value": true})
    );

    let workspace = server
        .call("POST", "/workspaces", Some(&json!({"name": "W"})))
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let board = server
        .call(
            "POST",
            "/boards",
            Some(&json!({"workspaceId": workspace, "name": "B",
                         "columns": [{"title": "t", "type": "text"}]})),
        )
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let etag_now = || {
        request(
            server.control(),
            "GET",
            &format!("/boards/{board}/full"),
            &[("Authorization", &format!("Bearer {}", server.token))],
            None,
        )
        .header("etag")
        .unwrap()
        .to_owned()
    };

    let renamed = server.call(
        "PATCH",
        &format!("/boards/{board}"),
        Some(&json!({"name": "B2"})),
    );
    assert_eq!(renamed.status, 200, "{}", renamed.text());
    let event = stream.until(|e| e.name == "board").pop().unwrap();
    assert_eq!(event.data, json!({"boardId": board, "etag": etag_now()}));

    let item = server.call(
        "POST",
        &format!("/boards/{board}/items"),
        Some(&json!({"name": "first"})),
    );
    assert_eq!(item.status, 201, "{}", item.text());
    let item = item.json()["id"].as_str().unwrap().to_owned();
    let event = stream.until(|e| e.name == "board").pop().unwrap();
    assert_eq!(event.data, json!({"boardId": board, "etag": etag_now()}));

    let patched = server.call(
        "PATCH",
        &format!("/items/{item}"),
        Some(&json!({"name": "renamed"})),
    );
    assert_eq!(patched.status, 200, "{}", patched.text());
    let event = stream.until(|e| e.name == "board").pop().unwrap();
    assert_eq!(event.data, json!({"boardId": board, "etag": etag_now()}));

    let deleted = server.call("DELETE", &format!("/boards/{board}"), None);
    assert!(deleted.status < 300, "{}", deleted.text());
    let event = stream.until(|e| e.name == "board").pop().unwrap();
    assert_eq!(event.data, json!({"boardId": board, "etag": null}));

    // The other account saw the settings changes only.
    alert(&server, &other, "marker");
    let rest = theirs.until(|e| e.name == "inbox");
    let names: Vec<&str> = rest.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["settings", "inbox"]);
}

#[test]
fn the_ui_server_streams_to_the_browser_session_with_keep_alive_comments() {
    let dir = tempfile::tempdir().unwrap();
    let child = common::serve::serve_command(dir.path())
        .args(["--stream-keep-alive-ms", "100"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    common::serve::wait_for_server_file(dir.path(), &child);
    let addresses = common::serve::Addresses::read(dir.path());
    let server = TestServer {
        control: addresses.control,
        ui: addresses.ui,
        token: addresses.token,
        child: Some(child),
        dir,
        scratch: None,
    };
    let cookie = server.browser_cookie();
    let mut stream = Stream::open(&server.ui, "/api/stream", ("Cookie", &cookie), None);
    assert!(stream.next(Duration::from_millis(500)).is_none());
    assert!(
        stream.comments >= 2,
        "keep-alive comments: {}",
        stream.comments
    );
    alert(&server, &server.token, "seen in the browser");
    let event = stream.until(|e| e.name == "inbox").pop().unwrap();
    assert_eq!(event.data["title"], "seen in the browser");

    // Without the cookie: 401 like every other route.
    let reply = request(&server.ui, "GET", "/api/stream", &[], None);
    assert_eq!(reply.status, 401);

    // An open stream does not hold a shutdown up: it ends, and so does the server.
    let mut server = server;
    let started = Instant::now();
    assert!(server.stop().success());
    assert!(started.elapsed() < Duration::from_secs(5));
    while stream.next(Duration::from_secs(5)).is_some() {}
    assert!(stream.ended);
}

#[test]
fn an_agent_token_reads_its_accounts_stream_until_its_session_ends() {
    let server = server_with_engines();
    let mut owner = Stream::bearer(&server, &server.token, None);
    let id = server.browser_session("agent", "hold on")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    owner.until(|e| e.is_waiting(&id));
    let token = std::fs::read_to_string(server.scratch().join("agent-token")).unwrap();

    let mut agent = Stream::bearer(&server, &token, None);
    alert(&server, &token, "from the agent");
    let event = agent.until(|e| e.name == "inbox").pop().unwrap();
    assert_eq!(event.data["title"], "from the agent");

    let stopped = server.call("POST", &format!("/sessions/{id}/stop"), None);
    assert_eq!(stopped.status, 202, "{}", stopped.text());
    alert(&server, &server.token, "after the end");
    while agent.next(Duration::from_secs(5)).is_some() {}
    assert!(agent.ended, "the dead token's stream ended");
    let auth = format!("Bearer {token}");
    let reply = request(
        server.control(),
        "GET",
        "/stream",
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(reply.status, 401);
}
