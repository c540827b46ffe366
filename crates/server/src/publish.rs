//! What goes on the live event stream, and when: the domain seams the server
//! listens to (session changes, stored output) and the writes its routes
//! announce (settings, inbox rows, boards).
//!
//! Every event goes to the account it belongs to, except `settings`: settings
//! belong to the installation and every account may read them, so every
//! connected account hears of a change.

use events::{Audience, Name};
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::state::AppState;
use crate::wire::{BoardChanged, OutputEvent, SettingChanged};

/// Starts the tasks that turn the sessions' broadcasts into events. They end
/// when the server is asked to stop (they hold the state, so the channels
/// they read never close on their own).
pub fn forward_sessions(state: &AppState) {
    let mut updates = state.sessions.subscribe();
    let status_state = state.clone();
    let mut stop = state.stop.subscribe();
    tokio::spawn(async move {
        loop {
            let received = tokio::select! {
                received = updates.recv() => received,
                _ = stop.wait_for(Option::is_some) => return,
            };
            match received {
                Ok(update) => {
                    match status_state
                        .sessions
                        .get(&update.account_id, &update.session_id)
                        .await
                    {
                        Ok(session) => session_changed(&status_state, &session),
                        Err(error) => {
                            tracing::warn!(%error, session_id = update.session_id, "cannot read a session to announce it");
                        }
                    }
                }
                Err(RecvError::Lagged(missed)) => lost(&status_state, missed),
                Err(RecvError::Closed) => return,
            }
        }
    });
    let mut output = state.sessions.subscribe_output();
    let output_state = state.clone();
    let mut stop = state.stop.subscribe();
    tokio::spawn(async move {
        loop {
            let received = tokio::select! {
                received = output.recv() => received,
                _ = stop.wait_for(Option::is_some) => return,
            };
            match received {
                Ok(chunk) => {
                    let data = OutputEvent {
                        session_id: chunk.session_id,
                        turn: chunk.turn,
                        seq: chunk.seq,
                        entry: chunk.entry,
                    };
                    output_state.events.publish(
                        Audience::Account(chunk.account_id),
                        Name::Output,
                        &json!(data),
                    );
                }
                Err(RecvError::Lagged(missed)) => lost(&output_state, missed),
                Err(RecvError::Closed) => return,
            }
        }
    });
}

/// Announcements fell behind and were lost before reaching the hub: every
/// client is told to refetch rather than left believing it saw everything.
fn lost(state: &AppState, missed: u64) {
    tracing::warn!(missed, "live events were lost; every stream is sent reset");
    state
        .events
        .publish(Audience::Everyone, Name::Reset, &json!({}));
}

fn session_changed(state: &AppState, session: &sessions::Session) {
    state.events.publish(
        Audience::Account(session.account_id.clone()),
        Name::Session,
        &json!(session),
    );
}

pub fn setting_changed(state: &AppState, change: &SettingChanged) {
    state
        .events
        .publish(Audience::Everyone, Name::Settings, &json!(change));
}

pub fn inbox_changed(state: &AppState, account_id: &str, row: &inbox::InboxRow) {
    state.events.publish(
        Audience::Account(account_id.to_owned()),
        Name::Inbox,
        &json!(row),
    );
}

pub fn board_changed(state: &AppState, account_id: &str, change: &BoardChanged) {
    state.events.publish(
        Audience::Account(account_id.to_owned()),
        Name::Board,
        &json!(change),
    );
}
