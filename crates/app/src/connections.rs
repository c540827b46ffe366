//! What the application's connections to outside services (the messenger
//! bot, inbound email, the email summarizer) share: waiting for a settings
//! change, running a mailbox watcher while its settings still want it, the
//! owner they serve, the text a turn's end sends back, and a note to the
//! inbox.

use std::time::Duration;

use inbox::{Category, NewRow};
use sessions::{EntryBody, Status};

use crate::error::{AppError, blocking};
use crate::publish;
use crate::services::App;

/// Waits for a settings change (or `at_most`), false once a stop is asked for.
pub async fn wait_for_change(
    state: &App,
    changes: &mut tokio::sync::watch::Receiver<u64>,
    at_most: Option<Duration>,
) -> bool {
    let mut stop = state.watch_stop();
    let sleep = async {
        match at_most {
            Some(wait) => tokio::time::sleep(wait).await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = stop.wait_for(Option::is_some) => false,
        _ = changes.changed() => true,
        () = sleep => true,
    }
}

/// The owner account's id: the bot and the inbound email serve the owner.
/// Runs `watching` (a watcher that ends once `stop_tx` says so) until it
/// ends by itself, the server stops, or a settings change leaves
/// `still_wanted` false.
pub async fn watch_while_wanted(
    state: &App,
    changes: &mut tokio::sync::watch::Receiver<u64>,
    watching: impl std::future::Future<Output = ()>,
    stop_tx: tokio::sync::watch::Sender<bool>,
    still_wanted: impl Fn() -> bool,
) {
    tokio::pin!(watching);
    loop {
        let mut stop = state.watch_stop();
        tokio::select! {
            () = &mut watching => break,
            _ = stop.wait_for(Option::is_some) => {
                let _ = stop_tx.send(true);
            }
            _ = changes.changed() => {
                if !still_wanted() {
                    let _ = stop_tx.send(true);
                }
            }
        }
    }
}

pub async fn owner(state: &App) -> Result<String, AppError> {
    let db = state.db.clone();
    let owner = blocking(move || accounts::owner(&db).map_err(AppError::from)).await?;
    owner
        .map(|account| account.id)
        .ok_or_else(|| AppError::Invalid("there is no owner account".to_owned()))
}

/// What a turn that ended with `status` says back: its `final` message, or
/// for a failed turn its error.
/// How much of a session's transcript end is read for its turn's closing text.
const TURN_END_ENTRIES: u32 = 200;

/// The text a session's turn that just ended sends back (see
/// [`turn_end_text`]); `None` when there is none or the transcript cannot
/// be read (which the log says).
pub async fn turn_end(state: &App, update: &sessions::SessionUpdate) -> Option<String> {
    let page = state
        .sessions
        .entries(
            &update.account_id,
            &update.session_id,
            sessions::PageFrom::Tail,
            TURN_END_ENTRIES,
        )
        .await;
    match page {
        Ok(page) => turn_end_text(&page.entries, update.status),
        Err(error) => {
            tracing::warn!(%error, session_id = update.session_id, "cannot read a session's turn end");
            None
        }
    }
}

fn turn_end_text(entries: &[sessions::Entry], status: Status) -> Option<String> {
    let last_turn = entries.iter().map(|e| e.turn).max().unwrap_or(0);
    let of_turn = || entries.iter().filter(|e| e.turn == last_turn).rev();
    let final_text = of_turn().find_map(|entry| match &entry.body {
        EntryBody::Final { text } if !text.trim().is_empty() => Some(text.clone()),
        _ => None,
    });
    final_text.or_else(|| {
        (status == Status::Failed).then(|| {
            of_turn()
                .find_map(|entry| match &entry.body {
                    EntryBody::Error { message } => Some(format!("The session failed: {message}")),
                    _ => None,
                })
                .unwrap_or_else(|| "The session failed.".to_owned())
        })
    })
}

/// A `note` row to the owner, one unread at a time per `dedup`.
pub async fn note(state: &App, title: &str, body: &str, dedup: &str) {
    let Ok(owner) = owner(state).await else {
        return;
    };
    let mut row = NewRow::new(Category::Note, title);
    row.body = Some(body.to_owned());
    row.dedup_key = Some(dedup.to_owned());
    let inbox = state.inbox.clone();
    let account = owner.clone();
    match blocking(move || inbox.add(&account, row).map_err(AppError::from)).await {
        Ok(added) => {
            publish::inbox_added(state, &owner, added);
        }
        Err(error) => tracing::warn!(%error, "cannot add a note to the inbox"),
    }
}
