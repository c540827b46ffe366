//! What project events in the inbox cost a release `switchboard serve`:
//! an agent session's batch that creates 10,000 assigned items (10,000
//! `assigned` events) with `pmInboxEnabled` off and on (the request's time,
//! median of rounds that alternate; the notifier works after the write has
//! answered, so the difference is what it takes from the writer and the CPU
//! meanwhile), how long until the session's folded row counts all 10,000,
//! and p50/p95 from an agent's item write's reply to its `inbox` event on
//! `GET /stream`. Printed, not asserted (issue 12: at most 20 % slower;
//! under 100 ms).

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Addresses, Holder, signal_term, time_startup};

const ITEMS: usize = 10_000;
const ROUNDS: usize = 4;
const LATENCY_SAMPLES: usize = 100;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let holder = Holder::install(dir.path());
    let (_, mut child) = time_startup(dir.path());
    let server = Addresses::read(dir.path());
    let agent_token = holder.spawn(&server).token;
    let (control, token) = (server.control().to_owned(), server.token);
    let api =
        |method: &str, path: &str, body: Option<&Value>| call(&control, &token, method, path, body);
    let agent = |method: &str, path: &str, body: Option<&Value>| {
        call(&control, &agent_token, method, path, body)
    };
    let me = api("GET", "/me", None).1["memberId"]
        .as_str()
        .expect("memberId")
        .to_owned();
    let workspace = api("POST", "/workspaces", Some(&json!({"name": "Bench"}))).1["id"]
        .as_str()
        .expect("workspace")
        .to_owned();
    let board = api(
        "POST",
        "/boards",
        Some(&json!({"workspaceId": workspace, "name": "Bench",
            "columns": [
                {"id": "status", "title": "Status", "type": "status",
                 "settings": {"labels": [{"name": "Working"}, {"name": "Done", "done": true}]}},
                {"id": "people", "title": "Owner", "type": "people"}],
            "groups": [{"id": "g", "title": "G"}]})),
    )
    .1["id"]
        .as_str()
        .expect("board")
        .to_owned();
    let batch = json!({"items": (0..ITEMS).map(|n| json!({
        "name": format!("Item {n}"), "values": {"status": "Working", "people": [me]}
    })).collect::<Vec<_>>()});
    let set = |on: bool| {
        let reply = api(
            "PATCH",
            "/settings/pmInboxEnabled",
            Some(&json!({"value": on})),
        );
        assert_eq!(reply.0, 200);
    };
    // What the pm_event rows stand for: an agent's batch folds into one.
    let pm_rows = || {
        api("GET", "/inbox?category=pm_event&state=all&limit=500", None)
            .1
            .as_array()
            .map_or(0, |rows| {
                rows.iter().filter_map(|row| row["count"].as_u64()).sum()
            })
    };

    let (mut off, mut on, mut delivered) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS * 2 {
        let enabled = round % 2 == 1;
        set(enabled);
        let before = pm_rows();
        let started = Instant::now();
        let (status, _) = agent(
            "POST",
            &format!("/boards/{board}/items/batch"),
            Some(&batch),
        );
        let took = started.elapsed();
        assert_eq!(status, 201);
        if enabled {
            on.push(took);
            // Wait for the rows, so the next round starts on an idle server.
            while pm_rows() < before + ITEMS as u64 {
                std::thread::sleep(Duration::from_millis(5));
            }
            delivered.push(started.elapsed());
        } else {
            off.push(took);
        }
    }
    let (off, on, delivered) = (median(off), median(on), median(delivered));
    println!("switchboard project-events bench (release server, loopback)");
    println!(
        "  batch of {ITEMS} assigned items, pmInboxEnabled off: {off:>10.2?} (median of {ROUNDS})"
    );
    println!(
        "  batch of {ITEMS} assigned items, pmInboxEnabled on:  {on:>10.2?} ({:+.1} %)",
        (on.as_secs_f64() / off.as_secs_f64() - 1.0) * 100.0
    );
    println!("  until the folded pm_event row counts all {ITEMS}:  {delivered:>10.2?}");

    // One item moved back and forth; each move is a new status event.
    set(true);
    let item = agent(
        "POST",
        &format!("/boards/{board}/items"),
        Some(&json!({"name": "Latency", "values": {"status": "Working"}})),
    )
    .1["id"]
        .as_str()
        .expect("item")
        .to_owned();
    let mut stream = open_stream(&control, &token);
    let mut samples = Vec::with_capacity(LATENCY_SAMPLES);
    for n in 0..LATENCY_SAMPLES + 5 {
        let label = if n % 2 == 0 { "Done" } else { "Working" };
        let started = Instant::now();
        let (status, _) = agent(
            "PATCH",
            &format!("/items/{item}"),
            Some(&json!({"values": {"status": label}})),
        );
        assert_eq!(status, 200);
        wait_for_inbox_event(&mut stream);
        if n >= 5 {
            samples.push(started.elapsed());
        }
    }
    samples.sort();
    let p = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "  item write to its inbox event on the stream: p50 {:>8.2?}  p95 {:>8.2?} ({LATENCY_SAMPLES} writes, reply included)",
        p(0.5),
        p(0.95)
    );
    signal_term(&child);
    child.wait().ok();
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// One request on a connection of its own: the status and the JSON body.
fn call(
    control: &str,
    token: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(control).expect("connect");
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {control}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n"
    );
    if !body.is_empty() {
        request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).expect("write");
    stream.write_all(body.as_bytes()).expect("write body");
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("read");
    let status = raw
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = raw.split("\r\n\r\n").nth(1).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn open_stream(control: &str, token: &str) -> BufReader<TcpStream> {
    let mut socket = TcpStream::connect(control).expect("connect");
    let head = format!(
        "GET /stream HTTP/1.1\r\nHost: {control}\r\nAuthorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).expect("write");
    socket
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    BufReader::new(socket)
}

/// Reads the stream (chunk-size lines and all) up to the next `inbox` event.
fn wait_for_inbox_event(stream: &mut BufReader<TcpStream>) {
    let mut line = String::new();
    loop {
        line.clear();
        let read = stream.read_line(&mut line).expect("read the stream");
        assert!(read > 0, "the stream ended");
        if line.trim_end() == "event: inbox" {
            return;
        }
    }
}
