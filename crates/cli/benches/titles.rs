//! How soon a new session's AI title reaches the board: a release server
//! whose primary engine is the pinned Claude Code (`make engines-deps`),
//! against the Anthropic stand-in, which answers the title question at once.
//! Each session is started through the web app's API and the time is read
//! from the spawn request to the first `session` event on `GET /stream`
//! that carries its title, one session at a time; the utility call's own
//! duration (the CLI's start and answer) is printed beside it. Printed, not
//! asserted.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use standins::{Api, Message, Standin};
use support::{Addresses, cookie, listen, percentile, signal_term, start_with_home};

const SESSIONS: usize = 20;
const WARM_UP: usize = 2;

fn main() {
    let claude = support::engines_dir().join("claude");
    assert!(
        claude.exists(),
        "the real Claude Code is not in {} (run `make engines-deps`)",
        claude.display()
    );
    let standin = Standin::start(Api::Anthropic).expect("stand-in");
    standin.answer(
        app::titles::NAME_PHRASE,
        Message::text("Fix the flaky login test"),
    );
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let work = tempfile::tempdir().expect("work");
    std::fs::write(
        data.path().join("engines.toml"),
        support::claude_engines_toml(&claude, &standin.url()),
    )
    .expect("engines.toml");
    let mut child = start_with_home(data.path(), home.path());
    let server = Addresses::read(data.path());
    let control = server.control.clone().expect("the control server");
    let events = listen(&control, &server.token);
    let cookie = cookie(&server.ui, &server.token);
    let mut to_title = Vec::new();
    for n in 0..SESSIONS + WARM_UP {
        standin.push(Message::text("Done."));
        let sent = Instant::now();
        let session: Value = ureq::post(format!("http://{}/api/sessions", server.ui))
            .header("Cookie", &cookie)
            .send_json(
                json!({"engine": "primary", "prompt": format!("fix test {n}"), "cwd": work.path()}),
            )
            .expect("spawn")
            .body_mut()
            .read_json()
            .expect("the session");
        let id = session["id"].clone();
        let titled = loop {
            let (name, data, at) = events
                .recv_timeout(Duration::from_secs(120))
                .expect("the session's events");
            if name == "session" && data["id"] == id && !data["title"].is_null() {
                break at;
            }
        };
        if n >= WARM_UP {
            to_title.push(titled.duration_since(sent));
        }
    }
    let calls: Value = ureq::get(format!("http://{control}/utility/calls?feature=title"))
        .header("Authorization", format!("Bearer {}", server.token))
        .call()
        .expect("the calls")
        .body_mut()
        .read_json()
        .expect("calls json");
    let mut call_ms: Vec<Duration> = calls["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .filter_map(|c| c["durationMs"].as_u64())
        .map(Duration::from_millis)
        .collect();
    println!(
        "Session start to its AI title on the board (real Claude Code, stand-in answering at once), {SESSIONS} sessions:"
    );
    println!(
        "  spawn request -> session event with the title  p50 {:>8.0?}  p95 {:>8.0?}",
        percentile(&mut to_title, 0.5),
        percentile(&mut to_title, 0.95)
    );
    println!(
        "  the utility call itself (CLI start to answer)   p50 {:>8.0?}  p95 {:>8.0?}",
        percentile(&mut call_ms, 0.5),
        percentile(&mut call_ms, 0.95)
    );
    signal_term(&child);
    child.wait().ok();
}
