//! Records where each session in a plain folder started (its repository,
//! branch and commit; `work::origins`), as soon as the session is first
//! seen queued or starting, so the commits it goes on to make there are a
//! piece of work on the Where's my work page. Sessions in a worktree of
//! their own need nothing: their worktree says it all.

use std::collections::HashSet;

use sessions::Status;
use tokio::sync::broadcast::error::RecvError;

use crate::services::App;

pub(crate) fn start(app: &App) {
    let app = app.clone();
    let mut updates = app.sessions.subscribe();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        let mut seen = HashSet::new();
        loop {
            let update = tokio::select! {
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                update = updates.recv() => update,
            };
            let update = match update {
                Ok(update) => update,
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "work origins: session updates were lost");
                    continue;
                }
                Err(RecvError::Closed) => return,
            };
            if !matches!(update.status, Status::Queued | Status::Starting)
                || !seen.insert(update.session_id.clone())
            {
                continue;
            }
            record(&app, &update.account_id, &update.session_id).await;
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
