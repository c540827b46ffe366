//! Boards and sessions figures over real loopback HTTP against a release
//! `switchboard serve`: batch inserts, full reads of 10,000- and 100,000-item
//! boards, 304 revalidation, the memory a big read costs, spawn latency, the
//! memory of 200 live sessions, and `GET /settings` latency while an engine
//! floods 50 MB of output. Run with `cargo bench -p switchboard --bench workloads`.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use support::{Addresses, rss_kib, signal_term, time_startup};

struct Http {
    addr: String,
    auth: String,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Http {
    fn connect(addr: &str, auth: String) -> Self {
        let stream = TcpStream::connect(addr).expect("connect");
        stream.set_nodelay(true).ok();
        Self {
            addr: addr.to_owned(),
            auth,
            writer: stream.try_clone().expect("clone"),
            reader: BufReader::new(stream),
        }
    }

    /// One keep-alive request; returns status, the ETag if any, and the body.
    fn call(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        extra: &str,
    ) -> (u16, Option<String>, Vec<u8>) {
        let text = body.map(Value::to_string).unwrap_or_default();
        let content = if body.is_some() {
            format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                text.len()
            )
        } else {
            String::new()
        };
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{}{content}{extra}\r\n{text}",
            self.addr, self.auth
        );
        self.writer.write_all(request.as_bytes()).expect("write");
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("status");
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let (mut length, mut etag, mut chunked) = (0usize, None, false);
        loop {
            line.clear();
            self.reader.read_line(&mut line).expect("header");
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                } else if name.eq_ignore_ascii_case("etag") {
                    etag = Some(value.trim().to_owned());
                } else if name.eq_ignore_ascii_case("transfer-encoding") {
                    chunked = value.contains("chunked");
                }
            }
        }
        if !chunked {
            let mut body = vec![0; length];
            self.reader.read_exact(&mut body).expect("body");
            return (status, etag, body);
        }
        let mut body = Vec::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).expect("chunk size");
            let size = usize::from_str_radix(line.trim(), 16).expect("chunk size");
            let start = body.len();
            body.resize(start + size + 2, 0);
            self.reader.read_exact(&mut body[start..]).expect("chunk");
            body.truncate(start + size);
            if size == 0 {
                return (status, etag, body);
            }
        }
    }

    fn json(&mut self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let (status, _, bytes) = self.call(method, path, body, "");
        assert!(
            status < 300,
            "{method} {path}: {status} {}",
            String::from_utf8_lossy(&bytes)
        );
        serde_json::from_slice(&bytes).unwrap_or(Value::Null)
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() as f64 * p) as usize).min(samples.len() - 1)]
}

/// Anonymous resident memory (heap and stacks), leaving out the pages of the
/// memory-mapped database file, which the page cache holds anyway.
fn anon_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("RssAnon:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// Samples `anon_kib` every millisecond while `work` runs; returns the peak.
fn peak_anon_during<T>(pid: u32, work: impl FnOnce() -> T) -> (T, u64) {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut peak = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(anon_kib(pid));
                std::thread::sleep(Duration::from_millis(1));
            }
            peak
        })
    };
    let result = work();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    (result, sampler.join().unwrap_or(0))
}

fn new_board(http: &mut Http, workspace: &str, name: &str) -> String {
    let board = http.json(
        "POST",
        "/boards",
        Some(&json!({"workspaceId": workspace, "name": name, "columns": [
            {"id": "status", "title": "Status", "type": "status"},
            {"id": "effort", "title": "Effort", "type": "number"},
            {"id": "due", "title": "Due", "type": "date"},
            {"id": "note", "title": "Note", "type": "text"}
        ]})),
    );
    board["id"].as_str().expect("board id").to_owned()
}

fn batch(offset: usize) -> Value {
    let labels = ["Working on it", "Stuck", "Done"];
    let items: Vec<Value> = (offset..offset + 10_000)
        .map(|n| {
            json!({"name": format!("Item {n}"), "values": {
                "status": labels[n % 3], "effort": n % 13, "due": format!("2026-{:02}-{:02}", n % 12 + 1, n % 28 + 1),
                "note": "a short note"}})
        })
        .collect();
    json!({ "items": items })
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let marks = dir.path().join("marks");
    std::fs::create_dir(&marks).expect("marks dir");
    let engines = format!(
        "[engines.mark]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"date +%s%N > {}/$APP_SESSION_ID; cat\"]\n\n\
         [engines.flood]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"yes 'agent output line, long enough to look real' | head -c 50000000\"]\n",
        marks.display()
    );
    std::fs::write(dir.path().join("engines.toml"), engines).expect("engines.toml");
    let (_, mut child) = time_startup(dir.path());
    let pid = child.id();
    let server = Addresses::read(dir.path());
    let (control, token) = (server.control().to_owned(), server.token);
    let mut http = Http::connect(&control, format!("Authorization: Bearer {token}\r\n"));
    let workspace = http.json("POST", "/workspaces", Some(&json!({"name": "bench"})))["id"]
        .as_str()
        .expect("ws")
        .to_owned();

    println!(
        "switchboard workloads bench (loopback HTTP, release build, 2 cores shared with the client)"
    );

    // Batch inserts: five fresh boards, one 10,000-item request each.
    let mut inserts = Vec::new();
    let mut ten_k = String::new();
    for round in 0..5 {
        let board = new_board(&mut http, &workspace, &format!("10k #{round}"));
        let body = batch(0);
        let started = Instant::now();
        http.json("POST", &format!("/boards/{board}/items/batch"), Some(&body));
        inserts.push(started.elapsed());
        ten_k = board;
    }
    println!(
        "10,000-item batch insert:   median {:?} (of 5)",
        median(inserts)
    );

    let read = |http: &mut Http, board: &str, runs: usize| {
        let mut times = Vec::new();
        let mut size = 0;
        let mut etag = None;
        for _ in 0..runs {
            let started = Instant::now();
            let (status, tag, body) = http.call("GET", &format!("/boards/{board}/full"), None, "");
            times.push(started.elapsed());
            assert_eq!(status, 200);
            size = body.len();
            etag = tag;
        }
        (median(times), size, etag.expect("etag"))
    };
    let (ten_k_read, ten_k_size, etag) = read(&mut http, &ten_k, 30);
    println!(
        "10,000-item full read:      median {ten_k_read:?}, {:.1} MB uncompressed",
        ten_k_size as f64 / 1e6
    );
    let mut revalidations = Vec::new();
    let header = format!("If-None-Match: {etag}\r\n");
    for _ in 0..500 {
        let started = Instant::now();
        let (status, _, _) = http.call("GET", &format!("/boards/{ten_k}/full"), None, &header);
        revalidations.push(started.elapsed());
        assert_eq!(status, 304);
    }
    println!(
        "304 revalidation:           median {:?}",
        median(revalidations)
    );

    let hundred_k = new_board(&mut http, &workspace, "100k");
    for part in 0..10 {
        http.json(
            "POST",
            &format!("/boards/{hundred_k}/items/batch"),
            Some(&batch(part * 10_000)),
        );
    }
    let before = anon_kib(pid);
    let ((big_read, big_size, _), peak) = peak_anon_during(pid, || read(&mut http, &hundred_k, 10));
    println!(
        "100,000-item full read:     median {big_read:?}, {:.1} MB, {:.1}x the 10,000-item read",
        big_size as f64 / 1e6,
        big_read.as_secs_f64() / ten_k_read.as_secs_f64()
    );
    println!(
        "peak memory of that read:   anonymous peak {:.1} MB against {:.1} MB before: +{:.1} MB = {:.2}x the response",
        peak as f64 / 1024.0,
        before as f64 / 1024.0,
        peak.saturating_sub(before) as f64 / 1024.0,
        peak.saturating_sub(before) as f64 * 1024.0 / big_size as f64
    );

    // Sessions are measured on a fresh server, so memory the board work left
    // in the allocator does not hide what sessions cost.
    signal_term(&child);
    child.wait().ok();
    let (_, mut child) = time_startup(dir.path());
    let pid = child.id();
    let server = Addresses::read(dir.path());
    let (control, ui) = (server.control().to_owned(), server.ui);
    let mut http = Http::connect(&control, format!("Authorization: Bearer {token}\r\n"));
    std::thread::sleep(Duration::from_secs(1));

    // Sessions are the user's (UI server): the agent-driven ceiling of 10
    // does not apply, so 200 can live at once.
    let login = {
        let mut stream = TcpStream::connect(&ui).expect("ui");
        write!(
            stream,
            "GET /login?token={token} HTTP/1.1\r\nHost: {ui}\r\nConnection: close\r\n\r\n"
        )
        .expect("login");
        let mut text = String::new();
        stream.read_to_string(&mut text).ok();
        text.lines()
            .find_map(|l| {
                l.strip_prefix("set-cookie: ")
                    .or_else(|| l.strip_prefix("Set-Cookie: "))
            })
            .and_then(|c| c.split(';').next())
            .expect("cookie")
            .to_owned()
    };
    let mut browser = Http::connect(&ui, format!("Cookie: {login}\r\n"));
    let rss_before_sessions = rss_kib(pid);
    let mut spawn_latency = Vec::new();
    let cwd = dir.path().display().to_string();
    for n in 0..200 {
        let sent = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock")
            .as_nanos();
        let session = browser.json(
            "POST",
            "/api/sessions",
            Some(&json!({"engine": "mark", "prompt": format!("task {n}"), "cwd": cwd})),
        );
        let id = session["id"].as_str().expect("id").to_owned();
        if n < 50 {
            let mark = marks.join(&id);
            let deadline = Instant::now() + Duration::from_secs(10);
            let started: u128 = loop {
                if let Some(ns) = std::fs::read_to_string(&mark)
                    .ok()
                    .and_then(|t| t.trim().parse().ok())
                {
                    break ns;
                }
                assert!(Instant::now() < deadline, "engine never started");
                std::thread::sleep(Duration::from_micros(200));
            };
            spawn_latency.push(Duration::from_nanos(started.saturating_sub(sent) as u64));
        }
    }
    std::thread::sleep(Duration::from_secs(2));
    let rss_after_sessions = rss_kib(pid);
    println!(
        "spawn request -> engine running: median {:?} (of 50; includes /bin/sh start)",
        median(spawn_latency)
    );
    println!(
        "200 live sessions:          +{:.1} MiB resident, {:.0} KiB a session",
        rss_after_sessions.saturating_sub(rss_before_sessions) as f64 / 1024.0,
        rss_after_sessions.saturating_sub(rss_before_sessions) as f64 / 200.0
    );

    let flood = browser.json(
        "POST",
        "/api/sessions",
        Some(&json!({"engine": "flood", "prompt": "go", "cwd": cwd})),
    );
    let flood_id = flood["id"].as_str().expect("id").to_owned();
    let mut settings_latency = Vec::new();
    let started = Instant::now();
    loop {
        let t = Instant::now();
        let (status, _, _) = http.call("GET", "/settings", None, "");
        settings_latency.push(t.elapsed());
        assert_eq!(status, 200);
        if settings_latency.len() % 200 == 0 {
            let session = http.json("GET", &format!("/sessions/{flood_id}"), None);
            if session["status"] != "running" && session["status"] != "starting" {
                break;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the flood never ended"
        );
    }
    let flood_time = started.elapsed();
    println!(
        "GET /settings while an engine writes 50 MB: p50 {:?}, p99 {:?} over {} requests ({flood_time:?})",
        percentile(&mut settings_latency, 0.5),
        percentile(&mut settings_latency, 0.99),
        settings_latency.len()
    );
    signal_term(&child);
    child.wait().ok();
}
