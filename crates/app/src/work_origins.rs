//! Records where each session in a plain folder started (its repository,
//! branch and commit; `work::origins`), as soon as the session is first
//! seen queued or starting, so the commits it goes on to make there are a
//! piece of work on the Where's my work page. Sessions in a worktree of
//! their own need nothing: their worktree says it all.

use std::collections::HashSet;

use sessions::{SessionUpdate, Status};
use tokio::sync::broadcast::error::RecvError;

use crate::services::App;

pub(crate) fn start(app: &App) {
    let mut seen = HashSet::new();
    follow_sessions(app, "work origins", move |app, update| {
        let first = matches!(update.status, Status::Queued | Status::Starting)
            && seen.insert(update.session_id.clone());
        // Off the follower: finding a repository reads the disk, and a burst
        // of spawns (a thousand at once) would otherwise outrun the updates'
        // channel and lose some sessions' origins.
        if first {
            tokio::spawn(async move {
                record(&app, &update.account_id, &update.session_id).await;
            });
        }
        std::future::ready(())
    });
}

/// Runs `each` on every session update, in order, until the server stops;
/// `what` names the follower in the log when updates were lost.
pub(crate) fn follow_sessions<F, Fut>(app: &App, what: &'static str, mut each: F)
where
    F: FnMut(App, SessionUpdate) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let app = app.clone();
    let mut updates = app.sessions.subscribe();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        loop {
            let update = tokio::select! {
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                update = updates.recv() => update,
            };
            match update {
                Ok(update) => each(app.clone(), update).await,
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "{what}: session updates were lost");
                }
                Err(RecvError::Closed) => return,
            }
        }
    });
}

async fn record(app: &App, account: &str, id: &str) {
    let Ok(session) = app.sessions.get(account, id).await else {
        return;
    };
    if session.worktree.is_some() || session.runner != runners::LOCAL {
        return;
    }
    let db = app.db.clone();
    let id = id.to_owned();
    let recorded = tokio::task::spawn_blocking(move || {
        match work::origins::find(std::path::Path::new(&session.cwd)) {
            Some(origin) => work::origins::record(&db, &id, &origin),
            None => Ok(()),
        }
    })
    .await;
    if let Ok(Err(e)) = recorded {
        tracing::warn!("work origins: a session's starting point was not recorded: {e}");
    }
}
