//! Sessions on an SSH runner against the same sessions here: a release
//! `switchboard serve`, a real sshd on loopback logged into as a separate
//! local user (the runner tests' rig), and `command` engines, so the figures
//! are Switchboard's and ssh's, not a model's.
//!
//! - turn latency: from `POST /sessions` to the session's first output on
//!   the event stream, local and through the runner (p50, p95, and what the
//!   runner adds);
//! - line to screen: an engine prints a timestamped line every 100 ms; how
//!   long each takes to reach a stream client, local and through the runner;
//! - 128 `command` sessions at once on one runner: time until every one has
//!   finished its turn, and the server's CPU and memory meanwhile.
//!
//! Needs root and Debian's openssh-server (`make ssh-deps`); says it skipped
//! otherwise. Run with `cargo bench -p switchboard --bench runners`.

#[path = "../tests/runners/sshd.rs"]
mod sshd;
mod support;

use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use support::{
    Addresses, cookie, cpu_time, listen, percentile, rss_kib, signal_term, spawn_on as spawn,
    turn_latencies,
};

const TURNS: usize = 40;
const LINES: usize = 30;
const MANY: usize = 128;

fn main() {
    let Some(sshd) = sshd::Sshd::start("sbrunner") else {
        return;
    };
    let dir = tempfile::tempdir().expect("data dir");
    let lines = format!("for i in $(seq {LINES}); do echo \"line $(date +%s%N)\"; sleep 0.1; done");
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.echo]\nkind = \"command\"\ncommand = [\"/bin/cat\"]\n\
             [engines.lines]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {lines:?}]\n\
             [engines.short]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"sleep 2; echo done\"]\n"
        ),
    )
    .expect("engines.toml");
    std::fs::write(
        dir.path().join("runners.toml"),
        format!(
            "ssh_config = {:?}\n[runners.devbox]\nssh = {:?}\n",
            sshd.config().display().to_string(),
            sshd.alias
        ),
    )
    .expect("runners.toml");
    let mut child = support::serve_command(dir.path())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn serve");
    support::wait_for_server_file(dir.path(), &child);
    let server = Addresses::read(dir.path());
    let control = server.control.clone().expect("a control server");
    let owner = format!("Bearer {}", server.token);
    ureq::patch(format!(
        "http://{}/settings/cloudControlPlaneEnabled",
        control
    ))
    .header("Authorization", &owner)
    .send_json(json!({"value": true}))
    .expect("turn runners on");
    let browser = cookie(&server.ui, &server.token);
    let events = listen(&control, &server.token);
    // The first contact installs the helper: not part of any figure.
    ureq::get(format!("http://{}/runners?refresh=true", control))
        .header("Authorization", &owner)
        .call()
        .expect("reach the runner");

    println!("runners: {TURNS} turns each, {LINES} lines each, {MANY} sessions at once");
    let mut local = turn_latencies(&server, &browser, &events, "local", TURNS);
    let mut remote = turn_latencies(&server, &browser, &events, "devbox", TURNS);
    let (l50, l95) = (percentile(&mut local, 0.5), percentile(&mut local, 0.95));
    let (r50, r95) = (percentile(&mut remote, 0.5), percentile(&mut remote, 0.95));
    println!("turn latency, spawn to first output, local:  p50 {l50:.1?}  p95 {l95:.1?}");
    println!("turn latency, spawn to first output, runner: p50 {r50:.1?}  p95 {r95:.1?}");
    println!(
        "added by the runner: p50 {:.1?}  p95 {:.1?}",
        r50.saturating_sub(l50),
        r95.saturating_sub(l95)
    );

    let mut local = line_latencies(&server, &browser, &events, "local");
    let mut remote = line_latencies(&server, &browser, &events, "devbox");
    println!(
        "line to screen, local:  p50 {:.1?}  p95 {:.1?}",
        percentile(&mut local, 0.5),
        percentile(&mut local, 0.95)
    );
    println!(
        "line to screen, runner: p50 {:.1?}  p95 {:.1?}",
        percentile(&mut remote, 0.5),
        percentile(&mut remote, 0.95)
    );

    let pid = child.id();
    let (cpu_before, started) = (cpu_time(pid), Instant::now());
    let ids: Vec<String> = (0..MANY)
        .map(|_| spawn(&server, &browser, "short", "devbox"))
        .collect();
    let mut peak_rss = 0;
    let mut pending: std::collections::HashSet<String> = ids.into_iter().collect();
    while !pending.is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "{} sessions did not finish",
            pending.len()
        );
        peak_rss = peak_rss.max(rss_kib(pid));
        pending.retain(|id| {
            let session: Value = ureq::get(format!("http://{}/sessions/{id}", control))
                .header("Authorization", &owner)
                .call()
                .expect("read a session")
                .body_mut()
                .read_json()
                .expect("a session");
            match session["status"].as_str() {
                Some("waiting_for_input") => false,
                Some("failed") => panic!("a session failed: {session}"),
                _ => true,
            }
        });
        std::thread::sleep(Duration::from_millis(200));
    }
    println!(
        "{MANY} command sessions on one runner (each: sleep 2, one line): all done in {:.1?}; \
         server CPU {:.1?}, peak RSS {} MiB",
        started.elapsed(),
        cpu_time(pid).saturating_sub(cpu_before),
        peak_rss / 1024
    );
    signal_term(&child);
    let _ = child.wait();
}

/// Each printed line's trip from the engine's clock to the stream client's.
fn line_latencies(
    server: &Addresses,
    browser: &str,
    events: &mpsc::Receiver<(String, Value, Instant)>,
    runner: &str,
) -> Vec<Duration> {
    let id = spawn(server, browser, "lines", runner);
    let mut latencies = Vec::new();
    while latencies.len() < LINES {
        let (name, data, _) = events
            .recv_timeout(Duration::from_secs(60))
            .expect("the session's lines");
        if name != "output" || data["sessionId"] != id.as_str() {
            continue;
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let text = data["entry"]["text"].as_str().unwrap_or("");
        for stamp in text.lines().filter_map(|l| l.strip_prefix("line ")) {
            if let Ok(at) = stamp.trim().parse::<u128>() {
                latencies.push(Duration::from_nanos(
                    u64::try_from(now.saturating_sub(at)).unwrap_or(u64::MAX),
                ));
            }
        }
    }
    latencies
}
