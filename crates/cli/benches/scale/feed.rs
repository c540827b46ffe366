//! One `GET /stream` client, held for a whole part, that keeps what the
//! scale bench measures: each `tick` line's send and receive times (the
//! `command` engines print their wall clock), each turn's `final` or
//! `error` entry, and each session's last status. It reads on a thread of
//! its own so it keeps up: a client 8 MiB of events behind is cut off. A
//! `reset` is noted, and the client does what the contract asks: it
//! refetches each session's transcript after the last entry it saw (those
//! lines count as recovered, not as received) and resumes from the reset's id.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

/// A `tick` line as received: its session, sequence number, and when the
/// engine wrote it and the client read it (ns since the epoch).
#[derive(Clone)]
pub struct Tick {
    pub session: String,
    pub seq: u64,
    pub sent_ns: u128,
    pub received_ns: u128,
    /// Refetched from the transcript after a `reset`, not received live.
    pub recovered: bool,
}

/// A session as its latest `session` event showed it.
#[derive(Clone, Default)]
pub struct Seen {
    pub status: String,
    pub turns: u64,
}

#[derive(Default)]
pub struct State {
    pub ticks: Vec<Tick>,
    /// `tick` lines received per session, over the whole part.
    pub heard: HashMap<String, u64>,
    pub sessions: HashMap<String, Seen>,
    /// (session, turn) → when its `final` or `error` entry arrived, and
    /// whether it was an error.
    pub ends: HashMap<(String, u64), (Instant, bool)>,
    /// Each time the stream stopped (a `reset`, or its end) and why.
    pub resets: Vec<(Instant, String)>,
    /// The last entry seen of each session, on the stream or refetched.
    pub last_seq: HashMap<String, i64>,
    /// Every `tick` line taken, so a refetched one that also came live counts once.
    pub taken: HashSet<(String, u64)>,
    /// Refetches after a `reset` still reading transcripts: until they end,
    /// a line missing is not yet known to be lost.
    pub refetching: usize,
}

pub struct Feed {
    state: Mutex<State>,
    changed: Condvar,
    pub closed: AtomicBool,
}

pub fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

impl Feed {
    /// Opens the stream on the control server and reads it until dropped.
    /// After a `reset` or an end it connects again, as a browser would after
    /// refetching, and notes when and why in `resets`.
    pub fn open(control: &str, token: &str) -> Arc<Feed> {
        let feed = Arc::new(Feed {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            closed: AtomicBool::new(false),
        });
        let first = connect(control, token, None).expect("open the stream");
        let (shared, control, token) = (feed.clone(), control.to_owned(), token.to_owned());
        std::thread::spawn(move || {
            let mut reader = Some(first);
            let mut resume: Option<String> = None;
            while !shared.closed.load(Ordering::Relaxed) {
                let why = match reader.take() {
                    Some(reader) => {
                        let (why, reset) = shared.read(reader);
                        if let Some(id) = reset {
                            // Beside the resumed stream, so live lines keep coming meanwhile.
                            let (feed, control, token) =
                                (shared.clone(), control.clone(), token.clone());
                            std::thread::spawn(move || feed.refetch(&control, &token));
                            resume = Some(id);
                        }
                        why
                    }
                    None => match connect(&control, &token, resume.as_deref()) {
                        Ok(next) => {
                            reader = Some(next);
                            continue;
                        }
                        Err(why) => {
                            std::thread::sleep(Duration::from_millis(200));
                            why
                        }
                    },
                };
                shared.lock().resets.push((Instant::now(), why));
                shared.changed.notify_all();
            }
        });
        feed
    }

    /// Reads events until the stream stops; why it stopped, and the
    /// `reset`'s id when one stopped it.
    fn read(
        &self,
        mut reader: BufReader<Box<dyn std::io::Read + Send>>,
    ) -> (String, Option<String>) {
        let (mut id, mut name, mut line) = (String::new(), String::new(), String::new());
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) => return ("the stream ended".to_owned(), None),
                Err(e) => return (format!("the stream failed: {e}"), None),
                Ok(_) => {}
            }
            if self.closed.load(Ordering::Relaxed) {
                return ("closed".to_owned(), None);
            }
            let line = line.trim_end();
            if let Some(value) = line.strip_prefix("id: ") {
                id = value.to_owned();
            } else if let Some(value) = line.strip_prefix("event: ") {
                name = value.to_owned();
            } else if let Some(data) = line.strip_prefix("data: ") {
                if name == "reset" {
                    return ("the server sent `reset`".to_owned(), Some(id.clone()));
                }
                self.take(&name, data, false);
            }
        }
    }

    /// After a `reset`: each session's entries after the last one seen, read
    /// from its transcript as a client that refetches would.
    fn refetch(&self, control: &str, token: &str) {
        let known: Vec<(String, i64)> = {
            let mut state = self.lock();
            state.refetching += 1;
            state
                .last_seq
                .iter()
                .map(|(id, seq)| (id.clone(), *seq))
                .collect()
        };
        for (session, mut after) in known {
            loop {
                let url = format!(
                    "http://{control}/sessions/{session}/transcript?format=json&after={after}&limit=1000"
                );
                let page = ureq::get(url)
                    .header("Authorization", format!("Bearer {token}"))
                    .call()
                    .ok()
                    .and_then(|mut r| r.body_mut().read_json::<Value>().ok());
                let entries = page
                    .as_ref()
                    .and_then(|p| p["entries"].as_array())
                    .cloned()
                    .unwrap_or_default();
                let Some(last) = entries.last().and_then(|e| e["seq"].as_i64()) else {
                    break;
                };
                for entry in entries {
                    let event = serde_json::json!({
                        "sessionId": session,
                        "turn": entry["turn"],
                        "seq": entry["seq"],
                        "entry": entry,
                    });
                    self.take("output", &event.to_string(), true);
                }
                after = last;
            }
        }
        self.lock().refetching -= 1;
        self.changed.notify_all();
    }

    fn take(&self, name: &str, data: &str, recovered: bool) {
        let received_ns = now_ns();
        let at = Instant::now();
        let Ok(value) = serde_json::from_str::<Value>(data) else {
            return;
        };
        let mut state = self.lock();
        match name {
            "output" => {
                let session = value["sessionId"].as_str().unwrap_or("").to_owned();
                if let Some(seq) = value["seq"].as_i64() {
                    let last = state.last_seq.entry(session.clone()).or_default();
                    *last = (*last).max(seq);
                }
                let entry = &value["entry"];
                match entry["kind"].as_str() {
                    Some("stdout") => {
                        let text = entry["text"].as_str().unwrap_or("");
                        for line in text.lines() {
                            let mut words = line.split_whitespace();
                            if words.next() != Some("tick") {
                                continue;
                            }
                            let seq = words.next().and_then(|w| w.parse().ok());
                            let sent = words.next().and_then(|w| w.parse().ok());
                            if let (Some(seq), Some(sent_ns)) = (seq, sent) {
                                if !state.taken.insert((session.clone(), seq)) {
                                    continue;
                                }
                                *state.heard.entry(session.clone()).or_default() += 1;
                                state.ticks.push(Tick {
                                    session: session.clone(),
                                    seq,
                                    sent_ns,
                                    received_ns,
                                    recovered,
                                });
                            }
                        }
                    }
                    Some(kind @ ("final" | "error")) => {
                        let turn = value["turn"].as_u64().unwrap_or(0);
                        state
                            .ends
                            .entry((session, turn))
                            .or_insert((at, kind == "error"));
                    }
                    _ => {}
                }
            }
            "session" => {
                if let Some(id) = value["id"].as_str() {
                    let seen = Seen {
                        status: value["status"].as_str().unwrap_or("").to_owned(),
                        turns: value["turns"].as_u64().unwrap_or(0),
                    };
                    state.sessions.insert(id.to_owned(), seen);
                }
            }
            _ => return,
        }
        drop(state);
        self.changed.notify_all();
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until `done` holds of the state, or `limit` passes (false).
    pub fn wait(&self, limit: Duration, mut done: impl FnMut(&State) -> bool) -> bool {
        let deadline = Instant::now() + limit;
        let mut state = self.lock();
        loop {
            if done(&state) {
                return true;
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return false;
            };
            state = match self.changed.wait_timeout(state, left) {
                Ok((state, _)) => state,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

fn connect(
    control: &str,
    token: &str,
    last_event_id: Option<&str>,
) -> Result<BufReader<Box<dyn std::io::Read + Send>>, String> {
    let mut request = ureq::get(format!("http://{control}/stream"))
        .header("Authorization", format!("Bearer {token}"));
    if let Some(id) = last_event_id {
        request = request.header("Last-Event-ID", id);
    }
    let response = request
        .call()
        .map_err(|e| format!("cannot open the stream: {e}"))?;
    let body: Box<dyn std::io::Read + Send> = Box::new(response.into_body().into_reader());
    Ok(BufReader::with_capacity(1 << 20, body))
}

impl Drop for Feed {
    fn drop(&mut self) {
        self.closed.store(true, Ordering::Relaxed);
    }
}
