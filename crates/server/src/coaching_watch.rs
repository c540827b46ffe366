//! Keeps each coaching interview's latest final answer as its artifact:
//! when an interview session's turn ends, its last answer (the engine's
//! `final` entry, else the turn's text) is saved.

use sessions::{EntryBody, PageFrom, SessionUpdate, Status};
use tokio::sync::broadcast::error::RecvError;

use crate::routes::blocking;
use crate::state::AppState;

/// A turn's answer is among the transcript's last entries.
const TAIL: u32 = 200;

/// Starts the task; it ends when the server is asked to stop.
pub fn start(state: &AppState) {
    let mut updates = state.sessions.subscribe();
    let mut stop = state.stop.subscribe();
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                biased;
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                update = updates.recv() => match update {
                    Ok(update) if turn_ended(&update) => save(&state, &update).await,
                    Ok(_) => {}
                    Err(RecvError::Lagged(missed)) => tracing::warn!(
                        missed,
                        "session updates were lost before coaching read them"
                    ),
                    Err(RecvError::Closed) => return,
                },
            }
        }
    });
}

fn turn_ended(update: &SessionUpdate) -> bool {
    update.moved && matches!(update.status, Status::WaitingForInput | Status::Finished)
}

async fn save(state: &AppState, update: &SessionUpdate) {
    let store = state.coaching.clone();
    let id = update.session_id.clone();
    if !matches!(blocking(move || store.is_interview(&id)).await, Ok(true)) {
        return;
    }
    let page = match state
        .sessions
        .entries(&update.account_id, &update.session_id, PageFrom::Tail, TAIL)
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
    let id = update.session_id.clone();
    if let Err(error) = blocking(move || store.save_interview(&id, &answer)).await {
        tracing::warn!(
            error = error.message,
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
