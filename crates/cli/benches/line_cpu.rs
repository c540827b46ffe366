//! The server's CPU per line of engine output, the figure that bounds how many
//! busy sessions one machine holds. A release `switchboard serve` on a real
//! on-disk database runs `command` sessions that each print a timestamped line
//! every 200 ms (the scale bench's ticker), `LINE_CPU_STEPS` of them in turn
//! (default `256,512`); one `GET /stream` client reads every event.
//!
//! Printed per step, over a window of `LINE_CPU_WINDOW` seconds (default 20)
//! after the sessions settled: the lines the client received a second, the
//! server's CPU (its own, from `/proc`, so another process on the cores does
//! not count, though it still slows the wall clock) as a share of one core
//! and per line received, and the line's time from the engine's clock to the
//! client (p50, p99, max). `SWITCHBOARD_BIN` runs another build of the
//! server (an earlier one kept for a before/after comparison) in the same
//! harness.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use support::{Addresses, cookie, cpu_time, signal_term, wait_for_server_file};

const TICKER: &str = "use Time::HiRes qw(time sleep); $| = 1; \
    for (my $i = 0; ; $i++) { printf(\"tick %d %.0f\\n\", $i, time() * 1e9); sleep(0.2); }";

/// What the stream client heard since the last [`take`]: each tick line's
/// time from the engine's clock to the client's, in ns.
#[derive(Default)]
struct Heard {
    latencies: Vec<u64>,
}

fn main() {
    let steps: Vec<usize> = std::env::var("LINE_CPU_STEPS")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![256, 512]);
    let window = Duration::from_secs(
        std::env::var("LINE_CPU_WINDOW")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(20),
    );
    let binary = std::env::var("SWITCHBOARD_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_switchboard").to_owned());
    let dir = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let scratch = tempfile::tempdir().expect("scratch dir");
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.ticker]\nkind = \"command\"\ncommand = [\"/usr/bin/perl\", \"-e\", {TICKER:?}]\n"
        ),
    )
    .expect("engines.toml");
    let mut child = Command::new(&binary)
        .args([
            "serve",
            "--control-port",
            "0",
            "--ui-port",
            "0",
            "--data-dir",
        ])
        .arg(dir.path())
        .env("HOME", home.path())
        .env_remove("IS_SANDBOX")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    wait_for_server_file(dir.path(), &child);
    let server = Addresses::read(dir.path());
    let cookie = cookie(&server.ui, &server.token);
    let heard = listen(server.control(), &server.token);
    println!("server: {binary}");
    println!(
        "`command` sessions, a line every 200 ms each; {} s window per step",
        window.as_secs()
    );
    println!(
        "{:>6} {:>9} {:>9} {:>11} {:>9} {:>9} {:>9}",
        "N", "lines/s", "cpu %1c", "cpu/line", "p50 ms", "p99 ms", "max ms"
    );
    let mut spawned = 0;
    for step in steps {
        while spawned < step {
            ureq::post(format!("http://{}/api/sessions", server.ui))
                .header("Cookie", &cookie)
                .send_json(json!({
                    "engine": "ticker",
                    "prompt": format!("tick {spawned}"),
                    "cwd": scratch.path(),
                }))
                .expect("spawn");
            spawned += 1;
        }
        // Settled: every turn started and the spawns' own work is done.
        std::thread::sleep(Duration::from_secs(10));
        take(&heard);
        let cpu_before = cpu_time(child.id());
        let began = Instant::now();
        std::thread::sleep(window);
        let cpu = cpu_time(child.id()).saturating_sub(cpu_before);
        let elapsed = began.elapsed();
        let mut latencies = take(&heard);
        latencies.sort_unstable();
        let lines = latencies.len();
        let at = |p: f64| {
            latencies
                .get(((lines.max(1) - 1) as f64 * p).round() as usize)
                .map_or(f64::NAN, |ns| *ns as f64 / 1e6)
        };
        println!(
            "{step:>6} {:>9.0} {:>8.1}% {:>8.3} ms {:>9.1} {:>9.1} {:>9.1}",
            lines as f64 / elapsed.as_secs_f64(),
            cpu.as_secs_f64() / elapsed.as_secs_f64() * 100.0,
            cpu.as_secs_f64() * 1e3 / lines.max(1) as f64,
            at(0.5),
            at(0.99),
            at(1.0),
        );
    }
    signal_term(&child);
    let _ = child.wait();
}

/// What was heard since the last call.
fn take(heard: &Mutex<Heard>) -> Vec<u64> {
    std::mem::take(&mut heard.lock().unwrap_or_else(|e| e.into_inner()).latencies)
}

/// Reads `GET /stream` on a thread of its own, noting each tick line's latency.
fn listen(control: &str, token: &str) -> Arc<Mutex<Heard>> {
    let response = ureq::get(format!("http://{control}/stream"))
        .header("Authorization", format!("Bearer {token}"))
        .call()
        .expect("open the stream");
    let mut reader = BufReader::with_capacity(1 << 20, response.into_body().into_reader());
    let heard = Arc::new(Mutex::new(Heard::default()));
    let shared = Arc::clone(&heard);
    std::thread::spawn(move || {
        let (mut name, mut line) = (String::new(), String::new());
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = line.trim_end();
            if let Some(value) = line.strip_prefix("event: ") {
                name = value.to_owned();
            } else if let Some(data) = line.strip_prefix("data: ") {
                assert_ne!(
                    name, "reset",
                    "the stream was reset: lines would be refetched"
                );
                if name != "output" {
                    continue;
                }
                let received = now_ns();
                let Ok(value) = serde_json::from_str::<Value>(data) else {
                    continue;
                };
                let Some(text) = value["entry"]["text"].as_str() else {
                    continue;
                };
                let mut heard = shared.lock().unwrap_or_else(|e| e.into_inner());
                for tick in text.lines() {
                    let sent = tick
                        .strip_prefix("tick ")
                        .and_then(|rest| rest.split_whitespace().nth(1))
                        .and_then(|ns| ns.parse::<u128>().ok());
                    if let Some(sent) = sent {
                        let latency = received.saturating_sub(sent);
                        heard
                            .latencies
                            .push(u64::try_from(latency).unwrap_or(u64::MAX));
                    }
                }
            }
        }
    });
    heard
}

fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}
