//! The daily briefing's team chat section over real HTTP on a manual
//! clock, against a local stand-in for the Slack Web API's read methods
//! (`users.conversations`, `conversations.history`, paged by cursor, the
//! history filtered by `oldest`/`latest` as Slack does): no `mention_user`
//! says so; yesterday's mentions of the person are listed and reach the
//! model, while a message outside the day, one not naming the person and
//! the person's own are not; a quiet day says so; the service's refusal and its rate limiting
//! are one line each; a short `Retry-After` is waited out on the server's
//! clock, then read again.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

/// The person, as `mention_user` names them.
const ME: &str = "UME";
/// 2030-01-06T00:00:00Z and 2030-01-07T00:00:00Z: the day the briefing of
/// 2030-01-07 reads.
const YESTERDAY: (i64, i64) = (1_893_888_000, 1_893_974_400);

/// One read the stand-in answered.
#[derive(Debug, Clone)]
struct Call {
    method: String,
    token: String,
    query: HashMap<String, String>,
    status: u16,
}

/// How the stand-in answers each bearer token: `xoxb-good` reads as Slack,
/// `xoxb-quiet` has channels without messages, `xoxb-noscope` is refused, `xoxb-busy` is always rate limited for
/// 120 s, `xoxb-slow` is rate limited for 2 s on its first history read.
fn fake_slack() -> (String, Arc<Mutex<Vec<Call>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/api", listener.local_addr().unwrap());
    let calls = Arc::new(Mutex::new(Vec::new()));
    let recorded = calls.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let recorded = recorded.clone();
            std::thread::spawn(move || serve(stream, &recorded));
        }
    });
    (base, calls)
}

fn serve(stream: std::net::TcpStream, recorded: &Mutex<Vec<Call>>) {
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let target = line.split_whitespace().nth(1).unwrap_or("").to_owned();
        let (path, query) = target.split_once('?').unwrap_or((&target, ""));
        let method = path.strip_prefix("/api/").unwrap_or("").to_owned();
        let query: HashMap<String, String> = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        let mut token = String::new();
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("authorization")
            {
                token = value.trim().trim_start_matches("Bearer ").to_owned();
            }
        }
        let mut calls = recorded.lock().unwrap();
        let history_reads = calls
            .iter()
            .filter(|c| c.method == "conversations.history" && c.token == token)
            .count();
        let (status, reply) = match (token.as_str(), method.as_str()) {
            ("xoxb-noscope", _) => (200, json!({"ok": false, "error": "missing_scope"})),
            ("xoxb-quiet", "conversations.history") => (
                200,
                json!({"ok": true, "messages": [], "response_metadata": {"next_cursor": ""}}),
            ),
            ("xoxb-busy", "conversations.history") => {
                (429, json!({"ok": false, "error": "ratelimited"}))
            }
            ("xoxb-slow", "conversations.history") if history_reads == 0 => {
                (429, json!({"ok": false, "error": "ratelimited"}))
            }
            (_, "users.conversations") => (200, channels(&query)),
            (_, "conversations.history") => (200, history(&query)),
            _ => (200, json!({"ok": false, "error": "unknown_method"})),
        };
        calls.push(Call {
            method,
            token: token.clone(),
            query,
            status,
        });
        drop(calls);
        let text = reply.to_string();
        let wait = if status == 429 {
            let seconds = if token == "xoxb-slow" { 2 } else { 120 };
            format!("Retry-After: {seconds}\r\n")
        } else {
            String::new()
        };
        let response = format!(
            "HTTP/1.1 {status} {}\r\nContent-Type: application/json\r\n{wait}Content-Length: {}\r\n\r\n{text}",
            if status == 429 {
                "Too Many Requests"
            } else {
                "OK"
            },
            text.len()
        );
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

/// Two channels, one a page.
fn channels(query: &HashMap<String, String>) -> Value {
    match query.get("cursor").map(String::as_str) {
        None => json!({"ok": true, "channels": [{"id": "C1", "name": "general"}],
                       "response_metadata": {"next_cursor": "page2"}}),
        Some(_) => json!({"ok": true, "channels": [{"id": "C2", "name": "random"}],
                          "response_metadata": {"next_cursor": ""}}),
    }
}

/// A channel's messages between `oldest` and `latest`, newest first, two
/// a page.
fn history(query: &HashMap<String, String>) -> Value {
    let all = match query.get("channel").map(String::as_str) {
        Some("C1") => vec![
            json!({"type": "message", "user": "U2", "ts": "1893931200.000100",
                   "text": "<@UME> can you review the release notes?"}),
            json!({"type": "message", "user": "U3", "ts": "1893920000.000000",
                   "text": "lunch at noon?"}),
            json!({"type": "message", "subtype": "channel_join", "user": "UME",
                   "ts": "1893910000.000000", "text": "<@UME> has joined the channel"}),
            json!({"type": "message", "user": "U4", "ts": "1893900000.000300",
                   "text": "ping <@UME> about the &lt;outage&gt;",
                   "user_profile": {"display_name": "", "real_name": "Grace Hopper"}}),
            json!({"type": "message", "user": "U2", "ts": "1893800000.000000",
                   "text": "<@UME> from the day before"}),
        ],
        Some("C2") => vec![
            json!({"type": "message", "user": "U5", "ts": "1893992400.000000",
                   "text": "<@UME> posted today"}),
            json!({"type": "message", "user": "U5", "ts": "1893950000.000000",
                   "text": "<@UME> deploy moved to 5pm"}),
        ],
        _ => return json!({"ok": false, "error": "channel_not_found"}),
    };
    let bound = |key: &str| query.get(key).and_then(|v| v.parse::<f64>().ok());
    let (oldest, latest) = (
        bound("oldest").unwrap_or(0.0),
        bound("latest").unwrap_or(f64::MAX),
    );
    let within: Vec<Value> = all
        .into_iter()
        .filter(|m| {
            let ts: f64 = m["ts"].as_str().unwrap().parse().unwrap();
            oldest <= ts && ts <= latest
        })
        .collect();
    let start: usize = query
        .get("cursor")
        .and_then(|c| c.strip_prefix("from"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let end = (start + 2).min(within.len());
    let next = if end < within.len() {
        format!("from{end}")
    } else {
        String::new()
    };
    json!({"ok": true, "messages": within[start..end], "has_more": !next.is_empty(),
           "response_metadata": {"next_cursor": next}})
}

struct World {
    server: TestServer,
    scratch: PathBuf,
}

/// A server on a manual clock at 2030-01-07T09:00:00Z (UTC), the stand-in
/// model its primary engine, the briefing reading team chat alone.
fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().to_owned();
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.primary]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {:?}]\n\
             env = {{ PROMPT_LOG = {:?} }}\n",
            common::fixture("briefing-claude"),
            path.join("prompts").display().to_string(),
        ),
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &["--manual-clock"]).keeping(scratch);
    clock_at(&server, "2030-01-07T09:00:00Z");
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    server.set_setting(
        "dailyDigestSources",
        json!({"calendar": false, "webmail": false, "pm-events": false, "pm-feed-digest": false,
               "rss": false, "sessions": false, "chatApp": true, "sms": false, "messenger": false}),
    );
    World {
        server,
        scratch: path,
    }
}

fn clock_at(server: &TestServer, at: &str) {
    let reply = server.call("POST", "/test/clock", Some(&json!({"at": at})));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn use_token(server: &TestServer, token: &str) {
    let saved = server.call(
        "PUT",
        "/keys/SLACK_BOT_TOKEN",
        Some(&json!({"value": token})),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
}

/// Runs the daily briefing now; the row's body.
fn briefing(server: &TestServer) -> String {
    let reply = server.call("POST", "/digests/run?kind=daily", None);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    let rows = server.call(
        "GET",
        "/inbox?category=digest&state=all&limit=500&hidden=true",
        None,
    );
    rows.json()
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .and_then(|r| r["body"].as_str())
        .unwrap_or_else(|| panic!("no row {id}: {}", rows.text()))
        .to_owned()
}

const LISTED: &str = "Team chat:\n\
    - #general, Grace Hopper: ping @you about the <outage>\n\
    - #general, U2: @you can you review the release notes?\n\
    - #random, U5: @you deploy moved to 5pm";

#[test]
fn yesterdays_mentions_are_listed_and_failures_are_one_line() {
    let (base, calls) = fake_slack();
    let world = world();
    let server = &world.server;
    let toml = server.data_dir().join("teamchat.toml");
    std::fs::write(
        &toml,
        format!("base_url = {base:?}\ntoken_key = \"SLACK_BOT_TOKEN\"\n"),
    )
    .unwrap();
    use_token(server, "xoxb-good");
    let body = briefing(server);
    assert!(
        body.contains("Team chat: not set up (no mention_user in teamchat.toml)."),
        "{body}"
    );
    assert!(calls.lock().unwrap().is_empty());

    std::fs::write(
        &toml,
        format!("base_url = {base:?}\ntoken_key = \"SLACK_BOT_TOKEN\"\nmention_user = {ME:?}\n"),
    )
    .unwrap();
    let body = briefing(server);
    assert!(body.ends_with(LISTED), "{body}");
    assert!(
        !body.contains("lunch") && !body.contains("joined"),
        "{body}"
    );
    assert!(
        !body.contains("day before") && !body.contains("posted today"),
        "{body}"
    );
    // The facts reach the model, which wrote over them.
    assert!(body.starts_with("Start with the stand-up"), "{body}");
    let prompts = std::fs::read_to_string(world.scratch.join("prompts")).unwrap();
    assert!(
        prompts.contains("#random, U5: @you deploy moved to 5pm"),
        "{prompts}"
    );
    // Both channel pages, each channel's history over yesterday, C1 in two pages.
    let recorded = calls.lock().unwrap().clone();
    let methods: Vec<(&str, Option<&str>)> = recorded
        .iter()
        .map(|c| (c.method.as_str(), c.query.get("cursor").map(String::as_str)))
        .collect();
    assert_eq!(
        methods,
        [
            ("users.conversations", None),
            ("users.conversations", Some("page2")),
            ("conversations.history", None),
            ("conversations.history", Some("from2")),
            ("conversations.history", None),
        ]
    );
    for call in recorded
        .iter()
        .filter(|c| c.method == "conversations.history")
    {
        assert_eq!(call.query["oldest"], YESTERDAY.0.to_string());
        assert_eq!(call.query["latest"], YESTERDAY.1.to_string());
    }

    use_token(server, "xoxb-quiet");
    let body = briefing(server);
    assert!(
        body.ends_with("Team chat:\n- no mentions yesterday"),
        "{body}"
    );

    // The service's refusal, and its rate limiting, in one line each.
    use_token(server, "xoxb-noscope");
    let body = briefing(server);
    assert!(
        body.ends_with(
            "Team chat:\n- could not be read (the team chat service refused: missing_scope)"
        ),
        "{body}"
    );
    use_token(server, "xoxb-busy");
    let body = briefing(server);
    assert!(
        body.ends_with("Team chat:\n- could not be read (rate limited by the team chat service)"),
        "{body}"
    );
    let busy = |calls: &Mutex<Vec<Call>>| {
        calls
            .lock()
            .unwrap()
            .iter()
            .filter(|c| c.token == "xoxb-busy" && c.status == 429)
            .count()
    };
    assert_eq!(busy(&calls), 1, "a wait of 120 s is not waited out");
}

#[test]
fn a_short_retry_after_is_waited_out_on_the_servers_clock() {
    let (base, calls) = fake_slack();
    let world = world();
    let server = &world.server;
    std::fs::write(
        server.data_dir().join("teamchat.toml"),
        format!("base_url = {base:?}\ntoken_key = \"SLACK_BOT_TOKEN\"\nmention_user = {ME:?}\n"),
    )
    .unwrap();
    use_token(server, "xoxb-slow");
    let limited = |calls: &Mutex<Vec<Call>>| calls.lock().unwrap().iter().any(|c| c.status == 429);
    std::thread::scope(|scope| {
        let run = scope.spawn(|| briefing(server));
        let deadline = Instant::now() + Duration::from_secs(30);
        while !limited(&calls) {
            assert!(Instant::now() < deadline, "never rate limited");
            std::thread::sleep(Duration::from_millis(20));
        }
        // Longer than the 2 s asked, on the wall clock: still waiting.
        std::thread::sleep(Duration::from_secs(3));
        assert!(
            !run.is_finished(),
            "the wait did not read the server's clock"
        );
        let reads = calls.lock().unwrap().len();
        clock_at(server, "2030-01-07T09:00:03Z");
        let body = run.join().unwrap();
        assert!(body.ends_with(LISTED), "{body}");
        let recorded = calls.lock().unwrap().clone();
        assert!(recorded.len() > reads);
        assert_eq!(recorded[reads].method, "conversations.history");
        assert_eq!(
            recorded[reads].query.get("channel").map(String::as_str),
            Some("C1")
        );
    });
}
