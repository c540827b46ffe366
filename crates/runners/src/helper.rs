//! The runner host's side: `switchboard runner --stdio`, started by the
//! server over SSH, one process per channel.
//!
//! A turn outlives its channel. `Run` writes the turn's header into a
//! spool folder and starts a keeper (`switchboard runner --keep DIR`) in a
//! session of its own; the keeper starts the engine in the sandbox this
//! kernel allows and appends each piece of its output to the spool as a
//! frame. The channel's process only relays the spool from an offset and
//! passes signals on, so a dropped connection (a laptop that slept, sshd
//! restarted) leaves the engine running and its output kept, and the
//! server's `Attach` picks it up where it stopped reading. A session's apps
//! are kept the same way (`app_keeper`), and `Connect` turns the channel
//! into a relay to a port on this host's loopback (`forward`).

use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

use crate::app_keeper::{app_state, end_session_apps, start_app, stop_app};
use crate::forward::{ClosingStdout, forward};
use crate::keeper::{
    READ_CHUNK, home, read_pgid, remove_own_home, runner_dir, signal_group, start_keeper,
};
use crate::wire::{self, Frame, Kind, ProbeEngine, ProbeReply, Request, Started, TurnHeader};

pub use crate::app_keeper::keep_app;
pub use crate::keeper::{RUNNER_DIR, keep};

fn turn_dir(key: &str) -> io::Result<PathBuf> {
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a turn key is letters, digits, `-` and `_`",
        ));
    }
    Ok(runner_dir(&home()).join("turns").join(key))
}

/// Serves one request on stdin and stdout.
pub async fn serve_stdio(version: &str) -> io::Result<()> {
    serve(version, tokio::io::stdin(), ClosingStdout::new()).await
}

/// Serves one channel's request: an SSH channel's stdin and stdout, or one
/// stream of a pool runner's connection.
pub async fn serve(
    version: &str,
    mut input: impl AsyncRead + Unpin + Send + 'static,
    mut output: impl AsyncWrite + Unpin,
) -> io::Result<()> {
    let Some(frame) = wire::read_frame(&mut input).await? else {
        return Ok(());
    };
    if frame.kind != Kind::Request {
        return refuse(&mut output, "the first frame must be a request").await;
    }
    let request: Request = match frame.parse() {
        Ok(request) => request,
        Err(e) => return refuse(&mut output, &unreadable(&frame.payload, &e)).await,
    };
    match request {
        Request::Probe { engines } => {
            let reply = tokio::task::spawn_blocking({
                let version = version.to_owned();
                move || probe(&version, &engines)
            })
            .await
            .map_err(io::Error::other)?;
            wire::write_frame(&mut output, &Frame::json(Kind::Reply, &reply)?).await
        }
        Request::Run(header) => {
            let dir = match turn_dir(&header.key) {
                Ok(dir) => dir,
                Err(e) => return refuse(&mut output, &e.to_string()).await,
            };
            let started = tokio::task::spawn_blocking(move || start_keeper(&dir, &header))
                .await
                .map_err(io::Error::other)?;
            match started {
                Ok((dir, started)) => relay(&dir, started, 0, input, output).await,
                Err(message) => refuse(&mut output, &message).await,
            }
        }
        Request::Attach { key, offset } => {
            let dir = match turn_dir(&key) {
                Ok(dir) => dir,
                Err(e) => return refuse(&mut output, &e.to_string()).await,
            };
            match read_pgid(&dir) {
                Some(pgid) => relay(&dir, Started { key, pgid }, offset, input, output).await,
                None => {
                    refuse(
                        &mut output,
                        &format!("no turn `{key}` on this host (its spool is gone)"),
                    )
                    .await
                }
            }
        }
        Request::AddWorktree { session_id, cwd } => {
            let made = tokio::task::spawn_blocking(move || add_worktree(&session_id, &cwd))
                .await
                .map_err(io::Error::other)?;
            match made {
                Ok(made) => wire::write_frame(&mut output, &Frame::json(Kind::Reply, &made)?).await,
                Err(message) => refuse(&mut output, &message).await,
            }
        }
        Request::RemoveWorktree { repository, path } => {
            let removed = tokio::task::spawn_blocking(move || {
                worktrees::remove_if_clean(Path::new(&repository), Path::new(&path))
            })
            .await
            .map_err(io::Error::other)?;
            match removed {
                Ok(worktrees::Removal::Removed) => {
                    let removal = wire::Removal {
                        removed: true,
                        kept: 0,
                    };
                    wire::write_frame(&mut output, &Frame::json(Kind::Reply, &removal)?).await
                }
                Ok(worktrees::Removal::Kept { changes }) => {
                    let removal = wire::Removal {
                        removed: false,
                        kept: changes,
                    };
                    wire::write_frame(&mut output, &Frame::json(Kind::Reply, &removal)?).await
                }
                Err(e) => refuse(&mut output, &e.to_string()).await,
            }
        }
        Request::EndSession { session_id } => {
            let removed = tokio::task::spawn_blocking(move || {
                end_session_apps(&session_id)?;
                remove_own_home(&session_id)
            })
            .await
            .map_err(io::Error::other)?;
            match removed {
                Ok(removed) => {
                    wire::write_frame(&mut output, &Frame::json(Kind::Reply, &removed)?).await
                }
                Err(message) => refuse(&mut output, &message).await,
            }
        }
        Request::KillLeftovers { sessions } => {
            let killed = tokio::task::spawn_blocking(move || kill_sessions(&sessions))
                .await
                .map_err(io::Error::other)?;
            wire::write_frame(&mut output, &Frame::json(Kind::Reply, &killed)?).await
        }
        Request::Connect { port } => forward(port, input, output).await,
        Request::Skills(ask) => answer(&mut output, crate::skills_here::list(*ask).await).await,
        Request::WorkFacts(piece) => {
            let facts = tokio::task::spawn_blocking(move || work::facts::inspect(&piece))
                .await
                .map_err(io::Error::other)?;
            answer(&mut output, Ok::<_, String>(facts)).await
        }
        Request::WorkDiff(piece) => {
            let diff = tokio::task::spawn_blocking(move || work::reviews::diff(&piece))
                .await
                .map_err(io::Error::other)?
                .map(|(head, diff, cut)| wire::WorkDiff { head, diff, cut })
                .map_err(|e| e.to_string());
            answer(&mut output, diff).await
        }
        Request::Listeners { session_ids } => {
            let found = tokio::task::spawn_blocking(move || listeners(session_ids))
                .await
                .map_err(io::Error::other)?;
            wire::write_frame(&mut output, &Frame::json(Kind::Reply, &found)?).await
        }
        Request::StartApp(launch) => {
            let started = tokio::task::spawn_blocking(move || start_app(&launch))
                .await
                .map_err(io::Error::other)?;
            answer(&mut output, started).await
        }
        Request::StopApp { session_id, name } => {
            let state = tokio::task::spawn_blocking(move || stop_app(&session_id, &name))
                .await
                .map_err(io::Error::other)?;
            answer(&mut output, state).await
        }
        Request::AppState { session_id, name } => {
            let state = tokio::task::spawn_blocking(move || app_state(&session_id, &name))
                .await
                .map_err(io::Error::other)?;
            answer(&mut output, state).await
        }
    }
}

/// The reply, or the refusal with its reason.
async fn answer(
    output: &mut (impl AsyncWrite + Unpin),
    result: Result<impl serde::Serialize, String>,
) -> io::Result<()> {
    match result {
        Ok(reply) => wire::write_frame(output, &Frame::json(Kind::Reply, &reply)?).await,
        Err(message) => refuse(output, &message).await,
    }
}

/// Why a request cannot be read; an operation this build does not know is
/// said in words the server recognises ([`wire::UNKNOWN_OP`]).
fn unreadable(payload: &[u8], error: &io::Error) -> String {
    let op = serde_json::from_slice::<serde_json::Value>(payload)
        .ok()
        .and_then(|v| v.get("op")?.as_str().map(str::to_owned));
    match op {
        Some(op) if error.to_string().contains("unknown variant") => {
            format!(
                "{} `{op}`: this helper is older than the server",
                wire::UNKNOWN_OP
            )
        }
        _ => format!("unreadable request: {error}"),
    }
}

/// The ports these sessions' processes listen on here.
fn listeners(session_ids: Vec<String>) -> Vec<wire::Listening> {
    let wanted: std::collections::HashSet<String> = session_ids.into_iter().collect();
    apps::listeners::scan(&wanted)
        .into_iter()
        .map(|l| wire::Listening {
            session_id: l.session_id,
            pid: l.pid,
            port: l.port,
            command: l.command,
        })
        .collect()
}

async fn refuse(output: &mut (impl AsyncWrite + Unpin), message: &str) -> io::Result<()> {
    wire::write_frame(
        output,
        &Frame::new(Kind::Error, message.as_bytes().to_vec()),
    )
    .await
}

/// This host's facts, as a probe reports them (blocking: it runs each
/// engine's `--version`).
pub fn probe(version: &str, engines: &[ProbeEngine]) -> ProbeReply {
    let memory = memory();
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next()?.parse().ok());
    ProbeReply {
        protocol: wire::PROTOCOL,
        version: version.to_owned(),
        os: std::env::consts::OS.to_owned(),
        arch: std::env::consts::ARCH.to_owned(),
        home: home().display().to_string(),
        load,
        total_mb: memory.map(|m| m.total_mb),
        available_mb: memory.map(|m| m.available_mb),
        sandbox: match sandbox::support().mode {
            sandbox::Mode::Unavailable if crate::keeper::pod_isolation() => "pod".to_owned(),
            mode => mode.as_str().to_owned(),
        },
        engines: engines
            .iter()
            .map(|engine| crate::EngineVersion {
                name: engine.name.clone(),
                version: engine_version(&engine.program),
            })
            .collect(),
    }
}

/// This host's memory, from `/proc/meminfo`.
pub fn memory() -> Option<crate::Memory> {
    let path = MEMINFO
        .get()
        .map_or(Path::new("/proc/meminfo"), PathBuf::as_path);
    memory_of(&std::fs::read_to_string(path).ok()?)
}

static MEMINFO: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Reads memory from `path` in place of `/proc/meminfo`, so tests can give
/// each runner on one machine memory of its own.
pub fn read_memory_from(path: PathBuf) {
    let _ = MEMINFO.set(path);
}

/// Total and available memory in a `/proc/meminfo` text.
pub fn memory_of(meminfo: &str) -> Option<crate::Memory> {
    let field = |name: &str| {
        meminfo.lines().find_map(|line| {
            let rest = line.strip_prefix(name)?.strip_prefix(':')?;
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
    };
    Some(crate::Memory {
        total_mb: field("MemTotal")? / 1024,
        available_mb: field("MemAvailable")? / 1024,
    })
}

/// `<program> --version`'s first line, within a few seconds.
fn engine_version(program: &str) -> Option<String> {
    let mut child = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut out = String::new();
    child.stdout.take()?.read_to_string(&mut out).ok()?;
    out.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_owned)
}

/// A session's worktree on this host, under the runner folder (where the
/// sandbox lets only that session in).
fn add_worktree(session_id: &str, cwd: &str) -> Result<wire::MadeWorktree, String> {
    if session_id.is_empty() || !session_id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err("a session id is letters and digits".to_owned());
    }
    let home = home();
    let folder = if cwd == "~" {
        home.clone()
    } else {
        PathBuf::from(cwd)
    };
    let path = runner_dir(&home).join("worktrees").join(session_id);
    let checkout = worktrees::find_repository(&folder).map_err(|e| e.to_string())?;
    let made = worktrees::add(&checkout, &path, &worktrees::branch_for(session_id))
        .map_err(|e| e.to_string())?;
    let text = |p: &Path| p.to_string_lossy().into_owned();
    Ok(wire::MadeWorktree {
        path: text(&made.path),
        branch: made.branch,
        base: made.base,
        repository: text(&made.repository),
        cwd: text(&made.cwd),
    })
}

/// Streams the spool from `offset` until the turn's exit has gone out and
/// the server released it; passes the server's signals to the engine's
/// group. The channel closing ends only this relay, never the turn.
async fn relay(
    dir: &Path,
    started: Started,
    offset: u64,
    mut input: impl AsyncRead + Unpin + Send + 'static,
    mut output: impl AsyncWrite + Unpin,
) -> io::Result<()> {
    wire::write_frame(&mut output, &Frame::json(Kind::Reply, &started)?).await?;
    let pgid = started.pgid;
    let spool_path = dir.join("spool");
    let (release_tx, mut release_rx) = tokio::sync::watch::channel(false);
    let control = tokio::spawn(async move {
        loop {
            match wire::read_frame(&mut input).await {
                Ok(Some(frame)) if frame.kind == Kind::Signal => {
                    if let Some(&signal) = frame.payload.first() {
                        signal_group(pgid, libc::c_int::from(signal));
                    }
                }
                Ok(Some(frame)) if frame.kind == Kind::Release => {
                    let _ = release_tx.send(true);
                    return true;
                }
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => return false,
            }
        }
    });
    let mut file = std::fs::File::open(&spool_path)?;
    file.seek(SeekFrom::Start(offset))?;
    let mut pending: Vec<u8> = Vec::new();
    let mut exited = false;
    let mut idle = Duration::from_millis(1);
    while !exited {
        let mut chunk = vec![0u8; READ_CHUNK];
        let n = file.read(&mut chunk)?;
        if n == 0 {
            if control.is_finished() {
                // The server hung up: the turn goes on, spooled.
                return Ok(());
            }
            // A short sleep while output flows, longer when quiet: a line
            // after a pause waits at most 10 ms here.
            tokio::time::sleep(idle).await;
            idle = (idle * 2).min(Duration::from_millis(10));
            continue;
        }
        idle = Duration::from_millis(1);
        pending.extend_from_slice(&chunk[..n]);
        // Only whole frames go out, so the server's offset always falls on
        // a frame's start.
        let mut cut = 0;
        while pending.len() >= cut + 5 {
            let len = u32::from_be_bytes([
                pending[cut],
                pending[cut + 1],
                pending[cut + 2],
                pending[cut + 3],
            ]) as usize;
            if pending.len() < cut + 4 + len {
                break;
            }
            if pending[cut + 4] == Kind::Exit as u8 {
                exited = true;
            }
            cut += 4 + len;
        }
        if cut > 0 {
            output.write_all(&pending[..cut]).await?;
            output.flush().await?;
            pending.drain(..cut);
        }
    }
    // The exit went out; the spool stays until the server says it stored it.
    if release_rx.wait_for(|released| *released).await.is_ok() {
        let _ = std::fs::remove_dir_all(dir);
    }
    Ok(())
}

/// Kills the turns of these sessions still running here, and any process
/// whose environment names one of them (an engine's command that left its
/// group). Returns how many processes were signalled.
fn kill_sessions(sessions: &[String]) -> usize {
    let turns = runner_dir(&home()).join("turns");
    let mut killed = 0;
    if let Ok(entries) = std::fs::read_dir(&turns) {
        for entry in entries.flatten() {
            let dir = entry.path();
            let Ok(bytes) = std::fs::read(dir.join("header.json")) else {
                continue;
            };
            let Ok(header) = serde_json::from_slice::<TurnHeader>(&bytes) else {
                continue;
            };
            if sessions.contains(&header.session_id)
                && let Some(pgid) = read_pgid(&dir)
                && signal_group(pgid, libc::SIGKILL)
            {
                killed += 1;
            }
        }
    }
    let wanted: std::collections::HashSet<Vec<u8>> = sessions
        .iter()
        .map(|id| format!("APP_SESSION_ID={id}").into_bytes())
        .collect();
    killed + kill_environ_matching(&wanted).len()
}

/// SIGKILLs every process (but this one) whose environment holds one of
/// the `wanted` variables (`APP_SESSION_ID=<id>`), and says which: an
/// engine's commands that left its group are still found by it.
pub fn kill_environ_matching(wanted: &std::collections::HashSet<Vec<u8>>) -> Vec<u32> {
    let ours = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut killed = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == ours {
            continue;
        }
        let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        if environ.split(|b| *b == 0).any(|var| wanted.contains(var))
            && let Ok(raw) = libc::pid_t::try_from(pid)
        {
            // SAFETY: kill only reads its two integer arguments.
            if unsafe { libc::kill(raw, libc::SIGKILL) } == 0 {
                killed.push(pid);
            }
        }
    }
    killed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_keys_cannot_leave_the_spool_folder() {
        assert!(turn_dir("../../etc").is_err());
        assert!(turn_dir("").is_err());
        assert!(turn_dir("0192-abc_3").is_ok());
    }
}
