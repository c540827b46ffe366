//! Chaos tests for remote turns (issue 66, docs/runners.md "Faults"): a
//! real pool runner reaches the real server through a TCP proxy in this
//! test that cuts the connection in the middle of a turn's output, and the
//! server is killed with SIGKILL while ten remote turns run; over a real
//! sshd, the helper at the other end of the turn's channel is killed with
//! SIGKILL and sshd is restarted mid-turn; a pool runner's spool fills its
//! disk (a 128 KB tmpfs) mid-turn. After each, every line the engine
//! printed (on the full disk: every line spooled) is in the transcript
//! exactly once, in order, and the session ends in the state the docs
//! promise. A runner
//! killed and started again under its name and home is in pool_runners.rs.

mod common;
#[path = "runners/pool.rs"]
mod pool;
#[path = "runners/sshd.rs"]
mod sshd;
// This suite sends no follow-ups.
#[allow(dead_code)]
#[path = "runners/turns.rs"]
mod turns;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::TestServer;
use pool::{Pool, listener_toml, wait_for_runner};
use serde_json::json;
use sshd::Sshd;
use turns::{output_of, spawn_on, wait_for_output};

/// How many numbered lines the counting engine prints.
const LINES: usize = 200;

/// A loopback TCP proxy from pool runners to the server's listener. Armed
/// with a byte budget, it drops every open connection once that many
/// bytes have gone from the runner to the server; later connections pass.
struct CuttingProxy {
    address: String,
    upstream: Arc<Mutex<String>>,
    /// Runner-to-server bytes left before the cut; negative when unarmed.
    budget: Arc<AtomicI64>,
    connections: Arc<AtomicUsize>,
    cuts: Arc<AtomicUsize>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl CuttingProxy {
    fn start(upstream: &str) -> CuttingProxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let proxy = CuttingProxy {
            address: listener.local_addr().unwrap().to_string(),
            upstream: Arc::new(Mutex::new(upstream.to_owned())),
            budget: Arc::new(AtomicI64::new(-1)),
            connections: Arc::new(AtomicUsize::new(0)),
            cuts: Arc::new(AtomicUsize::new(0)),
            open: Arc::new(Mutex::new(Vec::new())),
        };
        let (upstream, budget, connections, cuts, open) = (
            proxy.upstream.clone(),
            proxy.budget.clone(),
            proxy.connections.clone(),
            proxy.cuts.clone(),
            proxy.open.clone(),
        );
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let target = upstream.lock().unwrap().clone();
                let Ok(server) = TcpStream::connect(&target) else {
                    continue;
                };
                connections.fetch_add(1, Ordering::SeqCst);
                open.lock()
                    .unwrap()
                    .extend([client.try_clone().unwrap(), server.try_clone().unwrap()]);
                let (to_server, from_client) =
                    (server.try_clone().unwrap(), client.try_clone().unwrap());
                let (budget, cuts, open) = (budget.clone(), cuts.clone(), open.clone());
                std::thread::spawn(move || {
                    copy_counting(from_client, to_server, &budget, &cuts, &open)
                });
                std::thread::spawn(move || pipe(server, client));
            }
        });
        proxy
    }

    /// Cuts every connection after `bytes` more bytes from runner to server.
    fn cut_after(&self, bytes: i64) {
        self.budget.store(bytes, Ordering::SeqCst);
    }

    /// Sends new connections to `upstream` (a restarted server's listener).
    fn point_at(&self, upstream: &str) {
        *self.upstream.lock().unwrap() = upstream.to_owned();
    }

    fn url(&self) -> String {
        format!("https://{}", self.address)
    }
}

fn shut_all(open: &Mutex<Vec<TcpStream>>) {
    for stream in open.lock().unwrap().drain(..) {
        let _ = stream.shutdown(Shutdown::Both);
    }
}

fn copy_counting(
    mut from: TcpStream,
    mut to: TcpStream,
    budget: &AtomicI64,
    cuts: &AtomicUsize,
    open: &Mutex<Vec<TcpStream>>,
) {
    let mut buffer = [0u8; 4096];
    loop {
        let read = match from.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        let left = budget.load(Ordering::SeqCst);
        if left >= 0 {
            let allowed = (left as usize).min(read);
            let _ = to.write_all(&buffer[..allowed]);
            if allowed < read || left as usize == read {
                budget.store(-1, Ordering::SeqCst);
                cuts.fetch_add(1, Ordering::SeqCst);
                shut_all(open);
                break;
            }
            budget.store(left - read as i64, Ordering::SeqCst);
            continue;
        }
        if to.write_all(&buffer[..read]).is_err() {
            break;
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}

fn pipe(mut from: TcpStream, mut to: TcpStream) {
    let _ = std::io::copy(&mut from, &mut to);
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}

/// A `counter` engine that prints `LINES` numbered lines slowly.
fn server_with_counter(dir: tempfile::TempDir) -> TestServer {
    write_files(dir.path());
    let server = TestServer::start_in_with(dir, &[]);
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    server
}

fn write_files(dir: &Path) {
    let counter = format!(
        "i=0; while [ $i -lt {LINES} ]; do i=$((i+1)); echo line-$i; sleep 0.02; done; echo done"
    );
    std::fs::write(
        dir.join("engines.toml"),
        format!(
            "[engines.counter]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {counter:?}]\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("runners.toml"), listener_toml()).unwrap();
}

/// The listener's `host:port`, once bound.
fn listener_address(server: &TestServer) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let listener = server.call("GET", "/runners/listener", None).json();
        if let Some(address) = listener["address"].as_str() {
            return address.to_owned();
        }
        assert!(Instant::now() < deadline, "no listener: {listener}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Asserts the output holds each of the engine's lines exactly once, in order.
fn assert_every_line_once(output: &str) {
    let lines: Vec<&str> = output.lines().filter(|l| l.starts_with("line-")).collect();
    let wanted: Vec<String> = (1..=LINES).map(|i| format!("line-{i}")).collect();
    assert_eq!(lines, wanted, "{output}");
    assert_eq!(output.matches("done").count(), 1, "{output}");
}

#[test]
fn a_connection_cut_mid_output_reattaches_and_loses_or_repeats_no_line() {
    let server = server_with_counter(tempfile::tempdir().unwrap());
    let mut pool = Pool::open(&server);
    let proxy = CuttingProxy::start(&listener_address(&server));
    pool.url = proxy.url();
    let _runner = pool.start("pool-cut", &[]);
    wait_for_runner(&server, "pool-cut", "connected");

    let id = spawn_on(&server, "pool-cut", "counter", "count");
    wait_for_output(&server, &id, "line-20\n");
    // A few hundred bytes later: inside a frame of output, not between turns.
    proxy.cut_after(300);
    let deadline = Instant::now() + Duration::from_secs(30);
    while proxy.cuts.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "the proxy never cut");
        std::thread::sleep(Duration::from_millis(20));
    }
    wait_for_output(&server, &id, "line-60\n");
    // And once more, later in the same turn.
    proxy.cut_after(150);
    server.wait_for_status(&id, "waiting_for_input");

    assert!(
        proxy.connections.load(Ordering::SeqCst) >= 2,
        "the runner never connected again"
    );
    assert_every_line_once(&output_of(&server, &id));
}

#[test]
fn the_server_killed_while_ten_remote_turns_run_ends_each_as_promised() {
    let server = server_with_counter(tempfile::tempdir().unwrap());
    let mut pool = Pool::open(&server);
    let proxy = CuttingProxy::start(&listener_address(&server));
    pool.url = proxy.url();
    let _runner = pool.start("pool-crash", &["--max-sessions", "10"]);
    wait_for_runner(&server, "pool-crash", "connected");

    let ids: Vec<String> = (0..10)
        .map(|n| spawn_on(&server, "pool-crash", "counter", &format!("count {n}")))
        .collect();
    for id in &ids {
        wait_for_output(&server, id, "line-3\n");
    }
    let server = server.crash_and_restart();
    proxy.point_at(&listener_address(&server));
    wait_for_runner(&server, "pool-crash", "connected");

    // The runner is back under its name within the grace, so each turn is
    // picked up again and ends as it would have, none failed or doubled.
    for id in &ids {
        let session = wait_for_end(&server, id);
        assert_eq!(session["status"], "waiting_for_input", "{session}");
        assert_every_line_once(&output_of(&server, id));
    }
}

/// The session once it is no longer running, within a generous bound.
fn wait_for_end(server: &TestServer, id: &str) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        let status = session["status"].as_str().unwrap_or_default();
        if !matches!(status, "running" | "starting" | "queued" | "") {
            return session;
        }
        assert!(Instant::now() < deadline, "{id} never ended: {session}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The user the SSH runner host logs in as.
const SSH_USER: &str = "sbrunner";

/// A server whose runner `devbox` is the test's sshd, with the counter.
fn server_over_ssh(sshd: &Sshd) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path());
    std::fs::write(
        dir.path().join("runners.toml"),
        format!(
            "ssh_config = {:?}\n\n[runners.devbox]\nssh = {:?}\n",
            sshd.config().display().to_string(),
            sshd.alias
        ),
    )
    .unwrap();
    let server = TestServer::start_in(dir);
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    server
}

/// Ids of the helpers this sshd started for the server (`switchboard
/// runner ...` in a login on its port), not the keepers that hold the
/// engines nor other tests' runners.
fn helpers_of(sshd: &Sshd) -> Vec<i32> {
    let uid = String::from_utf8(
        std::process::Command::new("id")
            .args(["-u", &sshd.user])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()
    .trim()
    .to_owned();
    let login = format!(" {}", sshd.port);
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let owned = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().next())
            == Some(uid.as_str());
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
        let is_helper = args.get(1) == Some(&b"runner".as_slice())
            && !args.get(2).is_some_and(|flag| flag.starts_with(b"--keep"));
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let ours = environ.split(|b| *b == 0).any(|var| {
            let var = String::from_utf8_lossy(var);
            var.starts_with("SSH_CONNECTION=") && var.ends_with(&login)
        });
        if owned && is_helper && ours {
            found.push(pid);
        }
    }
    found
}

/// The session once it is `waiting_for_input`, within a generous bound.
fn wait_for_waiting(server: &TestServer, id: &str) {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        if session["status"] == "waiting_for_input" {
            return;
        }
        assert!(
            !matches!(session["status"].as_str(), Some("failed" | "interrupted")),
            "{session}"
        );
        assert!(Instant::now() < deadline, "{id} stuck: {session}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_helper_killed_mid_turn_is_attached_again_and_loses_or_repeats_no_line() {
    let Some(sshd) = Sshd::start(SSH_USER) else {
        return;
    };
    let server = server_over_ssh(&sshd);
    let id = spawn_on(&server, "devbox", "counter", "count");
    wait_for_output(&server, &id, "line-20\n");
    let helpers = helpers_of(&sshd);
    assert!(!helpers.is_empty(), "no helper runs for the turn");
    for pid in helpers {
        // SAFETY: kill only reads its two integer arguments.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    wait_for_waiting(&server, &id);
    assert_every_line_once(&output_of(&server, &id));
}

#[test]
fn sshd_restarted_mid_output_loses_or_repeats_no_line() {
    let Some(mut sshd) = Sshd::start(SSH_USER) else {
        return;
    };
    let server = server_over_ssh(&sshd);
    let id = spawn_on(&server, "devbox", "counter", "count");
    wait_for_output(&server, &id, "line-20\n");
    sshd.restart();
    wait_for_waiting(&server, &id);
    assert_every_line_once(&output_of(&server, &id));
}

#[test]
fn a_full_disk_on_the_runner_host_ends_the_turn_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path());
    let filler = "i=0; while [ $i -lt 400 ]; do i=$((i+1)); printf 'line-%s %01000d\\n' $i 0; done; echo done";
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.filler]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {filler:?}]\n"
        ),
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &[]);
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    let pool = Pool::open(&server);
    let mut runner = pool.start("pool-full", &[]);
    wait_for_runner(&server, "pool-full", "connected");
    runner.kill();
    let turns = runner
        .home
        .path()
        .join(".local/share/switchboard-runner/turns");
    std::fs::create_dir_all(&turns).unwrap();
    let (uid, gid) = pool::pool_user().unwrap_or((0, 0));
    for made in turns
        .ancestors()
        .take_while(|d| d.starts_with(runner.home.path()))
    {
        std::os::unix::fs::chown(made, Some(uid), Some(gid)).unwrap();
    }
    let Some(_tmpfs) = Tmpfs::mount(&turns, uid, gid) else {
        eprintln!("skipped: cannot mount a tmpfs here");
        return;
    };
    runner.restart();
    wait_for_runner(&server, "pool-full", "connected");
    let id = spawn_on(&server, "pool-full", "filler", "fill");
    let session = wait_for_end(&server, &id);
    assert_eq!(session["status"], "failed", "{session}");
    assert!(
        session["error"].as_str().is_some_and(
            |e| e.contains("could not write the turn's output") && e.contains("No space left")
        ),
        "{session}"
    );
    let output = output_of(&server, &id);
    // What was spooled before the disk filled arrived whole: a prefix of
    // the engine's lines, each once, in order.
    let numbers: Vec<usize> = output
        .lines()
        .filter_map(|l| l.strip_prefix("line-"))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(!numbers.is_empty() && numbers.len() < 400, "{output}");
    assert_eq!(numbers, (1..=numbers.len()).collect::<Vec<_>>());
    // The runner's keepers go before the tmpfs they write to.
    drop(runner);
}

/// A small tmpfs, unmounted when dropped (even when the test fails).
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(at: &Path, uid: u32, gid: u32) -> Option<Tmpfs> {
        std::process::Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size=128k,uid={uid},gid={gid}"),
                "tmpfs",
            ])
            .arg(at)
            .status()
            .is_ok_and(|s| s.success())
            .then(|| Tmpfs(at.to_owned()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}
