//! One step of the scale bench, shared by both parts: the failure
//! thresholds, the configuration, and the measured window of the server,
//! the API and the governor while a part's load runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::probe::{Latencies, Server, Snapshot, api_load, governor_checks, server_shape, shares};
use crate::waits;

/// Failure thresholds, the same at every step.
pub const STREAM_P99_LIMIT: Duration = Duration::from_secs(1);
pub const API_P99_LIMIT: Duration = Duration::from_millis(250);
pub const GOVERNOR_LIMIT: Duration = Duration::from_secs(1);
pub const TURN_P99_LIMIT: Duration = Duration::from_secs(30);
/// Below this share of the machine's memory available, the step fails.
pub const MEMORY_FLOOR_PERCENT: f64 = 10.0;

pub struct Config {
    pub step: Duration,
    pub max_command: usize,
    pub max_claude: usize,
}

pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What one measured window saw of the server and the machine.
pub struct Window {
    pub server_cpu: f64,
    pub bench_cpu: f64,
    pub machine_cpu: f64,
    pub rss_peak_kib: u64,
    pub fds: usize,
    pub threads: u64,
    /// Engine processes' summed RSS, sampled every 500 ms: peak and mean (KiB).
    pub engines_rss: (u64, u64),
    pub api: Vec<(String, Latencies)>,
    pub governor: Latencies,
    pub memory_available: f64,
    /// Where the API's slow requests waited, one line for the report.
    pub waits: String,
}

impl Window {
    /// The API p99 of `path` and that path's errors.
    pub fn api_p99(&mut self, path: &str) -> (Option<Duration>, u64) {
        self.api
            .iter_mut()
            .find(|(p, _)| p == path)
            .map_or((None, 0), |(_, l)| (l.p(0.99), l.errors))
    }

    /// The API and governor criteria, shared by both parts.
    pub fn failures(&mut self, failures: &mut Vec<String>) {
        for (path, latencies) in &mut self.api {
            if latencies.errors > 0 {
                failures.push(format!(
                    "GET {path}: {} errors ({})",
                    latencies.errors,
                    latencies.first_error.as_deref().unwrap_or("")
                ));
            }
            if let Some(p99) = latencies.p(0.99)
                && p99 > API_P99_LIMIT
            {
                failures.push(format!(
                    "GET {path} p99 {:.0} ms > 250 ms",
                    crate::probe::ms(p99)
                ));
            }
        }
        if self.governor.errors > 0 {
            failures.push(format!(
                "governor check errors: {}",
                self.governor.first_error.as_deref().unwrap_or("")
            ));
        }
        if let Some(max) = self.governor.p(1.0)
            && max > GOVERNOR_LIMIT
        {
            failures.push(format!(
                "governor check {:.0} ms > 1 s",
                crate::probe::ms(max)
            ));
        }
        if self.memory_available < MEMORY_FLOOR_PERCENT {
            failures.push(format!("memory: {:.0} % available", self.memory_available));
        }
    }
}

/// Measures for `step`: the server's CPU and memory, API latency from two
/// keep-alive connections (`GET /sessions`, `GET /settings`, 20 requests a
/// second each), and a
/// governor check every 2 s, while whatever the caller started runs.
pub fn measure(server: &Server, step: Duration) -> Window {
    let pid = server.pid();
    let stop = Arc::new(AtomicBool::new(false));
    let before = Snapshot::take(pid);
    let routes = ["/sessions", "/settings"];
    let histograms_before: Vec<_> = routes
        .iter()
        .map(|route| {
            waits::server_histogram(
                &server.agent,
                server.addresses.control(),
                &server.addresses.token,
                route,
            )
        })
        .collect();
    let threads_before = waits::Threads::take(pid);
    let load = api_load(
        server.addresses.control(),
        &server.addresses.token,
        &["/sessions", "/settings"],
        stop.clone(),
    );
    let (mut rss_peak, mut engines) = (0, Vec::new());
    let governor = std::thread::scope(|scope| {
        let governor = scope.spawn(|| governor_checks(server, &stop, Duration::from_secs(2)));
        let deadline = std::time::Instant::now() + step;
        while std::time::Instant::now() < deadline {
            rss_peak = rss_peak.max(crate::support::rss_kib(pid));
            engines.push(crate::probe::engines_rss(pid));
            std::thread::sleep(Duration::from_millis(500));
        }
        stop.store(true, Ordering::Relaxed);
        governor.join().unwrap_or_default()
    });
    let after = Snapshot::take(pid);
    let (server_sched, major_faults, blkio_ticks) =
        waits::Threads::take(pid).since(&threads_before);
    let api: Vec<(String, Latencies)> = load
        .into_iter()
        .map(|worker| {
            worker.join().unwrap_or_else(|_| {
                let mut failed = Latencies::default();
                failed.fail("the load thread panicked".to_owned());
                ("?".to_owned(), failed)
            })
        })
        .collect();
    let mut waits = String::from("where the API waited:");
    for ((route, histogram), (_, latencies)) in routes.iter().zip(histograms_before).zip(&api) {
        let (slow, total) = waits::server_over(
            &histogram,
            &waits::server_histogram(
                &server.agent,
                server.addresses.control(),
                &server.addresses.token,
                route,
            ),
            Duration::from_millis(25),
        );
        let client_slow = latencies
            .samples
            .iter()
            .filter(|d| **d > Duration::from_millis(25))
            .count();
        waits.push_str(&format!(
            " {route} over 25 ms: {client_slow}/{} at the client, {slow}/{total} in the server, the client's thread waited {:.0} µs a wake;",
            latencies.samples.len(),
            latencies.waited.mean_wait_us(),
        ));
    }
    waits.push_str(&format!(
        " server threads waited {:.0} µs a wake ({:.0} ms in all over {} wakes), {major_faults} major faults, {} ms blocked on I/O",
        server_sched.mean_wait_us(),
        server_sched.wait_ns as f64 / 1e6,
        server_sched.slices,
        blkio_ticks * 10,
    ));
    let (server_cpu, bench_cpu, machine_cpu) = shares(&before, &after);
    let shape = server_shape(pid);
    let peak = engines.iter().copied().max().unwrap_or(0);
    let mean = engines.iter().sum::<u64>() / engines.len().max(1) as u64;
    Window {
        server_cpu,
        bench_cpu,
        machine_cpu,
        rss_peak_kib: rss_peak.max(shape.rss_kib),
        fds: shape.fds,
        threads: shape.threads,
        engines_rss: (peak, mean),
        api,
        governor,
        memory_available: crate::probe::memory_available(),
        waits,
    }
}

/// Where a part's server log goes: kept after the run, for the reasons of
/// a failure.
pub fn log_path(part: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("scale-{part}-server.log"))
}

/// Prints the server log's warnings and errors after a part (the first few).
pub fn report_log(server: &Server) {
    let problems = server.log_problems();
    println!(
        "  server log {}: {} WARN/ERROR lines",
        server.log.display(),
        problems.len()
    );
    for line in problems.iter().take(8) {
        let line: String = line.chars().take(300).collect();
        println!("    {line}");
    }
}
