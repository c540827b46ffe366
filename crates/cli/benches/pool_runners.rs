//! Pool runners against local sessions: a release `switchboard serve` with
//! its runner listener on loopback, and `command` engines, so the figures
//! are Switchboard's transport, not a model's.
//!
//! - turn latency: from `POST /sessions` to the session's first output on
//!   the event stream, here and through one `switchboard runner --connect`
//!   process (p50, p95, and what the pool runner adds);
//! - connections held: 500 idle pool runners connected (run in this
//!   process on the same library the binary's runner uses, each with its
//!   own TLS connection and tunnel port): the server's memory before and
//!   after, and its CPU over a minute of idle (the pings of every
//!   connection included), and how long they took to connect.
//!
//! Run with `cargo bench -p switchboard --bench pool_runners`.

mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{
    Addresses, cookie, cpu_time, listen, percentile, rss_kib, signal_term, turn_latencies,
};

const TURNS: usize = 40;
const IDLE_RUNNERS: usize = 500;
const IDLE_FOR: Duration = Duration::from_secs(60);

fn main() {
    let dir = tempfile::tempdir().expect("data dir");
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.echo]\nkind = \"command\"\ncommand = [\"/bin/cat\"]\n",
    )
    .expect("engines.toml");
    std::fs::write(
        dir.path().join("runners.toml"),
        "[listener]\naddress = \"127.0.0.1\"\nport = 0\n",
    )
    .expect("runners.toml");
    let mut child = support::serve_command(dir.path())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    support::wait_for_server_file(dir.path(), &child);
    let server = Addresses::read(dir.path());
    let control = server.control.clone().expect("a control server");
    let owner = format!("Bearer {}", server.token);
    ureq::patch(format!(
        "http://{control}/settings/cloudControlPlaneEnabled"
    ))
    .header("Authorization", &owner)
    .send_json(json!({"value": true}))
    .expect("turn runners on");
    let listener = wait_for_listener(&control, &owner);
    let url = format!(
        "https://{}",
        listener["address"].as_str().expect("an address")
    );
    let fingerprint = listener["fingerprint"]
        .as_str()
        .expect("a fingerprint")
        .to_owned();
    let minted: Value = ureq::post(format!("http://{control}/runners/tokens"))
        .header("Authorization", &owner)
        .send_json(json!({"name": "bench"}))
        .expect("mint a runner token")
        .body_mut()
        .read_json()
        .expect("the token");
    let token_file = dir.path().join("runner-token");
    std::fs::write(&token_file, minted["token"].as_str().expect("a token")).expect("token file");

    let home = tempfile::tempdir().expect("runner home");
    let mut runner = start_runner(&url, &token_file, &fingerprint, home.path());
    wait_for_connected(&control, &owner, 1);

    let browser = cookie(&server.ui, &server.token);
    let events = listen(&control, &server.token);
    println!("pool runners: {TURNS} turns each way, then {IDLE_RUNNERS} idle runners");
    let mut local = turn_latencies(&server, &browser, &events, "local", TURNS);
    let mut pool = turn_latencies(&server, &browser, &events, "bench-pool", TURNS);
    let (l50, l95) = (percentile(&mut local, 0.5), percentile(&mut local, 0.95));
    let (p50, p95) = (percentile(&mut pool, 0.5), percentile(&mut pool, 0.95));
    println!(
        "turn latency, spawn to first output, local:       p50 {l50:.1?}  p95 {p95_l:.1?}",
        p95_l = l95
    );
    println!("turn latency, spawn to first output, pool runner: p50 {p50:.1?}  p95 {p95:.1?}");
    println!(
        "added by the pool runner: p50 {:.1?}  p95 {:.1?}",
        p50.saturating_sub(l50),
        p95.saturating_sub(l95)
    );
    let _ = runner.kill();
    let _ = runner.wait();

    let pid = child.id();
    let rss_before = rss_kib(pid);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    raise_open_files();
    let began = Instant::now();
    for i in 0..IDLE_RUNNERS {
        let options = runners::pool::runner::ConnectOptions {
            url: url.clone(),
            token_file: token_file.clone(),
            name: format!("idle-{i}"),
            labels: Vec::new(),
            max_sessions: None,
            trust: runners::pool::tls::Trust::Fingerprint(fingerprint.clone()),
            pod_isolation: false,
            version: env!("CARGO_PKG_VERSION").to_owned(),
        };
        runtime.spawn(runners::pool::runner::run(options));
        // Under the listener's share for one address (50 a second).
        std::thread::sleep(Duration::from_millis(25));
    }
    wait_for_connected(&control, &owner, IDLE_RUNNERS);
    let connected_in = began.elapsed();
    let rss_connected = rss_kib(pid);
    let cpu_before = cpu_time(pid);
    std::thread::sleep(IDLE_FOR);
    let idle_cpu = cpu_time(pid).saturating_sub(cpu_before);
    println!(
        "{IDLE_RUNNERS} idle pool runners: connected in {connected_in:.1?}; server RSS {} MiB before, {} MiB connected ({:.1} KiB a runner); \
         server CPU over {:?} idle: {idle_cpu:.2?} ({:.2} % of one core)",
        rss_before / 1024,
        rss_connected / 1024,
        rss_connected.saturating_sub(rss_before) as f64 / IDLE_RUNNERS as f64,
        IDLE_FOR,
        idle_cpu.as_secs_f64() / IDLE_FOR.as_secs_f64() * 100.0
    );
    signal_term(&child);
    let _ = child.wait();
    runtime.shutdown_background();
}

fn wait_for_listener(control: &str, owner: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let listener: Value = ureq::get(format!("http://{control}/runners/listener"))
            .header("Authorization", owner)
            .call()
            .expect("the listener")
            .body_mut()
            .read_json()
            .expect("the listener's state");
        if listener["address"].is_string() {
            return listener;
        }
        assert!(
            Instant::now() < deadline,
            "the listener never bound: {listener}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn start_runner(
    url: &str,
    token_file: &std::path::Path,
    fingerprint: &str,
    home: &std::path::Path,
) -> Child {
    Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(["runner", "--connect", url, "--token-file"])
        .arg(token_file)
        .args(["--ca-fingerprint", fingerprint, "--name", "bench-pool"])
        .env("HOME", home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start a pool runner")
}

/// Waits until at least `count` pool runners are connected.
fn wait_for_connected(control: &str, owner: &str, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let list: Value = ureq::get(format!("http://{control}/runners"))
            .header("Authorization", owner)
            .call()
            .expect("the runners")
            .body_mut()
            .read_json()
            .expect("the list");
        let connected = list
            .as_array()
            .map(|l| {
                l.iter()
                    .filter(|r| r["kind"] == "pool" && r["state"] == "connected")
                    .count()
            })
            .unwrap_or(0);
        if connected >= count {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "only {connected} of {count} runners connected"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn raise_open_files() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write only `limit`.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
}
