//! A turn on a runner host (docs/runners.md): the same transcript, stop and
//! judgement as a local turn, with the process on the other end of an SSH
//! channel. Only the start and the process handle differ; the output goes
//! through the same pump.

use std::os::unix::process::ExitStatusExt;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::timeout;

use crate::adapters::TurnMeta;
use crate::db::{self, NextTurn};
use crate::engines::EngineKind;
use crate::error::Result;
use crate::model::{Status, Trigger};
use crate::state::{EndRequest, Inner, RemotePlace};
use crate::turn::{
    BELOW_NORMAL_NICE, DRAIN_GRACE, STOP_GRACE, Stream, TurnContext, TurnEnd, close_turn,
    engine_label, fail_unstarted, judge, pump, record_start, wait_for_request,
};
use crate::watchdog::{Watch, Watching};

/// How long a stopped turn's end is awaited once it was killed: a host that
/// went away cannot say, and the helper's keeper ends the group anyway.
const KILL_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

pub(crate) async fn run(
    ctx: &TurnContext<'_>,
    next: &NextTurn,
    stop: &mut watch::Receiver<Option<EndRequest>>,
) -> Result<TurnEnd> {
    let (text, placed) = crate::prompts::place(ctx.spec.kind, next.added.as_deref(), &next.text);
    let Some(runners) = ctx.inner.runners.clone() else {
        let message = format!(
            "the session runs on runner `{}`, but runners are off on this server",
            ctx.runner
        );
        return fail_unstarted(ctx, next.turn, message).await;
    };
    if let Some(request) = wait_for_room(ctx, &runners, stop).await? {
        // Ended while it waited: no process was started, the turn was not.
        let outcome = TurnEnd::Ended(request);
        return close_turn(ctx, next.turn, outcome, &TurnMeta::default(), None).await;
    }
    let ready = match runners.ensure(ctx.runner).await {
        Ok(ready) => ready,
        Err(reason) => {
            let message = format!("runner `{}` is unreachable: {reason}", ctx.runner);
            return fail_unstarted(ctx, next.turn, message).await;
        }
    };
    let place = RemotePlace {
        control_url: format!("http://127.0.0.1:{}", ready.tunnel_port),
        hook_program: ready.remote_exe.replace("$HOME", &ready.home),
    };
    let mut extra = ctx
        .inner
        .turn_args
        .as_ref()
        .map(|args| {
            args.turn_args(
                ctx.session_id,
                ctx.spec,
                ctx.trigger,
                ctx.permission_level,
                Some(&place),
            )
        })
        .unwrap_or_default();
    extra.extend(placed);
    let argv = ctx.spec.argv(&text, next.resume(), &extra);
    let mut env: Vec<(String, String)> = ctx
        .spec
        .env
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    env.extend([
        ("APP_CLI_TOKEN".to_owned(), ctx.token.to_owned()),
        ("APP_SESSION_ID".to_owned(), ctx.session_id.to_owned()),
        ("APP_TURN".to_owned(), next.turn.to_string()),
        ("APP_CONTROL_URL".to_owned(), place.control_url.clone()),
    ]);
    env.extend(crate::turn::app_env(ctx));
    let locked_down = ctx.locked_down || ctx.trigger == Some(Trigger::Email);
    let hardened = ctx
        .inner
        .governance
        .as_ref()
        .is_some_and(|g| g.hardened_remote_sessions());
    let header = runners::TurnHeader {
        key: format!("{}-{}", ctx.session_id, next.turn),
        session_id: ctx.session_id.to_owned(),
        argv,
        env,
        cwd: (ctx.cwd != "~" && !ctx.cwd.is_empty()).then(|| ctx.cwd.to_owned()),
        stdin: (ctx.spec.kind == EngineKind::Command).then(|| text.clone()),
        confine: runners::Confine {
            hide_sensitive: ctx.spec.kind == EngineKind::Command || locked_down,
            connect_ports: (locked_down || hardened).then(|| {
                std::iter::once(ready.tunnel_port)
                    .chain(crate::confine::model_port(ctx.spec))
                    .collect()
            }),
            unsafe_allow_unsandboxed: ctx.spec.unsafe_allow_unsandboxed,
        },
        nice: ctx
            .inner
            .governance
            .as_ref()
            .is_some_and(|g| g.below_normal_priority())
            .then_some(BELOW_NORMAL_NICE),
        own_home: hardened,
    };
    let turn = match runners.start_turn(ctx.runner, header).await {
        Ok(turn) => turn,
        Err(reason) => {
            let message = format!(
                "{} could not be started on the runner `{}`: {reason}",
                engine_label(ctx.engine, ctx.spec),
                ctx.runner
            );
            return fail_unstarted(ctx, next.turn, message).await;
        }
    };
    let reason = format!(
        "turn {} started on runner {} (pid {})",
        next.turn, ctx.runner, turn.pgid
    );
    record_start(ctx, Some(turn.pgid), reason).await?;
    follow(ctx, next, stop, &runners, turn).await
}

/// The session ended: the runner lets go of what it kept for it alone.
pub(crate) async fn session_ended(inner: &Arc<Inner>, id: &str) {
    let Some(runners) = &inner.runners else {
        return;
    };
    let owned = id.to_owned();
    let runner = inner
        .read(move |tx| db::engine_spec(tx, &owned))
        .await
        .map(|(_, _, _, runner)| runner);
    if let Ok(runner) = runner
        && runner != runners::LOCAL
        && let Err(reason) = runners.end_session(&runner, id).await
    {
        tracing::warn!(
            session = id,
            runner,
            "the runner could not clear the session's home: {reason}"
        );
    }
}

/// `max_sessions`: while the runner runs as many sessions as it may, the
/// session waits queued, saying why, and looks again whenever a session's
/// status changes. Returns the end request that came meanwhile, if any.
async fn wait_for_room(
    ctx: &TurnContext<'_>,
    runners: &runners::Runners,
    stop: &mut watch::Receiver<Option<EndRequest>>,
) -> Result<Option<EndRequest>> {
    let mut changes = ctx.inner.updates.subscribe();
    let mut queued = false;
    loop {
        let room = ctx.inner.room.lock().await;
        let running = ctx.inner.read(db::running_by_runner).await?;
        // This session is `starting` itself: it does not count against
        // the room it waits for.
        let others = running
            .get(ctx.runner)
            .copied()
            .unwrap_or(0)
            .saturating_sub(u32::from(!queued));
        if runners.has_room(ctx.runner, others) {
            if queued {
                let reason = format!("room on runner {}", ctx.runner);
                ctx.inner
                    .move_to(ctx.session_id, ctx.account_id, Status::Starting, reason)
                    .await?;
            }
            return Ok(None);
        }
        drop(room);
        if !queued {
            queued = true;
            let reason = format!(
                "waiting for room on runner {} ({others} sessions running, the most it takes)",
                ctx.runner
            );
            ctx.inner
                .move_to(ctx.session_id, ctx.account_id, Status::Queued, reason)
                .await?;
        }
        tokio::select! {
            request = wait_for_request(stop) => return Ok(Some(request)),
            changed = changes.recv() => {
                if matches!(changed, Err(tokio::sync::broadcast::error::RecvError::Closed)) {
                    return Ok(Some(EndRequest::Shutdown));
                }
            }
        }
    }
}

/// Picks up turn `next` that a server before this one started on the
/// runner: its output so far is read again from the start of the spool
/// (what was stored of it is dropped first, so nothing shows twice), then
/// the turn goes on as if the server had never stopped.
pub(crate) async fn reattach(
    ctx: &TurnContext<'_>,
    next: &NextTurn,
    stop: &mut watch::Receiver<Option<EndRequest>>,
) -> Result<TurnEnd> {
    let Some(runners) = ctx.inner.runners.clone() else {
        let message = format!(
            "the session runs on runner `{}`, but runners are off on this server",
            ctx.runner
        );
        return fail_unstarted(ctx, next.turn, message).await;
    };
    let key = format!("{}-{}", ctx.session_id, next.turn);
    let turn = match runners.attach_turn(ctx.runner, &key).await {
        Ok(turn) => turn,
        Err(reason) => {
            let message = format!(
                "the turn on runner `{}` could not be picked up after the server restarted: {reason}",
                ctx.runner
            );
            return fail_unstarted(ctx, next.turn, message).await;
        }
    };
    let (id, number) = (ctx.session_id.to_owned(), next.turn);
    ctx.inner
        .write(move |tx| db::clear_turn_output(tx, &id, number))
        .await?;
    let reason = format!(
        "turn {} picked up again on runner {} after the server restarted",
        next.turn, ctx.runner
    );
    ctx.inner
        .move_to(ctx.session_id, ctx.account_id, Status::Running, reason)
        .await?;
    follow(ctx, next, stop, &runners, turn).await
}

/// Streams a started turn into the transcript until it ends or is stopped,
/// and records how it ended.
async fn follow(
    ctx: &TurnContext<'_>,
    next: &NextTurn,
    stop: &mut watch::Receiver<Option<EndRequest>>,
    runners: &runners::Runners,
    mut turn: runners::RemoteTurn,
) -> Result<TurnEnd> {
    let (chunks_tx, chunks_rx) = mpsc::channel(32);
    let (exit_tx, mut exit_rx) = oneshot::channel::<std::result::Result<runners::Exit, String>>();
    let mut output = std::mem::replace(&mut turn.output, mpsc::channel(1).1);
    let forward = tokio::spawn(async move {
        let mut exit_tx = Some(exit_tx);
        while let Some(item) = output.recv().await {
            let (stream, bytes) = match item {
                runners::Output::Stdout(bytes) => (Stream::Out, bytes),
                runners::Output::Stderr(bytes) => (Stream::Err, bytes),
                runners::Output::Exit(exit) => {
                    if let Some(tx) = exit_tx.take() {
                        let _ = tx.send(Ok(exit));
                    }
                    return;
                }
                runners::Output::Lost(reason) => {
                    if let Some(tx) = exit_tx.take() {
                        let _ = tx.send(Err(reason));
                    }
                    return;
                }
            };
            if chunks_tx.send((stream, bytes)).await.is_err() {
                return;
            }
        }
    });
    let watch = Watch::new(ctx.inner.clock.now());
    let pump = tokio::spawn(pump(
        Arc::clone(ctx.inner),
        ctx.session_id.to_owned(),
        ctx.account_id.to_owned(),
        next.turn,
        ctx.spec.kind,
        chunks_rx,
        Watching { watch, loops: None },
    ));

    let mut ended_by: Option<EndRequest> = None;
    let ended = tokio::select! {
        exit = &mut exit_rx => exit.unwrap_or_else(|_| Err("the runner stream ended".to_owned())),
        request = wait_for_request(stop) => {
            ended_by = Some(request);
            turn.signal(libc::SIGTERM);
            match timeout(STOP_GRACE, &mut exit_rx).await {
                Ok(exit) => exit.unwrap_or_else(|_| Err("the runner stream ended".to_owned())),
                Err(_) => {
                    turn.signal(libc::SIGKILL);
                    match timeout(KILL_WAIT, &mut exit_rx).await {
                        Ok(exit) => exit.unwrap_or_else(|_| Err("the runner stream ended".to_owned())),
                        Err(_) => Err("the runner did not confirm the engine's end".to_owned()),
                    }
                }
            }
        }
    };
    if ended_by.is_some() {
        // What left the engine's group on that host goes too.
        let _ = runners
            .kill_leftovers(ctx.runner, vec![ctx.session_id.to_owned()])
            .await;
    }
    let (meta, stderr_tail) = match timeout(DRAIN_GRACE, pump).await {
        Ok(joined) => joined.unwrap_or_default(),
        Err(_) => {
            forward.abort();
            (TurnMeta::default(), String::new())
        }
    };
    let status = match &ended {
        Ok(exit) => Ok(match (exit.code, exit.signal) {
            (Some(code), _) => std::process::ExitStatus::from_raw((code & 0xff) << 8),
            (None, Some(signal)) => std::process::ExitStatus::from_raw(signal & 0x7f),
            (None, None) => std::process::ExitStatus::from_raw(0xff << 8),
        }),
        Err(reason) => Err(std::io::Error::other(format!(
            "runner `{}`: {reason}",
            ctx.runner
        ))),
    };
    let exit_code = status.as_ref().ok().and_then(|s| s.code());
    let outcome = match (ended_by, &ended) {
        (Some(request), _) => TurnEnd::Ended(request),
        (None, Err(reason)) => TurnEnd::Lost(format!("runner `{}`: {reason}", ctx.runner)),
        (None, Ok(_)) => judge(ctx.spec.kind, &status, &meta, &stderr_tail),
    };
    close_turn(ctx, next.turn, outcome, &meta, exit_code).await
}
