//! How soon a session that needs the user reaches the inbox on a release
//! `switchboard serve`: a `command` session fails at once, and the time from
//! its `session` event (status `failed`) to the `inbox` event of its row is
//! read off one `GET /stream`, p50 and p95 over many sessions, one at a
//! time. The two events come from tasks of their own, so the `inbox` event
//! may come first: that counts as 0, and how often it happened is printed.
//! Also printed: from the spawn request to that `inbox` event (the
//! engine's start and exit included). Printed, not asserted (issue 12 aims
//! at under 100 ms from an event to its `inbox` event).

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Addresses, signal_term, time_startup};

const SESSIONS: usize = 200;

/// One event as the reader thread saw it, stamped when it arrived.
struct Seen {
    name: String,
    data: Value,
    at: Instant,
}

/// Reads `GET /stream` on a thread of its own (ureq decodes the chunked
/// body) and hands each event over as it arrives.
fn listen(control: &str, token: &str) -> mpsc::Receiver<Seen> {
    let response = ureq::get(format!("http://{control}/stream"))
        .header("Authorization", format!("Bearer {token}"))
        .call()
        .expect("open the stream");
    let reader = BufReader::new(response.into_body().into_reader());
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut name = String::new();
        for line in reader.lines() {
            let Ok(line) = line else { return };
            if let Some(value) = line.strip_prefix("event: ") {
                name = value.to_owned();
            } else if let Some(value) = line.strip_prefix("data: ") {
                let seen = Seen {
                    name: name.clone(),
                    data: serde_json::from_str(value).unwrap_or(Value::Null),
                    at: Instant::now(),
                };
                if send.send(seen).is_err() {
                    return;
                }
            }
        }
    });
    receive
}

/// The browser cookie the owner's login link sets.
fn cookie(ui: &str, token: &str) -> String {
    let mut socket = TcpStream::connect(ui).expect("connect");
    let request =
        format!("GET /login?token={token} HTTP/1.1\r\nHost: {ui}\r\nConnection: close\r\n\r\n");
    socket.write_all(request.as_bytes()).expect("write");
    let mut head = String::new();
    socket.read_to_string(&mut head).expect("read");
    head.lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .and_then(|c| c.split(';').next())
        .expect("a cookie")
        .to_owned()
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.fail]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo no >&2; exit 1\"]\n",
    )
    .expect("engines.toml");
    let (_, mut child) = time_startup(dir.path());
    let server = Addresses::read(dir.path());
    let events = listen(server.control(), &server.token);
    let cookie = cookie(&server.ui, &server.token);
    let (mut after_event, mut after_spawn) = (Vec::new(), Vec::new());
    let mut inbox_first = 0;
    for n in 0..SESSIONS + 10 {
        let sent = Instant::now();
        let session: Value = ureq::post(format!("http://{}/api/sessions", server.ui))
            .header("Cookie", &cookie)
            .send_json(json!({"engine": "fail", "prompt": "go"}))
            .expect("spawn")
            .body_mut()
            .read_json()
            .expect("the session");
        let id = session["id"].clone();
        let (mut failed, mut row) = (None, None);
        while failed.is_none() || row.is_none() {
            let seen = events
                .recv_timeout(Duration::from_secs(10))
                .expect("the session's events");
            if seen.name == "session" && seen.data["id"] == id && seen.data["status"] == "failed" {
                failed.get_or_insert(seen.at);
            } else if seen.name == "inbox" && seen.data["source"]["sessionId"] == id {
                row = Some(seen.at);
            }
        }
        let (failed, row) = (failed.unwrap_or(sent), row.unwrap_or(sent));
        // The first few warm the engine start, SQLite's cache and the stream.
        if n >= 10 {
            inbox_first += usize::from(row < failed);
            after_event.push(row.saturating_duration_since(failed));
            after_spawn.push(row.duration_since(sent));
        }
    }
    for (what, samples) in [
        ("session event (failed) -> inbox event", &mut after_event),
        ("spawn request -> inbox event", &mut after_spawn),
    ] {
        let (p50, p95) = (percentile(samples, 0.5), percentile(samples, 0.95));
        println!("{what:<40} p50 {p50:>10.2?}  p95 {p95:>10.2?}  ({SESSIONS} sessions)");
    }
    println!("the inbox event came first for {inbox_first} of {SESSIONS} sessions");
    signal_term(&child);
    child.wait().ok();
}
