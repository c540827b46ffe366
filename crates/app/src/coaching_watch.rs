//! Keeps each coaching interview's latest final answer as its artifact:
//! when an interview session's turn ends, its last answer (the engine's
//! `final` entry, else the turn's text) is saved.

use sessions::{EntryBody, PageFrom, SessionUpdate, Status};

use crate::error::blocking;
use crate::publish;
use crate::services::App;

/// A turn's answer is among the transcript's last entries.
const TAIL: u32 = 200;

/// Starts the task; it ends when the server is asked to stop.
pub(crate) fn start(state: &App) {
    publish::on_session_updates(state, "coaching", turn_ended, |state, update| async move {
        save(&state, &update.account_id, &update.session_id).await;
    });
}

fn turn_ended(update: &SessionUpdate) -> bool {
    update.moved && turn_over(update.status)
}

/// A status an interview's turn ends in: its answer is there to keep.
pub fn turn_over(status: Status) -> bool {
    matches!(status, Status::WaitingForInput | Status::Finished)
}

/// Keeps the session's latest answer when it is a coaching interview.
pub async fn save(state: &App, account_id: &str, session_id: &str) {
    let store = state.coaching.clone();
    let id = session_id.to_owned();
    if !matches!(blocking(move || store.is_interview(&id)).await, Ok(true)) {
        return;
    }
    let page = match state
        .sessions
        .entries(account_id, session_id, PageFrom::Tail, TAIL)
        .await
    {
        Ok(page) => page,
        Err(error) => {
            tracing::warn!(%error, "cannot read a coaching interview's answer");
            return;
        }
    };
    let Some(answer) = answer(&page.entries) else {
        return;
    };
    let store = state.coaching.clone();
    let id = session_id.to_owned();
    if let Err(error) = blocking(move || store.save_interview(&id, &answer)).await {
        tracing::warn!(
            %error,
            "cannot save a coaching interview's answer"
        );
    }
}

/// The last turn's answer: its `final` entry, else its text entries joined.
fn answer(entries: &[sessions::Entry]) -> Option<String> {
    let last_turn = entries.last()?.turn;
    let turn: Vec<&sessions::Entry> = entries.iter().filter(|e| e.turn == last_turn).collect();
    if let Some(text) = turn.iter().rev().find_map(|e| match &e.body {
        EntryBody::Final { text } => Some(text.clone()),
        _ => None,
    }) {
        return Some(text);
    }
    let texts: Vec<&str> = turn
        .iter()
        .filter_map(|e| match &e.body {
            EntryBody::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}
