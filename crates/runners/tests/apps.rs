//! The helper's side of a session's apps on a runner host, against real
//! processes: `Connect` relays a real HTTP exchange with Python's
//! `http.server` and names a port nothing listens on, `Listeners` finds a
//! process started with `APP_SESSION_ID`, and `StartApp`, `AppState`,
//! `StopApp` and `EndSession` run, read and stop real apps. The helper runs
//! in this process over an in-memory pipe, and once as ssh runs it, a
//! child on its own stdin and stdout.
//!
//! Its own `main` rather than libtest's: the helper starts this very binary
//! as an app's keeper (`runner --keep-app DIR`), as it starts `switchboard`
//! on a runner host, so the binary answers that (and `runner --stdio`) too.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use runners::wire::{self, AppStart, AppStarted, AppState, Confine, Frame, Kind, Request};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if let [_, runner, keep_app, dir] = args.as_slice()
        && runner == "runner"
        && keep_app == "--keep-app"
    {
        return match runners::helper::keep_app(Path::new(dir)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        };
    }
    if let [_, runner, stdio] = args.as_slice()
        && runner == "runner"
        && stdio == "--stdio"
    {
        let served = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(runners::helper::serve_stdio("test"));
        return if served.is_ok() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    // The runner folder goes under this home: the helper reads `HOME`.
    let home = tempfile::tempdir().unwrap();
    // SAFETY: no other thread runs yet.
    unsafe { std::env::set_var("HOME", home.path()) };
    let filters: Vec<&String> = args[1..].iter().filter(|a| !a.starts_with('-')).collect();
    let tests: [(&str, fn()); 8] = [
        (
            "over_stdio_the_apps_close_reaches_the_server_while_its_side_stays_open",
            over_stdio_the_apps_close_reaches_the_server_while_its_side_stays_open,
        ),
        (
            "connect_relays_a_real_http_exchange_byte_for_byte",
            connect_relays_a_real_http_exchange_byte_for_byte,
        ),
        (
            "connect_to_a_port_nothing_listens_on_is_an_error_frame",
            connect_to_a_port_nothing_listens_on_is_an_error_frame,
        ),
        (
            "listeners_finds_the_sessions_server_and_no_other",
            listeners_finds_the_sessions_server_and_no_other,
        ),
        (
            "an_app_serves_until_stopped_and_stopping_frees_its_port",
            an_app_serves_until_stopped_and_stopping_frees_its_port,
        ),
        (
            "an_app_that_exits_keeps_its_status_and_last_lines",
            an_app_that_exits_keeps_its_status_and_last_lines,
        ),
        (
            "ending_the_session_stops_its_apps_and_removes_their_folders",
            ending_the_session_stops_its_apps_and_removes_their_folders,
        ),
        (
            "an_operation_the_helper_does_not_know_is_named",
            an_operation_the_helper_does_not_know_is_named,
        ),
    ];
    let mut failed = Vec::new();
    for (name, test) in tests {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let outcome = std::panic::catch_unwind(test);
        println!(
            "test {name} ... {}",
            if outcome.is_ok() { "ok" } else { "FAILED" }
        );
        if outcome.is_err() {
            failed.push(name);
        }
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        println!("failed: {failed:?}");
        ExitCode::FAILURE
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// A channel to an in-process helper carrying `request`; the near end.
async fn channel(request: &serde_json::Value) -> DuplexStream {
    let (mut near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let (input, output) = tokio::io::split(far);
        runners::helper::serve("test", input, output).await
    });
    let frame = Frame::json(Kind::Request, request).unwrap();
    wire::write_frame(&mut near, &frame).await.unwrap();
    near
}

/// The helper's reply to one request, or its refusal's words.
async fn ask<T: for<'de> serde::Deserialize<'de>>(request: &Request) -> Result<T, String> {
    let mut near = channel(&serde_json::to_value(request).unwrap()).await;
    let frame = wire::read_frame(&mut near).await.unwrap().unwrap();
    match frame.kind {
        Kind::Reply => Ok(frame.parse().unwrap()),
        Kind::Error => Err(String::from_utf8(frame.payload).unwrap()),
        other => panic!("a {other:?} frame"),
    }
}

/// Python's `http.server` serving `dir`, in `session` or in none.
fn http_server(dir: &Path, session: Option<&str>) -> test_servers::Server {
    test_servers::serve_directory_with(dir, |command| {
        command
            .env_remove("APP_SESSION_ID")
            .envs(session.map(|id| ("APP_SESSION_ID", id)));
    })
}

/// A folder with `hello.txt` and a 2 MiB `big.bin` of every byte value.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hello.txt"), "hello from the runner\n").unwrap();
    let big: Vec<u8> = (0..2 << 20).map(|i: u32| (i % 251) as u8).collect();
    std::fs::write(dir.path().join("big.bin"), big).unwrap();
    dir
}

/// The body of a plain HTTP/1.0 response.
fn body(response: &[u8]) -> &[u8] {
    let at = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    &response[at + 4..]
}

fn connect_relays_a_real_http_exchange_byte_for_byte() {
    let site = site();
    let server = http_server(site.path(), None);
    runtime().block_on(async {
        for (path, expected) in [
            (
                "/hello.txt",
                std::fs::read(site.path().join("hello.txt")).unwrap(),
            ),
            (
                "/big.bin",
                std::fs::read(site.path().join("big.bin")).unwrap(),
            ),
        ] {
            let mut near =
                channel(&serde_json::json!({"op": "connect", "port": server.port})).await;
            let reply = wire::read_frame(&mut near).await.unwrap().unwrap();
            assert_eq!(reply.kind, Kind::Reply);
            assert_eq!(reply.payload, b"{}");
            near.write_all(format!("GET {path} HTTP/1.0\r\n\r\n").as_bytes())
                .await
                .unwrap();
            // Half-closed: the request is all there is, the answer still comes.
            near.shutdown().await.unwrap();
            let mut response = Vec::new();
            tokio::time::timeout(Duration::from_secs(10), near.read_to_end(&mut response))
                .await
                .expect("the app's end reaches the channel")
                .unwrap();
            assert!(
                response.starts_with(b"HTTP/1.0 200"),
                "{:?}",
                &response[..40]
            );
            assert_eq!(body(&response), expected.as_slice(), "{path}");
        }
    });
}

/// The helper as ssh runs it, on its own stdin, stdout and stderr: when the
/// app closes its side, the helper's stdout and stderr end (sshd sends the
/// channel's EOF once both have) though the server has not closed its own
/// side yet, and what the server sends after that still reaches the app.
fn over_stdio_the_apps_close_reaches_the_server_while_its_side_stays_open() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let app = std::thread::spawn(move || {
        let (mut tcp, _) = listener.accept().unwrap();
        tcp.write_all(b"hello, then my side is done").unwrap();
        tcp.shutdown(std::net::Shutdown::Write).unwrap();
        let mut rest = String::new();
        tcp.read_to_string(&mut rest).unwrap();
        rest
    });
    let mut helper = Command::new(std::env::current_exe().unwrap())
        .args(["runner", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = helper.stdin.take().unwrap();
    let frame = Frame::json(Kind::Request, &Request::Connect { port }).unwrap();
    stdin.write_all(&frame.encode()).unwrap();
    let mut stdout = helper.stdout.take().unwrap();
    let mut stderr = helper.stderr.take().unwrap();
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut everything = Vec::new();
        stdout.read_to_end(&mut everything).unwrap();
        stderr.read_to_end(&mut Vec::new()).unwrap();
        done_tx.send(everything).unwrap();
    });
    let everything = done_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the helper's stdout and stderr ended while its stdin is open");
    let reply = Frame::new(Kind::Reply, b"{}".to_vec()).encode();
    assert_eq!(&everything[..reply.len()], reply.as_slice());
    assert_eq!(&everything[reply.len()..], b"hello, then my side is done");
    stdin.write_all(b"and the server's last words").unwrap();
    drop(stdin);
    assert_eq!(app.join().unwrap(), "and the server's last words");
    assert!(helper.wait().unwrap().success());
}

fn connect_to_a_port_nothing_listens_on_is_an_error_frame() {
    let port = free_port();
    runtime().block_on(async {
        let refused = ask::<serde_json::Value>(&Request::Connect { port }).await;
        let message = refused.unwrap_err();
        assert!(
            message.starts_with(&format!("nothing listens on port {port}")),
            "{message}"
        );
    });
}

fn listeners_finds_the_sessions_server_and_no_other() {
    let site = site();
    let session = format!("s{}", std::process::id());
    let ours = http_server(site.path(), Some(&session));
    let other = http_server(site.path(), None);
    runtime().block_on(async {
        let found: Vec<wire::Listening> = ask(&Request::Listeners {
            session_ids: vec![session.clone()],
        })
        .await
        .unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].session_id, session);
        assert_eq!(found[0].port, ours.port);
        assert_eq!(found[0].pid, ours.pid());
        assert!(found[0].command.contains("http.server"), "{found:?}");
        assert!(found.iter().all(|l| l.port != other.port));
    });
}

fn launch(session_id: &str, name: &str, cwd: &Path, command: &str) -> AppStart {
    AppStart {
        session_id: session_id.to_owned(),
        name: name.to_owned(),
        cwd: cwd.display().to_string(),
        command: command.to_owned(),
        env: BTreeMap::from([("GREETING".to_owned(), "hi".to_owned())]),
        confine: Confine {
            hide_sensitive: false,
            connect_ports: None,
            // Where the kernel confines nothing, the test still runs.
            unsafe_allow_unsandboxed: true,
        },
        own_home: false,
    }
}

async fn state(session_id: &str, name: &str) -> Result<AppState, String> {
    ask(&Request::AppState {
        session_id: session_id.to_owned(),
        name: name.to_owned(),
    })
    .await
}

/// Waits until the app's state passes `done`, at most 10 s.
async fn state_when(session_id: &str, name: &str, done: impl Fn(&AppState) -> bool) -> AppState {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = state(session_id, name).await.unwrap();
        if done(&now) {
            return now;
        }
        assert!(Instant::now() < deadline, "still {now:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A plain HTTP/1.0 GET on loopback, `None` while nothing answers.
fn get(port: u16, path: &str) -> Option<Vec<u8>> {
    let mut tcp = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    tcp.write_all(format!("GET {path} HTTP/1.0\r\n\r\n").as_bytes())
        .ok()?;
    let mut response = Vec::new();
    tcp.read_to_end(&mut response).ok()?;
    Some(response)
}

fn an_app_serves_until_stopped_and_stopping_frees_its_port() {
    let site = site();
    let port = free_port();
    let command = format!(
        "echo \"greeting=$GREETING session=$APP_SESSION_ID\"; exec python3 -u -m http.server {port} --bind 127.0.0.1"
    );
    runtime().block_on(async {
        let started: AppStarted = ask(&Request::StartApp(Box::new(launch(
            "s1",
            "web.fix-login",
            site.path(),
            &command,
        ))))
        .await
        .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let response = loop {
            if let Some(response) = get(port, "/hello.txt") {
                break response;
            }
            assert!(Instant::now() < deadline, "the app never answered");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(body(&response), b"hello from the runner\n");
        let again = ask::<AppStarted>(&Request::StartApp(Box::new(launch(
            "s1",
            "web.fix-login",
            site.path(),
            &command,
        ))))
        .await
        .unwrap_err();
        assert!(again.contains("already runs"), "{again}");
        let running = state_when("s1", "web.fix-login", |s| {
            s.lines.iter().any(|l| l.contains("GET /hello.txt"))
        })
        .await;
        assert!(running.running);
        assert_eq!(running.pid, started.pid);
        assert_eq!(running.exit_status, None);
        assert_eq!(running.lines[0], "greeting=hi session=s1");
        assert!(
            running.lines[1].starts_with("Serving HTTP on 127.0.0.1"),
            "{running:?}"
        );
        let stopped: AppState = ask(&Request::StopApp {
            session_id: "s1".into(),
            name: "web.fix-login".into(),
        })
        .await
        .unwrap();
        assert!(!stopped.running, "{stopped:?}");
        assert_eq!(stopped.exit_status, Some(128 + 15), "ended by SIGTERM");
        assert!(std::net::TcpListener::bind(("127.0.0.1", port)).is_ok());
    });
}

fn an_app_that_exits_keeps_its_status_and_last_lines() {
    let site = site();
    let many = "i=0; while [ $i -lt 250 ]; do echo line $i; i=$((i+1)); done";
    runtime().block_on(async {
        ask::<AppStarted>(&Request::StartApp(Box::new(launch(
            "s2",
            "boom",
            site.path(),
            "echo boom; echo oops >&2; exit 3",
        ))))
        .await
        .unwrap();
        let ended = state_when("s2", "boom", |s| s.exit_status.is_some()).await;
        assert!(!ended.running);
        assert_eq!(ended.exit_status, Some(3));
        assert_eq!(ended.lines, ["boom", "oops"]);
        ask::<AppStarted>(&Request::StartApp(Box::new(launch(
            "s2",
            "chatty",
            site.path(),
            many,
        ))))
        .await
        .unwrap();
        let ended = state_when("s2", "chatty", |s| s.exit_status.is_some()).await;
        assert_eq!(ended.exit_status, Some(0));
        assert_eq!(ended.lines.len(), 200);
        assert_eq!(ended.lines[0], "line 50");
        assert_eq!(ended.lines[199], "line 249");
        let missing = state("s2", "never").await.unwrap_err();
        assert!(missing.contains("no app `never`"), "{missing}");
        let refused = ask::<AppStarted>(&Request::StartApp(Box::new(launch(
            "s2",
            "../escape",
            site.path(),
            "true",
        ))))
        .await
        .unwrap_err();
        assert!(refused.contains("an app name"), "{refused}");
    });
}

fn runner_folder() -> PathBuf {
    PathBuf::from(std::env::var_os("HOME").unwrap()).join(runners::helper::RUNNER_DIR)
}

fn ending_the_session_stops_its_apps_and_removes_their_folders() {
    let site = site();
    runtime().block_on(async {
        let mut pids = Vec::new();
        for name in ["one", "two"] {
            let started: AppStarted = ask(&Request::StartApp(Box::new(launch(
                "s3",
                name,
                site.path(),
                "exec sleep 300",
            ))))
            .await
            .unwrap();
            pids.push(started.pid);
        }
        assert!(runner_folder().join("apps/s3/one").is_dir());
        let removed_home: bool = ask(&Request::EndSession {
            session_id: "s3".into(),
        })
        .await
        .unwrap();
        assert!(!removed_home, "the session had no home of its own");
        for pid in pids {
            assert!(!Path::new(&format!("/proc/{pid}")).exists(), "{pid} lives");
        }
        assert!(!runner_folder().join("apps/s3").exists());
        assert!(state("s3", "one").await.is_err());
    });
}

fn an_operation_the_helper_does_not_know_is_named() {
    runtime().block_on(async {
        let mut near = channel(&serde_json::json!({"op": "frobnicate"})).await;
        let frame = wire::read_frame(&mut near).await.unwrap().unwrap();
        assert_eq!(frame.kind, Kind::Error);
        let message = String::from_utf8(frame.payload).unwrap();
        assert!(message.starts_with("unknown op `frobnicate`"), "{message}");
    });
}
