//! Foundation figures over real loopback HTTP against a release
//! `switchboard serve`: GET /settings throughput, durable PATCH throughput and
//! latency, exec-to-server.json start-up time, and idle resident memory.
//! The load generator runs in this process on the same 2-core machine, so the
//! figures include its cost. Run with `cargo bench -p switchboard`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const CONNECTIONS: usize = 8;
const RUN: Duration = Duration::from_secs(3);

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (startup_fresh, mut child) = time_startup(dir.path());
    child.kill().ok();
    child.wait().ok();
    let _ = std::fs::remove_file(dir.path().join("server.json"));
    let mut warm = Vec::new();
    for _ in 0..9 {
        let (took, mut child) = time_startup(dir.path());
        warm.push(took);
        signal_term(&child);
        child.wait().ok();
    }
    warm.sort();
    let (_, mut child) = time_startup(dir.path());
    let info: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("server.json")).expect("server.json"),
    )
    .expect("json");
    let control = info["controlUrl"]
        .as_str()
        .expect("control url")
        .trim_start_matches("http://")
        .to_owned();
    let token = std::fs::read_to_string(dir.path().join("cli-token"))
        .expect("token")
        .trim()
        .to_owned();

    std::thread::sleep(Duration::from_secs(2));
    let idle_rss = rss_kib(child.id());

    let get = format!(
        "GET /settings HTTP/1.1\r\nHost: {control}\r\nAuthorization: Bearer {token}\r\n\r\n"
    );
    let (get_count, _) = load(&control, RUN, move |_| get.clone().into_bytes());
    let patch_token = token.clone();
    let patch_host = control.clone();
    let (patch_count, mut latencies) = load(&control, RUN, move |n| {
        let body = format!("{{\"value\": {}}}", n % 400 + 1);
        format!(
            "PATCH /settings/sessionRefillTargetCount HTTP/1.1\r\nHost: {patch_host}\r\nAuthorization: Bearer {patch_token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    });
    latencies.sort();
    let loaded_rss = rss_kib(child.id());
    signal_term(&child);
    child.wait().ok();

    let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    println!(
        "switchboard foundation bench ({CONNECTIONS} keep-alive connections, {}s each, loopback, 2 cores shared with the load generator)",
        RUN.as_secs()
    );
    println!(
        "GET /settings:            {:>8.0} req/s",
        get_count as f64 / RUN.as_secs_f64()
    );
    println!(
        "PATCH /settings/<key>:    {:>8.0} req/s  p50 {:?}  p99 {:?}",
        patch_count as f64 / RUN.as_secs_f64(),
        pct(0.50),
        pct(0.99)
    );
    println!(
        "exec -> server.json:      fresh data dir {:?}, existing data dir median {:?}",
        startup_fresh,
        warm[warm.len() / 2]
    );
    println!(
        "resident memory:          idle {} KiB ({:.1} MiB), after the load {} KiB",
        idle_rss,
        idle_rss as f64 / 1024.0,
        loaded_rss
    );
}

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_switchboard")
}

fn time_startup(dir: &Path) -> (Duration, Child) {
    let server_file = dir.join("server.json");
    let _ = std::fs::remove_file(&server_file);
    let started = Instant::now();
    let child = Command::new(binary())
        .args([
            "serve",
            "--control-port",
            "0",
            "--ui-port",
            "0",
            "--data-dir",
        ])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    while !server_file.exists() {
        std::thread::sleep(Duration::from_micros(200));
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "server did not start"
        );
    }
    (started.elapsed(), child)
}

fn signal_term(child: &Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// Runs `CONNECTIONS` keep-alive connections sending the requests `make`
/// builds for `duration`; returns the count and every latency.
fn load(
    addr: &str,
    duration: Duration,
    make: impl Fn(u64) -> Vec<u8> + Send + Sync + 'static,
) -> (u64, Vec<Duration>) {
    let make = Arc::new(make);
    let stop = Arc::new(AtomicBool::new(false));
    let sequence = Arc::new(AtomicU64::new(0));
    let workers: Vec<_> = (0..CONNECTIONS)
        .map(|_| {
            let (addr, make, stop, sequence) = (
                addr.to_owned(),
                make.clone(),
                stop.clone(),
                sequence.clone(),
            );
            std::thread::spawn(move || {
                let stream = TcpStream::connect(&addr).expect("connect");
                stream.set_nodelay(true).ok();
                let mut writer = stream.try_clone().expect("clone");
                let mut reader = BufReader::new(stream);
                let mut latencies = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    let request = make(sequence.fetch_add(1, Ordering::Relaxed));
                    let sent = Instant::now();
                    writer.write_all(&request).expect("write");
                    let status = read_response(&mut reader);
                    assert!(status < 300, "status {status}");
                    latencies.push(sent.elapsed());
                }
                latencies
            })
        })
        .collect();
    std::thread::sleep(duration);
    stop.store(true, Ordering::Relaxed);
    let latencies: Vec<Duration> = workers
        .into_iter()
        .flat_map(|w| w.join().expect("worker"))
        .collect();
    (latencies.len() as u64, latencies)
}

fn read_response(reader: &mut BufReader<TcpStream>) -> u16 {
    let mut line = String::new();
    reader.read_line(&mut line).expect("status line");
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut length = 0usize;
    loop {
        line.clear();
        reader.read_line(&mut line).expect("header");
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("body");
    status
}
