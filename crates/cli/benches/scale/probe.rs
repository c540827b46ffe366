//! The scale bench's instruments: a server started with its log kept, HTTP
//! calls that report a failure instead of panicking mid-run, a keep-alive
//! API load that counts errors, and what `/proc` says about the server, its
//! engine processes and the machine.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{Addresses, cookie, cpu_time, rss_kib, serve_command, wait_for_server_file};

/// A running server: its process, where it listens, the owner's cookie for
/// the UI server, and the file its log goes to.
pub struct Server {
    pub child: Child,
    pub addresses: Addresses,
    pub cookie: String,
    pub log: PathBuf,
    pub agent: ureq::Agent,
}

impl Server {
    /// Starts `serve` on `dir` (whose `engines.toml` is written), with
    /// `home` as the engines' `$HOME` and the log in `log`, so a failure
    /// under load leaves its reason behind.
    pub fn start(dir: &Path, home: &Path, log: PathBuf) -> Server {
        let file = std::fs::File::create(&log).expect("the server's log file");
        let mut command = serve_command(dir);
        // The baseline of the fair-share comparison: engines beside the
        // server, as before session trees, on the same machine and run.
        if std::env::var_os("SCALE_WITHOUT_TREES").is_some() {
            command.arg("--without-session-trees");
            println!("(--without-session-trees: engines run beside the server, no cgroups)");
        }
        let child = command
            .env("HOME", home)
            .env_remove("IS_SANDBOX")
            .stderr(Stdio::from(file))
            .spawn()
            .expect("spawn serve");
        wait_for_server_file(dir, &child);
        let addresses = Addresses::read(dir);
        let cookie = cookie(&addresses.ui, &addresses.token);
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .new_agent();
        let server = Server {
            child,
            addresses,
            cookie,
            log,
            agent,
        };
        // Engines at nice 10 leave the server the cores it needs when they
        // saturate the machine; off by default, as in the product.
        if std::env::var_os("SCALE_BELOW_NORMAL").is_some() {
            server.set("sessionTreeBelowNormalPriority", serde_json::json!(true));
            println!("(sessionTreeBelowNormalPriority on: engines run at nice 10)");
        }
        server
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// A request to the UI server as the owner's browser: user sessions
    /// are never held by the agent-driven limits (at most 10 of those).
    pub fn ui(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let url = format!("http://{}/api{path}", self.addresses.ui);
        self.send(method, &url, ("Cookie", self.cookie.clone()), body)
    }

    /// A request to the control server with the owner's cli token.
    pub fn control(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let url = format!("http://{}{path}", self.addresses.control());
        let auth = format!("Bearer {}", self.addresses.token);
        self.send(method, &url, ("Authorization", auth), body)
    }

    fn send(
        &self,
        method: &str,
        url: &str,
        (name, value): (&str, String),
        body: Option<&Value>,
    ) -> Result<Value, String> {
        let reply = match (method, body) {
            ("GET", _) => self.agent.get(url).header(name, &value).call(),
            ("PATCH", Some(body)) => self.agent.patch(url).header(name, &value).send_json(body),
            (_, Some(body)) => self.agent.post(url).header(name, &value).send_json(body),
            (_, None) => self.agent.post(url).header(name, &value).send_empty(),
        };
        let mut reply = reply.map_err(|e| format!("{method} {url}: {e}"))?;
        let status = reply.status().as_u16();
        let text = reply.body_mut().read_to_string().unwrap_or_default();
        if status >= 300 {
            return Err(format!("{method} {url}: {status} {text}"));
        }
        Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// Sets a setting as the owner.
    pub fn set(&self, key: &str, value: Value) {
        self.control(
            "PATCH",
            &format!("/settings/{key}"),
            Some(&serde_json::json!({ "value": value })),
        )
        .unwrap_or_else(|e| panic!("setting {key}: {e}"));
    }

    /// SIGTERM, then SIGKILL if the sessions take more than 30 s to stop.
    pub fn stop(mut self) {
        crate::support::signal_term(&self.child);
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if !self.alive() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        eprintln!("  (the server took over 30 s to stop; killed)");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Log lines at WARN or ERROR, for the report: the reason a step failed.
    pub fn log_problems(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains("WARN") || l.contains("ERROR") || l.contains("panicked"))
            .map(str::to_owned)
            .collect()
    }
}

/// The latencies of one kind of request, and how many failed.
#[derive(Default)]
pub struct Latencies {
    pub samples: Vec<Duration>,
    pub errors: u64,
    pub first_error: Option<String>,
    /// How long the thread that took the samples waited to run, where that
    /// thread was a keep-alive load's own.
    pub waited: crate::waits::Sched,
}

impl Latencies {
    pub fn p(&mut self, q: f64) -> Option<Duration> {
        (!self.samples.is_empty()).then(|| crate::support::percentile(&mut self.samples, q))
    }

    pub fn fail(&mut self, why: String) {
        self.errors += 1;
        self.first_error.get_or_insert(why);
    }
}

/// How often each API connection asks: paced like a busy UI, not back to
/// back, so the server's CPU figure is the sessions' and not the probe's.
const API_PACE: Duration = Duration::from_millis(50);

/// Keep-alive connections to the control server, each sending `GET path`
/// every [`API_PACE`] until `stop`; an error ends that connection and is
/// counted, not a panic, since the server failing is what the bench looks for.
pub fn api_load(
    control: &str,
    token: &str,
    paths: &[&str],
    stop: Arc<AtomicBool>,
) -> Vec<std::thread::JoinHandle<(String, Latencies)>> {
    paths
        .iter()
        .map(|path| {
            let (control, token, path) = (control.to_owned(), token.to_owned(), path.to_string());
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut latencies = Latencies::default();
                let started = crate::waits::Sched::this_thread();
                if let Err(why) = keep_alive(&control, &token, &path, &stop, &mut latencies) {
                    latencies.fail(why);
                }
                latencies.waited = crate::waits::Sched::this_thread().since(started);
                (path, latencies)
            })
        })
        .collect()
}

fn keep_alive(
    control: &str,
    token: &str,
    path: &str,
    stop: &AtomicBool,
    latencies: &mut Latencies,
) -> Result<(), String> {
    let stream = TcpStream::connect(control).map_err(|e| format!("connect: {e}"))?;
    stream.set_nodelay(true).ok();
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(stream);
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {control}\r\nAuthorization: Bearer {token}\r\n\r\n");
    while !stop.load(Ordering::Relaxed) {
        let sent = Instant::now();
        writer
            .write_all(request.as_bytes())
            .map_err(|e| format!("GET {path}: write: {e}"))?;
        let status = response(&mut reader).map_err(|e| format!("GET {path}: {e}"))?;
        if status >= 300 {
            latencies.fail(format!("GET {path}: status {status}"));
        } else {
            latencies.samples.push(sent.elapsed());
        }
        std::thread::sleep((sent + API_PACE).saturating_duration_since(Instant::now()));
    }
    Ok(())
}

/// Reads one response (Content-Length or chunked) and returns its status.
fn response(reader: &mut BufReader<TcpStream>) -> std::io::Result<u16> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (mut length, mut chunked) = (0usize, false);
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        if line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = value.to_ascii_lowercase().contains("chunked");
            }
        }
    }
    if !chunked {
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        return Ok(status);
    }
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let size = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
        let mut chunk = vec![0; size + 2];
        reader.read_exact(&mut chunk)?;
        if size == 0 {
            return Ok(status);
        }
    }
}

/// What `/proc` says at one moment.
#[derive(Clone, Copy, Default)]
pub struct Snapshot {
    pub at: Option<Instant>,
    pub server_cpu: Duration,
    pub own_cpu: Duration,
    /// The machine's busy and total jiffies, all cores.
    pub machine: (u64, u64),
}

impl Snapshot {
    pub fn take(server: u32) -> Snapshot {
        Snapshot {
            at: Some(Instant::now()),
            server_cpu: cpu_time(server),
            own_cpu: cpu_time(std::process::id()),
            machine: machine_jiffies(),
        }
    }
}

/// Shares over the time from `before` to `after`: the server's CPU and this
/// bench's (% of one core), and the machine's (% of all cores).
pub fn shares(before: &Snapshot, after: &Snapshot) -> (f64, f64, f64) {
    let wall = match (before.at, after.at) {
        (Some(a), Some(b)) => (b - a).as_secs_f64().max(1e-3),
        _ => 1.0,
    };
    let share = |a: Duration, b: Duration| (b.saturating_sub(a)).as_secs_f64() / wall * 100.0;
    let busy = after.machine.0.saturating_sub(before.machine.0) as f64;
    let total = after.machine.1.saturating_sub(before.machine.1).max(1) as f64;
    (
        share(before.server_cpu, after.server_cpu),
        share(before.own_cpu, after.own_cpu),
        busy / total * 100.0,
    )
}

fn machine_jiffies() -> (u64, u64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let fields: Vec<u64> = stat
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .skip(1)
        .filter_map(|f| f.parse().ok())
        .collect();
    let total: u64 = fields.iter().take(8).sum();
    // idle and iowait
    let idle = fields.get(3).copied().unwrap_or(0) + fields.get(4).copied().unwrap_or(0);
    (total.saturating_sub(idle), total)
}

/// The server's resident memory, threads and open files.
pub struct ServerShape {
    pub rss_kib: u64,
    pub threads: u64,
    pub fds: usize,
}

pub fn server_shape(pid: u32) -> ServerShape {
    let threads = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(0);
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, Iterator::count);
    ServerShape {
        rss_kib: rss_kib(pid),
        threads,
        fds,
    }
}

/// Every process below `root` (not `root` itself), from the parent links
/// of all of `/proc`.
pub fn descendants(root: u32) -> Vec<u32> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let parent = std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|s| {
                s.rsplit_once(')')?
                    .1
                    .split_whitespace()
                    .nth(1)?
                    .parse()
                    .ok()
            });
        if let Some(parent) = parent {
            children.entry(parent).or_default().push(pid);
        }
    }
    let (mut found, mut queue) = (Vec::new(), vec![root]);
    while let Some(pid) = queue.pop() {
        for &child in children.get(&pid).map(Vec::as_slice).unwrap_or(&[]) {
            found.push(child);
            queue.push(child);
        }
    }
    found
}

/// The engine processes' count, summed RSS and summed PSS (KiB): PSS
/// shares each common page among its users, so it is what they really take.
pub fn engines_memory(server: u32) -> (usize, u64, u64) {
    let pids = descendants(server);
    let (mut rss, mut pss) = (0, 0);
    for pid in &pids {
        let rollup =
            std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).unwrap_or_default();
        let field = |name: &str| -> u64 {
            rollup
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
                .unwrap_or(0)
        };
        rss += field("Rss:");
        pss += field("Pss:");
    }
    (pids.len(), rss, pss)
}

/// Summed RSS of the engine processes now (cheaper than [`engines_memory`]:
/// for sampling processes that live for one turn).
pub fn engines_rss(server: u32) -> u64 {
    descendants(server).into_iter().map(rss_kib).sum()
}

/// `MemAvailable` as a share of `MemTotal`.
pub fn memory_available() -> f64 {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let field = |name: &str| -> f64 {
        info.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0.0)
    };
    field("MemAvailable:") / field("MemTotal:").max(1.0) * 100.0
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A percentile for a table cell: `-` when there were no samples.
pub fn cell(d: Option<Duration>) -> String {
    d.map_or_else(|| "-".to_owned(), |d| format!("{:.1}", ms(d)))
}

/// Times `POST /governor/check` (the only way to see a check's cost: a
/// check records no duration) every `every` until `stop`.
pub fn governor_checks(server: &Server, stop: &AtomicBool, every: Duration) -> Latencies {
    let mut latencies = Latencies::default();
    while !stop.load(Ordering::Relaxed) {
        let sent = Instant::now();
        match server.control("POST", "/governor/check", None) {
            Ok(_) => latencies.samples.push(sent.elapsed()),
            Err(why) => latencies.fail(why),
        }
        let until = sent + every;
        while Instant::now() < until && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    latencies
}
