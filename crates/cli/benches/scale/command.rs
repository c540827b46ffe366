//! Part 1 of the scale bench: `command` engine sessions that each print a
//! timestamped line every 200 ms, doubled from 8 until a criterion trips.
//! A line counts as lost only when neither the stream nor the refetch after
//! a `reset` brought it (see feed.rs); refetched lines are not timed.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::feed::{Feed, Tick, now_ns};
use crate::probe::{Latencies, Server, cell, engines_memory, ms};
use crate::step::{Config, STREAM_P99_LIMIT, Window, log_path, measure, report_log};

/// How often each engine writes a line.
const INTERVAL: Duration = Duration::from_millis(200);

/// How long the refetches after a `reset` may take before the lines they
/// have not brought count as lost.
const REFETCH_LIMIT: Duration = Duration::from_secs(300);

/// Perl rather than a shell loop: `date` and `sleep` would fork two
/// processes per line, which at hundreds of sessions is load of its own.
const TICKER: &str = "use Time::HiRes qw(time sleep); $| = 1; \
    for (my $i = 0; ; $i++) { printf(\"tick %d %.0f\\n\", $i, time() * 1e9); sleep(0.2); }";

/// One step's figures, for its table row.
struct Row {
    n: usize,
    spawn: Latencies,
    window: Window,
    ticks: Vec<Duration>,
    lost: u64,
    /// Lines refetched from the transcript after a `reset` (not timed).
    recovered: usize,
    delivered: f64,
    engines: (usize, u64),
}

pub fn run(config: &Config) {
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let scratch = tempfile::tempdir().expect("scratch");
    std::fs::write(
        data.path().join("engines.toml"),
        format!(
            "[engines.ticker]\nkind = \"command\"\ncommand = [\"/usr/bin/perl\", \"-e\", {TICKER:?}]\n"
        ),
    )
    .expect("engines.toml");
    let mut server = Server::start(data.path(), home.path(), log_path("command"));
    let feed = Feed::open(server.addresses.control(), &server.addresses.token);
    println!(
        "\npart 1: `command` engine sessions, a line every {} ms each; {} s measured per step",
        INTERVAL.as_millis(),
        config.step.as_secs()
    );
    println!(
        "{:>5} {:>8} {:>6} {:>7} {:>6} {:>5} {:>5} {:>12} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8} {:>5} {:>9} {:>9} {:>9}",
        "N",
        "spawn99",
        "srvCPU",
        "srvRSS",
        "fds",
        "thr",
        "eng",
        "engRSS/PSS",
        "mach%",
        "bench%",
        "lines/s",
        "strm50",
        "strm99",
        "strmMax",
        "lost",
        "sess99",
        "sett99",
        "gov max"
    );
    println!(
        "{:>5} {:>8} {:>6} {:>7} {:>6} {:>5} {:>5} {:>12} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8} {:>5} {:>9} {:>9} {:>9}",
        "",
        "ms",
        "%1core",
        "MiB",
        "",
        "",
        "procs",
        "MiB",
        "",
        "%1core",
        "",
        "ms",
        "ms",
        "ms",
        "",
        "ms",
        "ms",
        "ms"
    );
    let mut sessions: Vec<String> = Vec::new();
    let mut n = 8;
    let keep_going = std::env::var_os("SCALE_KEEP_GOING").is_some();
    let mut first_failure = None;
    let verdict = loop {
        let mut failures = Vec::new();
        let resets_before = feed.lock().resets.len();
        let mut spawn = Latencies::default();
        while sessions.len() < n && spawn.errors == 0 {
            let sent = Instant::now();
            let body = json!({"engine": "ticker", "prompt": "go", "cwd": scratch.path()});
            match server.ui("POST", "/sessions", Some(&body)) {
                Ok(session) => {
                    spawn.samples.push(sent.elapsed());
                    sessions.push(session["id"].as_str().unwrap_or("").to_owned());
                }
                Err(why) => spawn.fail(why),
            }
        }
        if spawn.errors > 0 {
            failures.push(format!(
                "spawn refused at session {}: {}",
                sessions.len() + 1,
                spawn.first_error.clone().unwrap_or_default()
            ));
        }
        // Every session heard from before the window opens, so a slow
        // start is not counted as stream latency.
        let all_heard = feed.wait(Duration::from_secs(30), |state| {
            sessions
                .iter()
                .all(|id| state.heard.get(id).is_some_and(|&c| c > 0))
        });
        if !all_heard {
            let state = feed.lock();
            let silent = sessions
                .iter()
                .filter(|id| !state.heard.contains_key(*id))
                .count();
            failures.push(format!("{silent} sessions printed nothing within 30 s"));
        }
        std::thread::sleep(Duration::from_secs(1));
        feed.lock().ticks.clear();
        let opened = now_ns();
        let window_opened = Instant::now();
        let window = measure(&server, config.step);
        let closed = now_ns();
        // Lines written near the close are still on their way.
        std::thread::sleep(STREAM_P99_LIMIT + Duration::from_millis(500));
        let engines = engines_memory(server.pid());
        // A line counts as lost only once every refetch has had its chance:
        // at 2,048 sessions one reads for minutes.
        let refetched = feed.wait(REFETCH_LIMIT, |state| state.refetching == 0);
        if !refetched {
            failures.push(format!(
                "refetches after `reset` still running after {} s",
                REFETCH_LIMIT.as_secs()
            ));
        }
        let (ticks, lost, recovered, delivered, resets, not_running) = {
            let state = feed.lock();
            let inside: Vec<&Tick> = state
                .ticks
                .iter()
                .filter(|t| t.sent_ns >= opened && t.sent_ns < closed)
                .collect();
            let not_running = sessions
                .iter()
                .filter(|id| {
                    state
                        .sessions
                        .get(*id)
                        .is_some_and(|s| s.status != "running")
                })
                .count();
            let expected = n as f64 * (closed - opened) as f64 / INTERVAL.as_nanos() as f64;
            (
                inside
                    .iter()
                    .filter(|t| !t.recovered)
                    .map(|t| Duration::from_nanos(t.received_ns.saturating_sub(t.sent_ns) as u64))
                    .collect::<Vec<_>>(),
                gaps(&inside),
                inside.iter().filter(|t| t.recovered).count(),
                inside.len() as f64 / expected * 100.0,
                state.resets[resets_before..]
                    .iter()
                    .map(|(at, why)| (*at >= window_opened, why.clone()))
                    .collect::<Vec<_>>(),
                not_running,
            )
        };
        let mut row = Row {
            n,
            spawn,
            window,
            ticks,
            lost,
            recovered,
            delivered,
            engines: (engines.0, engines.2),
        };
        if let Some((_, why)) = resets.first() {
            let inside = resets.iter().filter(|(inside, _)| *inside).count();
            failures.push(format!(
                "{} stream resets ({} while spawning, {inside} in the window; first: {why})",
                resets.len(),
                resets.len() - inside
            ));
        }
        if not_running > 0 {
            failures.push(format!("{not_running} sessions are no longer running"));
        }
        if row.lost > 0 {
            failures.push(format!(
                "{} lines lost (gaps in a session's sequence)",
                row.lost
            ));
        }
        if row.ticks.is_empty() {
            failures.push("no line reached the stream client".to_owned());
        } else if let Some(p99) = pct(&mut row.ticks, 0.99)
            && p99 > STREAM_P99_LIMIT
        {
            failures.push(format!("stream p99 {:.0} ms > 1 s", ms(p99)));
        }
        row.window.failures(&mut failures);
        if !server.alive() {
            failures.push("the server exited".to_owned());
        }
        print_row(&mut row, config.step);
        let failed = !failures.is_empty();
        if failed {
            println!("      tripped at N = {n}: {}", failures.join("; "));
            first_failure.get_or_insert(n);
        }
        // Past the first failure only with SCALE_KEEP_GOING, and never past
        // a dead server or a full memory.
        if failed && (!keep_going || !server.alive() || row.window.memory_available < 10.0) {
            break format!("first failure at N = {n}");
        }
        if n * 2 > config.max_command {
            break match first_failure {
                Some(at) => format!("first failure at N = {at}; stopped at the cap N = {n}"),
                None => format!("no failure up to N = {n} (the cap; SCALE_MAX raises it)"),
            };
        }
        n *= 2;
    };
    println!("  {verdict}");
    report_log(&server);
    drop(feed);
    server.stop();
}

/// Lines missing between the first and the last a session delivered.
fn gaps(ticks: &[&Tick]) -> u64 {
    let mut seqs: HashMap<&str, Vec<u64>> = HashMap::new();
    for tick in ticks {
        seqs.entry(tick.session.as_str())
            .or_default()
            .push(tick.seq);
    }
    seqs.into_values()
        .map(|mut s| {
            s.sort_unstable();
            s.dedup();
            let span = s.last().copied().unwrap_or(0) - s.first().copied().unwrap_or(0) + 1;
            span - s.len() as u64
        })
        .sum()
}

fn pct(samples: &mut [Duration], q: f64) -> Option<Duration> {
    (!samples.is_empty()).then(|| crate::support::percentile(samples, q))
}

fn print_row(row: &mut Row, step: Duration) {
    let (sessions99, _) = row.window.api_p99("/sessions");
    let (settings99, _) = row.window.api_p99("/settings");
    let w = &mut row.window;
    println!(
        "{:>5} {:>8} {:>6.0} {:>7.0} {:>6} {:>5} {:>5} {:>5.0}/{:<6.0} {:>6.0} {:>6.0} {:>8.0} {:>8} {:>8} {:>8} {:>5} {:>9} {:>9} {:>9}",
        row.n,
        cell(row.spawn.p(0.99)),
        w.server_cpu,
        w.rss_peak_kib as f64 / 1024.0,
        w.fds,
        w.threads,
        row.engines.0,
        w.engines_rss.0 as f64 / 1024.0,
        row.engines.1 as f64 / 1024.0,
        w.machine_cpu,
        w.bench_cpu,
        row.ticks.len() as f64 / step.as_secs_f64(),
        cell(pct(&mut row.ticks, 0.5)),
        cell(pct(&mut row.ticks, 0.99)),
        cell(pct(&mut row.ticks, 1.0)),
        row.lost,
        cell(sessions99),
        cell(settings99),
        cell(w.governor.p(1.0)),
    );
    println!("       {}", w.waits);
    if row.recovered > 0 {
        println!(
            "      ({} lines came from the transcripts after a reset, not the stream)",
            row.recovered
        );
    }
    if row.delivered < 95.0 {
        println!(
            "      (only {:.0} % of the lines the engines should have written arrived in the window)",
            row.delivered
        );
    }
}
