//! Listeners found in `/proc`: a real `python3 -m http.server` started with
//! a session's variable is found with its port and pid; one started
//! without it never is.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use apps::listeners::{SESSION_VARIABLE, scan};

/// `http.server` with the session's variable set to `session`, or unset.
fn serve(session: Option<&str>) -> test_servers::Server {
    test_servers::serve_directory_with(Path::new("."), |command| {
        match session {
            Some(id) => command.env(SESSION_VARIABLE, id),
            None => command.env_remove(SESSION_VARIABLE),
        };
    })
}

#[test]
fn a_sessions_server_is_found_and_a_stranger_never_is() {
    let ours = serve(Some("s1"));
    let stranger = serve(None);
    let other_session = serve(Some("s-not-asked"));
    let ids: HashSet<String> = ["s1".to_owned(), "s2".to_owned()].into();

    let processes = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .count();
    // The application scans every 2 s: the time is logged, the best of a
    // few scans (the first warms the kernel's caches).
    let mut best = std::time::Duration::MAX;
    let mut found = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        found = scan(&ids);
        best = best.min(started.elapsed());
    }
    eprintln!("one scan of {processes} processes took {best:?}");

    let listener = found
        .iter()
        .find(|l| l.port == ours.port)
        .unwrap_or_else(|| panic!("{} not in {found:?}", ours.port));
    assert_eq!(listener.session_id, "s1");
    assert_eq!(listener.pid, ours.pid());
    assert!(
        listener.command.contains("python3 -u -m http.server 0"),
        "{}",
        listener.command
    );
    for l in &found {
        assert!(ids.contains(&l.session_id), "{l:?}");
        assert_ne!(l.port, stranger.port, "a process outside sessions: {l:?}");
        assert_ne!(l.port, other_session.port, "a session not asked for: {l:?}");
    }
    assert!(scan(&HashSet::new()).is_empty());
}

#[test]
fn a_server_a_sessions_shell_starts_is_found_under_its_own_pid() {
    // A shell that starts the server: both hold the variable, only the
    // server listens, and only the server is named.
    let mut shell = Command::new("sh")
        .args([
            "-c",
            "python3 -u -m http.server 0 --bind 127.0.0.1 & echo $!; wait",
        ])
        .env(SESSION_VARIABLE, "s-tree")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(shell.stdout.take().unwrap());
    let mut pid_line = String::new();
    reader.read_line(&mut pid_line).unwrap();
    let server_pid: u32 = pid_line.trim().parse().unwrap();
    let mut serving = String::new();
    reader.read_line(&mut serving).unwrap();

    let ids: HashSet<String> = ["s-tree".to_owned()].into();
    let found = scan(&ids);
    let _ = Command::new("kill").arg(server_pid.to_string()).status();
    let _ = shell.wait();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].pid, server_pid);
    assert!(
        serving.contains(&format!("port {}", found[0].port)),
        "{serving}"
    );
}
