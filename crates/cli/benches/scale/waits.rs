//! Where a slow API request waited: the server's own timing of each route
//! (its `/metrics` histogram, arrival to response head), the run-queue
//! delay of the server's threads and of the bench's request threads (the
//! kernel's `schedstat`), and the server's major page faults and block I/O
//! delay. A client-side p99 far above the server-side one is time spent
//! waking a thread, not handling the request.

use std::collections::HashMap;
use std::time::Duration;

/// A thread's (or a sum of threads') time on a CPU, time runnable but
/// waiting for one, and how many times it was put on a CPU.
#[derive(Clone, Copy, Default, Debug)]
pub struct Sched {
    pub run_ns: u64,
    pub wait_ns: u64,
    pub slices: u64,
}

impl Sched {
    fn parse(text: &str) -> Option<Sched> {
        let mut fields = text.split_whitespace().map(str::parse::<u64>);
        Some(Sched {
            run_ns: fields.next()?.ok()?,
            wait_ns: fields.next()?.ok()?,
            slices: fields.next()?.ok()?,
        })
    }

    /// The calling thread's counters so far.
    pub fn this_thread() -> Sched {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|t| Sched::parse(&t))
            .unwrap_or_default()
    }

    pub fn since(self, before: Sched) -> Sched {
        Sched {
            run_ns: self.run_ns.saturating_sub(before.run_ns),
            wait_ns: self.wait_ns.saturating_sub(before.wait_ns),
            slices: self.slices.saturating_sub(before.slices),
        }
    }

    fn add(&mut self, other: Sched) {
        self.run_ns += other.run_ns;
        self.wait_ns += other.wait_ns;
        self.slices += other.slices;
    }

    /// The mean run-queue wait each time the thread was put on a CPU (µs).
    pub fn mean_wait_us(&self) -> f64 {
        self.wait_ns as f64 / self.slices.max(1) as f64 / 1000.0
    }
}

/// One process's threads at one moment: each thread's counters, and the
/// process's major faults and block I/O delay (clock ticks, counted only
/// while `kernel.task_delayacct` is 1).
#[derive(Default)]
pub struct Threads {
    each: HashMap<String, Sched>,
    major_faults: u64,
    blkio_ticks: u64,
}

impl Threads {
    pub fn take(pid: u32) -> Threads {
        let mut threads = Threads::default();
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task"));
        for task in tasks.into_iter().flatten().flatten() {
            if let Some(sched) = std::fs::read_to_string(task.path().join("schedstat"))
                .ok()
                .and_then(|t| Sched::parse(&t))
            {
                threads
                    .each
                    .insert(task.file_name().to_string_lossy().into_owned(), sched);
            }
        }
        // After the command's closing parenthesis: field 12 (majflt) is the
        // 10th, field 42 (delayacct_blkio_ticks) the 40th.
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let fields: Vec<u64> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest)
            .unwrap_or("")
            .split_whitespace()
            .map(|f| f.parse().unwrap_or(0))
            .collect();
        threads.major_faults = fields.get(9).copied().unwrap_or(0);
        threads.blkio_ticks = fields.get(39).copied().unwrap_or(0);
        threads
    }

    /// The counters of every thread from `before` to `self`; a thread born
    /// meanwhile counts from zero, one that ended is lost.
    pub fn since(&self, before: &Threads) -> (Sched, u64, u64) {
        let mut sum = Sched::default();
        for (tid, now) in &self.each {
            sum.add(now.since(before.each.get(tid).copied().unwrap_or_default()));
        }
        (
            sum,
            self.major_faults.saturating_sub(before.major_faults),
            self.blkio_ticks.saturating_sub(before.blkio_ticks),
        )
    }
}

/// The server's histogram of one route on the control listener (at
/// `control`, read with the owner's `token`): each bucket's upper bound
/// (seconds) and cumulative count.
pub fn server_histogram(
    agent: &ureq::Agent,
    control: &str,
    token: &str,
    route: &str,
) -> Vec<(f64, u64)> {
    let url = format!("http://{control}/metrics");
    let auth = format!("Bearer {token}");
    let text = agent
        .get(&url)
        .header("Authorization", &auth)
        .call()
        .ok()
        .and_then(|mut r| r.body_mut().read_to_string().ok())
        .unwrap_or_default();
    let wanted = format!("route=\"{route}\"");
    text.lines()
        .filter(|l| l.starts_with("switchboard_http_request_duration_seconds_bucket"))
        .filter(|l| l.contains(&wanted) && l.contains("method=\"GET\""))
        .filter(|l| l.contains("listener=\"control\""))
        .filter_map(|l| {
            let le = l.split("le=\"").nth(1)?.split('"').next()?;
            let le = if le == "+Inf" {
                f64::INFINITY
            } else {
                le.parse().ok()?
            };
            Some((le, l.rsplit(' ').next()?.parse().ok()?))
        })
        .collect()
}

/// How many requests of the window took longer than `over` on the
/// server's own clock (`over` must be one of the histogram's bounds), and
/// how many there were.
pub fn server_over(before: &[(f64, u64)], after: &[(f64, u64)], over: Duration) -> (u64, u64) {
    let count = |buckets: &[(f64, u64)], bound: f64| {
        buckets
            .iter()
            .find(|(le, _)| *le == bound || (*le - bound).abs() < 1e-9)
            .map_or(0, |(_, c)| *c)
    };
    let total = count(after, f64::INFINITY).saturating_sub(count(before, f64::INFINITY));
    let within = count(after, over.as_secs_f64()).saturating_sub(count(before, over.as_secs_f64()));
    (total.saturating_sub(within), total)
}
