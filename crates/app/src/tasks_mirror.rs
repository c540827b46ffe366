//! Keeping each task list and its tasks.md files in step: after every write
//! through the API (`after_write`) and every 5 s of the clock for edits made
//! in the files, each list is synced with its mirrors (the `tasks` crate's
//! three-way merge). A conflicting edit keeps both versions in the list and
//! says so in the inbox, once per sync that found it.

use std::time::Duration;

use inbox::{Category, NewRow};

use crate::error::blocking;
use crate::services::App;
use crate::stream_events::{TasksChanged, TasksView};
use crate::utility_model;

/// How often the files are looked at for edits made outside Switchboard.
const EVERY: time::Duration = time::Duration::seconds(5);

pub fn start(state: &App) {
    let state = state.clone();
    let mut stop = state.stop.subscribe();
    tokio::spawn(async move {
        loop {
            let lists = {
                let tasks = state.tasks.clone();
                blocking(move || tasks.lists()).await
            };
            match lists {
                Ok(lists) => {
                    for list in lists {
                        sync(&state, &list.account_id, list.workspace_id.as_deref()).await;
                    }
                }
                Err(error) => tracing::warn!(%error, "cannot list the task lists to sync"),
            }
            let wake = state.clock.now() + EVERY;
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                () = state.clock.sleep_until(wake) => {}
            }
            // A manual clock moved far at once must not spin the loop.
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    });
}

/// Syncs a list's mirrors after a write through the API.
pub async fn after_write(state: &App, account_id: &str, workspace_id: Option<&str>) {
    sync(state, account_id, workspace_id).await;
    changed(state, account_id, workspace_id, TasksView::Tasks);
}

/// Tells the account's open pages that a task view changed.
pub fn changed(state: &App, account_id: &str, workspace_id: Option<&str>, view: TasksView) {
    crate::publish::tasks_changed(
        state,
        account_id,
        &TasksChanged {
            view,
            workspace_id: workspace_id.map(str::to_owned),
        },
    );
}

async fn sync(state: &App, account_id: &str, workspace_id: Option<&str>) {
    let tasks = state.tasks.clone();
    let data_dir = state.data_dir.clone();
    let (account, workspace) = (account_id.to_owned(), workspace_id.map(str::to_owned));
    let synced =
        blocking(move || tasks.sync_mirrors(&account, workspace.as_deref(), &data_dir)).await;
    let synced = match synced {
        Ok(synced) => synced,
        Err(error) => {
            tracing::warn!(%error, "cannot sync a task list with its tasks.md");
            return;
        }
    };
    let merged = synced.iter().any(|mirror| {
        mirror
            .result
            .as_ref()
            .is_ok_and(|r| r.created + r.updated + r.deleted > 0)
    });
    if merged {
        changed(state, account_id, workspace_id, TasksView::Tasks);
    }
    for mirror in synced {
        match mirror.result {
            Ok(report) if !report.conflicts.is_empty() => {
                let mut row = NewRow::new(
                    Category::Note,
                    format!(
                        "tasks.md and Switchboard both changed {} task{}: both versions kept",
                        report.conflicts.len(),
                        if report.conflicts.len() == 1 { "" } else { "s" }
                    ),
                );
                row.body = Some(format!(
                    "{} was edited while the same tasks changed in Switchboard. Each such task now \
                     appears twice, the file's version marked as a conflict: keep one and delete \
                     the other.",
                    mirror.path.display()
                ));
                utility_model::note(state, account_id, row).await;
            }
            Ok(_) => {}
            Err(error) => {
                tracing::warn!(%error, path = %mirror.path.display(), "cannot sync tasks.md");
            }
        }
    }
}
