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
//! server's `Attach` picks it up where it stopped reading.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;

use crate::wire::{self, Exit, Frame, Kind, ProbeEngine, ProbeReply, Request, Started, TurnHeader};

/// Where the helper keeps its binary and turns, under the remote home.
pub const RUNNER_DIR: &str = ".local/share/switchboard-runner";
const READ_CHUNK: usize = 64 << 10;
/// How long the keeper lets output trail the engine's exit.
const DRAIN_GRACE: Duration = Duration::from_secs(5);
/// A spool whose turn ended this long ago and was never released (the
/// server went away for good) is removed by the next turn's helper.
const STALE_SPOOL: Duration = Duration::from_secs(7 * 24 * 3600);

pub fn runner_dir(home: &Path) -> PathBuf {
    home.join(RUNNER_DIR)
}

fn home() -> PathBuf {
    std::env::var_os("HOME").map_or_else(|| PathBuf::from("/"), PathBuf::from)
}

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
    let mut input = tokio::io::stdin();
    let mut output = tokio::io::stdout();
    let Some(frame) = wire::read_frame(&mut input).await? else {
        return Ok(());
    };
    if frame.kind != Kind::Request {
        return refuse(&mut output, "the first frame must be a request").await;
    }
    let request: Request = match frame.parse() {
        Ok(request) => request,
        Err(e) => return refuse(&mut output, &format!("unreadable request: {e}")).await,
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
            let removed = tokio::task::spawn_blocking(move || remove_own_home(&session_id))
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
    }
}

async fn refuse(output: &mut tokio::io::Stdout, message: &str) -> io::Result<()> {
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
        sandbox: sandbox::support().mode.as_str().to_owned(),
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
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
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

/// What the engine may not reach: every turn's spool (their headers hold
/// the sessions' tokens) and other sessions' worktrees. The helper's own
/// binary stays in reach: it is the engine's permission hook, as the
/// server's binary is on the server's machine.
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

/// A hardened session's own home on this host.
fn own_home(home: &Path, session_id: &str) -> Result<PathBuf, String> {
    if session_id.is_empty() || !session_id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err("a session id is letters and digits".to_owned());
    }
    Ok(runner_dir(home).join("homes").join(session_id))
}

/// Removes a session's own home; true when there was one.
fn remove_own_home(session_id: &str) -> Result<bool, String> {
    let dir = own_home(&home(), session_id)?;
    match std::fs::remove_dir_all(&dir) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(format!("{} could not be removed: {e}", dir.display())),
    }
}

fn policy(header: &TurnHeader, home: &Path) -> sandbox::Policy {
    let runner = runner_dir(home);
    let mut hidden = vec![
        runner.join("turns"),
        runner.join("worktrees"),
        runner.join("homes"),
    ];
    if header.confine.hide_sensitive {
        hidden.extend(sandbox::sensitive_paths(Some(home)));
    }
    sandbox::Policy {
        hidden,
        exceptions: vec![
            runner.join("worktrees").join(&header.session_id),
            runner.join("homes").join(&header.session_id),
        ],
        network: match &header.confine.connect_ports {
            Some(ports) => sandbox::Network::Denied {
                connect_ports: ports.clone(),
            },
            None => sandbox::Network::Allowed,
        },
    }
}

/// The sandbox for this turn on this kernel: `Ok(None)` runs unconfined (the
/// engine allowed it), `Err` is why the turn cannot start.
fn prepare(header: &TurnHeader, home: &Path) -> Result<Option<sandbox::Prepared>, String> {
    match policy(header, home).prepare() {
        Ok(prepared) => Ok(Some(prepared)),
        Err(
            e @ (sandbox::SandboxError::Unsupported { .. }
            | sandbox::SandboxError::NoNetworkControl { .. }),
        ) => {
            if header.confine.unsafe_allow_unsandboxed {
                Ok(None)
            } else {
                Err(format!(
                    "the runner host cannot confine the engine ({e}), so it was not started; set `unsafe_allow_unsandboxed = true` for the engine in engines.toml to run it unconfined"
                ))
            }
        }
        Err(e) => Err(format!(
            "the sandbox could not be prepared on the runner host: {e}"
        )),
    }
}

fn start_keeper(dir: &Path, header: &TurnHeader) -> Result<(PathBuf, Started), String> {
    let home = home();
    remove_stale_spools(&runner_dir(&home).join("turns"));
    // Fail here, with the reason, rather than in a keeper nobody listens to.
    prepare(header, &home)?;
    if let Some(cwd) = &header.cwd
        && !Path::new(cwd).is_dir()
    {
        return Err(format!(
            "the folder {cwd} does not exist on the runner host"
        ));
    }
    if dir.exists() {
        // A spool whose turn ended and was never released is stale (its
        // server went away); a live one means the turn was started twice.
        if dir.join("exited").exists() {
            let _ = std::fs::remove_dir_all(dir);
        } else {
            return Err(format!("turn `{}` was already started here", header.key));
        }
    }
    let write = || -> io::Result<()> {
        std::fs::create_dir_all(dir)?;
        std::fs::set_permissions(
            runner_dir(&home),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )?;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode_0600()
            .open(dir.join("header.json"))?;
        file.write_all(&serde_json::to_vec(header)?)?;
        std::fs::File::create(dir.join("spool"))?;
        Ok(())
    };
    write().map_err(|e| format!("the runner host could not write the turn's spool: {e}"))?;
    let exe = std::env::current_exe()
        .map_err(|e| format!("the helper cannot find its own binary: {e}"))?;
    let mut keeper = Command::new(exe);
    keeper
        .args(["runner", "--keep"])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setsid only; the keeper must not die with the channel's
    // session when sshd hangs up.
    unsafe {
        keeper.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let mut child = keeper
        .spawn()
        .map_err(|e| format!("the runner could not start the turn: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Some(pgid) = read_pgid(dir) {
            // The keeper is reaped by init once this process ends.
            std::mem::forget(child);
            return Ok((
                dir.to_owned(),
                Started {
                    key: header.key.clone(),
                    pgid,
                },
            ));
        }
        if let Ok(Some(_)) = child.try_wait() {
            let why = std::fs::read_to_string(dir.join("failed")).unwrap_or_default();
            let _ = std::fs::remove_dir_all(dir);
            return Err(if why.is_empty() {
                "the runner's keeper ended before the engine started".to_owned()
            } else {
                why
            });
        }
        if Instant::now() > deadline {
            return Err("the engine did not start on the runner host within 15 s".to_owned());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

trait Mode0600 {
    fn mode_0600(&mut self) -> &mut Self;
}

impl Mode0600 for std::fs::OpenOptions {
    fn mode_0600(&mut self) -> &mut Self {
        std::os::unix::fs::OpenOptionsExt::mode(self, 0o600)
    }
}

fn read_pgid(dir: &Path) -> Option<u32> {
    std::fs::read_to_string(dir.join("pgid"))
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn remove_stale_spools(turns: &Path) {
    let Ok(entries) = std::fs::read_dir(turns) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = std::fs::metadata(entry.path().join("exited"))
            .and_then(|m| m.modified())
            .ok()
            .and_then(|at| at.elapsed().ok())
            .is_some_and(|age| age > STALE_SPOOL);
        if stale {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Streams the spool from `offset` until the turn's exit has gone out and
/// the server released it; passes the server's signals to the engine's
/// group. The channel closing ends only this relay, never the turn.
async fn relay(
    dir: &Path,
    started: Started,
    offset: u64,
    mut input: tokio::io::Stdin,
    mut output: tokio::io::Stdout,
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

fn signal_group(pgid: u32, signal: libc::c_int) -> bool {
    match libc::pid_t::try_from(pgid) {
        // SAFETY: killpg only reads its two integer arguments.
        Ok(pgid) if pgid > 1 => unsafe { libc::killpg(pgid, signal) == 0 },
        _ => false,
    }
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

/// `switchboard runner --keep DIR`: runs one turn's engine and spools its
/// output; detached from any channel.
pub fn keep(dir: &Path) -> io::Result<()> {
    let fail = |message: String| -> io::Result<()> {
        std::fs::write(dir.join("failed"), &message)?;
        Err(io::Error::other(message))
    };
    let header: TurnHeader = serde_json::from_slice(&std::fs::read(dir.join("header.json"))?)?;
    let home = home();
    let session_home = if header.own_home {
        let made = own_home(&home, &header.session_id).and_then(|path| {
            std::fs::create_dir_all(&path)
                .and_then(|()| {
                    std::fs::set_permissions(
                        &path,
                        std::os::unix::fs::PermissionsExt::from_mode(0o700),
                    )
                })
                .map(|()| path.clone())
                .map_err(|e| format!("{} could not be made: {e}", path.display()))
        });
        match made {
            Ok(path) => Some(path),
            Err(message) => return fail(message),
        }
    } else {
        None
    };
    let prepared = match prepare(&header, &home) {
        Ok(prepared) => prepared,
        Err(message) => return fail(message),
    };
    let Some((program, args)) = header.argv.split_first() else {
        return fail("the turn has no command to run".to_owned());
    };
    let cwd = header.cwd.as_ref().map_or_else(
        || session_home.clone().unwrap_or_else(|| home.clone()),
        PathBuf::from,
    );
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(&cwd)
        .envs(header.env.iter().map(|(k, v)| (k, v)))
        .envs(session_home.iter().map(|path| ("HOME", path)))
        .stdin(if header.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    if let Some(prepared) = prepared {
        let hook = prepared.into_pre_exec(&cwd);
        // SAFETY: the hook only makes system calls on what was built before
        // the fork (see `sandbox::Prepared::into_pre_exec`).
        unsafe { command.pre_exec(hook) };
    }
    if let Some(nice) = header.nice {
        // SAFETY: one system call between fork and exec.
        unsafe {
            command.pre_exec(move || {
                libc::setpriority(libc::PRIO_PROCESS, 0, nice);
                Ok(())
            });
        }
    }
    let spool = Arc::new(Mutex::new(
        std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join("spool"))?,
    ));
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            let message = format!("the engine could not be started ({program}): {e}");
            std::fs::write(dir.join("exited"), "")?;
            std::fs::write(dir.join("pgid"), "0")?;
            append(&spool, &Frame::new(Kind::Stderr, message.into_bytes()));
            append(
                &spool,
                &Frame::json(
                    Kind::Exit,
                    &Exit {
                        code: Some(127),
                        signal: None,
                    },
                )?,
            );
            return Ok(());
        }
    };
    let pgid = child.id();
    std::fs::write(dir.join("pgid"), pgid.to_string())?;
    if let (Some(mut stdin), Some(text)) = (child.stdin.take(), header.stdin) {
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    let mut readers = Vec::new();
    if let Some(out) = child.stdout.take() {
        readers.push(pipe_into(out, Kind::Stdout, Arc::clone(&spool)));
    }
    if let Some(err) = child.stderr.take() {
        readers.push(pipe_into(err, Kind::Stderr, Arc::clone(&spool)));
    }
    let status = child.wait();
    // What the engine left in its group goes with it, as on the server.
    signal_group(pgid, libc::SIGKILL);
    let deadline = Instant::now() + DRAIN_GRACE;
    for reader in readers {
        while !reader.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let exit = match status {
        Ok(status) => Exit {
            code: status.code(),
            signal: std::os::unix::process::ExitStatusExt::signal(&status),
        },
        Err(_) => Exit {
            code: None,
            signal: None,
        },
    };
    // Marked before the exit goes out: once the server has the exit it may
    // release the spool, and nothing may be written into it after that.
    std::fs::write(dir.join("exited"), "")?;
    append(&spool, &Frame::json(Kind::Exit, &exit)?);
    Ok(())
}

fn pipe_into(
    mut source: impl Read + Send + 'static,
    kind: Kind,
    spool: Arc<Mutex<std::fs::File>>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut buf = vec![0u8; READ_CHUNK];
        loop {
            match source.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => append(&spool, &Frame::new(kind, buf[..n].to_vec())),
            }
        }
    })
}

/// One whole frame per write, under the lock, so a reader never sees two
/// frames interleaved.
fn append(spool: &Mutex<std::fs::File>, frame: &Frame) {
    if let Ok(mut file) = spool.lock() {
        let _ = file.write_all(&frame.encode());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Confine;

    #[test]
    fn turn_keys_cannot_leave_the_spool_folder() {
        assert!(turn_dir("../../etc").is_err());
        assert!(turn_dir("").is_err());
        assert!(turn_dir("0192-abc_3").is_ok());
    }

    #[test]
    fn the_sandbox_hides_the_spools_and_other_worktrees_but_the_sessions_own() {
        let header = TurnHeader {
            key: "s-1".into(),
            session_id: "s".into(),
            argv: vec!["true".into()],
            env: Vec::new(),
            cwd: None,
            stdin: None,
            confine: Confine {
                hide_sensitive: true,
                connect_ports: Some(vec![4000]),
                unsafe_allow_unsandboxed: false,
            },
            nice: None,
            own_home: false,
        };
        let policy = policy(&header, Path::new("/home/r"));
        assert_eq!(
            policy.hidden[..2],
            [
                PathBuf::from("/home/r/.local/share/switchboard-runner/turns"),
                PathBuf::from("/home/r/.local/share/switchboard-runner/worktrees")
            ]
        );
        assert!(policy.hidden.contains(&PathBuf::from("/home/r/.ssh")));
        assert_eq!(
            policy.exceptions,
            [PathBuf::from(
                "/home/r/.local/share/switchboard-runner/worktrees/s"
            )]
        );
        assert_eq!(
            policy.network,
            sandbox::Network::Denied {
                connect_ports: vec![4000]
            }
        );
    }
}
