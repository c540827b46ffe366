//! One turn: start the engine process, stream its output into the transcript,
//! and decide how the turn ended.
//!
//! stdout and stderr are read on their own tasks into a small bounded channel;
//! one pump task decodes them into typed entries (whole lines for `command`
//! engines) and stores them in SQLite on the blocking pool, a flush at a time,
//! each flush one message on the output feed and part of one transaction
//! (with the other turns' flushes that wait meanwhile, [`pages::Flushes`]); the
//! engine's meta is written only when it changed. Batching is
//! adaptive: output after a quiet spell of [`FLUSH_EVERY`] is flushed at once
//! (a quiet session's line reaches the screen without waiting), and output that
//! follows a flush closer than that waits for the rest of the interval (or
//! 64 KiB), so a busy session still costs at most one flush per interval. A
//! chatty engine therefore costs at most a few MiB of buffers and one writer
//! transaction at a time: it slows down only itself (the pipe fills), never
//! the API or other sessions; so does one whose listeners fall far behind.

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, sleep_until, timeout};

use crate::activity::Tracker;
use crate::adapters::{Decoder, TurnMeta};
use crate::confine::Confinement;
use crate::db::{self, NextTurn};
use crate::engines::{EngineKind, EngineSpec};
use crate::entries::LineBuffer;
use crate::error::Result;
use crate::model::{Activity, ActivityKind, EntryBody, Status};
use crate::pages::{self, Flush, Piece};
use crate::prompts::place;
use crate::state::{EndRequest, Inner};
use crate::watchdog::{LoopWatch, Trip, Watch, Watching, watch_for_stall};

const FLUSH_BYTES: usize = 64 << 10;
/// The least time between two flushes of one turn (see the module's doc).
const FLUSH_EVERY: Duration = Duration::from_millis(50);
/// The least time between two changes of a turn's activity on its session:
/// each is a write, a `session` event and a read of the session, and a busy
/// `command` session's activity (its last line) changes with every flush. A
/// change held back is made when the interval has passed, output or not, and
/// at the turn's end.
const ACTIVITY_EVERY: Duration = Duration::from_secs(1);
const READ_CHUNK: usize = 64 << 10;
/// stderr kept in the transcript per turn; the rest is read and dropped.
const STDERR_CAP: usize = 1 << 20;
/// The tail of stderr kept in memory for the failure message.
const STDERR_TAIL: usize = 4 << 10;
pub(crate) const STOP_GRACE: Duration = Duration::from_secs(3);
/// `sessionTreeBelowNormalPriority`: the niceness engines run at (Windows'
/// Below Normal sits about this far under normal).
pub(crate) const BELOW_NORMAL_NICE: libc::c_int = 10;
/// How long the output may trail the process's exit (a leftover holding the pipe).
pub(crate) const DRAIN_GRACE: Duration = Duration::from_secs(5);

/// How full the model's context window was at the turn's last call.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextUse {
    pub model: String,
    pub used: u64,
    /// The window as the engine stated it, when it did.
    pub window: Option<u64>,
}

pub enum TurnEnd {
    Done(Option<ContextUse>),
    Failed(String),
    Ended(EndRequest),
    /// The watchdog stopped it (a stall, a loop): relaunch with the note.
    Restart(Trip),
    /// Its runner host stayed away past the grace period: what became of
    /// the turn is not known.
    Lost(String),
}

pub struct TurnContext<'a> {
    pub inner: &'a Arc<Inner>,
    pub session_id: &'a str,
    pub account_id: &'a str,
    pub engine: &'a str,
    pub spec: &'a EngineSpec,
    pub cwd: &'a str,
    pub token: &'a str,
    /// What [`crate::TurnArgs`] added for this turn.
    pub extra_args: &'a [String],
    /// An email-triggered session: no network and no sensitive files.
    pub locked_down: bool,
    /// `local`, or the runner host the engine runs on.
    pub runner: &'a str,
    pub trigger: Option<crate::model::Trigger>,
    /// The level pinned at spawn, if any (handed to [`crate::TurnArgs`]).
    pub permission_level: Option<permissions::Level>,
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Stream {
    Out,
    Err,
}

/// `PORT`, `HOST` and `APP_URL` for the dev servers the engine starts.
pub(crate) fn app_env(ctx: &TurnContext<'_>) -> Vec<(String, String)> {
    ctx.inner
        .app_env
        .as_ref()
        .map(|env| env.app_env(ctx.session_id, ctx.cwd, ctx.runner))
        .unwrap_or_default()
}

pub async fn run_turn(
    ctx: &TurnContext<'_>,
    next: &NextTurn,
    stop: &mut watch::Receiver<Option<EndRequest>>,
) -> Result<TurnEnd> {
    let (text, placed) = place(ctx.spec.kind, next.added.as_deref(), &next.text);
    let extra = [ctx.extra_args, placed.as_slice()].concat();
    let argv = ctx.spec.argv(&text, next.resume(), &extra);
    let Some((program, args)) = argv.split_first() else {
        let message = format!(
            "{} has no command to run. Give it a `command` in engines.toml (docs/engines.md).",
            engine_label(ctx.engine, ctx.spec)
        );
        return fail_unstarted(ctx, next.turn, message).await;
    };
    if let Some(hook) = &ctx.inner.before_turn {
        let hook = Arc::clone(hook);
        let (account, id, cwd) = (
            ctx.account_id.to_owned(),
            ctx.session_id.to_owned(),
            std::path::PathBuf::from(ctx.cwd),
        );
        // A hook that panicked only loses its own work: the turn goes on.
        let _ = tokio::task::spawn_blocking(move || hook.before_turn(&account, &id, &cwd)).await;
    }
    let takes_stdin = ctx.spec.kind == EngineKind::Command;
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(ctx.cwd)
        .envs(&ctx.spec.env)
        .env("APP_CLI_TOKEN", ctx.token)
        .env("APP_SESSION_ID", ctx.session_id)
        .env("APP_TURN", next.turn.to_string())
        .envs(app_env(ctx))
        .stdin(if takes_stdin {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // SAFETY: runs in the child between fork and exec: one atomic load and
    // two system calls on a local.
    unsafe {
        command.pre_exec(|| {
            resources::restore_inherited_limit();
            Ok(())
        });
    }
    match &ctx.inner.control_url {
        Some(url) => command.env("APP_CONTROL_URL", url),
        None => command.env_remove("APP_CONTROL_URL"),
    };
    if let Some(trees) = &ctx.inner.trees {
        let (trees, id) = (Arc::clone(trees), ctx.session_id.to_owned());
        if let Ok(hook) = tokio::task::spawn_blocking(move || trees.prepare(&id)).await {
            // SAFETY: the hook runs in the child between fork and exec and
            // only writes to descriptors opened before the fork and makes
            // system calls on integers. It runs before the sandbox's, so
            // the engine's whole tree, sandbox and all, is in the cgroup.
            unsafe { command.pre_exec(move || hook.join()) };
        }
    }
    let confinement = Confinement {
        data_dir: &ctx.inner.data_dir,
        session_id: ctx.session_id,
        engine: ctx.engine,
        spec: ctx.spec,
        control_url: ctx.inner.control_url.as_deref(),
        locked_down: ctx.locked_down,
    };
    match confinement.prepare().await {
        Ok(Some(prepared)) => {
            let hook = prepared.into_pre_exec(ctx.cwd.as_ref());
            // SAFETY: the hook runs in the child between fork and exec and only
            // makes system calls (namespaces, mounts, prctl,
            // landlock_restrict_self, close) on what was built before the fork.
            unsafe { command.pre_exec(hook) };
        }
        Ok(None) => {}
        Err(message) => return fail_unstarted(ctx, next.turn, message).await,
    }
    if ctx
        .inner
        .governance
        .as_ref()
        .is_some_and(|g| g.below_normal_priority())
    {
        // SAFETY: runs in the child between fork and exec and makes one
        // system call. Niceness is inherited, so the engine's whole tree
        // runs at it; a failure leaves normal priority, not a failed turn.
        unsafe {
            command.pre_exec(|| {
                libc::setpriority(libc::PRIO_PROCESS, 0, BELOW_NORMAL_NICE);
                Ok(())
            });
        }
    }
    let spawned = command.spawn();
    // The pre-exec hooks own what the child needed before exec (a cgroup.procs
    // per controller, the Landlock ruleset): seven of a session's ten
    // descriptors, which would otherwise stay open for the whole turn.
    drop(command);
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            let message = unstarted_message(ctx.engine, ctx.spec, program, ctx.cwd, &e);
            return fail_unstarted(ctx, next.turn, message).await;
        }
    };
    let pid = child.id();
    let reason = format!(
        "turn {} started (pid {})",
        next.turn,
        pid.map_or_else(|| "?".to_owned(), |p| p.to_string())
    );
    record_start(ctx, pid, reason).await?;

    if let Some(mut stdin) = child.stdin.take() {
        let bytes = text.into_bytes();
        // A program that never reads its stdin must not stall the turn, so the
        // write runs beside it; a broken pipe only means it stopped reading.
        tokio::spawn(async move {
            let _ = stdin.write_all(&bytes).await;
        });
    }
    let watch = Watch::new(ctx.inner.clock.now());
    let stall = match (&ctx.inner.governance, pid) {
        (Some(governance), Some(pgid)) => Some(tokio::spawn(watch_for_stall(
            Arc::clone(&ctx.inner.clock),
            Arc::clone(governance),
            Arc::clone(&ctx.inner.groups),
            Arc::clone(&watch),
            pgid,
        ))),
        _ => None,
    };
    let loops = ctx
        .inner
        .governance
        .as_ref()
        .is_some_and(|g| g.break_loops())
        .then(|| LoopWatch::new(std::path::Path::new(ctx.cwd)));
    let (chunks_tx, chunks_rx) = mpsc::channel(32);
    let mut readers = Vec::new();
    if let Some(out) = child.stdout.take() {
        readers.push(tokio::spawn(read_into(out, Stream::Out, chunks_tx.clone())));
    }
    if let Some(err) = child.stderr.take() {
        readers.push(tokio::spawn(read_into(err, Stream::Err, chunks_tx.clone())));
    }
    drop(chunks_tx);
    let pump = tokio::spawn(pump(
        Arc::clone(ctx.inner),
        ctx.session_id.to_owned(),
        ctx.account_id.to_owned(),
        next.turn,
        ctx.spec.kind,
        chunks_rx,
        Watching {
            watch: Arc::clone(&watch),
            loops,
        },
    ));

    let mut ended_by: Option<EndRequest> = None;
    let mut tripped: Option<Trip> = None;
    let status = tokio::select! {
        status = child.wait() => status,
        why = async {
            tokio::select! {
                request = wait_for_request(stop) => Ok(request),
                trip = watch.tripped() => Err(trip),
            }
        } => {
            match why {
                Ok(request) => ended_by = Some(request),
                Err(trip) => tripped = Some(trip),
            }
            if let Some(pgid) = pid {
                signal_group_or_leader(pgid, libc::SIGTERM);
            }
            match timeout(STOP_GRACE, child.wait()).await {
                Ok(status) => status,
                Err(_) => {
                    if let Some(pgid) = pid {
                        signal_group_or_leader(pgid, libc::SIGKILL);
                    }
                    child.wait().await
                }
            }
        }
    };
    if let Some(stall) = stall {
        stall.abort();
    }
    // The turn is over: whatever the engine left running in its group goes
    // too, and in its tree, whatever left the group (a double fork).
    if let Some(pgid) = pid {
        crate::process::signal_group(pgid, libc::SIGKILL);
    }
    if let Some(trees) = &ctx.inner.trees {
        let (trees, id) = (Arc::clone(trees), ctx.session_id.to_owned());
        let _ = tokio::task::spawn_blocking(move || trees.kill(&id)).await;
    }
    // Cut short, it may leave processes outside its group: Codex runs each
    // command in a session of its own (its terminal's), and a stop while one
    // runs left it and its command orphaned. They carry the session's id.
    if ended_by.is_some() || tripped.is_some() {
        let ours = std::collections::HashSet::from([ctx.session_id.to_owned()]);
        crate::process::kill_leftovers(&ours).await;
    }
    let mut pump = pump;
    let drained = loop {
        match timeout(DRAIN_GRACE, &mut pump).await {
            Ok(joined) => break Some(joined),
            // A pump held back by a listener far behind is storing, not
            // stuck: waiting for it loses nothing, cutting it off would.
            Err(_) if ctx.inner.output.is_full() => continue,
            Err(_) => break None,
        }
    };
    let (meta, stderr_tail) = match drained {
        Some(joined) => joined.unwrap_or_default(),
        None => {
            for reader in &readers {
                reader.abort();
            }
            (TurnMeta::default(), String::new())
        }
    };

    let exit_code = status.as_ref().ok().and_then(|s| s.code());
    let outcome = if let Some(request) = ended_by {
        TurnEnd::Ended(request)
    } else if let Some(trip) = tripped {
        TurnEnd::Restart(trip)
    } else {
        judge(ctx.spec.kind, &status, &meta, &stderr_tail)
    };
    close_turn(ctx, next.turn, outcome, &meta, exit_code).await
}

/// Records how the turn ended and returns it. A failed turn carries an
/// `error` entry: the engine's own when it declared the failure, else the
/// one the exit status or the lost process makes.
pub(crate) async fn close_turn(
    ctx: &TurnContext<'_>,
    turn: i64,
    outcome: TurnEnd,
    meta: &TurnMeta,
    exit_code: Option<i32>,
) -> Result<TurnEnd> {
    let (turn_status, error) = match &outcome {
        TurnEnd::Done(_) => ("done", None),
        TurnEnd::Failed(message) => ("failed", Some(message.clone())),
        TurnEnd::Ended(EndRequest::Shutdown) => ("interrupted", None),
        TurnEnd::Ended(EndRequest::Pause) => ("paused", None),
        TurnEnd::Restart(trip) => ("restarted", Some(trip.reason.clone())),
        TurnEnd::Lost(reason) => ("interrupted", Some(reason.clone())),
        TurnEnd::Ended(_) => ("stopped", None),
    };
    let unsaid = match &outcome {
        TurnEnd::Failed(message) if meta.failure.is_none() => Some(message.clone()),
        _ => None,
    };
    end_turn(ctx, turn, turn_status, error, exit_code, unsaid).await?;
    Ok(outcome)
}

/// Records the turn's engine process (its id on the host it runs on) and
/// moves the session to `running`, saying why.
pub(crate) async fn record_start(
    ctx: &TurnContext<'_>,
    pid: Option<u32>,
    reason: String,
) -> Result<()> {
    let id = ctx.session_id.to_owned();
    ctx.inner
        .write(move |tx| db::set_process(tx, &id, pid))
        .await?;
    ctx.inner
        .move_to(ctx.session_id, ctx.account_id, Status::Running, reason)
        .await
}

/// Closes the turn's row, storing `unsaid` as its `error` entry when given.
async fn end_turn(
    ctx: &TurnContext<'_>,
    turn: i64,
    status: &'static str,
    error: Option<String>,
    exit_code: Option<i32>,
    unsaid: Option<String>,
) -> Result<()> {
    let id = ctx.session_id.to_owned();
    let now = ctx.inner.clock.timestamp();
    let at = now.clone();
    let stored = ctx
        .inner
        .write(move |tx| {
            let stored = match unsaid {
                Some(message) => pages::append(
                    tx,
                    &id,
                    turn,
                    &now,
                    vec![Piece::entry(EntryBody::Error { message })],
                )?,
                None => Vec::new(),
            };
            db::end_turn(tx, &id, turn, status, error.as_deref(), exit_code, &now)?;
            Ok(stored)
        })
        .await?;
    ctx.inner
        .announce_stored(ctx.session_id, ctx.account_id, turn, &at, stored);
    Ok(())
}

/// How a person knows the engine: the product it runs (Claude Code, Codex),
/// with the name engines.toml gives it when that name is not the product's.
pub(crate) fn engine_label(engine: &str, spec: &EngineSpec) -> String {
    if crate::engines::is_demo(spec) {
        return "The demo engine".to_owned();
    }
    let product = match spec.kind {
        EngineKind::Claude => "Claude Code",
        EngineKind::Codex => "Codex",
        EngineKind::Command => return format!("The engine `{engine}`"),
    };
    if engine == spec.kind.as_str() {
        product.to_owned()
    } else {
        format!("{product} (engine `{engine}`)")
    }
}

/// Why the engine's program did not start, as a person reads it: what is
/// wrong and where to fix it, the operating system's own words last, in
/// parentheses, for whoever needs them.
pub(crate) fn unstarted_message(
    engine: &str,
    spec: &EngineSpec,
    program: &str,
    cwd: &str,
    error: &std::io::Error,
) -> String {
    let label = engine_label(engine, spec);
    let configure = "Configure it in engines.toml (docs/engines.md).";
    let not_found = error.kind() == std::io::ErrorKind::NotFound;
    // A missing working folder fails the same way as a missing program.
    let what = if not_found && !std::path::Path::new(cwd).is_dir() {
        format!("its folder `{cwd}` does not exist.")
    } else if not_found && program.contains('/') {
        format!("the program `{program}` does not exist. {configure}")
    } else if not_found {
        format!("the program `{program}` was not found on PATH. {configure}")
    } else if error.kind() == std::io::ErrorKind::PermissionDenied {
        format!("the program `{program}` may not be run (is it executable?). {configure}")
    } else if resources::is_exhausted(error) {
        "the server has reached its limit of open files; end some sessions, or raise the limit (`ulimit -n`).".to_owned()
    } else if error.raw_os_error() == Some(libc::ENOEXEC) {
        format!("`{program}` is not a program this machine can run. {configure}")
    } else {
        return format!("{label} could not be started (`{program}`): {error}");
    };
    format!("{label} could not be started: {what} ({error})")
}

pub(crate) async fn fail_unstarted(
    ctx: &TurnContext<'_>,
    turn: i64,
    message: String,
) -> Result<TurnEnd> {
    end_turn(
        ctx,
        turn,
        "failed",
        Some(message.clone()),
        None,
        Some(message.clone()),
    )
    .await?;
    Ok(TurnEnd::Failed(message))
}

/// The process group may already be gone when the leader lingers alone.
fn signal_group_or_leader(pgid: u32, signal: libc::c_int) {
    if !crate::process::signal_group(pgid, signal)
        && let Ok(pid) = libc::pid_t::try_from(pgid)
    {
        // SAFETY: kill only reads its two integer arguments.
        unsafe { libc::kill(pid, signal) };
    }
}

pub(crate) async fn wait_for_request(stop: &mut watch::Receiver<Option<EndRequest>>) -> EndRequest {
    loop {
        if let Some(request) = *stop.borrow_and_update() {
            return request;
        }
        if stop.changed().await.is_err() {
            return std::future::pending().await;
        }
    }
}

pub(crate) fn judge(
    kind: EngineKind,
    status: &std::io::Result<std::process::ExitStatus>,
    meta: &TurnMeta,
    stderr_tail: &str,
) -> TurnEnd {
    let status = match status {
        Ok(status) => *status,
        Err(e) => return TurnEnd::Failed(format!("lost track of the engine process: {e}")),
    };
    let stderr = stderr_tail.trim();
    let exit = match (
        status.code(),
        std::os::unix::process::ExitStatusExt::signal(&status),
    ) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        (None, None) => "ended".to_owned(),
    };
    let with_stderr = |head: String| {
        if stderr.is_empty() {
            head
        } else {
            format!("{head}: {stderr}")
        }
    };
    if let Some(failure) = &meta.failure {
        return TurnEnd::Failed(failure.clone());
    }
    if status.success() {
        let context = match (&meta.model, meta.context_tokens) {
            (Some(model), Some(used)) => Some(ContextUse {
                model: model.clone(),
                used: u64::try_from(used).unwrap_or_default(),
                window: meta.context_window.and_then(|w| u64::try_from(w).ok()),
            }),
            _ => None,
        };
        return TurnEnd::Done(context);
    }
    match (kind, &meta.last_error) {
        (EngineKind::Codex | EngineKind::Claude, Some(error)) => {
            TurnEnd::Failed(format!("the engine {exit}: {error}"))
        }
        _ => TurnEnd::Failed(with_stderr(format!("the engine {exit}"))),
    }
}

async fn read_into(
    mut source: impl AsyncRead + Unpin,
    stream: Stream,
    sink: mpsc::Sender<(Stream, Vec<u8>)>,
) {
    // One buffer for the turn: a busy engine's read is a line, and a fresh
    // zeroed 64 KiB for each cost more than the line.
    let mut buf = vec![0; READ_CHUNK];
    loop {
        match source.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if sink.send((stream, buf[..n].to_vec())).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Decodes and batches one turn's output into the transcript, announces
/// each flush's stored entries, and keeps the session's activity up to date
/// (one `session` announcement when it changed, at most one per
/// [`ACTIVITY_EVERY`]). Returns what the engine reported and the tail of its stderr.
pub(crate) async fn pump(
    inner: Arc<Inner>,
    id: String,
    account_id: String,
    turn: i64,
    kind: EngineKind,
    mut chunks: mpsc::Receiver<(Stream, Vec<u8>)>,
    mut watching: Watching,
) -> (TurnMeta, String) {
    let mut decoder = Decoder::new(kind);
    let mut out = String::new();
    let mut err_lines = LineBuffer::default();
    let mut err = String::new();
    let mut err_stored = 0usize;
    let mut err_tail: Vec<u8> = Vec::new();
    let mut tracker = Tracker::default();
    let mut shown: Option<(ActivityKind, String)> = None;
    let mut deadline: Option<Instant> = None;
    let mut last_flush: Option<Instant> = None;
    let mut last_activity: Option<Instant> = None;
    // What the turn's row holds of the engine's meta: a `command` engine's
    // never changes, and writing it again with every flush was a row
    // rewritten per line.
    let mut saved_meta: Option<TurnMeta> = None;
    loop {
        let received = match deadline {
            Some(at) => tokio::select! {
                chunk = chunks.recv() => Some(chunk),
                () = sleep_until(at) => None,
            },
            None => Some(chunks.recv().await),
        };
        if let Some(Some(_)) = &received {
            watching.watch.saw_output(inner.clock.now());
        }
        let closed = match &received {
            Some(Some((Stream::Out, bytes))) => {
                decoder.feed(bytes, &mut out);
                false
            }
            Some(Some((Stream::Err, bytes))) => {
                let room = STDERR_CAP.saturating_sub(err_stored);
                let kept = &bytes[..bytes.len().min(room)];
                err_lines.push(kept, &mut err);
                err_stored += kept.len();
                err_tail.extend_from_slice(bytes);
                if err_tail.len() > STDERR_TAIL {
                    err_tail.drain(..err_tail.len() - STDERR_TAIL);
                }
                false
            }
            Some(None) => {
                decoder.finish(&mut out);
                err_lines.finish(&mut err);
                true
            }
            None => false,
        };
        let waiting = out.len() + err.len() + decoder.waiting_bytes();
        if received.is_some() {
            // Also when a chunk brought no text yet: the engine's id must reach
            // the database soon, since a resume after a crash needs it. Text
            // after a quiet spell goes at once; anything else waits for the
            // interval since the last flush to pass.
            let now = Instant::now();
            let wanted = match last_flush {
                _ if waiting == 0 => now + FLUSH_EVERY,
                Some(at) => (at + FLUSH_EVERY).max(now),
                None => now,
            };
            deadline = Some(deadline.map_or(wanted, |at| at.min(wanted)));
        }
        let due = deadline.is_some_and(|at| Instant::now() >= at);
        if closed || due || waiting >= FLUSH_BYTES {
            // Listeners far behind hold the flush (and so the engine) back
            // rather than lose what it stores.
            inner.output.room().await;
            let pieces = batch(
                kind,
                std::mem::take(&mut out),
                decoder.take_entries(),
                std::mem::take(&mut err),
            );
            for piece in &pieces {
                if let Some(entry) = &piece.entry {
                    tracker.observe(entry);
                    watching.observe(entry);
                }
            }
            // `shown` is what the session row holds: written only when it changes,
            // and never cleared (the last step stays the session's activity).
            let now = tracker.current();
            let activity_due =
                closed || last_activity.is_none_or(|at| Instant::now() >= at + ACTIVITY_EVERY);
            let new_activity = match &now {
                Some((kind, text)) if now != shown && activity_due => Some(Activity {
                    kind: *kind,
                    text: text.clone(),
                    at: inner.clock.timestamp(),
                }),
                _ => None,
            };
            let changed = new_activity.is_some();
            let meta = (saved_meta.as_ref() != Some(&decoder.meta)).then(|| decoder.meta.clone());
            let at = inner.clock.timestamp();
            let flush = Flush {
                session_id: id.clone(),
                turn,
                at: at.clone(),
                pieces,
                meta,
                activity: new_activity,
            };
            // A failed flush loses only this batch; the turn's outcome is still recorded.
            let stored = inner.output.flushes.store(&inner.db, flush).await;
            let flushed = stored.is_ok();
            match stored {
                Ok(stored) => {
                    if saved_meta.as_ref() != Some(&decoder.meta) {
                        saved_meta = Some(decoder.meta.clone());
                    }
                    inner.announce_stored(&id, &account_id, turn, &at, stored);
                }
                Err(error) => {
                    tracing::warn!(%error, session = %id, "a batch of output was not stored")
                }
            }
            if flushed && changed {
                shown = now.clone();
                inner.announce(&id, &account_id, Status::Running);
                last_activity = Some(Instant::now());
            }
            last_flush = Some(Instant::now());
            // A change held back still gets made, even if no output follows;
            // after a failed write, with the next output (retrying at once
            // would spin on a full disk).
            deadline = match last_activity {
                Some(at) if flushed && now != shown => Some(at + ACTIVITY_EVERY),
                _ => None,
            };
        }
        if closed {
            let tail = String::from_utf8_lossy(&err_tail).into_owned();
            return (decoder.meta, tail);
        }
    }
}

/// One flush's rows in the order they happened (stderr last: its order
/// against stdout within one flush is not known). A `command` engine's stdout
/// is stored once, as its `stdout` entry; Claude's and Codex's reply text is a
/// `reply` row beside their typed entries.
fn batch(kind: EngineKind, out: String, entries: Vec<EntryBody>, err: String) -> Vec<Piece> {
    let mut pieces = Vec::with_capacity(entries.len() + 2);
    if !out.is_empty() {
        pieces.push(match kind {
            EngineKind::Command => Piece {
                stream: "out",
                entry: Some(EntryBody::Stdout { text: out.clone() }),
                text: out,
            },
            EngineKind::Claude | EngineKind::Codex => Piece {
                stream: "reply",
                text: out,
                entry: None,
            },
        });
    }
    pieces.extend(entries.into_iter().map(Piece::entry));
    if !err.is_empty() {
        pieces.push(Piece {
            stream: "err",
            entry: Some(EntryBody::Stderr { text: err.clone() }),
            text: err,
        });
    }
    pieces
}
