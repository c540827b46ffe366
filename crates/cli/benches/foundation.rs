//! Foundation figures over real loopback HTTP against a release
//! `switchboard serve`: GET /settings throughput, durable PATCH throughput and
//! latency, exec-to-server.json start-up time, and idle resident memory.
//! The load generator runs in this process on the same 2-core machine, so the
//! figures include its cost. Run with `cargo bench -p switchboard`.

mod support;

use std::time::Duration;

use support::{Addresses, CONNECTIONS, load, rss_kib, signal_term, time_startup};

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
    let server = Addresses::read(dir.path());
    let (control, token) = (server.control().to_owned(), server.token);

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
