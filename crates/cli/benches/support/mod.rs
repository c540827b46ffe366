//! What the HTTP benchmarks share: starting a release `switchboard serve`
//! (through the tests' own helper), reading a process's memory, and a
//! keep-alive load generator that speaks just enough HTTP/1.1 to measure the
//! server rather than a client library, and the event stream read as it comes.
#![allow(dead_code)]

#[path = "../../tests/common/serve.rs"]
mod serve;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub use serve::Addresses;
pub use serve::{serve_command, wait_for_server_file};

pub const CONNECTIONS: usize = 8;

/// Where the pinned real CLIs are: `SWITCHBOARD_ENGINES_DIR`, else this
/// workspace's `target/engines` (`make engines-deps`).
pub fn engines_dir() -> PathBuf {
    std::env::var_os("SWITCHBOARD_ENGINES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/engines/node_modules/.bin")
        })
}

/// `engines.toml` with the real Claude Code at `claude` as the primary
/// engine, talking to a stand-in of the Anthropic API at `standin_url`.
pub fn claude_engines_toml(claude: &Path, standin_url: &str) -> String {
    format!(
        "[engines.primary]\nkind = \"claude\"\ncommand = [{claude:?}]\n\
         env = {{ ANTHROPIC_BASE_URL = \"{standin_url}\", ANTHROPIC_API_KEY = \"sk-ant-standin\", \
         CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = \"1\", DISABLE_AUTOUPDATER = \"1\" }}\n",
        claude = claude.display().to_string(),
    )
}

/// Starts a server on `dir` and measures exec to `server.json`.
pub fn time_startup(dir: &Path) -> (Duration, Child) {
    let started = Instant::now();
    let child = serve_command(dir)
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    wait_for_server_file(dir, &child);
    (started.elapsed(), child)
}

/// Starts a server on `dir` whose engines see `home` as `$HOME` (the
/// server hands its own to them).
pub fn start_with_home(dir: &Path, home: &Path) -> Child {
    let child = serve_command(dir)
        .env("HOME", home)
        .env_remove("IS_SANDBOX")
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    wait_for_server_file(dir, &child);
    child
}

/// A `command` engine named `holder` whose session writes its agent token
/// and control URL to a file and then waits: how a bench acts as an agent.
pub struct Holder {
    /// Outside the data directory, which the sandbox hides from engines.
    pub scratch: tempfile::TempDir,
    env_file: std::path::PathBuf,
}

/// A live holder session: its id, its agent token and the control URL it was given.
pub struct HeldSession {
    pub id: String,
    pub token: String,
    pub url: String,
}

impl Holder {
    /// Names the engine in `dir`'s `engines.toml`, before the server starts.
    pub fn install(dir: &Path) -> Holder {
        let scratch = tempfile::tempdir().expect("scratch dir");
        let env_file = scratch.path().join("env");
        let holder = format!(
            "printf '%s\\n%s\\n' \"$APP_CLI_TOKEN\" \"$APP_CONTROL_URL\" > {}; exec sleep 600",
            env_file.display()
        );
        std::fs::write(
            dir.join("engines.toml"),
            format!(
                "[engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {holder:?}]\n"
            ),
        )
        .expect("engines.toml");
        Holder { scratch, env_file }
    }

    /// Starts a holder session as the owner's browser does, and waits for its token.
    pub fn spawn(&self, server: &Addresses) -> HeldSession {
        let cookie = cookie(&server.ui, &server.token);
        let session: serde_json::Value = ureq::post(format!("http://{}/api/sessions", server.ui))
            .header("Cookie", &cookie)
            .send_json(
                serde_json::json!({"engine": "holder", "prompt": "go", "cwd": self.scratch.path()}),
            )
            .expect("spawn")
            .body_mut()
            .read_json()
            .expect("the session");
        let id = session["id"].as_str().expect("an id").to_owned();
        let deadline = Instant::now() + Duration::from_secs(20);
        let env = loop {
            if let Ok(text) = std::fs::read_to_string(&self.env_file)
                && text.lines().count() == 2
            {
                break text;
            }
            assert!(Instant::now() < deadline, "the session never started");
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut lines = env.lines();
        HeldSession {
            id,
            token: lines.next().unwrap_or("").to_owned(),
            url: lines.next().unwrap_or("").to_owned(),
        }
    }
}

/// The browser cookie the owner's login link sets.
pub fn cookie(ui: &str, token: &str) -> String {
    let mut socket = TcpStream::connect(ui).expect("connect");
    let request =
        format!("GET /login?token={token} HTTP/1.1\r\nHost: {ui}\r\nConnection: close\r\n\r\n");
    socket.write_all(request.as_bytes()).expect("write");
    let mut head = String::new();
    socket.read_to_string(&mut head).expect("read");
    head.lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .and_then(|c| c.split(';').next())
        .expect("a cookie")
        .to_owned()
}

/// The `p` quantile (0 to 1) of `samples`, which it sorts.
pub fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() as f64 - 1.0) * p).round() as usize]
}

pub fn signal_term(child: &Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
}

/// The CPU time a process has used so far (user and system).
pub fn cpu_time(pid: u32) -> Duration {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the command's
    // closing parenthesis (the command may hold spaces).
    let ticks = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let rest = stat.rsplit_once(')')?.1;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0);
    // USER_HZ is 100 on Linux.
    Duration::from_millis(ticks * 10)
}

pub fn rss_kib(pid: u32) -> u64 {
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
pub fn load(
    addr: &str,
    duration: Duration,
    make: impl Fn(u64) -> Vec<u8> + Send + Sync + 'static,
) -> (u64, Vec<Duration>) {
    load_with(addr, CONNECTIONS, duration, make)
}

/// [`load`] over `connections` connections.
pub fn load_with(
    addr: &str,
    connections: usize,
    duration: Duration,
    make: impl Fn(u64) -> Vec<u8> + Send + Sync + 'static,
) -> (u64, Vec<Duration>) {
    let make = Arc::new(make);
    let stop = Arc::new(AtomicBool::new(false));
    let sequence = Arc::new(AtomicU64::new(0));
    let workers: Vec<_> = (0..connections)
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

pub fn read_response(reader: &mut BufReader<TcpStream>) -> u16 {
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

/// Reads `GET /stream` on a thread of its own and hands each event over as
/// it arrives, stamped.
pub fn listen(control: &str, token: &str) -> mpsc::Receiver<(String, Value, Instant)> {
    let response = ureq::get(format!("http://{control}/stream"))
        .header("Authorization", format!("Bearer {token}"))
        .call()
        .expect("open the stream");
    let reader = BufReader::new(response.into_body().into_reader());
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut name = String::new();
        for line in reader.lines() {
            let Ok(line) = line else { return };
            if let Some(value) = line.strip_prefix("event: ") {
                name = value.to_owned();
            } else if let Some(value) = line.strip_prefix("data: ") {
                let data = serde_json::from_str(value).unwrap_or(Value::Null);
                if send.send((name.clone(), data, Instant::now())).is_err() {
                    return;
                }
            }
        }
    });
    receive
}

/// From the stream `listen` reads, one turn of a new session: its id, when
/// the engine's first output arrived (its first entry that is not the
/// input) and when its `final` entry did.
pub fn turn_timing(
    events: &mpsc::Receiver<(String, Value, Instant)>,
) -> (String, Instant, Instant) {
    let mut first_output = None;
    loop {
        let (name, data, at) = events
            .recv_timeout(Duration::from_secs(120))
            .expect("the session's events");
        if name != "output" {
            continue;
        }
        let kind = data["entry"]["kind"].as_str().unwrap_or("");
        if kind != "input" && first_output.is_none() {
            first_output = Some(at);
        }
        if kind == "final" {
            let session = data["sessionId"].as_str().unwrap_or_default().to_owned();
            return (session, first_output.unwrap_or(at), at);
        }
    }
}

/// Stops a session over the control server, so the next one fits under
/// `agentDrivenMaxConcurrent` (a session waiting for input is active).
pub fn stop_session(control: &str, token: &str, id: &str) {
    ureq::post(format!("http://{control}/sessions/{id}/stop"))
        .header("Authorization", format!("Bearer {token}"))
        .send_empty()
        .expect("stop the session");
}

/// Starts a session of `engine` on `runner` from the web app; its id.
pub fn spawn_on(server: &Addresses, browser: &str, engine: &str, runner: &str) -> String {
    let session: Value = ureq::post(format!("http://{}/api/sessions", server.ui))
        .header("Cookie", browser)
        .send_json(json!({"engine": engine, "prompt": "hello", "runner": runner}))
        .expect("spawn")
        .body_mut()
        .read_json()
        .expect("the session");
    session["id"].as_str().expect("an id").to_owned()
}

/// Spawn to the first output entry of the session, `TURNS` times.
pub fn turn_latencies(
    server: &Addresses,
    browser: &str,
    events: &mpsc::Receiver<(String, Value, Instant)>,
    runner: &str,
    turns: usize,
) -> Vec<Duration> {
    (0..turns)
        .map(|_| {
            let asked = Instant::now();
            let id = spawn_on(server, browser, "echo", runner);
            loop {
                let (name, data, at) = events
                    .recv_timeout(Duration::from_secs(60))
                    .expect("the session's output");
                if name == "output"
                    && data["sessionId"] == id.as_str()
                    && data["entry"]["kind"] != "input"
                {
                    return at - asked;
                }
            }
        })
        .collect()
}
