//! A session's apps on a runner host (its dev servers), detached from any
//! channel as turns are: `StartApp` writes the launch into the app's folder
//! (`<runner folder>/apps/<session>/<name>`) and starts a keeper
//! (`switchboard runner --keep-app DIR`) in a session of its own, which
//! runs `sh -c <command>` in the sandbox the session's turns get, appends
//! its output to `output`, and writes `pid`, then `status` when it ends.
//! `StopApp`, `AppState` and `EndSession` read and signal what it left.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::keeper::{
    READ_CHUNK, detach, home, make_own_home, prepare, read_number, runner_dir, signal_group,
    write_keeper_dir,
};
use crate::wire::{AppStart, AppStarted, AppState, PORT_TAKEN};

/// How long a stopped app has between SIGTERM and SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(3);
/// How much output `AppState` shows.
const TAIL_LINES: usize = 200;
/// A line longer than this is cut: a minified bundle printed whole.
const LINE_LIMIT: usize = 4096;
/// When `output` passes this it becomes `output.1` (the one before goes),
/// so a chatty dev server cannot fill the runner's disk.
const OUTPUT_LIMIT: u64 = 4 << 20;
/// How long the keeper lets output trail the app's exit.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// Letters, digits, `-`, `_` and `.` but first: a name that stays one
/// folder (an app's full name, `web.fix-login`, has dots).
fn folder_name(what: &str, name: &str) -> Result<(), String> {
    if name.is_empty()
        || name.len() > 128
        || name.starts_with('.')
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    {
        return Err(format!(
            "{what} `{name}` is not 1 to 128 letters, digits, `-`, `_` and `.` (not first)"
        ));
    }
    Ok(())
}

fn session_apps(home: &Path, session_id: &str) -> Result<PathBuf, String> {
    folder_name("a session id", session_id)?;
    Ok(runner_dir(home).join("apps").join(session_id))
}

fn app_dir(home: &Path, session_id: &str, name: &str) -> Result<PathBuf, String> {
    folder_name("an app name", name)?;
    Ok(session_apps(home, session_id)?.join(name))
}

/// Where an app runs: `cwd` as the server gave it, `~` being `home`.
fn folder(cwd: &str, home: &Path) -> PathBuf {
    match cwd {
        "" | "~" => home.to_owned(),
        _ => match cwd.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None => PathBuf::from(cwd),
        },
    }
}

/// Whether the app in `dir` still runs: its keeper has not written how it
/// ended, and its process is there.
fn running(dir: &Path, pid: u32) -> bool {
    !dir.join("status").exists() && alive(pid)
}

fn alive(pid: u32) -> bool {
    // SAFETY: kill with signal 0 only checks that the process exists.
    libc::pid_t::try_from(pid).is_ok_and(|pid| pid > 1 && unsafe { libc::kill(pid, 0) } == 0)
}

/// Starts an app and says its pid; a name of the session that still runs
/// here is refused. The folder of an earlier run (its output, its status)
/// goes.
pub(crate) fn start_app(launch: &AppStart) -> Result<AppStarted, String> {
    let home = home();
    let dir = app_dir(&home, &launch.session_id, &launch.name)?;
    if let Some(pid) = read_number(&dir.join("pid"))
        && running(&dir, pid)
    {
        return Err(format!(
            "the app `{}` of this session already runs on the runner host (pid {pid})",
            launch.name
        ));
    }
    // The server cannot try the host's ports: a dev server found its port
    // taken would only crash, so the server is told to hand out another.
    if let Some(port) = launch.env.get("PORT").and_then(|p| p.parse::<u16>().ok())
        && let Err(e) = std::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, port))
    {
        return Err(format!("{PORT_TAKEN}: {port} ({e})"));
    }
    // Fail here, with the reason, rather than in a keeper nobody listens to.
    prepare(&launch.session_id, &launch.confine, &home)?;
    // A folder in a session's own home is made with that home, by the keeper.
    let in_home = launch.cwd.is_empty() || launch.cwd.starts_with('~');
    if !in_home && !Path::new(&launch.cwd).is_dir() {
        return Err(format!(
            "the folder {} does not exist on the runner host",
            launch.cwd
        ));
    }
    let write = || -> io::Result<()> {
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        write_keeper_dir(&home, &dir, ("launch.json", launch), "output")
    };
    write().map_err(|e| format!("the runner host could not write the app's folder: {e}"))?;
    let pid = detach("--keep-app", &dir, "pid", "the app")?;
    Ok(AppStarted { pid })
}

/// `switchboard runner --keep-app DIR`: runs one app and keeps its output
/// and how it ended; detached from any channel.
pub fn keep_app(dir: &Path) -> io::Result<()> {
    let fail = |message: String| -> io::Result<()> {
        std::fs::write(dir.join("failed"), &message)?;
        Err(io::Error::other(message))
    };
    let launch: AppStart = serde_json::from_slice(&std::fs::read(dir.join("launch.json"))?)?;
    // The launch holds the app's environment; nothing needs it once read.
    std::fs::remove_file(dir.join("launch.json"))?;
    let home = home();
    let session_home = if launch.own_home {
        match make_own_home(&home, &launch.session_id) {
            Ok(path) => Some(path),
            Err(message) => return fail(message),
        }
    } else {
        None
    };
    let prepared = match prepare(&launch.session_id, &launch.confine, &home) {
        Ok(prepared) => prepared,
        Err(message) => return fail(message),
    };
    let cwd = folder(&launch.cwd, session_home.as_deref().unwrap_or(&home));
    // One pipe for both streams keeps their lines in the order they came.
    let (from_app, to_keeper) = io::pipe()?;
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(&launch.command)
        .current_dir(&cwd)
        .envs(&launch.env)
        .env("APP_SESSION_ID", &launch.session_id)
        .envs(session_home.iter().map(|path| ("HOME", path)))
        .stdin(Stdio::null())
        .stdout(to_keeper.try_clone()?)
        .stderr(to_keeper)
        .process_group(0);
    if let Some(prepared) = prepared {
        let hook = prepared.into_pre_exec(&cwd);
        // SAFETY: the hook only makes system calls on what was built before
        // the fork (see `sandbox::Prepared::into_pre_exec`).
        unsafe { command.pre_exec(hook) };
    }
    let spawned = command.spawn();
    // The pipe's writing ends live in the app alone, so its end is the
    // pipe's end.
    drop(command);
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => return fail(format!("the app could not be started (sh): {e}")),
    };
    let pid = child.id();
    std::fs::write(dir.join("pid"), pid.to_string())?;
    let reader = std::thread::spawn({
        let dir = dir.to_owned();
        move || keep_output(from_app, &dir)
    });
    let status = child.wait()?;
    // What the app left in its group goes with it: stopping an app frees
    // its port.
    signal_group(pid, libc::SIGKILL);
    let code = status.code().unwrap_or_else(|| {
        128 + std::os::unix::process::ExitStatusExt::signal(&status).unwrap_or(0)
    });
    // The output first: whoever reads `status` then has every line the
    // app wrote (an escaped grandchild holding the pipe gets the grace).
    let deadline = Instant::now() + DRAIN_GRACE;
    while !reader.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::write(dir.join("status"), code.to_string())?;
    Ok(())
}

/// Appends the app's output to `output`, turning it into `output.1` when it
/// grows past [`OUTPUT_LIMIT`].
fn keep_output(mut source: io::PipeReader, dir: &Path) {
    let path = dir.join("output");
    let open = || {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
    };
    let Ok(mut file) = open() else { return };
    let mut written = file.metadata().map_or(0, |m| m.len());
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        let n = match source.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if written > OUTPUT_LIMIT {
            let _ = std::fs::rename(&path, dir.join("output.1"));
            let Ok(fresh) = open() else { return };
            file = fresh;
            written = 0;
        }
        if file.write_all(&buf[..n]).is_err() {
            return;
        }
        written += n as u64;
    }
}

/// Whether an app runs, how it ended, and its last lines.
pub(crate) fn app_state(session_id: &str, name: &str) -> Result<AppState, String> {
    let dir = app_dir(&home(), session_id, name)?;
    let pid = read_number(&dir.join("pid")).ok_or_else(|| {
        format!("no app `{name}` of session `{session_id}` was started on the runner host")
    })?;
    let exit_status = std::fs::read_to_string(dir.join("status"))
        .ok()
        .and_then(|s| s.trim().parse().ok());
    Ok(AppState {
        pid,
        running: exit_status.is_none() && alive(pid),
        exit_status,
        lines: last_lines(&dir),
    })
}

/// Stops an app (SIGTERM to its group, SIGKILL to what is left after
/// [`STOP_GRACE`]) and says how it ended.
pub(crate) fn stop_app(session_id: &str, name: &str) -> Result<AppState, String> {
    let dir = app_dir(&home(), session_id, name)?;
    let state = app_state(session_id, name)?;
    if state.running {
        stop_groups(&[state.pid]);
        wait_for_status(&[dir]);
    }
    app_state(session_id, name)
}

/// Stops every app of a session and removes their folders; says how many
/// still ran.
pub(crate) fn end_session_apps(session_id: &str) -> Result<usize, String> {
    let folder = session_apps(&home(), session_id)?;
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return Ok(0);
    };
    let mut pids = Vec::new();
    let mut dirs = Vec::new();
    for entry in entries.flatten() {
        let dir = entry.path();
        if let Some(pid) = read_number(&dir.join("pid"))
            && running(&dir, pid)
        {
            pids.push(pid);
            dirs.push(dir);
        }
    }
    stop_groups(&pids);
    wait_for_status(&dirs);
    std::fs::remove_dir_all(&folder)
        .map_err(|e| format!("{} could not be removed: {e}", folder.display()))?;
    Ok(pids.len())
}

/// SIGTERM to each group, then SIGKILL to the groups still there after
/// [`STOP_GRACE`].
fn stop_groups(pgids: &[u32]) {
    for &pgid in pgids {
        signal_group(pgid, libc::SIGTERM);
    }
    let deadline = Instant::now() + STOP_GRACE;
    // Signal 0 reaches a group while any of its processes is left.
    while pgids.iter().any(|&pgid| signal_group(pgid, 0)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for &pgid in pgids {
        signal_group(pgid, libc::SIGKILL);
    }
}

/// Gives the keepers a moment to write how their apps ended.
fn wait_for_status(dirs: &[PathBuf]) {
    let deadline = Instant::now() + Duration::from_secs(2);
    while dirs.iter().any(|dir| !dir.join("status").exists()) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The last [`TAIL_LINES`] lines of the app's output, reaching into
/// `output.1` when `output` holds fewer.
fn last_lines(dir: &Path) -> Vec<String> {
    let mut lines = tail(&dir.join("output"));
    if lines.len() < TAIL_LINES {
        let mut earlier = tail(&dir.join("output.1"));
        earlier.append(&mut lines);
        lines = earlier;
    }
    let from = lines.len().saturating_sub(TAIL_LINES);
    lines.split_off(from)
}

/// The last lines of one file, read from its end.
fn tail(path: &Path) -> Vec<String> {
    let Ok(mut file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let span = ((TAIL_LINES * LINE_LIMIT) as u64).min(len);
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(len - span)).is_err() || file.read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<String> = text
        .lines()
        .map(|line| match line.char_indices().nth(LINE_LIMIT) {
            Some((cut, _)) => line[..cut].to_owned(),
            None => line.to_owned(),
        })
        .collect();
    // A read that began mid-file began mid-line.
    if span < len && !lines.is_empty() {
        lines.remove(0);
    }
    let from = lines.len().saturating_sub(TAIL_LINES);
    lines.split_off(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_leave_the_apps_folder() {
        let home = Path::new("/home/r");
        assert!(app_dir(home, "s1", "../x").is_err());
        assert!(app_dir(home, "..", "web").is_err());
        assert!(app_dir(home, "s1", "").is_err());
        assert!(app_dir(home, "s1", "..").is_err());
        assert!(app_dir(home, "s1", "a/b").is_err());
        assert!(app_dir(home, "s1", "web.fix-login").is_ok());
        assert_eq!(
            app_dir(home, "s1", "web-2").unwrap(),
            Path::new("/home/r/.local/share/switchboard-runner/apps/s1/web-2")
        );
    }

    #[test]
    fn a_folder_in_home_is_under_the_home_the_app_gets() {
        let home = Path::new("/home/r");
        assert_eq!(folder("~", home), home);
        assert_eq!(folder("", home), home);
        assert_eq!(folder("~/web", home), Path::new("/home/r/web"));
        assert_eq!(folder("/srv/site", home), Path::new("/srv/site"));
    }

    #[test]
    fn the_tail_keeps_the_last_lines_across_a_turned_over_output_and_cuts_long_ones() {
        let dir = tempfile::tempdir().unwrap();
        let earlier: String = (0..150).map(|i| format!("old {i}\n")).collect();
        std::fs::write(dir.path().join("output.1"), earlier).unwrap();
        let mut now: String = (0..100).map(|i| format!("new {i}\n")).collect();
        now.push_str(&"x".repeat(LINE_LIMIT + 10));
        std::fs::write(dir.path().join("output"), now).unwrap();
        let lines = last_lines(dir.path());
        assert_eq!(lines.len(), TAIL_LINES);
        assert_eq!(lines[0], "old 51");
        assert_eq!(lines[99], "new 0");
        assert_eq!(lines[198], "new 99");
        assert_eq!(lines[199].len(), LINE_LIMIT);
    }
}
