//! What goes on the live event stream, and when: the domain seams the server
//! listens to (session changes, stored output, the alarm scheduler) and the
//! writes its routes announce (settings, inbox rows, boards, alarms).
//!
//! Every event goes to the account it belongs to, except `settings`: settings
//! belong to the installation and every account may read them, so every
//! connected account hears of a change.

use std::collections::HashSet;
use std::sync::Arc;

use events::{Audience, Draft, Name};
use serde_json::json;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use crate::services::App;
use crate::stream_events::{
    AlarmChanged, BoardChanged, InboxEvent, OutputEvent, SettingChanged, TasksChanged,
};

/// About the most `output` data one publish holds (it takes whole batches,
/// at least one): a subscriber's buffer counts publishes, so this bounds
/// what a stalled one holds alive, and it keeps one that stops reading in
/// a flood cut off after about as much output as when each entry was a publish.
const MAX_PUBLISH_BYTES: usize = 32 << 10;

/// Starts the task that turns the sessions' broadcasts into events. One task
/// reads both, output first: the sessions crate sends a turn's last output
/// before the status move that ends it, so taking every waiting batch before
/// an update keeps that order on the stream (a client that sees
/// `waiting_for_input` has the turn's output). Output is never lost on the
/// way: the sessions' output feed drops nothing (it holds the engines back
/// instead), and every batch waiting when the task wakes goes to the hub as
/// one publish, so the more output waits, the fewer wake-ups and socket
/// writes each line costs. It ends when the server is asked to stop (it
/// holds the state, so the channels never close on their own).
pub(crate) fn forward_sessions(state: &App) {
    let mut updates = state.sessions.subscribe();
    let mut output = state.sessions.subscribe_output();
    let mut stop = state.stop.subscribe();
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                biased;
                // The watch's guard is not Send: drop it before any await below.
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                batch = output.recv() => match batch {
                    Some(batch) => output_stored(&state, batch, &mut output),
                    None => return,
                },
                update = updates.recv() => match update {
                    Ok(update) => {
                        let pending = with_queued(&state, update, &mut updates);
                        announce_sessions(&state, &mut output, pending).await;
                    }
                    Err(RecvError::Lagged(missed)) => lost(&state, missed),
                    Err(RecvError::Closed) => return,
                },
            }
        }
    });
}

/// `first` and every update already queued behind it, as the sessions to
/// announce, each once and in the order first seen. A busy session sends an
/// update per batch of output (its activity changed); under a burst of
/// them, reading each session once, at its latest, is what lets the
/// forwarder keep up with the channel instead of falling behind it (which
/// costs every client a `reset`).
fn with_queued(
    state: &App,
    first: sessions::SessionUpdate,
    updates: &mut broadcast::Receiver<sessions::SessionUpdate>,
) -> Vec<(String, String)> {
    let mut seen = HashSet::new();
    let mut pending = Vec::new();
    let mut add = |update: sessions::SessionUpdate| {
        if seen.insert(update.session_id.clone()) {
            pending.push((update.account_id, update.session_id));
        }
    };
    add(first);
    loop {
        match updates.try_recv() {
            Ok(update) => add(update),
            Err(TryRecvError::Lagged(missed)) => lost(state, missed),
            Err(TryRecvError::Empty | TryRecvError::Closed) => return pending,
        }
    }
}

/// Reads the sessions (one transaction for all of them) and announces each,
/// after the output that was waiting: the sessions were read after their
/// updates, so one may show a later status whose output is waiting here.
async fn announce_sessions(
    state: &App,
    output: &mut sessions::OutputReceiver,
    pending: Vec<(String, String)>,
) {
    let wanted = pending.len();
    match state.sessions.get_many(pending).await {
        Ok(read) => {
            while let Some(batch) = output.try_recv() {
                output_stored(state, batch, output);
            }
            if read.len() < wanted {
                tracing::debug!(
                    gone = wanted - read.len(),
                    "sessions changed and were gone before they were announced"
                );
            }
            // One publish, each row written straight from the struct: no
            // value tree per session, and none written inside the hub's
            // lock, which every publisher and stream waits on.
            let drafts: Vec<Draft> = read
                .iter()
                .filter_map(|session| match serde_json::to_string(session) {
                    Ok(data) => Some(Draft {
                        audience: Audience::Account(session.account_id.clone()),
                        name: Name::Session,
                        data,
                    }),
                    Err(error) => {
                        tracing::error!(%error, "a session event could not be written");
                        None
                    }
                })
                .collect();
            state.events.publish_all(drafts);
        }
        Err(error) => tracing::warn!(%error, "cannot read the changed sessions to announce them"),
    }
}

/// Runs `act` on a task of its own for each session update `wants`, in
/// order, until the server is asked to stop; what it reads never holds up
/// the stream's events. `who` names the listener in the log when a burst of
/// updates outran it.
pub(crate) fn on_session_updates<F, Fut>(
    state: &App,
    who: &'static str,
    wants: fn(&sessions::SessionUpdate) -> bool,
    act: F,
) where
    F: Fn(App, sessions::SessionUpdate) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let mut updates = state.sessions.subscribe();
    let mut stop = state.stop.subscribe();
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                biased;
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                update = updates.recv() => match update {
                    Ok(update) if wants(&update) => act(state.clone(), update).await,
                    Ok(_) => {}
                    Err(RecvError::Lagged(missed)) => tracing::warn!(
                        missed,
                        who,
                        "session updates were lost before a listener read them"
                    ),
                    Err(RecvError::Closed) => return,
                },
            }
        }
    });
}

/// Publishes `first` and every batch already waiting behind it, each entry
/// an `output` event, in one publish.
fn output_stored(
    state: &App,
    first: Arc<sessions::OutputAppended>,
    output: &mut sessions::OutputReceiver,
) {
    let mut drafts = Vec::new();
    let mut bytes = 0;
    let mut batch = Some(first);
    while let Some(stored) = batch {
        for entry in &stored.entries {
            let data = OutputEvent {
                session_id: stored.session_id.clone(),
                turn: stored.turn,
                seq: entry.seq,
                at: stored.at.clone(),
                entry: entry.entry.clone(),
            };
            match serde_json::to_string(&data) {
                Ok(data) => {
                    bytes += data.len();
                    drafts.push(Draft {
                        audience: Audience::Account(stored.account_id.clone()),
                        name: Name::Output,
                        data,
                    });
                }
                Err(error) => tracing::error!(%error, "an output event could not be written"),
            }
        }
        batch = if bytes < MAX_PUBLISH_BYTES {
            output.try_recv()
        } else {
            None
        };
    }
    state.events.publish_all(drafts);
}

/// Announcements fell behind and were lost before reaching the hub: every
/// client is told to refetch rather than left believing it saw everything.
fn lost(state: &App, missed: u64) {
    tracing::warn!(missed, "live events were lost; every stream is sent reset");
    state
        .events
        .publish(Audience::Everyone, Name::Reset, &json!({}));
}

/// Announces a stored change and wakes the loops that watch settings. What
/// must have happened before the change is answered happens here too: the
/// watches read a setting when they wake, so they can miss an off and an on
/// a few milliseconds apart.
pub async fn setting_changed(state: &App, change: &SettingChanged) {
    state
        .events
        .publish(Audience::Everyone, Name::Settings, &json!(change));
    state.settings_changed.send_modify(|count| *count += 1);
    crate::inbox_stats_watch::settings_changed(state).await;
}

pub fn inbox_changed(state: &App, account_id: &str, change: &InboxEvent) {
    state.events.publish(
        Audience::Account(account_id.to_owned()),
        Name::Inbox,
        &json!(change),
    );
    crate::inbox_stats_watch::inbox_changed(state, account_id, change);
}

/// A row was added or bumped: announced as created or repeated.
pub fn inbox_added(state: &App, account_id: &str, added: inbox::Added) -> inbox::InboxRow {
    let row = added.row.clone();
    let change = if added.repeated {
        InboxEvent::Repeated(added.row)
    } else {
        InboxEvent::Created(added.row)
    };
    inbox_changed(state, account_id, &change);
    row
}

/// Adds a row the application makes on its own (no request waits on it)
/// and announces it; a row that cannot be stored is logged, not returned.
pub async fn add_row(state: &App, account_id: &str, row: inbox::NewRow) {
    let (inbox, owner) = (state.inbox.clone(), account_id.to_owned());
    match crate::error::blocking(move || inbox.add(&owner, row)).await {
        Ok(added) => {
            inbox_added(state, account_id, added);
        }
        Err(error) => tracing::warn!(%error, account_id, "an inbox row was not added"),
    }
}

pub fn board_changed(state: &App, account_id: &str, change: &BoardChanged) {
    state.events.publish(
        Audience::Account(account_id.to_owned()),
        Name::Board,
        &json!(change),
    );
}

pub fn tasks_changed(state: &App, account_id: &str, change: &TasksChanged) {
    state.events.publish(
        Audience::Account(account_id.to_owned()),
        Name::Tasks,
        &json!(change),
    );
}

pub fn alarm_changed(state: &App, alarm: &alarms::Alarm) {
    let change = AlarmChanged {
        id: alarm.id.clone(),
        alarm: Some(alarm.clone()),
        deleted: false,
    };
    state.events.publish(
        Audience::Account(alarm.account_id.clone()),
        Name::Alarm,
        &json!(change),
    );
}

pub fn alarm_deleted(state: &App, account_id: &str, id: &str) {
    let change = AlarmChanged {
        id: id.to_owned(),
        alarm: None,
        deleted: true,
    };
    state.events.publish(
        Audience::Account(account_id.to_owned()),
        Name::Alarm,
        &json!(change),
    );
}

/// Starts the alarm scheduler (after it has made what fell due while the
/// server was down missed): a ring becomes an `alarm` event, a missed ring
/// an `alarm` event and a missed `alarm` inbox row; `on_ring` hears each
/// ring too (the push to the user's devices). It rests while
/// `alarmsEnabled` is off, and stops with the server.
pub(crate) async fn ring_alarms(
    state: &App,
    on_ring: fn(&App, &alarms::Alarm),
) -> Result<(), alarms::AlarmError> {
    let settings = state.settings.clone();
    let enabled = move || settings.alarms_enabled();
    let settings = state.settings.clone();
    let max_ringing =
        move || alarms::SignedDuration::from_mins(i64::from(settings.alarms_max_ringing_minutes()));
    let mut stop = state.stop.subscribe();
    let publisher = state.clone();
    alarms::scheduler::start(
        state.alarms.clone(),
        enabled,
        max_ringing,
        move |fired| match fired {
            alarms::Fired::Ringing(alarm) => {
                on_ring(&publisher, &alarm);
                alarm_changed(&publisher, &alarm);
            }
            alarms::Fired::Missed { alarm, due_at } => {
                alarm_missed(&publisher, &alarm, &due_at);
                alarm_changed(&publisher, &alarm);
            }
        },
        async move { drop(stop.wait_for(Option::is_some).await) },
    )
    .await?;
    Ok(())
}

/// The inbox row for an alarm nobody answered: the one place alarms write
/// to the inbox. Its source names the alarm, and a repeating alarm missed
/// again while its row is unread bumps that row's count instead of adding one.
fn alarm_missed(state: &App, alarm: &alarms::Alarm, due_at: &str) {
    let title = inbox::clip(
        &format!("Missed alarm: {}", alarm.label),
        inbox::MAX_TITLE_CHARS,
    );
    let mut row = inbox::NewRow::new(inbox::Category::Alarm, title);
    row.body = Some(format!("Due at {due_at}."));
    row.source.alarm_id = Some(alarm.id.clone());
    match state.inbox.add(&alarm.account_id, row.dedup("missed")) {
        Ok(added) => {
            inbox_added(state, &alarm.account_id, added);
        }
        Err(error) => {
            tracing::error!(%error, alarm_id = alarm.id, "cannot add a missed alarm to the inbox")
        }
    }
}
