//! The Running apps' loops (docs/apps.md): what the sessions listen on,
//! every [`LOOK_EVERY`]; a session stopped or archived stops its apps; an
//! app that keeps crashing makes one inbox row; every change is an `apps`
//! event.

use std::sync::Arc;
use std::time::Duration;

use events::{Audience, Name};

use crate::running_apps::RemoteApp;
use crate::services::App;

/// How often what the sessions listen on is looked at here.
const LOOK_EVERY: Duration = Duration::from_secs(2);
/// A look on a runner opens a channel (over SSH, a process): one in three.
const RUNNER_LOOK_EVERY_TICKS: u64 = 3;

pub(crate) fn start(app: &App) {
    let running = Arc::clone(&app.apps);
    let events = Arc::clone(&app.events);
    let mut changes = running.registry.subscribe();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                changed = changes.recv() => {
                    if matches!(changed, Err(tokio::sync::broadcast::error::RecvError::Closed)) {
                        return;
                    }
                    events.publish(Audience::Everyone, Name::Apps, &serde_json::json!({}));
                }
                _ = stop.changed() => return,
            }
        }
    });
    watch_listeners(app);
    watch_sessions(app);
    report_failing(app);
}

fn watch_listeners(app: &App) {
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        let mut tick: u64 = 0;
        loop {
            if app.settings.running_apps_enabled() {
                look_once(&app, tick.is_multiple_of(RUNNER_LOOK_EVERY_TICKS)).await;
            }
            app.apps.registry.sweep();
            tick += 1;
            tokio::select! {
                () = tokio::time::sleep(LOOK_EVERY) => {}
                _ = stop.changed() => return,
            }
        }
    });
}

/// Looks here, and on the runners too when `runners` says so, each runner
/// on a task of its own so a slow one holds up nobody.
async fn look_once(app: &App, runners: bool) {
    let mut looks = tokio::task::JoinSet::new();
    for (runner, ids) in app.apps.sessions_by_runner() {
        if runner != runners::LOCAL && !runners {
            continue;
        }
        let app = app.clone();
        looks.spawn(async move {
            let found = if runner == runners::LOCAL {
                tokio::task::spawn_blocking(move || apps::listeners::scan(&ids))
                    .await
                    .map_err(|e| e.to_string())
            } else {
                app.runners
                    .listeners(&runner, ids.into_iter().collect())
                    .await
            };
            match found {
                Ok(found) => {
                    let named = app.apps.name_found(&runner, found);
                    app.apps.registry.set_detected(&runner, named);
                }
                Err(error) => {
                    tracing::debug!(runner, "the apps listening could not be read: {error}");
                }
            }
        });
    }
    while looks.join_next().await.is_some() {}
}

fn watch_sessions(app: &App) {
    let app = app.clone();
    let mut updates = app.sessions.subscribe();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        loop {
            let update = tokio::select! {
                update = updates.recv() => update,
                _ = stop.changed() => return,
            };
            let update = match update {
                Ok(update) => update,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            };
            let ended = update.archived || update.status == sessions::Status::Stopped;
            if ended && app.apps.known_place(&update.session_id).is_some() {
                end_session_apps(&app, &update.session_id).await;
            }
        }
    });
}

/// Stops every app of a session and gives its ports back.
pub(crate) async fn end_session_apps(app: &App, session_id: &str) {
    app.apps.registry.stop_session(session_id).await;
    let remote: Vec<(String, RemoteApp)> = app
        .apps
        .known()
        .remote
        .iter()
        .filter(|(_, a)| a.session_id == session_id)
        .map(|(n, a)| (n.clone(), a.clone()))
        .collect();
    for (name, started) in remote {
        if let Err(error) = app
            .runners
            .stop_app(&started.runner, session_id, &name)
            .await
        {
            tracing::debug!(name, "the runner's app could not be stopped: {error}");
        }
    }
    app.apps.forget_session(session_id);
}

fn report_failing(app: &App) {
    let (sender, mut failing) = tokio::sync::mpsc::unbounded_channel::<apps::App>();
    app.apps
        .registry
        .on_failing(Box::new(move |failed: &apps::App| {
            let _ = sender.send(failed.clone());
        }));
    let app = app.clone();
    tokio::spawn(async move {
        while let Some(failed) = failing.recv().await {
            let Ok(account) = app.sessions.account_of(&failed.session_id).await else {
                continue;
            };
            let row = inbox::NewRow {
                body: Some(format!(
                    "`{}` exited {} times in a row within seconds of starting, so it is no longer restarted. Its last lines are on the Running apps page.",
                    failed.command,
                    apps::CRASH_LOOP_STARTS
                )),
                source: inbox::Source {
                    session_id: Some(failed.session_id.clone()),
                    ..inbox::Source::default()
                },
                actions: vec![inbox::Action::OpenPath {
                    path: "/apps".to_owned(),
                }],
                ..inbox::NewRow::new(
                    inbox::Category::Alert,
                    format!("{} keeps crashing", failed.name),
                )
            }
            .dedup(&format!("app-failing:{}", failed.name));
            let inbox = Arc::clone(&app.inbox);
            let added = tokio::task::spawn_blocking({
                let account = account.clone();
                move || inbox.add(&account, row)
            })
            .await;
            if let Ok(Ok(added)) = added {
                crate::publish::inbox_added(&app, &account, added);
            }
        }
    });
}
