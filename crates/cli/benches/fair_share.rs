//! What the session trees give (docs/resources.md): the server's
//! `GET /settings` latency while engines saturate every core, with each
//! session's tree in a cgroup of its own against the same engines left in
//! the server's cgroup (`serve --without-session-trees`), and what a strict
//! 25 % CPU cap holds a burner to, from its cgroup's own usage.
//!
//! Needs a writable cgroup (root on v1, or a delegated v2 subtree); says
//! it skipped otherwise. Run with `cargo bench -p switchboard --bench fair_share`.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Addresses, cookie, percentile, signal_term};

/// Sessions each burning two busy loops: twice the cores of this machine.
const BURNERS: usize = 4;
const REQUESTS: usize = 400;

fn main() {
    let (mode, why) = resources::Trees::probe();
    if mode == resources::Mode::Nice {
        println!("skipped: no writable cgroup here ({why})");
        return;
    }
    println!("fair share: {BURNERS} sessions of two busy loops each, {REQUESTS} GET /settings");
    let with_trees = under_load(&[]);
    let without = under_load(&["--without-session-trees"]);
    println!(
        "GET /settings under load, session trees:      p50 {:.1?}  p99 {:.1?}  max {:.1?}",
        with_trees.0, with_trees.1, with_trees.2
    );
    println!(
        "GET /settings under load, engines beside it:  p50 {:.1?}  p99 {:.1?}  max {:.1?}",
        without.0, without.1, without.2
    );
    let capped = capped_share();
    println!(
        "a burner under a strict 25 % cap: {:.1} % of the machine over 5 s",
        capped * 100.0
    );
}

struct Server {
    child: std::process::Child,
    addresses: Addresses,
    browser: String,
    _dir: tempfile::TempDir,
}

fn start(args: &[&str]) -> Server {
    let dir = tempfile::tempdir().expect("data dir");
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.burner]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"[ \\\"$0\\\" = --version ] && exit 0; burn() { while :; do :; done; }; burn & burn & echo started; wait\"]\n",
    )
    .expect("engines.toml");
    let child = support::serve_command(dir.path())
        .args(args)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn serve");
    support::wait_for_server_file(dir.path(), &child);
    let addresses = Addresses::read(dir.path());
    let browser = cookie(&addresses.ui, &addresses.token);
    Server {
        child,
        addresses,
        browser,
        _dir: dir,
    }
}

impl Server {
    fn control(&self) -> String {
        self.addresses.control.clone().expect("a control server")
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("http://{}{path}", self.control());
        let owner = format!("Bearer {}", self.addresses.token);
        let reply = match body {
            Some(body) => ureq::http::Request::builder()
                .method(method)
                .uri(&url)
                .header("Authorization", &owner)
                .header("Content-Type", "application/json")
                .body(body.to_string())
                .map(ureq::run),
            None => ureq::http::Request::builder()
                .method(method)
                .uri(&url)
                .header("Authorization", &owner)
                .body(())
                .map(ureq::run),
        };
        reply
            .expect("a request")
            .ok()
            .and_then(|mut r| r.body_mut().read_json().ok())
            .unwrap_or(Value::Null)
    }

    fn burner(&self) -> String {
        let session: Value = ureq::post(format!("http://{}/api/sessions", self.addresses.ui))
            .header("Cookie", &self.browser)
            .send_json(json!({"engine": "burner", "prompt": "burn"}))
            .expect("spawn")
            .body_mut()
            .read_json()
            .expect("a session");
        session["id"].as_str().expect("an id").to_owned()
    }

    fn stop(mut self) {
        signal_term(&self.child);
        let _ = self.child.wait();
    }
}

/// `GET /settings`' p50, p99 and max while `BURNERS` sessions burn.
fn under_load(args: &[&str]) -> (Duration, Duration, Duration) {
    let server = start(args);
    let ids: Vec<String> = (0..BURNERS).map(|_| server.burner()).collect();
    std::thread::sleep(Duration::from_secs(2));
    let url = format!("http://{}/settings", server.control());
    let owner = format!("Bearer {}", server.addresses.token);
    let mut latencies: Vec<Duration> = (0..REQUESTS)
        .map(|_| {
            let began = Instant::now();
            ureq::get(&url)
                .header("Authorization", &owner)
                .call()
                .expect("GET /settings");
            let took = began.elapsed();
            std::thread::sleep(Duration::from_millis(10));
            took
        })
        .collect();
    for id in &ids {
        server.call("POST", &format!("/sessions/{id}/stop"), None);
    }
    let figures = (
        percentile(&mut latencies, 0.5),
        percentile(&mut latencies, 0.99),
        percentile(&mut latencies, 1.0),
    );
    server.stop();
    figures
}

/// One burner's share of the machine under a strict 25 % cap.
fn capped_share() -> f64 {
    let server = start(&[]);
    for (key, value) in [
        ("sessionCpuCapEnabled", json!(true)),
        ("sessionCpuCapPercent", json!(25)),
        ("sessionCpuCapStrict", json!(true)),
    ] {
        server.call(
            "PATCH",
            &format!("/settings/{key}"),
            Some(json!({ "value": value })),
        );
    }
    let id = server.burner();
    std::thread::sleep(Duration::from_secs(2));
    let cpu = || {
        server.call("GET", &format!("/sessions/{id}"), None)["resources"]["cpuSeconds"]
            .as_f64()
            .unwrap_or(0.0)
    };
    let (before, began) = (cpu(), Instant::now());
    std::thread::sleep(Duration::from_secs(5));
    let used = cpu() - before;
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    server.call("POST", &format!("/sessions/{id}/stop"), None);
    server.stop();
    used / (began.elapsed().as_secs_f64() * cpus)
}
