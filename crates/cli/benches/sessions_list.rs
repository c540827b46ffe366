//! What `GET /sessions` costs with 1,024 sessions, against the same run's
//! floor. A release `switchboard serve` on a real on-disk database starts
//! `SESSIONS_LIST_N` (default 1,024) `command` sessions from the web app,
//! each printing a line and then waiting in its running turn, as the scale
//! bench's tickers do between lines. Then one keep-alive client sends
//! `GET /api/sessions` one after another, and the same number of
//! `GET /api/settings` as the floor (a request that reads nothing of the
//! sessions), first at 8 sessions and again at the full count.
//!
//! Printed per step: the server's CPU while nobody asks it anything (the
//! sessions' own upkeep: their watchdogs and timers), then p50 and p99 at the
//! client and the server's CPU time per request beyond that upkeep (from
//! `/proc`, so a second process using the cores does not count, though it
//! still slows the wall clock). The machine may be shared: the ratio to the
//! floor of the same run is what compares across runs.
//!
//! With `SESSIONS_LIST_BUSY=1` every session prints a line every 200 ms
//! instead of waiting, as the scale bench's tickers do: the list then
//! competes with the sessions' output, where the scale bench found it slow.
//!
//! `SESSIONS_LIST_REQUESTS` (default 200) sets the requests per figure: a
//! p99 of 200 is the second slowest, which moves by half from run to run on
//! a shared machine; 1,000 settles it, and lists back to back for longer
//! also meet the WAL at its longest.

mod support;

use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::json;

use support::{Addresses, cookie, cpu_time, percentile, read_response, signal_term, time_startup};

/// Requests per figure unless `SESSIONS_LIST_REQUESTS` says.
const REQUESTS: usize = 200;
/// The busy engine: a line every 200 ms (the scale bench's ticker).
const TICKER: &str = "use Time::HiRes qw(sleep); $| = 1; \
    for (my $i = 0; ; $i++) { print(\"tick $i\\n\"); sleep(0.2); }";
/// How long the server's idle CPU is sampled.
const IDLE: Duration = Duration::from_secs(10);

/// One figure: the client's latencies and the server's CPU per request.
struct Figure {
    p50: Duration,
    p99: Duration,
    cpu: Duration,
}

fn main() {
    let total: usize = std::env::var("SESSIONS_LIST_N")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1024);
    let dir = tempfile::tempdir().expect("temp dir");
    let scratch = tempfile::tempdir().expect("scratch dir");
    let engine = if std::env::var_os("SESSIONS_LIST_BUSY").is_some() {
        format!("[\"/usr/bin/perl\", \"-e\", {TICKER:?}]")
    } else {
        "[\"/bin/sh\", \"-c\", \"echo tick 0; exec sleep 3600\"]".to_owned()
    };
    std::fs::write(
        dir.path().join("engines.toml"),
        format!("[engines.worker]\nkind = \"command\"\ncommand = {engine}\n"),
    )
    .expect("engines.toml");
    let requests: usize = std::env::var("SESSIONS_LIST_REQUESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(REQUESTS);
    let (_, mut child) = time_startup(dir.path());
    let server = Addresses::read(dir.path());
    let cookie = cookie(&server.ui, &server.token);
    println!(
        "GET /sessions, {requests} requests one after another per figure; \
         floor: GET /settings in the same run"
    );
    println!(
        "{:>6} {:>9} {:>14} {:>9} {:>9} {:>12} {:>14} {:>9} {:>9}",
        "N",
        "idle cpu",
        "sessions p50",
        "p99",
        "cpu/req",
        "bytes",
        "settings p50",
        "p99",
        "cpu/req"
    );
    let mut spawned = 0;
    for step in [8, total] {
        while spawned < step {
            ureq::post(format!("http://{}/api/sessions", server.ui))
                .header("Cookie", &cookie)
                .send_json(
                    json!({"engine": "worker", "prompt": format!("work {spawned}"), "cwd": scratch.path()}),
                )
                .expect("spawn");
            spawned += 1;
        }
        wait_running(&server, &cookie, step);
        let bytes = ureq::get(format!("http://{}/api/sessions", server.ui))
            .header("Cookie", &cookie)
            .call()
            .expect("list")
            .body_mut()
            .read_to_string()
            .map_or(0, |body| body.len());
        let before = cpu_time(child.id());
        std::thread::sleep(IDLE);
        let idle = (cpu_time(child.id()).saturating_sub(before)).as_secs_f64() / IDLE.as_secs_f64();
        let sessions = timed(
            &server.ui,
            &cookie,
            "/api/sessions",
            child.id(),
            idle,
            requests,
        );
        let settings = timed(
            &server.ui,
            &cookie,
            "/api/settings",
            child.id(),
            idle,
            requests,
        );
        println!(
            "{step:>6} {:>8.1}% {:>11.2} ms {:>6.2} ms {:>6.2} ms {bytes:>12} {:>11.2} ms {:>6.2} ms {:>6.2} ms",
            idle * 100.0,
            ms(sessions.p50),
            ms(sessions.p99),
            ms(sessions.cpu),
            ms(settings.p50),
            ms(settings.p99),
            ms(settings.cpu),
        );
        println!(
            "       sessions/settings: p50 {:.1}x, cpu {:.1}x",
            ms(sessions.p50) / ms(settings.p50).max(1e-3),
            ms(sessions.cpu) / ms(settings.cpu).max(1e-3),
        );
    }
    signal_term(&child);
    let _ = child.wait();
}

/// Waits until the list shows `n` sessions running, so no turn is still
/// starting while the figures are taken.
fn wait_running(server: &Addresses, cookie: &str, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let list: serde_json::Value = ureq::get(format!("http://{}/api/sessions", server.ui))
            .header("Cookie", cookie)
            .call()
            .expect("list")
            .body_mut()
            .read_json()
            .expect("the sessions");
        let running = list
            .as_array()
            .map_or(0, |l| l.iter().filter(|s| s["status"] == "running").count());
        if running >= n {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{running} of {n} sessions running"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// `requests` requests for `path`, one after another; the server's CPU per
/// request counts what it used beyond `idle` (cores busy while unasked).
fn timed(ui: &str, cookie: &str, path: &str, pid: u32, idle: f64, requests: usize) -> Figure {
    let stream = TcpStream::connect(ui).expect("connect");
    stream.set_nodelay(true).ok();
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    let request = format!("GET {path} HTTP/1.1\r\nHost: {ui}\r\nCookie: {cookie}\r\n\r\n");
    let mut send = || {
        let sent = Instant::now();
        writer.write_all(request.as_bytes()).expect("write");
        let status = read_response(&mut reader);
        assert!(status < 300, "{path}: status {status}");
        sent.elapsed()
    };
    // Warm: the first requests of a connection pay for caches.
    for _ in 0..5 {
        send();
    }
    let cpu_before = cpu_time(pid);
    let began = Instant::now();
    let mut samples: Vec<Duration> = (0..requests).map(|_| send()).collect();
    let upkeep = began.elapsed().mul_f64(idle);
    let cpu = (cpu_time(pid).saturating_sub(cpu_before + upkeep))
        / u32::try_from(requests).unwrap_or(u32::MAX);
    Figure {
        p50: percentile(&mut samples, 0.5),
        p99: percentile(&mut samples, 0.99),
        cpu,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
