//! One turn on a runner host, detached from any channel: the keeper
//! (`switchboard runner --keep DIR`) starts the engine in the sandbox this
//! kernel allows, in its own process group, and appends each piece of its
//! output to the turn's spool as a frame, so the turn outlives the
//! connection that started it. Also where the runner's folder is, and what
//! a hardened session's own home is.

use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::wire::{Confine, Exit, Frame, Kind, Started, TurnHeader};

/// Where the helper keeps its binary and turns, under the remote home.
pub const RUNNER_DIR: &str = ".local/share/switchboard-runner";

pub(crate) const READ_CHUNK: usize = 64 << 10;

/// How long the keeper lets output trail the engine's exit.
const DRAIN_GRACE: Duration = Duration::from_secs(5);

/// A spool whose turn ended this long ago and was never released (the
/// server went away for good) is removed by the next turn's helper.
const STALE_SPOOL: Duration = Duration::from_secs(7 * 24 * 3600);

pub fn runner_dir(home: &Path) -> PathBuf {
    home.join(RUNNER_DIR)
}

pub(crate) fn home() -> PathBuf {
    std::env::var_os("HOME").map_or_else(|| PathBuf::from("/"), PathBuf::from)
}

/// A hardened session's own home on this host.
pub(crate) fn own_home(home: &Path, session_id: &str) -> Result<PathBuf, String> {
    if session_id.is_empty() || !session_id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err("a session id is letters and digits".to_owned());
    }
    Ok(runner_dir(home).join("homes").join(session_id))
}

/// Removes a session's own home; true when there was one.
pub(crate) fn remove_own_home(session_id: &str) -> Result<bool, String> {
    let dir = own_home(&home(), session_id)?;
    match std::fs::remove_dir_all(&dir) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(format!("{} could not be removed: {e}", dir.display())),
    }
}

/// Makes (or keeps) a session's own home, only its user's to enter.
pub(crate) fn make_own_home(home: &Path, session_id: &str) -> Result<PathBuf, String> {
    let path = own_home(home, session_id)?;
    std::fs::create_dir_all(&path)
        .and_then(|()| {
            std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o700))
        })
        .map(|()| path.clone())
        .map_err(|e| format!("{} could not be made: {e}", path.display()))
}

/// What an engine or an app of session `session_id` may not reach: every
/// turn's spool (their headers hold the sessions' tokens), every app's
/// folder (their launches hold environments), and other sessions'
/// worktrees and homes. The helper's own binary stays in reach: it is the
/// engine's permission hook, as the server's binary is on the server's
/// machine.
fn policy(session_id: &str, confine: &Confine, home: &Path) -> sandbox::Policy {
    let runner = runner_dir(home);
    let mut hidden = vec![
        runner.join("turns"),
        runner.join("worktrees"),
        runner.join("homes"),
        runner.join("apps"),
    ];
    if confine.hide_sensitive {
        hidden.extend(sandbox::sensitive_paths(Some(home)));
    }
    sandbox::Policy {
        hidden,
        exceptions: vec![
            runner.join("worktrees").join(session_id),
            runner.join("homes").join(session_id),
        ],
        network: match &confine.connect_ports {
            Some(ports) => sandbox::Network::Denied {
                connect_ports: ports.clone(),
            },
            None => sandbox::Network::Allowed,
        },
    }
}

/// Set in a pool runner's environment (`switchboard runner --isolation
/// pod`) and passed to its keepers: the pod is the boundary.
pub const ISOLATION_ENV: &str = "SWITCHBOARD_RUNNER_ISOLATION";

static POD_ISOLATION: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Says, for this process and the keepers it starts, that the pod it runs
/// in is the engines' boundary when the kernel offers no sandbox.
pub fn declare_pod_isolation() {
    let _ = POD_ISOLATION.set(true);
}

/// Whether this runner declared its pod the boundary, itself or through
/// the helper that started this keeper.
pub(crate) fn pod_isolation() -> bool {
    *POD_ISOLATION.get_or_init(|| std::env::var(ISOLATION_ENV).is_ok_and(|v| v == "pod"))
}

/// The sandbox for a turn or an app of session `session_id` on this kernel:
/// `Ok(None)` runs unconfined (the engine allowed it, or the runner's pod is
/// its boundary), `Err` is why it cannot start.
pub(crate) fn prepare(
    session_id: &str,
    confine: &Confine,
    home: &Path,
) -> Result<Option<sandbox::Prepared>, String> {
    match policy(session_id, confine, home).prepare() {
        Ok(prepared) => Ok(Some(prepared)),
        Err(
            e @ (sandbox::SandboxError::Unsupported { .. }
            | sandbox::SandboxError::NoNetworkControl { .. }),
        ) => unconfined(confine, pod_isolation(), &e.to_string()),
        Err(e) => Err(format!(
            "the sandbox could not be prepared on the runner host: {e}"
        )),
    }
}

/// Whether a turn the kernel cannot confine may run anyway. A pod is a
/// boundary for files and processes but cannot deny the network, so a
/// locked-down session never runs on one; nor does anything run
/// unconfined without someone having said so.
fn unconfined(
    confine: &Confine,
    pod: bool,
    why: &str,
) -> Result<Option<sandbox::Prepared>, String> {
    if confine.connect_ports.is_some() && !confine.unsafe_allow_unsandboxed {
        return Err(format!(
            "this runner cannot deny the engine the network ({why}), which a locked-down session needs, so the turn was not started here"
        ));
    }
    if pod || confine.unsafe_allow_unsandboxed {
        Ok(None)
    } else {
        Err(format!(
            "the runner host cannot confine the engine ({why}), so it was not started; set `unsafe_allow_unsandboxed = true` for the engine in engines.toml to run it unconfined, or start a pool runner with `--isolation pod` when its pod is the boundary"
        ))
    }
}

/// A keeper's folder: the runner folder private to its user, the request
/// a keeper reads (mode 0600, never one already there) and its empty output.
pub(crate) fn write_keeper_dir(
    home: &Path,
    dir: &Path,
    (request_name, request): (&str, &impl serde::Serialize),
    output_name: &str,
) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::set_permissions(
        runner_dir(home),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode_0600()
        .open(dir.join(request_name))?;
    file.write_all(&serde_json::to_vec(request)?)?;
    std::fs::File::create(dir.join(output_name))?;
    Ok(())
}

pub(crate) fn start_keeper(dir: &Path, header: &TurnHeader) -> Result<(PathBuf, Started), String> {
    let home = home();
    remove_stale_spools(&runner_dir(&home).join("turns"));
    // Fail here, with the reason, rather than in a keeper nobody listens to.
    prepare(&header.session_id, &header.confine, &home)?;
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
    write_keeper_dir(&home, dir, ("header.json", header), "spool")
        .map_err(|e| format!("the runner host could not write the turn's spool: {e}"))?;
    let pgid = detach("--keep", dir, "pgid", "the engine")?;
    Ok((
        dir.to_owned(),
        Started {
            key: header.key.clone(),
            pgid,
        },
    ))
}

/// Starts a keeper (`switchboard runner FLAG DIR`) in a session of its own
/// and waits until it wrote the process it started into `DIR/NUMBER_FILE`;
/// `what` names that process in the errors. A keeper that ended first says
/// why in `DIR/failed`, and its folder goes.
pub(crate) fn detach(flag: &str, dir: &Path, number_file: &str, what: &str) -> Result<u32, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("the helper cannot find its own binary: {e}"))?;
    let mut keeper = Command::new(exe);
    keeper
        .args(["runner", flag])
        .arg(dir)
        .envs(pod_isolation().then_some((ISOLATION_ENV, "pod")))
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
        .map_err(|e| format!("the runner could not start {what}'s keeper: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Some(number) = read_number(&dir.join(number_file)) {
            // Reaped when it ends: a pool runner lives on, and a keeper it
            // never waited for would stay a zombie.
            std::thread::spawn(move || {
                let _ = child.wait();
            });
            return Ok(number);
        }
        if let Ok(Some(_)) = child.try_wait() {
            // A short turn can start and end between the look above and
            // this one: what it wrote still says it started.
            if let Some(number) = read_number(&dir.join(number_file)) {
                return Ok(number);
            }
            let why = std::fs::read_to_string(dir.join("failed")).unwrap_or_default();
            let _ = std::fs::remove_dir_all(dir);
            return Err(if why.is_empty() {
                format!("the runner's keeper ended before {what} started")
            } else {
                why
            });
        }
        if Instant::now() > deadline {
            return Err(format!(
                "{what} did not start on the runner host within 15 s"
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub(crate) trait Mode0600 {
    fn mode_0600(&mut self) -> &mut Self;
}

impl Mode0600 for std::fs::OpenOptions {
    fn mode_0600(&mut self) -> &mut Self {
        std::os::unix::fs::OpenOptionsExt::mode(self, 0o600)
    }
}

pub(crate) fn read_pgid(dir: &Path) -> Option<u32> {
    read_number(&dir.join("pgid"))
}

/// A number a keeper wrote into a file of its folder.
pub(crate) fn read_number(path: &Path) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
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

pub(crate) fn signal_group(pgid: u32, signal: libc::c_int) -> bool {
    match libc::pid_t::try_from(pgid) {
        // SAFETY: killpg only reads its two integer arguments.
        Ok(pgid) if pgid > 1 => unsafe { libc::killpg(pgid, signal) == 0 },
        _ => false,
    }
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
        match make_own_home(&home, &header.session_id) {
            Ok(path) => Some(path),
            Err(message) => return fail(message),
        }
    } else {
        None
    };
    let prepared = match prepare(&header.session_id, &header.confine, &home) {
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
    let spool = Arc::new(Spool::open(dir)?);
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
    spool.engine.store(pgid, Ordering::SeqCst);
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
    let marked = std::fs::write(dir.join("exited"), "");
    append(&spool, &Frame::json(Kind::Exit, &exit)?);
    marked
}

fn pipe_into(
    mut source: impl Read + Send + 'static,
    kind: Kind,
    spool: Arc<Spool>,
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

/// Space kept aside in the turn's folder so that, once the host's disk is
/// full, the turn can still say so and spool its exit: a turn whose exit
/// never reached the spool would be waited for forever.
const RESERVE_BYTES: usize = 16 * 1024;

/// A turn's spool, and what lets it end cleanly on a full disk.
struct Spool {
    file: Mutex<std::fs::File>,
    reserve: PathBuf,
    /// The engine's process group, 0 until it started.
    engine: AtomicU32,
    full: AtomicBool,
}

impl Spool {
    fn open(dir: &Path) -> io::Result<Spool> {
        let reserve = dir.join("reserve");
        // Without room for the reserve the turn still runs; it only loses
        // the clean end on a full disk.
        let _ = std::fs::write(&reserve, vec![0u8; RESERVE_BYTES]);
        Ok(Spool {
            file: Mutex::new(
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(dir.join("spool"))?,
            ),
            reserve,
            engine: AtomicU32::new(0),
            full: AtomicBool::new(false),
        })
    }
}

/// One whole frame per write, under the lock, so a reader never sees two
/// frames interleaved. A write the disk has no room for is cut back to
/// the last whole frame; then the reserve goes, the turn says why its
/// output stops there, and its engine is ended, so the exit follows.
fn append(spool: &Spool, frame: &Frame) {
    let Ok(mut file) = spool.file.lock() else {
        return;
    };
    if spool.full.load(Ordering::SeqCst) && frame.kind != Kind::Exit {
        return;
    }
    let before = file.metadata().map(|m| m.len()).ok();
    let Err(e) = file.write_all(&frame.encode()) else {
        return;
    };
    if let Some(before) = before {
        let _ = file.set_len(before);
    }
    spool.full.store(true, Ordering::SeqCst);
    let _ = std::fs::remove_file(&spool.reserve);
    let message =
        format!("the runner host could not write the turn's output ({e}); the turn was stopped\n");
    let _ = file.write_all(&Frame::new(Kind::Stderr, message.into_bytes()).encode());
    if frame.kind == Kind::Exit {
        let _ = file.write_all(&frame.encode());
    }
    signal_group(spool.engine.load(Ordering::SeqCst), libc::SIGKILL);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Confine;

    fn header(connect_ports: Option<Vec<u16>>, unsafe_allow_unsandboxed: bool) -> TurnHeader {
        TurnHeader {
            key: "s-1".into(),
            session_id: "s".into(),
            argv: vec!["true".into()],
            env: Vec::new(),
            cwd: None,
            stdin: None,
            confine: Confine {
                hide_sensitive: connect_ports.is_some(),
                connect_ports,
                unsafe_allow_unsandboxed,
            },
            nice: None,
            own_home: false,
        }
    }

    #[test]
    fn a_pod_runs_what_the_kernel_cannot_confine_except_a_locked_down_session() {
        let open = header(None, false);
        assert!(matches!(
            unconfined(&open.confine, true, "no namespaces"),
            Ok(None)
        ));
        let refused = unconfined(&open.confine, false, "no namespaces")
            .err()
            .unwrap_or_default();
        assert!(refused.contains("--isolation pod"), "{refused}");
        let locked = header(Some(vec![4000]), false);
        let refused = unconfined(&locked.confine, true, "no namespaces")
            .err()
            .unwrap_or_default();
        assert!(refused.contains("locked-down"), "{refused}");
        assert!(matches!(
            unconfined(&header(None, true).confine, false, "no namespaces"),
            Ok(None)
        ));
    }

    #[test]
    fn the_sandbox_hides_spools_apps_and_other_sessions_worktrees_and_homes_but_its_own() {
        let header = header(Some(vec![4000]), false);
        let policy = policy(&header.session_id, &header.confine, Path::new("/home/r"));
        let runner = Path::new("/home/r/.local/share/switchboard-runner");
        assert_eq!(
            policy.hidden[..4],
            [
                runner.join("turns"),
                runner.join("worktrees"),
                runner.join("homes"),
                runner.join("apps")
            ]
        );
        assert!(policy.hidden.contains(&PathBuf::from("/home/r/.ssh")));
        assert_eq!(
            policy.exceptions,
            [runner.join("worktrees/s"), runner.join("homes/s")]
        );
        assert_eq!(
            policy.network,
            sandbox::Network::Denied {
                connect_ports: vec![4000]
            }
        );
    }
}
