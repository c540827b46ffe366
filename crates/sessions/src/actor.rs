//! One active session's life: how it begins (at once, at its spawn-spacing
//! slot, or coming back paced), then its turns as inputs arrive, and what a
//! failed turn becomes, until it ends or the server stops.

use std::sync::Arc;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tokio::sync::{Notify, watch};

use crate::confine::Confinement;
use crate::db;
use crate::engines::{self, EngineKind, EngineSpec};
use crate::error::{Result, SessionError};
use crate::model::{EntryBody, InputSource, NoticeSource, Status, Trigger};
use crate::pages::{self, Piece};
use crate::recovery::{self, Recovery, Switches};
use crate::state::{EndRequest, Inner, TokenAccess};
use crate::turn::{ContextUse, TurnContext, TurnEnd, run_turn};

/// Watchdog restarts (stalls, loops) in a row before a session is left
/// interrupted instead: something is wrong that relaunching does not fix.
const MAX_RESTARTS: u32 = 3;
/// Compactions one actor makes before a context that still does not fit fails.
const MAX_COMPACTIONS: u32 = 3;

const COMPACT_NOTICE: &str =
    "The context window was full: compacting it (/compact), then continuing the task.";
const AFTER_COMPACT: &str =
    "Your context was compacted because it was full. Continue the task where you left off.";

/// How a session's actor begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Start {
    /// The user's own start, or a restored wait for input: never delayed.
    Now,
    /// A spawn by an agent or a script: its spawn-spacing slot, and held
    /// while memory is short.
    Burst,
    /// Back after a crash, a refill or a recovery: held while memory is
    /// short, and paced with the others returning.
    Returning,
    /// A turn on a runner host that went on while the server was down:
    /// picked up where it is, at once.
    Reattach,
}

/// One active session's life: wait for its start slot, then run turns as
/// inputs arrive until it fails or is ended. Returns the final status to
/// record, or `None` when the server is shutting down (status kept).
pub(crate) async fn actor(
    inner: &Arc<Inner>,
    id: &str,
    account_id: &str,
    start: Start,
    mut end: watch::Receiver<Option<EndRequest>>,
    wake: Arc<Notify>,
) -> Result<Option<(Status, String)>> {
    match start {
        Start::Now | Start::Reattach => {}
        Start::Burst => {
            if let Some(governance) = &inner.governance {
                tokio::select! {
                    held = inner.hold_while_memory_short(id, account_id, governance.as_ref()) => held?,
                    request = wait_end(&mut end) => return Ok(ended_while_idle(request, true)),
                }
            }
            // Its spawn-spacing slot.
            let owned = id.to_owned();
            if let Some(at) = inner.read(move |tx| db::starts_at(tx, &owned)).await?
                && let Ok(at) = OffsetDateTime::parse(&at, &Rfc3339)
            {
                tokio::select! {
                    () = inner.clock.sleep_until(at) => {}
                    request = wait_end(&mut end) => return Ok(ended_while_idle(request, true)),
                }
            }
        }
        Start::Returning => {
            if let Some(request) = come_back(inner, id, account_id, &mut end, &wake).await? {
                return Ok(ended_while_idle(request, true));
            }
        }
    }
    let owned = id.to_owned();
    // The trigger and a pinned level are fixed at spawn: read once, not at
    // every turn.
    let ((spec, cwd, engine, runner), (trigger, permission_level)) = inner
        .read(move |tx| {
            Ok((
                db::engine_spec(tx, &owned)?,
                db::permissions_of(tx, &owned)?,
            ))
        })
        .await?;
    let spec: EngineSpec = serde_json::from_str(&spec).map_err(|e| {
        SessionError::InvalidInput(format!("stored engine spec is unreadable: {e}"))
    })?;
    // The demo engine is the server's own binary: a session made by an
    // earlier `serve --demo` from another path (rebuilt, moved, upgraded)
    // runs this one's, not a path that may be gone.
    let spec = match inner.builtin_engines.get(&engine) {
        Some(builtin) if engines::is_demo(&spec) && engines::is_demo(builtin) => builtin.clone(),
        _ => spec,
    };
    let mut token: Option<String> = None;
    // Overload retries in a row: each one's gap is longer.
    let mut overloads = 0;
    // Watchdog restarts in a row: past [`MAX_RESTARTS`] the session is interrupted.
    let mut restarts = 0;
    // Compactions this actor made: past [`MAX_COMPACTIONS`] a full context fails.
    let mut compactions = 0;
    // The context the last turn ended with, to warn once per threshold crossed.
    let mut context_used = 0;
    let mut picking_up = start == Start::Reattach;
    loop {
        if let Some(request) = *end.borrow() {
            return Ok(ended_while_idle(request, false));
        }
        let reopened = if std::mem::take(&mut picking_up) {
            let owned = id.to_owned();
            inner.read(move |tx| db::open_turn(tx, &owned)).await?
        } else {
            None
        };
        let reattaching = reopened.is_some();
        let next = match reopened {
            Some(next) => next,
            None => {
                let owned = id.to_owned();
                let now = inner.clock.timestamp();
                let at = now.clone();
                let next = inner
                    .write(move |tx| {
                        let Some(next) = db::take_input(tx, &owned, &now)? else {
                            return Ok(None);
                        };
                        // Stored with the turn, so the typed transcript shows what
                        // each turn answered even to a reader who was not watching.
                        let input = EntryBody::Input {
                            text: next.text.clone(),
                            source: InputSource::of_turn_kind(&next.kind),
                        };
                        let stored =
                            pages::append(tx, &owned, next.turn, &now, vec![Piece::entry(input)])?;
                        // In the same transaction as the turn's row, so no reader
                        // sees the new turn counted on a session still waiting.
                        let reason = format!("turn {} begins", next.turn);
                        let moved = db::set_status(tx, &owned, Status::Starting, &reason, &now)?;
                        Ok(Some((next, stored, moved)))
                    })
                    .await?;
                let Some((next, stored, moved)) = next else {
                    inner
                        .move_to(
                            id,
                            account_id,
                            Status::WaitingForInput,
                            "turn ended".to_owned(),
                        )
                        .await?;
                    tokio::select! {
                        () = wake.notified() => {}
                        _ = wait_end(&mut end) => {}
                    }
                    continue;
                };
                inner.send_update(id, account_id, Status::Starting, moved);
                inner.announce_stored(id, account_id, next.turn, &at, stored);
                next
            }
        };
        let access = if trigger == Some(Trigger::Ask) {
            TokenAccess::ReadOnly
        } else {
            TokenAccess::Full
        };
        let token = token.get_or_insert_with(|| inner.issuer.mint(account_id, id, access));
        // Asked at each turn, so a new level reaches the next turn's flags.
        let extra_args = match &inner.turn_args {
            Some(args) => args.turn_args(id, &spec, trigger, permission_level, None),
            None => Vec::new(),
        };
        let context = TurnContext {
            extra_args: &extra_args,
            inner,
            session_id: id,
            account_id,
            engine: &engine,
            spec: &spec,
            cwd: &cwd,
            token,
            locked_down: trigger == Some(Trigger::Email),
            runner: &runner,
            trigger,
            permission_level,
        };
        if runner == runners::LOCAL {
            note_version(inner, id, &engine, &spec, &cwd, context.locked_down);
        }
        let ended = if reattaching {
            crate::remote_turn::reattach(&context, &next, &mut end).await?
        } else if runner == runners::LOCAL {
            run_turn(&context, &next, &mut end).await?
        } else {
            crate::remote_turn::run(&context, &next, &mut end).await?
        };
        // After the turn: its start reached the host, whose probe read it.
        if runner != runners::LOCAL {
            note_remote_version(inner, id, &runner, &engine, &spec).await;
        }
        match ended {
            TurnEnd::Done(context) => {
                overloads = 0;
                restarts = 0;
                if let Some(context) = context {
                    let warning = context_warning(inner, context_used, &context);
                    context_used = context.used;
                    if let Some(text) = warning {
                        notice(inner, id, account_id, next.turn, text).await?;
                    }
                }
            }
            TurnEnd::Restart(trip) => {
                restarts += 1;
                if restarts > MAX_RESTARTS {
                    let reason =
                        format!("stuck {MAX_RESTARTS} turns in a row; last: {}", trip.reason);
                    return Ok(Some((Status::Interrupted, reason)));
                }
                notice(
                    inner,
                    id,
                    account_id,
                    next.turn,
                    format!("The turn was {}.", trip.reason),
                )
                .await?;
                // The note is the next turn's input: the transcript shows it.
                let (owned, now) = (id.to_owned(), inner.clock.timestamp());
                inner
                    .write(move |tx| db::push_input(tx, &owned, "nudge", &trip.note, None, &now))
                    .await?;
                inner
                    .move_to(id, account_id, Status::Starting, trip.reason)
                    .await?;
            }
            TurnEnd::Failed(message) => {
                let switches = inner
                    .governance
                    .as_ref()
                    .map(|g| Switches {
                        relaunch_overloads: g.relaunch_overloads(),
                        recover_full_context: g.recover_full_context(),
                    })
                    .unwrap_or_default();
                match recovery::after_failure(&message, inner.clock.now(), switches, overloads) {
                    Recovery::Fail => return Ok(Some((Status::Failed, message))),
                    Recovery::Compact => {
                        compactions += 1;
                        if compactions > MAX_COMPACTIONS {
                            return Ok(Some((Status::Failed, message)));
                        }
                        notice(inner, id, account_id, next.turn, COMPACT_NOTICE.to_owned()).await?;
                        let (owned, now) = (id.to_owned(), inner.clock.timestamp());
                        inner
                            .write(move |tx| {
                                db::push_input(tx, &owned, "nudge", "/compact", None, &now)?;
                                db::push_input(tx, &owned, "nudge", AFTER_COMPACT, None, &now)
                            })
                            .await?;
                        context_used = 0;
                    }
                    Recovery::Interrupt(reason) => {
                        return Ok(Some((Status::Interrupted, reason)));
                    }
                    Recovery::WaitUntil {
                        at,
                        reason,
                        overload,
                    } => {
                        overloads = if overload { overloads + 1 } else { 0 };
                        notice(
                            inner,
                            id,
                            account_id,
                            next.turn,
                            format!("Interrupted by {reason}."),
                        )
                        .await?;
                        let (owned, until) = (id.to_owned(), clock::timestamp(at));
                        let now = inner.clock.timestamp();
                        inner
                            .write(move |tx| {
                                recovery::requeue_last_input(tx, &owned)?;
                                recovery::set_resume_at(tx, &owned, Some(&until))?;
                                db::set_status(tx, &owned, Status::Interrupted, &reason, &now)
                            })
                            .await?;
                        inner.send_moved(id, account_id, Status::Interrupted);
                        if let Some(request) =
                            come_back(inner, id, account_id, &mut end, &wake).await?
                        {
                            return Ok(ended_while_idle(request, true));
                        }
                    }
                }
            }
            // The governor's revive brings it back, as any interrupted session.
            TurnEnd::Lost(reason) => return Ok(Some((Status::Interrupted, reason))),
            TurnEnd::Ended(EndRequest::Shutdown) => return Ok(None),
            TurnEnd::Ended(EndRequest::Stop) => {
                return Ok(Some((Status::Stopped, "stopped during a turn".to_owned())));
            }
            TurnEnd::Ended(EndRequest::Archive) => {
                return Ok(Some((Status::Stopped, "archived during a turn".to_owned())));
            }
            TurnEnd::Ended(EndRequest::Pause) => {
                return Ok(Some((Status::Paused, "paused during a turn".to_owned())));
            }
        }
    }
}

/// A session coming back by itself or through the governor: it waits for
/// its `resumeAt` if it has one (a usage limit's reset, an overload's retry;
/// the user's resume wakes it early), then while memory is short, then for
/// its paced slot among the others returning. Returns the end request that
/// came meanwhile, if one did.
async fn come_back(
    inner: &Arc<Inner>,
    id: &str,
    account_id: &str,
    end: &mut watch::Receiver<Option<EndRequest>>,
    wake: &Notify,
) -> Result<Option<EndRequest>> {
    let owned = id.to_owned();
    let resume_at = inner
        .read(move |tx| recovery::resume_at(tx, &owned))
        .await?
        .and_then(|at| OffsetDateTime::parse(&at, &Rfc3339).ok());
    if let Some(at) = resume_at {
        let resumed_by_user = tokio::select! {
            () = inner.clock.sleep_until(at) => false,
            () = wake.notified() => true,
            request = wait_end(end) => return Ok(Some(request)),
        };
        let owned = id.to_owned();
        inner
            .write(move |tx| recovery::set_resume_at(tx, &owned, None))
            .await?;
        // The user's own resume is never held nor paced.
        if resumed_by_user {
            return Ok(None);
        }
        inner
            .move_to(
                id,
                account_id,
                Status::Queued,
                "returning, paced with the others".to_owned(),
            )
            .await?;
    }
    let Some(governance) = &inner.governance else {
        return Ok(None);
    };
    let paced = async {
        inner
            .hold_while_memory_short(id, account_id, governance.as_ref())
            .await?;
        let slot = inner
            .pacer
            .wait_turn(inner.clock.as_ref(), governance.as_ref())
            .await;
        let (owned, at) = (id.to_owned(), clock::timestamp(slot));
        inner
            .write(move |tx| db::set_starts_at(tx, &owned, &at))
            .await
    };
    tokio::select! {
        paced = paced => paced.map(|()| None),
        request = wait_end(end) => Ok(Some(request)),
    }
}

fn ended_while_idle(request: EndRequest, queued: bool) -> Option<(Status, String)> {
    match (request, queued) {
        (EndRequest::Shutdown, _) => None,
        (EndRequest::Stop, true) => Some((Status::Stopped, "stopped before it started".to_owned())),
        (EndRequest::Archive, true) => {
            Some((Status::Stopped, "archived before it started".to_owned()))
        }
        (EndRequest::Stop, false) => Some((Status::Stopped, "stopped".to_owned())),
        (EndRequest::Archive, false) => Some((Status::Finished, "archived".to_owned())),
        (EndRequest::Pause, _) => Some((Status::Paused, "paused by the user".to_owned())),
    }
}

pub(crate) async fn wait_end(end: &mut watch::Receiver<Option<EndRequest>>) -> EndRequest {
    loop {
        if let Some(request) = *end.borrow_and_update() {
            return request;
        }
        if end.changed().await.is_err() {
            return std::future::pending().await;
        }
    }
}

/// The note for a context that just crossed 75 % or 90 % of its model's
/// window (as the engine stated it, else from the table), when that warning
/// is on; a model with neither gets none.
fn context_warning(inner: &Inner, before: u64, context: &ContextUse) -> Option<String> {
    let window = resilience::context_window(&context.model, context.window)?;
    let threshold = resilience::threshold_crossed(before, context.used, window)?;
    inner
        .governance
        .as_ref()
        .is_some_and(|g| g.context_warning(threshold))
        .then(|| resilience::note(threshold, context.used, window))
}

/// A line from Switchboard in the session's transcript, stored with `turn`
/// and announced like the engine's own entries.
async fn notice(
    inner: &Arc<Inner>,
    id: &str,
    account_id: &str,
    turn: i64,
    text: String,
) -> Result<()> {
    let owned = id.to_owned();
    let at = inner.clock.timestamp();
    let stored_at = at.clone();
    let stored = inner
        .write(move |tx| {
            pages::append(
                tx,
                &owned,
                turn,
                &stored_at,
                vec![Piece::entry(EntryBody::Notice {
                    text,
                    source: NoticeSource::Switchboard,
                })],
            )
        })
        .await?;
    inner.announce_stored(id, account_id, turn, &at, stored);
    Ok(())
}

/// Looks up (or reads) the version of the session's engine beside the turn
/// and records it when it changed; never in the turn's way, never its failure.
/// The engine's version on its runner host, as the host's last probe read
/// it (`--version` there), parsed as a local one is.
async fn note_remote_version(
    inner: &Arc<Inner>,
    session_id: &str,
    runner: &str,
    engine: &str,
    spec: &EngineSpec,
) {
    if spec.kind == EngineKind::Command {
        return;
    }
    let Some(version) = inner
        .runners
        .as_ref()
        .and_then(|runners| runners.engine_version(runner, engine))
        .and_then(|printed| crate::versions::parse_version(&printed))
    else {
        return;
    };
    let owned = session_id.to_owned();
    // A failed write only loses the version, which the next turn writes.
    let _ = inner
        .write(move |tx| db::set_engine_version(tx, &owned, &version))
        .await;
}

fn note_version(
    inner: &Arc<Inner>,
    session_id: &str,
    engine: &str,
    spec: &EngineSpec,
    cwd: &str,
    locked_down: bool,
) {
    if spec.kind == EngineKind::Command {
        return;
    }
    let runtime = inner.runtime.clone();
    let (inner, id, engine, spec, cwd) = (
        Arc::clone(inner),
        session_id.to_owned(),
        engine.to_owned(),
        spec.clone(),
        cwd.to_owned(),
    );
    runtime.spawn(async move {
        let confinement = Confinement {
            data_dir: &inner.data_dir,
            session_id: &id,
            engine: &engine,
            spec: &spec,
            control_url: inner.control_url.as_deref(),
            locked_down,
        };
        let Some(version) = inner.versions.version(&confinement, &cwd).await else {
            return;
        };
        let owned = id.clone();
        // A failed write only loses the version, which the next turn writes.
        let _ = inner
            .write(move |tx| db::set_engine_version(tx, &owned, &version))
            .await;
    });
}
