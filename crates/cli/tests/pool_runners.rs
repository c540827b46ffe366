//! Pool runners (docs/runners.md): `switchboard runner --connect`
//! processes, each in its own user and mount namespace with its own home,
//! connected over TLS to the server's runner listener on loopback. Turns,
//! follow-ups and stops run there as on an SSH host; a runner killed
//! mid-turn and started again loses no line; a revoked token's runners
//! are gone within a second; bad connections are refused and change
//! nothing (and are counted in `/metrics`); `auto` spreads sessions by
//! free memory; `/metrics`' queue follows a saturated pool.

mod common;
#[path = "runners/pool.rs"]
mod pool;
#[path = "runners/turns.rs"]
mod turns;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestServer;
use pool::{POOL_USER, Pool, PoolRunner, listener_toml, pool_user, wait_for_runner};
use serde_json::json;
use tokio_rustls::rustls::{self, ClientConnection, StreamOwned};
use turns::{follow_up, output_of, spawn_on, wait_for_output};

/// Engines that say who and where they run, call the server back, wait
/// for a gate file, or count lines slowly.
fn write_files(dir: &Path, extra_toml: &str) {
    let binary = common::serve::binary();
    let script = "echo \"user=$(id -un) home=$HOME\"; echo \"url=$APP_CONTROL_URL\"; cat; echo; echo read; \
        while [ ! -e \"$HOME/gate-$APP_SESSION_ID\" ] && [ -n \"$WAIT_FOR_GATE\" ]; do sleep 0.05; done; \
        echo done";
    let counter = "i=0; while [ $i -lt 60 ]; do i=$((i+1)); echo line-$i; sleep 0.05; done; \
        while [ ! -e \"$HOME/gate-$APP_SESSION_ID\" ]; do sleep 0.05; done; echo done";
    std::fs::write(
        dir.join("engines.toml"),
        format!(
            "[engines.remote]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}]\n\
             [engines.counter]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {counter:?}]\n\
             [engines.caller]\nkind = \"command\"\ncommand = [{binary:?}, \"settings\", \"get\", \"agentPermissionLevel\"]\n\
             [engines.sleeper]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo started; exec sleep 300\"]\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("runners.toml"),
        format!("{}{extra_toml}", listener_toml()),
    )
    .unwrap();
}

fn server_with_listener(args: &[&str]) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), "");
    let server = match std::env::var("POOL_SERVER_LOG") {
        Ok(log) => TestServer::start_logging(dir, args, Path::new(&log)),
        Err(_) => TestServer::start_in_with(dir, args),
    };
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    server
}

fn expected_user() -> String {
    match pool_user() {
        Some(_) => POOL_USER.to_owned(),
        None => String::from_utf8(
            std::process::Command::new("id")
                .arg("-un")
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap()
        .trim()
        .to_owned(),
    }
}

#[test]
fn pool_runners_take_turns_follow_ups_and_stops_and_reach_the_server_back() {
    let server = server_with_listener(&[]);
    let pool = Pool::open(&server);
    let runner = pool.start("pool-a", &["--labels", "gpu,big", "--max-sessions", "4"]);

    let listed = wait_for_runner(&server, "pool-a", "connected");
    assert_eq!(listed["kind"], "pool", "{listed}");
    assert_eq!(listed["labels"], json!(["gpu", "big"]));
    assert_eq!(listed["maxSessions"], 4);
    assert_eq!(listed["switchboardVersion"], env!("CARGO_PKG_VERSION"));
    assert!(
        listed["memory"]["totalMb"].as_u64().unwrap() > 0,
        "{listed}"
    );
    assert_eq!(listed["sandbox"], "namespaces", "{listed}");
    assert!(
        listed["engines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "remote")
    );

    let id = spawn_on(&server, "pool-a", "remote", "hello from the server");
    server.wait_for_status(&id, "waiting_for_input");
    let output = output_of(&server, &id);
    let user = expected_user();
    assert!(
        output.contains(&format!(
            "user={user} home={}",
            runner.home.path().display()
        )),
        "{output}"
    );
    assert!(
        output.contains("hello from the server") && output.contains("done"),
        "{output}"
    );
    let url = output
        .lines()
        .find_map(|l| l.strip_prefix("url="))
        .unwrap()
        .to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert_ne!(url, format!("http://{}", server.control()));

    // The engine reaches the control server through the runner's tunnel,
    // with its session's own token.
    let caller_id = spawn_on(&server, "pool-a", "caller", "read a setting");
    let said = wait_for_output(&server, &caller_id, "type: select");
    assert!(said.contains("guarded"), "{said}");

    // A follow-up is a second turn on the same runner.
    follow_up(&server, &id, "and again");
    wait_for_output(&server, &id, "and again");

    // Stop ends the engine's whole process tree on the runner.
    let sleeper_id = spawn_on(&server, "pool-a", "sleeper", "sleep");
    wait_for_output(&server, &sleeper_id, "started");
    let stopped = server.call("POST", &format!("/sessions/{sleeper_id}/stop"), None);
    assert!(stopped.status < 300, "{}", stopped.text());
    server.wait_for_status(&sleeper_id, "stopped");
    let deadline = Instant::now() + Duration::from_secs(10);
    while processes_of(&sleeper_id) > 0 {
        assert!(Instant::now() < deadline, "the stopped session still runs");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Processes on this machine whose environment names the session.
fn processes_of(session_id: &str) -> usize {
    let wanted = format!("APP_SESSION_ID={session_id}");
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            std::fs::read(e.path().join("environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == wanted.as_bytes()))
        })
        .count()
}

#[test]
fn a_runner_killed_mid_turn_and_started_again_loses_no_line() {
    let server = server_with_listener(&[]);
    let pool = Pool::open(&server);
    let mut runner = pool.start("pool-k", &[]);
    wait_for_runner(&server, "pool-k", "connected");

    let id = spawn_on(&server, "pool-k", "counter", "count");
    wait_for_output(&server, &id, "line-5\n");
    runner.kill();
    wait_for_runner(&server, "pool-k", "unreachable");
    std::thread::sleep(Duration::from_millis(500));
    runner.restart();
    wait_for_runner(&server, "pool-k", "connected");
    std::fs::write(runner.home.path().join(format!("gate-{id}")), "").unwrap();
    server.wait_for_status(&id, "waiting_for_input");
    let output = output_of(&server, &id);
    let lines: Vec<&str> = output.lines().filter(|l| l.starts_with("line-")).collect();
    let wanted: Vec<String> = (1..=60).map(|i| format!("line-{i}")).collect();
    assert_eq!(lines, wanted, "{output}");
    assert!(
        output.ends_with("done\n") || output.contains("done"),
        "{output}"
    );
}

#[test]
fn a_revoked_token_closes_its_runners_within_a_second() {
    let server = server_with_listener(&[]);
    let pool = Pool::open(&server);
    let runner = pool.start("pool-r", &[]);
    wait_for_runner(&server, "pool-r", "connected");

    // A runner token opens no API route.
    let refused = server.call_as(&pool.token, "GET", "/settings", None);
    assert_eq!(refused.status, 401, "{}", refused.text());
    let listed = server.call("GET", "/runners/tokens", None).json();
    assert_eq!(listed[0]["id"], pool.token_id.as_str());
    assert!(listed[0].get("token").is_none(), "{listed}");

    let began = Instant::now();
    let revoked = server.call(
        "DELETE",
        &format!("/runners/tokens/{}", pool.token_id),
        None,
    );
    assert_eq!(revoked.status, 204, "{}", revoked.text());
    let gone = wait_for_runner(&server, "pool-r", "unreachable");
    assert!(
        began.elapsed() < Duration::from_secs(1),
        "took {:?}",
        began.elapsed()
    );
    assert!(
        gone["reason"].as_str().unwrap().contains("revoked"),
        "{gone}"
    );

    // It knocks again and is refused, and said why.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !runner.log().contains("401") {
        assert!(Instant::now() < deadline, "{}", runner.log());
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!runner.log().contains(&pool.token), "the token was logged");
    let again = server.call(
        "DELETE",
        &format!("/runners/tokens/{}", pool.token_id),
        None,
    );
    assert_eq!(again.status, 404, "{}", again.text());
    assert_eq!(
        server.call("GET", "/runners/tokens", None).json(),
        json!([])
    );
}

/// A TLS connection to the listener that trusts its certificate by
/// fingerprint, as a runner does.
fn tls_to(pool: &Pool) -> StreamOwned<ClientConnection, TcpStream> {
    let config = runners::pool::tls::client(&runners::pool::tls::Trust::Fingerprint(
        pool.fingerprint.clone(),
    ))
    .unwrap();
    let address = pool.url.trim_start_matches("https://");
    let tcp = TcpStream::connect(address).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    StreamOwned::new(
        ClientConnection::new(Arc::clone(&config), name).unwrap(),
        tcp,
    )
}

/// A request as a runner makes it, with `headers` changed; the status and
/// body the listener answers.
fn knock(pool: &Pool, headers: &[(&str, &str)]) -> (u16, String) {
    let mut stream = tls_to(pool);
    let mut fields = vec![
        ("Host", "localhost".to_owned()),
        ("Connection", "upgrade".to_owned()),
        ("Upgrade", "switchboard-runner".to_owned()),
        ("Authorization", format!("Bearer {}", pool.token)),
        ("Switchboard-Protocol", runners::wire::PROTOCOL.to_string()),
        ("Switchboard-Runner", "knocker".to_owned()),
        ("Switchboard-Tunnel-Port", "4000".to_owned()),
        ("Switchboard-Exe", "/usr/bin/switchboard".to_owned()),
    ];
    for (name, value) in headers {
        fields.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        if !value.is_empty() {
            fields.push((name, (*value).to_owned()));
        }
    }
    let mut request = "GET /connect HTTP/1.1\r\n".to_owned();
    for (name, value) in fields {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") || !answer.ends_with(b"}") {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
        }
    }
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// Whether the peer closed the stream (reading ends, or fails) within a few seconds.
fn closed(stream: &mut impl Read) -> bool {
    let mut buffer = [0u8; 4096];
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return true,
            Ok(_) => {}
        }
    }
    false
}

#[test]
fn bad_connections_are_refused_cheaply_and_change_nothing() {
    let server = server_with_listener(&[]);
    let pool = Pool::open(&server);
    let good = pool.start("pool-good", &[]);
    wait_for_runner(&server, "pool-good", "connected");

    let (status, body) = knock(&pool, &[("Authorization", "Bearer wrong")]);
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("\"unauthorized\""), "{body}");
    let (status, body) = knock(&pool, &[("Authorization", "")]);
    assert_eq!(status, 401, "{body}");
    let (status, body) = knock(&pool, &[("Switchboard-Protocol", "0")]);
    assert_eq!(status, 426, "{body}");
    assert!(
        body.contains(&format!("protocol {}", runners::wire::PROTOCOL))
            && body.contains(env!("CARGO_PKG_VERSION")),
        "{body}"
    );
    let (status, body) = knock(&pool, &[("Upgrade", "")]);
    assert_eq!(status, 400, "{body}");
    let (status, body) = knock(&pool, &[("Switchboard-Runner", "local")]);
    assert_eq!(status, 409, "{body}");
    let (status, body) = knock(&pool, &[("Switchboard-Runner", "pool-good")]);
    assert_eq!(
        status, 101,
        "another connection of a runner replaces it: {body}"
    );
    wait_for_runner(&server, "pool-good", "connected");

    // Upgraded, then garbage, then a frame far over any limit: closed.
    for junk in [
        &b"this is not HTTP/2 at all"[..],
        &[0xff, 0xff, 0xff, 0x00, 0, 0, 0, 0, 1][..],
    ] {
        let mut stream = tls_to(&pool);
        let request = format!(
            "GET /connect HTTP/1.1\r\nHost: localhost\r\nConnection: upgrade\r\nUpgrade: switchboard-runner\r\n\
             Authorization: Bearer {}\r\nSwitchboard-Protocol: {}\r\nSwitchboard-Runner: junk\r\n\
             Switchboard-Tunnel-Port: 4000\r\nSwitchboard-Exe: /usr/bin/switchboard\r\n\r\n",
            pool.token,
            runners::wire::PROTOCOL
        );
        stream.write_all(request.as_bytes()).unwrap();
        stream.write_all(junk).unwrap();
        assert!(
            closed(&mut stream),
            "the listener kept a runner sending junk"
        );
    }
    // Not TLS at all.
    let mut plain = TcpStream::connect(pool.url.trim_start_matches("https://")).unwrap();
    plain
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    plain
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert!(closed(&mut plain));

    // A runner that pins another fingerprint never connects.
    let impostor = Pool {
        url: pool.url.clone(),
        fingerprint: "00".repeat(32),
        token_id: pool.token_id.clone(),
        token: pool.token.clone(),
        dir: tempfile::tempdir().unwrap(),
    };
    impostor.write_token(&pool.token);
    let pinned_wrong = impostor.start("pool-pinned-wrong", &[]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !pinned_wrong.log().contains("fingerprint") {
        assert!(Instant::now() < deadline, "{}", pinned_wrong.log());
        std::thread::sleep(Duration::from_millis(50));
    }

    // A flood from one address: closed before TLS, and nobody else notices.
    raise_open_files(4096);
    let address = pool.url.trim_start_matches("https://").to_owned();
    let began = Instant::now();
    let flood: Vec<TcpStream> = (0..1000)
        .filter_map(|_| TcpStream::connect(&address).ok())
        .collect();
    let opened = began.elapsed();
    let refused = flood
        .into_iter()
        .filter_map(|mut stream| {
            stream
                .set_read_timeout(Some(Duration::from_millis(20)))
                .ok()?;
            let mut byte = [0u8; 1];
            matches!(stream.read(&mut byte), Ok(0)).then_some(())
        })
        .count();
    // At most each second's share got as far as TLS, however long this
    // machine took to open them.
    let allowed = 1000 - refused;
    let seconds = u64::try_from(opened.as_millis() / 1000).unwrap_or(u64::MAX) + 2;
    let share = u64::from(runners::pool::listener::PER_ADDRESS_PER_SECOND);
    assert!(
        (allowed as u64) <= share * seconds,
        "{allowed} of 1000 reached TLS in {opened:?}"
    );
    let settings = server.call("GET", "/settings", None);
    assert_eq!(settings.status, 200);

    let list = server.call("GET", "/runners", None).json();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "pool" && r["state"] == "connected")
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["pool-good"], "{list}");
    drop(good);
}

fn raise_open_files(wanted: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit write and read only `limit`.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_cur.max(wanted.min(limit.rlim_max));
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
}

#[test]
fn auto_spreads_sessions_across_the_pool_by_free_memory() {
    let scratch = tempfile::tempdir().unwrap();
    let meminfo = |name: &str, available_mb: u64| {
        let path = scratch.path().join(name);
        std::fs::write(
            &path,
            format!(
                "MemTotal: {} kB\nMemAvailable: {} kB\n",
                16_000 * 1024,
                available_mb * 1024
            ),
        )
        .unwrap();
        pool::open_to_all(scratch.path());
        path.display().to_string()
    };
    // This machine has the least room, so every session goes to the pool.
    let local = meminfo("local", 500);
    let server = server_with_listener(&["--meminfo-file", &local]);
    let pool = Pool::open(&server);
    let runners: Vec<PoolRunner> = [("pool-1", 2400), ("pool-2", 2200), ("pool-3", 2000)]
        .iter()
        .map(|(name, mb)| pool.start(name, &["--meminfo-file", &meminfo(name, *mb)]))
        .collect();
    for runner in &runners {
        wait_for_runner(&server, &runner.name, "connected");
    }
    let mut placed = std::collections::BTreeMap::new();
    for i in 0..6 {
        let id = spawn_on(&server, "auto", "sleeper", &format!("sleep {i}"));
        wait_for_output(&server, &id, "started");
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        *placed
            .entry(session["runner"].as_str().unwrap().to_owned())
            .or_insert(0) += 1;
    }
    let count = |name: &str| placed.get(name).copied().unwrap_or(0);
    assert_eq!(
        (
            count("pool-1"),
            count("pool-2"),
            count("pool-3"),
            count("local")
        ),
        (3, 2, 1, 0),
        "{placed:?}"
    );
}

/// `/metrics` parsed by a Prometheus text-format parser; `name`'s value
/// whose labels include `labels`.
fn metric(server: &TestServer, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let text = server.call("GET", "/metrics", None).text();
    let scrape = prom_text_format_parser::Scrape::parse(&text)
        .unwrap_or_else(|e| panic!("not the text format ({e:?}):\n{text}"));
    scrape
        .metrics
        .iter()
        .filter(|m| m.name == name)
        .flat_map(|m| &m.samples)
        .find(|s| {
            labels
                .iter()
                .all(|(k, v)| s.labels.iter().any(|l| l.key == *k && l.value == *v))
        })
        .map(|s| s.value.value.as_f64())
}

fn wait_for_metric(server: &TestServer, name: &str, wanted: f64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let value = metric(server, name, &[]);
        if value == Some(wanted) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{name} stuck at {value:?}, not {wanted}"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn the_queue_gauge_follows_a_saturated_pool() {
    let server = server_with_listener(&[]);
    let pool = Pool::open(&server);
    let _runner = pool.start("pool-q", &["--max-sessions", "1"]);
    wait_for_runner(&server, "pool-q", "connected");
    assert_eq!(
        metric(
            &server,
            "switchboard_runners",
            &[("kind", "pool"), ("state", "connected")]
        ),
        Some(1.0)
    );
    let first = spawn_on(&server, "pool-q", "sleeper", "one");
    wait_for_output(&server, &first, "started");
    let second = spawn_on(&server, "pool-q", "sleeper", "two");
    let third = spawn_on(&server, "pool-q", "sleeper", "three");
    wait_for_metric(&server, "switchboard_sessions_queued", 2.0);
    assert_eq!(
        metric(
            &server,
            "switchboard_sessions",
            &[("state", "running"), ("runner", "pool-q")]
        ),
        Some(1.0)
    );
    let stopped = server.call("POST", &format!("/sessions/{first}/stop"), None);
    assert!(stopped.status < 300, "{}", stopped.text());
    server.wait_for_status(&first, "stopped");
    // One of the two waiting takes the place, and only one.
    wait_for_metric(&server, "switchboard_sessions_queued", 1.0);
    let started = [&second, &third]
        .iter()
        .filter(|id| {
            let session = server.call("GET", &format!("/sessions/{id}"), None).json();
            session["status"] != "queued"
        })
        .count();
    assert_eq!(started, 1);
    for id in [&second, &third] {
        server.call("POST", &format!("/sessions/{id}/stop"), None);
    }
    wait_for_metric(&server, "switchboard_sessions_queued", 0.0);

    // A wrong token at the listener is counted, by its reason.
    let before = metric(
        &server,
        "switchboard_runner_connect_refused_total",
        &[("reason", "bad_token")],
    )
    .unwrap_or(0.0);
    let (status, _) = knock(&pool, &[("Authorization", "Bearer wrong")]);
    assert_eq!(status, 401);
    let after = metric(
        &server,
        "switchboard_runner_connect_refused_total",
        &[("reason", "bad_token")],
    );
    assert_eq!(after, Some(before + 1.0));
}
