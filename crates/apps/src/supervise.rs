//! A started app's processes: spawned in a process group of their own,
//! their output kept, their exit watched, a quick crash restarted after a
//! backoff, and the whole group ended on stop.

use std::os::unix::process::ExitStatusExt;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use clock::Clock;
use time::OffsetDateTime;
use tokio::process::Child;
use tokio::sync::oneshot;

use crate::model::{CRASH_LOOP_STARTS, QUICK_EXIT, StartSpec, State};
use crate::output::Output;
use crate::table::{RunChange, Table};

/// How long a stopped group has to end on SIGTERM before SIGKILL. Real
/// time, not the clock: it waits on processes, not a rule tests move.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// How often a group that was asked to end is looked at.
const GROUP_POLL: Duration = Duration::from_millis(20);

/// A spawned app process, the leader of its process group.
pub struct Spawned {
    pub child: Child,
    pub pid: u32,
    /// On the clock: how long it ran tells a crash from an app that ended.
    pub started: OffsetDateTime,
}

/// Starts `spec`'s command with no input, its output kept in `output`, in
/// a process group of its own (so stopping it reaches what it started), and
/// not killed with its handle: the watching task decides when it ends.
pub fn spawn(spec: &StartSpec, output: &Output, clock: &dyn Clock) -> Result<Spawned, String> {
    let mut command = (spec.launch)().map_err(|error| error.to_string())?;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(false);
    let mut child = command.spawn().map_err(|error| error.to_string())?;
    let pid = child
        .id()
        .ok_or_else(|| "the process was gone before it could be watched".to_owned())?;
    if let Some(stdout) = child.stdout.take() {
        tokio::spawn(output.clone().pump(stdout));
    }
    if let Some(stderr) = child.stderr.take() {
        tokio::spawn(output.clone().pump(stderr));
    }
    Ok(Spawned {
        child,
        pid,
        started: clock.now(),
    })
}

/// What one run of a started app needs to be watched.
pub struct Watch {
    pub table: Arc<Table>,
    pub name: String,
    pub run_id: u64,
    pub spec: Arc<StartSpec>,
    pub output: Output,
    pub stop: oneshot::Receiver<()>,
}

/// Watches a started app until it ends for good: stopped, finished after a
/// long enough run, or failing after [`CRASH_LOOP_STARTS`] quick exits in a
/// row, each quick exit restarted after 1 s, 2 s, 4 s, … on the clock.
pub async fn supervise(mut watch: Watch, first: Spawned) {
    let mut current = Some(first);
    let mut quick_exits = 0u32;
    loop {
        let (started, exit_status) = match current.take() {
            Some(mut spawned) => {
                let pgid = group_of(spawned.pid);
                tokio::select! {
                    status = spawned.child.wait() => {
                        end_group(pgid).await;
                        (spawned.started, status.ok().and_then(exit_code))
                    }
                    _ = &mut watch.stop => {
                        let status = stop_group(&mut spawned.child, pgid).await;
                        end(&watch, State::Exited, status.and_then(exit_code));
                        return;
                    }
                }
            }
            // Could not be started again: as quick an exit as any.
            None => (watch.table.clock.now(), None),
        };
        if watch.table.clock.now() - started >= QUICK_EXIT {
            end(&watch, State::Exited, exit_status);
            return;
        }
        quick_exits += 1;
        if quick_exits >= CRASH_LOOP_STARTS {
            if let Some(app) = end(&watch, State::Failing, exit_status) {
                watch.table.report_failing(&app);
            }
            return;
        }
        watch.table.update_run(
            &watch.name,
            watch.run_id,
            RunChange::Waiting { exit_status },
        );
        let backoff = time::Duration::seconds(1 << (quick_exits - 1));
        tokio::select! {
            () = watch.table.clock.sleep(backoff) => {}
            _ = &mut watch.stop => {
                end(&watch, State::Exited, exit_status);
                return;
            }
        }
        match spawn(&watch.spec, &watch.output, watch.table.clock.as_ref()) {
            Ok(spawned) => {
                let pid = spawned.pid;
                current = Some(spawned);
                watch
                    .table
                    .update_run(&watch.name, watch.run_id, RunChange::Running { pid });
            }
            Err(error) => watch
                .output
                .push(format!("could not be started again: {error}")),
        }
    }
}

fn end(watch: &Watch, state: State, exit_status: Option<i32>) -> Option<crate::model::App> {
    watch.table.update_run(
        &watch.name,
        watch.run_id,
        RunChange::Ended { state, exit_status },
    )
}

/// The exit code, or 128 + the signal that ended it, as shells report it.
fn exit_code(status: ExitStatus) -> Option<i32> {
    status
        .code()
        .or_else(|| status.signal().map(|signal| 128 + signal))
}

/// A process group's id from its leader's pid; 0 (never signalled) for a
/// pid `pid_t` cannot hold, which Linux never hands out.
fn group_of(pid: u32) -> libc::pid_t {
    libc::pid_t::try_from(pid).unwrap_or(0)
}

/// Sends `signal` to the process group `pid` leads; whether it reached one.
pub fn signal_group(pid: u32, signal: libc::c_int) -> bool {
    signal_pgid(group_of(pid), signal)
}

/// Sends `signal` to process `pid` alone.
pub fn signal_process(pid: u32, signal: libc::c_int) -> bool {
    let pid = group_of(pid);
    // SAFETY: kill only reads its two integer arguments.
    pid > 1 && unsafe { libc::kill(pid, signal) } == 0
}

fn signal_pgid(pgid: libc::pid_t, signal: libc::c_int) -> bool {
    // A pgid of 0 or 1 would name the caller's own group or init's: never
    // signalled.
    // SAFETY: killpg only reads its two integer arguments.
    pgid > 1 && unsafe { libc::killpg(pgid, signal) } == 0
}

fn group_alive(pgid: libc::pid_t) -> bool {
    signal_pgid(pgid, 0)
}

/// Asks the group to end (SIGTERM), kills what is left after
/// [`STOP_GRACE`], and reaps the leader: how the leader ended.
async fn stop_group(child: &mut Child, pgid: libc::pid_t) -> Option<ExitStatus> {
    let deadline = tokio::time::Instant::now() + STOP_GRACE;
    signal_pgid(pgid, libc::SIGTERM);
    let status = match tokio::time::timeout_at(deadline, child.wait()).await {
        Ok(status) => status.ok(),
        Err(_) => {
            signal_pgid(pgid, libc::SIGKILL);
            child.wait().await.ok()
        }
    };
    finish_group(pgid, deadline).await;
    status
}

/// Ends what the leader, now gone, left behind in its group, so the port
/// is free for the next run.
async fn end_group(pgid: libc::pid_t) {
    if signal_pgid(pgid, libc::SIGTERM) {
        finish_group(pgid, tokio::time::Instant::now() + STOP_GRACE).await;
    }
}

async fn finish_group(pgid: libc::pid_t, deadline: tokio::time::Instant) {
    while group_alive(pgid) && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(GROUP_POLL).await;
    }
    if group_alive(pgid) {
        signal_pgid(pgid, libc::SIGKILL);
    }
}
