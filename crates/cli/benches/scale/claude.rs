//! Part 2 of the scale bench: sessions of the real Claude Code CLI against
//! the Anthropic stand-in, each running one-line text turns back to back,
//! doubled from 1 until a criterion trips. Skipped when the pinned CLI is
//! not installed.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use standins::{Api, Message, Standin};

use crate::feed::Feed;
use crate::probe::{Latencies, Server, cell, ms};
use crate::step::{Config, TURN_P99_LIMIT, log_path, measure, report_log};

/// How long a turn may take before the bench gives up on it.
const TURN_LIMIT: Duration = Duration::from_secs(90);

/// `SWITCHBOARD_ENGINES_DIR`, else this workspace's `target/engines`.
fn claude_binary() -> Option<PathBuf> {
    let dir = crate::support::engines_dir();
    let claude = dir.join("claude");
    if claude.exists() {
        Some(claude)
    } else {
        println!(
            "\npart 2 skipped: the real Claude Code is not in {} (set SWITCHBOARD_ENGINES_DIR or run `make engines-deps`)",
            dir.display()
        );
        None
    }
}

fn active(status: &str) -> bool {
    matches!(status, "queued" | "starting" | "running")
}

/// Waits for the end of `turn` of `id` on the stream, then for the session
/// to settle; the time to the end, or why it did not come.
fn await_turn(feed: &Feed, id: &str, turn: u64, sent: Instant) -> Result<Duration, String> {
    let key = (id.to_owned(), turn);
    let mut end = None;
    feed.wait(TURN_LIMIT, |state| {
        end = state.ends.get(&key).copied();
        end.is_some() || state.resets.iter().any(|(at, _)| *at > sent)
    });
    let (at, error) = match end {
        Some(end) => end,
        None => {
            let state = feed.lock();
            let status = state.sessions.get(id).map(|s| s.status.clone());
            return Err(match state.resets.iter().find(|(at, _)| *at > sent) {
                Some((_, why)) => format!("during turn {turn} of {id}: {why}"),
                None => format!("turn {turn} of {id} not done in 90 s (status {status:?})"),
            });
        }
    };
    if error {
        return Err(format!("turn {turn} of {id} ended with an error entry"));
    }
    let settled = feed.wait(Duration::from_secs(30), |state| {
        state
            .sessions
            .get(id)
            .is_some_and(|s| s.turns >= turn && !active(&s.status))
    });
    if !settled {
        return Err(format!("{id} still active 30 s after turn {turn} ended"));
    }
    let status = feed.lock().sessions.get(id).map(|s| s.status.clone());
    if status.as_deref() != Some("waiting_for_input") {
        return Err(format!("{id} is {status:?} after turn {turn}"));
    }
    Ok(at.saturating_duration_since(sent))
}

/// Runs turns on `id` from `turn` + 1 until `stop`; returns the turns'
/// latencies and the last turn it finished.
fn keep_turning(
    server: &Server,
    feed: &Feed,
    id: &str,
    mut turn: u64,
    stop: &AtomicBool,
) -> (Latencies, u64) {
    let mut latencies = Latencies::default();
    while !stop.load(Ordering::Relaxed) {
        let sent = Instant::now();
        let path = format!("/sessions/{id}/messages");
        if let Err(why) = server.ui("POST", &path, Some(&json!({"text": "next"}))) {
            latencies.fail(why);
            break;
        }
        match await_turn(feed, id, turn + 1, sent) {
            Ok(took) => latencies.samples.push(took),
            Err(why) => {
                latencies.fail(why);
                break;
            }
        }
        turn += 1;
    }
    (latencies, turn)
}

pub fn run(config: &Config) {
    let Some(claude) = claude_binary() else {
        return;
    };
    let standin = Standin::start(Api::Anthropic).expect("stand-in");
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let work = tempfile::tempdir().expect("work");
    std::fs::write(
        data.path().join("engines.toml"),
        crate::support::claude_engines_toml(&claude, &standin.url()),
    )
    .expect("engines.toml");
    let mut server = Server::start(data.path(), home.path(), log_path("claude"));
    let feed = Feed::open(server.addresses.control(), &server.addresses.token);
    println!(
        "\npart 2: real Claude Code ({}) against the stand-in, text turns back to back; {} s measured per step",
        claude.display(),
        config.step.as_secs()
    );
    println!(
        "{:>4} {:>9} {:>9} {:>6} {:>8} {:>8} {:>8} {:>6} {:>7} {:>5} {:>5} {:>13} {:>6} {:>6} {:>8} {:>8} {:>8}",
        "N",
        "cold50",
        "coldMax",
        "turns",
        "turn50",
        "turn99",
        "turns/s",
        "srvCPU",
        "srvRSS",
        "fds",
        "thr",
        "engRSS pk/avg",
        "mach%",
        "bench%",
        "sess99",
        "sett99",
        "gov max"
    );
    println!(
        "{:>4} {:>9} {:>9} {:>6} {:>8} {:>8} {:>8} {:>6} {:>7} {:>5} {:>5} {:>13} {:>6} {:>6} {:>8} {:>8} {:>8}",
        "",
        "ms",
        "ms",
        "",
        "ms",
        "ms",
        "",
        "%1core",
        "MiB",
        "",
        "",
        "MiB",
        "",
        "%1core",
        "ms",
        "ms",
        "ms"
    );
    // (id, the last turn it finished)
    let mut sessions: Vec<(String, u64)> = Vec::new();
    let mut n = 1;
    let verdict = loop {
        let mut failures = Vec::new();
        for _ in 0..n * 200 {
            standin.push(Message::text("Done."));
        }
        let mut cold = Latencies::default();
        let mut started = Vec::new();
        while sessions.len() + started.len() < n {
            let body = json!({"engine": "primary", "prompt": "go", "cwd": work.path()});
            let sent = Instant::now();
            match server.ui("POST", "/sessions", Some(&body)) {
                Ok(session) => {
                    started.push((session["id"].as_str().unwrap_or("").to_owned(), sent))
                }
                Err(why) => {
                    cold.fail(why);
                    break;
                }
            }
        }
        for (id, sent) in started {
            match await_turn(&feed, &id, 1, sent) {
                Ok(took) => {
                    cold.samples.push(took);
                    sessions.push((id, 1));
                }
                Err(why) => cold.fail(why),
            }
        }
        if cold.errors > 0 {
            failures.push(format!(
                "{} sessions did not start or finish their first turn: {}",
                cold.errors,
                cold.first_error.clone().unwrap_or_default()
            ));
        }
        let stop = AtomicBool::new(false);
        let (mut window, results) = std::thread::scope(|scope| {
            let workers: Vec<_> = sessions
                .iter()
                .map(|(id, turn)| {
                    let (server, feed, stop) = (&server, &feed, &stop);
                    scope.spawn(move || keep_turning(server, feed, id, *turn, stop))
                })
                .collect();
            let window = measure(&server, config.step);
            stop.store(true, Ordering::Relaxed);
            let results: Vec<_> = workers
                .into_iter()
                .map(|w| w.join().unwrap_or_default())
                .collect();
            (window, results)
        });
        let mut turns = Latencies::default();
        for ((_, last), (latencies, turn)) in sessions.iter_mut().zip(results) {
            *last = turn;
            turns.samples.extend(latencies.samples);
            turns.errors += latencies.errors;
            if let Some(why) = latencies.first_error {
                turns.first_error.get_or_insert(why);
            }
        }
        if turns.errors > 0 {
            failures.push(format!(
                "{} turns failed: {}",
                turns.errors,
                turns.first_error.clone().unwrap_or_default()
            ));
        }
        if turns.samples.is_empty() {
            failures.push("no turn finished in the window".to_owned());
        } else if let Some(p99) = turns.p(0.99)
            && p99 > TURN_P99_LIMIT
        {
            failures.push(format!("turn p99 {:.1} s > 30 s", p99.as_secs_f64()));
        }
        window.failures(&mut failures);
        if !server.alive() {
            failures.push("the server exited".to_owned());
        }
        let (sessions99, _) = window.api_p99("/sessions");
        let (settings99, _) = window.api_p99("/settings");
        println!(
            "{:>4} {:>9} {:>9} {:>6} {:>8} {:>8} {:>8.2} {:>6.0} {:>7.0} {:>5} {:>5} {:>6.0}/{:<6.0} {:>6.0} {:>6.0} {:>8} {:>8} {:>8}",
            n,
            cell(cold.p(0.5)),
            cell(cold.p(1.0)),
            turns.samples.len(),
            cell(turns.p(0.5)),
            cell(turns.p(0.99)),
            turns.samples.len() as f64 / config.step.as_secs_f64(),
            window.server_cpu,
            window.rss_peak_kib as f64 / 1024.0,
            window.fds,
            window.threads,
            window.engines_rss.0 as f64 / 1024.0,
            window.engines_rss.1 as f64 / 1024.0,
            window.machine_cpu,
            window.bench_cpu,
            cell(sessions99),
            cell(settings99),
            cell(window.governor.p(1.0)),
        );
        println!("       {}", window.waits);
        if !failures.is_empty() {
            break format!("first failure at N = {n}: {}", failures.join("; "));
        }
        // Doubling past the memory there is would have the kernel kill
        // processes (this server, or anything else on the machine): stop
        // one step early when the engines' peak so far says so.
        let per_session = window.engines_rss.0 / n as u64;
        let available = available_kib();
        if per_session * n as u64 * 2 > available * 8 / 10 {
            break format!(
                "stopped before N = {}: its engines would need about {:.1} GiB at this step's peak ({:.0} MiB a session), over 80 % of the {:.1} GiB available",
                n * 2,
                (per_session * n as u64 * 2) as f64 / 1048576.0,
                per_session as f64 / 1024.0,
                available as f64 / 1048576.0
            );
        }
        if n * 2 > config.max_claude {
            break format!("no failure up to N = {n} (the cap; SCALE_CLAUDE_MAX raises it)");
        }
        n *= 2;
    };
    println!("  {verdict}");
    let main = standin.main_requests().len();
    println!(
        "  the stand-in answered {main} turns ({} requests in all); turn = message sent to its `final` entry on the stream (spawn to it for the cold first turn); {:.0} ms is the p99 limit",
        standin.requests().len(),
        ms(TURN_P99_LIMIT)
    );
    report_log(&server);
    drop(feed);
    server.stop();
}

/// `MemAvailable` in KiB.
fn available_kib() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
