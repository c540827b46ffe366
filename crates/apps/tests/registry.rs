//! The registry with real processes: a `python3 -m http.server` started on
//! a port from the range, reached over TCP, stopped with its whole group;
//! a command that exits at once goes `Failing` after five quick exits with
//! the clock moved by hand; output, restart, detected apps and sweeping.

use std::net::{Ipv4Addr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use apps::{AppsError, DetectedApp, Origin, PortRange, Ports, Registry, StartSpec, State};
use clock::ManualClock;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

fn manual() -> Arc<ManualClock> {
    Arc::new(ManualClock::starting_now())
}

fn spec(name: &str, session: &str, port: u16, program: &str, args: &[&str]) -> StartSpec {
    let program = program.to_owned();
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    StartSpec {
        name: name.to_owned(),
        session_id: session.to_owned(),
        runner: "local".to_owned(),
        command: format!("{program} {}", args.join(" ")),
        port,
        launch: Box::new(move || {
            let mut command = Command::new(&program);
            command.args(&args);
            Ok(command)
        }),
    }
}

fn sh(name: &str, session: &str, script: &str) -> StartSpec {
    spec(name, session, 0, "sh", &["-c", script])
}

/// Waits (real time, at most 10 s) until `done` holds.
async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "timed out waiting until {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn group_alive(pgid: u32) -> bool {
    // SAFETY: killpg with signal 0 only checks that the group exists.
    unsafe { libc::killpg(pgid as libc::pid_t, 0) == 0 }
}

async fn get(port: u16) -> std::io::Result<String> {
    let mut stream = tokio::net::TcpStream::connect((Ipv4Addr::LOCALHOST, port)).await?;
    stream
        .write_all(b"GET / HTTP/1.0\r\nHost: localhost\r\n\r\n")
        .await?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply).await?;
    Ok(reply)
}

fn port_range() -> PortRange {
    for start in (41_000..50_000).step_by(37) {
        if (start..start + 10).all(|p| TcpListener::bind((Ipv4Addr::LOCALHOST, p)).is_ok()) {
            return PortRange {
                start,
                end: start + 9,
            };
        }
    }
    panic!("no free ports");
}

#[tokio::test]
async fn a_started_server_is_reached_then_stopped_with_its_whole_group() {
    let ports = Ports::new(port_range());
    let port = ports.take("s1/web", true).unwrap();
    let registry = Registry::new(manual());
    let mut changes = registry.subscribe();
    // The shell leaves a sleeping child in the group: stop must reach it.
    let script = format!("sleep 300 & exec python3 -u -m http.server {port} --bind 127.0.0.1");
    let mut web = sh("web.fix-login", "s1", &script);
    web.port = port;
    let app = registry.start(web).await.unwrap();
    assert_eq!(
        (app.state, app.origin, app.port),
        (State::Running, Origin::Started, port)
    );
    let pid = app.pid.unwrap();
    assert!(changes.try_recv().is_ok(), "a start ticks");

    let started = Instant::now();
    let reply = loop {
        match get(port).await {
            Ok(reply) => break reply,
            Err(_) if started.elapsed() < Duration::from_secs(10) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(error) => panic!("never served: {error}"),
        }
    };
    assert!(reply.starts_with("HTTP/1.0 200"), "{reply}");
    let route = registry.route("web.fix-login").unwrap();
    assert_eq!(
        (route.port, route.session_id.as_str(), route.runner.as_str()),
        (port, "s1", "local")
    );
    assert!(registry.route("web").is_none());
    until("the server's banner is kept", || {
        registry
            .output("web.fix-login")
            .unwrap()
            .iter()
            .any(|l| l.starts_with("Serving HTTP on 127.0.0.1"))
    })
    .await;
    assert!(matches!(
        registry.start(sh("web.fix-login", "s2", "true")).await,
        Err(AppsError::NameTaken(name)) if name == "web.fix-login"
    ));

    let stopped = registry.stop("web.fix-login").await.unwrap();
    assert_eq!(stopped.state, State::Exited);
    assert_eq!(stopped.exit_status, Some(128 + libc::SIGTERM));
    assert_eq!(stopped.pid, None);
    assert!(!group_alive(pid), "the sleeping child was left behind");
    assert!(registry.route("web.fix-login").is_none());
    TcpListener::bind((Ipv4Addr::LOCALHOST, port)).expect("the port is free again");
    assert!(matches!(
        registry.stop("nothing").await,
        Err(AppsError::NotFound(_))
    ));
}

#[tokio::test]
async fn a_command_that_exits_at_once_is_restarted_with_backoff_then_failing() {
    let clock = manual();
    let registry = Registry::new(clock.clone());
    let failed = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&failed);
    registry.on_failing(Box::new(move |app| {
        assert_eq!(app.state, State::Failing);
        counted.fetch_add(1, Ordering::SeqCst);
    }));
    registry
        .start(sh("boom", "s1", "echo boom; exit 3"))
        .await
        .unwrap();
    let booms = || {
        registry
            .output("boom")
            .unwrap()
            .iter()
            .filter(|l| *l == "boom")
            .count()
    };
    for (exit, backoff) in [1, 2, 4, 8].into_iter().enumerate() {
        until("the supervisor waits out the backoff", || {
            clock.sleepers() == 1
        })
        .await;
        let app = registry.get("boom").unwrap();
        assert_eq!(
            (app.state, app.exit_status, app.pid),
            (State::Exited, Some(3), None)
        );
        assert!(registry.route("boom").is_none());
        until("the output is read", || booms() == exit + 1).await;
        // Not started again before its backoff is over.
        clock.advance(time::Duration::seconds(backoff) - time::Duration::milliseconds(1));
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(booms(), exit + 1, "restarted before {backoff} s");
        assert_eq!(clock.sleepers(), 1);
        clock.advance(time::Duration::milliseconds(1));
        until("the next run prints", || booms() == exit + 2).await;
    }
    until("failing", || {
        registry.get("boom").unwrap().state == State::Failing
    })
    .await;
    let app = registry.get("boom").unwrap();
    assert_eq!(app.exit_status, Some(3));
    assert_eq!(booms(), apps::CRASH_LOOP_STARTS as usize);
    assert_eq!(failed.load(Ordering::SeqCst), 1);
    assert_eq!(clock.sleepers(), 0, "no further restart is pending");

    // A restart starts the count again.
    let again = registry.restart("boom").await.unwrap();
    assert_eq!(again.state, State::Running);
    until("the supervisor waits again", || clock.sleepers() == 1).await;
    assert_eq!(registry.get("boom").unwrap().state, State::Exited);
    let stopped = registry.stop("boom").await.unwrap();
    assert_eq!(stopped.state, State::Exited);
    assert_eq!(clock.sleepers(), 0, "a stop ends the backoff");
    assert_eq!(failed.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_app_that_ran_long_enough_is_exited_not_restarted() {
    let clock = manual();
    let registry = Registry::new(clock.clone());
    registry
        .start(sh("job", "s1", "sleep 0.3; exit 4"))
        .await
        .unwrap();
    clock.advance(apps::QUICK_EXIT);
    until("it ends", || {
        registry.get("job").unwrap().state != State::Running
    })
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let app = registry.get("job").unwrap();
    assert_eq!((app.state, app.exit_status), (State::Exited, Some(4)));
    assert_eq!(clock.sleepers(), 0);

    // An ended app's name can be used again, and it is forgotten 10
    // minutes after it ended.
    clock.advance(apps::KEPT_AFTER_END - time::Duration::seconds(1));
    registry.sweep();
    assert!(registry.get("job").is_some());
    clock.advance(time::Duration::seconds(1));
    registry.sweep();
    assert!(registry.get("job").is_none());
}

#[tokio::test]
async fn output_keeps_the_last_200_lines_cut_to_4_kib_and_survives_a_restart() {
    let registry = Registry::new(manual());
    let script = "import os, sys, time\nfor i in range(250): print('line', i)\nprint('x' * 10000)\nsys.stdout.flush()\ntime.sleep(0.2)\nsys.stderr.write(f'to stderr {os.getpid()}\\n')\nsys.stderr.flush()\ntime.sleep(300)\n";
    let first = registry
        .start(spec("talk", "s1", 0, "python3", &["-c", script]))
        .await
        .unwrap();
    let last_of = |pid: Option<u32>| format!("to stderr {}", pid.unwrap());
    until("everything is read", || {
        registry.output("talk").unwrap().last() == Some(&last_of(first.pid))
    })
    .await;
    let lines = registry.output("talk").unwrap();
    assert_eq!(lines.len(), apps::KEPT_LINES);
    // 252 lines printed: the first 52 are gone.
    assert_eq!(lines[0], "line 52");
    assert_eq!(lines[197], "line 249");
    assert_eq!(lines[198], "x".repeat(apps::LINE_MAX));

    let second = registry.restart("talk").await.unwrap();
    assert_eq!(second.state, State::Running);
    assert_ne!(second.pid, first.pid);
    assert!(!group_alive(first.pid.unwrap()));
    assert!(
        !registry.output("talk").unwrap().is_empty(),
        "the lines before a restart are kept"
    );
    until("the new run prints", || {
        registry.output("talk").unwrap().last() == Some(&last_of(second.pid))
    })
    .await;
    registry.stop("talk").await.unwrap();
    assert!(!group_alive(second.pid.unwrap()));
}

#[tokio::test]
async fn a_command_that_cannot_start_is_an_error_and_not_listed() {
    let registry = Registry::new(manual());
    let error = registry
        .start(spec("ghost", "s1", 0, "/nonexistent/dev-server", &[]))
        .await
        .unwrap_err();
    assert!(matches!(error, AppsError::Spawn(_)), "{error:?}");
    assert!(
        error
            .to_string()
            .starts_with("the app could not be started: ")
    );
    assert!(registry.get("ghost").is_none());
}

fn detected(name: &str, session: &str, port: u16) -> DetectedApp {
    DetectedApp {
        name: name.to_owned(),
        session_id: session.to_owned(),
        command: "node server.js".to_owned(),
        port,
        pid: None,
    }
}

#[tokio::test]
async fn detected_apps_come_and_go_and_a_started_port_is_listed_once() {
    let clock = manual();
    let registry = Registry::new(clock.clone());
    let mut changes = registry.subscribe();
    let mut started = sh("api.s1", "s1", "sleep 300");
    started.port = 4555;
    registry.start(started).await.unwrap();
    while changes.try_recv().is_ok() {}

    registry.set_detected(
        "local",
        vec![
            detected("web.s1", "s1", 4100),
            // The started app's own port, and its name: listed once.
            detected("s1-4555", "s1", 4555),
            detected("api.s1", "s1", 4600),
            detected("web.s2", "s2", 4101),
        ],
    );
    let names: Vec<(String, Origin)> = registry
        .list()
        .into_iter()
        .map(|a| (a.name, a.origin))
        .collect();
    assert_eq!(
        names,
        [
            ("api.s1".to_owned(), Origin::Started),
            ("web.s1".to_owned(), Origin::Detected),
            ("web.s2".to_owned(), Origin::Detected),
        ]
    );
    assert_eq!(registry.route("web.s1").unwrap().port, 4100);
    assert!(changes.try_recv().is_ok());
    assert!(matches!(
        registry.restart("web.s1").await,
        Err(AppsError::NotStarted(_))
    ));
    assert_eq!(registry.output("web.s1"), Some(Vec::new()));

    // The same again: nothing changed, no tick.
    registry.set_detected(
        "local",
        vec![
            detected("web.s1", "s1", 4100),
            detected("web.s2", "s2", 4101),
        ],
    );
    assert!(changes.try_recv().is_err());
    // Another runner's report leaves this one's apps alone.
    registry.set_detected("gpu-box", vec![]);
    assert_eq!(registry.get("web.s1").unwrap().state, State::Running);

    registry.set_detected("local", vec![detected("web.s2", "s2", 4101)]);
    let gone = registry.get("web.s1").unwrap();
    assert_eq!((gone.state, gone.exit_status), (State::Exited, None));
    assert!(registry.route("web.s1").is_none());
    assert!(changes.try_recv().is_ok());

    // One app a runner started, listed before the runner's next report;
    // a report from another runner leaves it alone.
    registry.add_detected("gpu-box", detected("remote.s3", "s3", 4700));
    registry.set_detected("local", vec![detected("web.s2", "s2", 4101)]);
    let remote = registry.route("remote.s3").unwrap();
    assert_eq!((remote.runner.as_str(), remote.port), ("gpu-box", 4700));
    let ended = registry.mark_exited("remote.s3", Some(0)).unwrap();
    assert_eq!((ended.state, ended.exit_status), (State::Exited, Some(0)));
    assert!(
        registry.mark_exited("api.s1", None).is_none(),
        "a started app ends only through its process"
    );
    assert_eq!(registry.get("api.s1").unwrap().state, State::Running);

    registry.stop_session("s1").await;
    assert_eq!(registry.get("api.s1").unwrap().state, State::Exited);
    assert!(
        registry.get("web.s1").is_none(),
        "a stopped session's detected apps are forgotten"
    );
    assert_eq!(registry.get("web.s2").unwrap().state, State::Running);

    clock.advance(apps::KEPT_AFTER_END);
    registry.sweep();
    let left: Vec<String> = registry.list().into_iter().map(|a| a.name).collect();
    assert_eq!(left, ["web.s2"], "running apps are never swept");
}

#[tokio::test]
async fn stop_all_ends_every_started_app() {
    let registry = Registry::new(manual());
    let mut pids = Vec::new();
    for name in ["one", "two"] {
        let app = registry
            .start(sh(name, name, "sleep 300 & sleep 300"))
            .await
            .unwrap();
        pids.push(app.pid.unwrap());
    }
    registry.stop_all().await;
    for (name, pid) in ["one", "two"].into_iter().zip(pids) {
        assert_eq!(registry.get(name).unwrap().state, State::Exited);
        assert!(!group_alive(pid), "{name}'s group is still there");
    }
}
