//! No engine line is lost at any load, against a real server: busy
//! `command` sessions flood the stream while one reader stalls, so it falls
//! far behind and is cut off with a `reset`. Doing what the contract asks of
//! a client after a `reset` (refetch the transcripts after what it saw, then
//! resume with the reset's id as `Last-Event-ID`) accounts for every
//! transcript entry: each one either arrived on the stream or was refetched,
//! and every line each engine printed is in the transcript exactly once.
//! The resumed stream then carries a second turn of every session live.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::sse::{Received, Stream};
use common::{TestServer, request};
use serde_json::Value;

const SESSIONS: usize = 16;
const LINES: usize = 3000;

/// Paced, so each session's output spans a few seconds of flushes (each
/// one a publish on the stream), and padded, so the output is far more
/// than the sockets between the server and the stalled reader and the 8 MiB
/// a subscriber may have waiting hold together.
const BUSY: &str = "$| = 1; my $pad = 'x' x 700; \
    for my $i (0 .. 2999) { print \"line $i $pad\\n\"; select(undef, undef, undef, 0.002) if $i % 3 == 2 }";

/// What a client knows of one session's entries: their seqs, and which
/// arrived on the stream rather than by refetching.
#[derive(Default)]
struct Seen {
    streamed: BTreeSet<i64>,
    refetched: BTreeSet<i64>,
}

impl Seen {
    fn newest(&self) -> i64 {
        let streamed = self.streamed.last().copied().unwrap_or(0);
        streamed.max(self.refetched.last().copied().unwrap_or(0))
    }
}

fn server() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "[engines.busy]\nkind = \"command\"\ncommand = [\"/usr/bin/perl\", \"-e\", {BUSY:?}]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in(dir)
}

/// Waits until every session has ended `turns` turns and waits for input.
fn wait_all(server: &TestServer, ids: &[String], turns: u64) {
    let deadline = Instant::now() + Duration::from_secs(180);
    for id in ids {
        loop {
            let session = server.call("GET", &format!("/sessions/{id}"), None).json();
            if session["status"] == "waiting_for_input" && session["turns"].as_u64() >= Some(turns)
            {
                break;
            }
            assert!(Instant::now() < deadline, "session {id}: {session}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// The session's entries after `after`, every page of them.
fn entries_after(server: &TestServer, id: &str, mut after: i64) -> Vec<Value> {
    let mut all = Vec::new();
    loop {
        let path = format!("/sessions/{id}/transcript?format=json&after={after}&limit=1000");
        let reply = server.call("GET", &path, None);
        assert_eq!(reply.status, 200, "{}", reply.text());
        let page = reply.json()["entries"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let Some(last) = page.last() else {
            return all;
        };
        after = last["seq"].as_i64().unwrap();
        all.extend(page);
    }
}

/// Notes an `output` event's seq; seqs must grow per session on one connection.
fn note(event: &Received, seen: &mut HashMap<String, Seen>, newest: &mut HashMap<String, i64>) {
    if event.name != "output" {
        return;
    }
    let session = event.data["sessionId"].as_str().unwrap().to_owned();
    let seq = event.data["seq"].as_i64().unwrap();
    let before = newest.insert(session.clone(), seq).unwrap_or(0);
    assert!(seq > before, "{session}: seq {seq} after {before}");
    assert!(event.data["entry"].is_object(), "{:?}", event.data);
    seen.entry(session).or_default().streamed.insert(seq);
}

/// Reads `stream` to its end or until `done`, noting each `output` event;
/// the `reset` that cut it off, if one did.
fn read(
    stream: &mut Stream,
    seen: &mut HashMap<String, Seen>,
    mut done: impl FnMut(&HashMap<String, Seen>) -> bool,
) -> Option<String> {
    let mut newest = HashMap::new();
    while let Some(event) = stream.next(Duration::from_secs(30)) {
        if event.name == "reset" {
            return Some(event.id);
        }
        note(&event, seen, &mut newest);
        if done(seen) {
            return None;
        }
    }
    None
}

/// Every entry of `ids`' transcripts, by session.
fn transcripts(server: &TestServer, ids: &[String]) -> HashMap<String, Vec<Value>> {
    ids.iter()
        .map(|id| (id.clone(), entries_after(server, id, 0)))
        .collect()
}

fn accounted(seen: &HashMap<String, Seen>) -> usize {
    seen.values()
        .map(|s| s.streamed.union(&s.refetched).count())
        .sum()
}

/// The contract's answer to `reset`, until a resumed stream is caught up
/// with `total` entries: refetch each session after what it has, then
/// resume with the reset's id. Returns the caught-up stream.
fn recover(
    server: &TestServer,
    ids: &[String],
    seen: &mut HashMap<String, Seen>,
    mut reset: String,
    total: usize,
) -> Stream {
    loop {
        for id in ids {
            let known = seen.entry(id.clone()).or_default();
            for entry in entries_after(server, id, known.newest()) {
                known.refetched.insert(entry["seq"].as_i64().unwrap());
            }
        }
        let mut resumed = Stream::bearer(server, &server.token, Some(&reset));
        // What followed the reset is replayed, or no longer held: then
        // the stream opens with another reset.
        match resumed.next(Duration::from_secs(2)) {
            Some(event) if event.name == "reset" => {
                reset = event.id;
                continue;
            }
            Some(event) => note(&event, seen, &mut HashMap::new()),
            None => {}
        }
        if accounted(seen) >= total {
            return resumed;
        }
        match read(&mut resumed, seen, |seen| accounted(seen) >= total) {
            Some(again) => reset = again,
            None => return resumed,
        }
    }
}

#[test]
fn a_reader_that_falls_behind_loses_no_line() {
    let server = server();
    let mut stalled = Stream::bearer(&server, &server.token, None);
    let ids: Vec<String> = (0..SESSIONS)
        .map(|n| {
            server.browser_session("busy", &format!("flood {n}"))["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    // The reader reads nothing until every engine is done.
    wait_all(&server, &ids, 1);
    let first: usize = transcripts(&server, &ids).values().map(Vec::len).sum();
    let mut seen: HashMap<String, Seen> = HashMap::new();
    let reset = read(&mut stalled, &mut seen, |_| false)
        .expect("a reader this far behind is cut off with a reset");
    assert!(stalled.next(Duration::from_secs(5)).is_none());
    assert!(stalled.ended, "the stream ends after its reset");
    assert!(accounted(&seen) < first, "the reset came before the end");
    let mut live = recover(&server, &ids, &mut seen, reset, first);

    // A second turn of every session, read as it comes by a reader that keeps
    // up (on a thread of its own, so waiting for the turns never stalls it),
    // until it has as many turn 2 entries as the transcripts hold.
    let wanted = Arc::new(AtomicUsize::new(usize::MAX));
    let reader = {
        let wanted = Arc::clone(&wanted);
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(180);
            let mut got = Vec::new();
            let mut second = 0;
            while second < wanted.load(Ordering::Acquire) && Instant::now() < deadline {
                let Some(event) = live.next(Duration::from_secs(1)) else {
                    assert!(!live.ended, "the live stream ended");
                    continue;
                };
                assert_ne!(event.name, "reset", "a reader that keeps up is not cut off");
                if event.name == "output" && event.data["turn"] == 2 {
                    second += 1;
                }
                got.push(event);
            }
            got
        })
    };
    // As the owner sends them in the web app (not agent-driven).
    let cookie = server.browser_cookie();
    for id in &ids {
        let sent = request(
            &server.ui,
            "POST",
            &format!("/api/sessions/{id}/messages"),
            &[("Cookie", &cookie), ("Content-Type", "application/json")],
            Some(br#"{"text": "again"}"#),
        );
        assert_eq!(sent.status, 202, "{}", sent.text());
    }
    wait_all(&server, &ids, 2);
    let transcripts = transcripts(&server, &ids);
    let second = transcripts
        .values()
        .flatten()
        .filter(|e| e["turn"] == 2)
        .count();
    wanted.store(second, Ordering::Release);
    let mut newest = HashMap::new();
    for event in reader.join().expect("the live reader") {
        note(&event, &mut seen, &mut newest);
    }

    for (id, entries) in &transcripts {
        let known = &seen[id];
        let stored: BTreeSet<i64> = entries.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        let accounted: BTreeSet<i64> = known.streamed.union(&known.refetched).copied().collect();
        assert_eq!(
            accounted, stored,
            "session {id}: every entry streamed or refetched"
        );
        let second: BTreeSet<i64> = entries
            .iter()
            .filter(|e| e["turn"] == 2)
            .map(|e| e["seq"].as_i64().unwrap())
            .collect();
        assert!(
            second.is_subset(&known.streamed),
            "session {id}: turn 2 live"
        );
        for turn in [1, 2] {
            let mut lines: Vec<usize> = entries
                .iter()
                .filter(|e| e["turn"] == turn && e["kind"] == "stdout")
                .flat_map(|e| {
                    let text = e["text"].as_str().unwrap_or("").to_owned();
                    text.lines()
                        .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
                        .collect::<Vec<usize>>()
                })
                .collect();
            lines.sort_unstable();
            assert_eq!(
                lines,
                (0..LINES).collect::<Vec<_>>(),
                "session {id}, turn {turn}: every line once, none lost"
            );
        }
    }
}
