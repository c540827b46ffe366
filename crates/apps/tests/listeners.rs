//! Listeners found in `/proc`: a real `python3 -m http.server` started with
//! a session's variable is found with its port and pid; one started
//! without it never is.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use apps::listeners::{SESSION_VARIABLE, scan};

/// A server process, killed when the test ends however it ends.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(session: Option<&str>) -> Server {
    let mut command = Command::new("python3");
    command
        .args(["-u", "-m", "http.server", "0", "--bind", "127.0.0.1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    match session {
        Some(id) => command.env(SESSION_VARIABLE, id),
        None => command.env_remove(SESSION_VARIABLE),
    };
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // "Serving HTTP on 127.0.0.1 port 38123 (http://127.0.0.1:38123/) ..."
    let port = line
        .split(" port ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    Server { child, port }
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
    assert_eq!(listener.pid, ours.child.id());
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
