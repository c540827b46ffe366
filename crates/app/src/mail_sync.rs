//! The mail client's sync loop: while `mailclientEnabled` is on, every
//! account of the owner is logged in to and synced (headers and previews;
//! bodies on demand) once a minute on the app clock, at once when an
//! account is added or a setting changes, and whenever the server's IDLE
//! says the inbox changed (one watcher task per account that logs in,
//! holding the one extra connection IDLE needs). Each round also brings
//! back the snoozed threads whose time has come by the app clock, so a
//! wake-up missed while the server was down happens on the next round,
//! once. A login the server refuses marks that account failing with the
//! server's words; the other accounts, and the rest of the application,
//! go on.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::task::JoinHandle;

use crate::mail_accounts::MailStatus;
use crate::services::App;

/// How often each account is synced without IDLE's word.
const EVERY: time::Duration = time::Duration::minutes(1);

/// The IDLE watcher of each account, by account id.
type Watchers = Arc<Mutex<HashMap<String, JoinHandle<()>>>>;

/// Starts the loop.
pub(crate) fn start(app: &App) {
    let watchers: Watchers = Arc::default();
    crate::looking::spawn(app, app.mail.wake.clone(), move |app| {
        let watchers = watchers.clone();
        async move { sync_all(&app, &watchers).await }
    });
}

async fn sync_all(app: &App, watchers: &Watchers) -> time::OffsetDateTime {
    let began = app.clock.now();
    let mut wanted: Vec<String> = Vec::new();
    if app.mail_enabled()
        && let Ok(owner) = crate::connections::owner(app).await
    {
        match app.mail_accounts(&owner).await {
            Ok(accounts) => {
                for account in accounts {
                    if app.sync_mail_account(&owner, &account.id).await.is_some() {
                        app.wake_snoozed(&owner, &account.id).await;
                        app.mail_arrivals(&owner, &account.id).await;
                        app.summarize_labelled(&owner, &account.id).await;
                        wanted.push(account.id);
                    }
                }
                for id in &wanted {
                    watch(app, watchers, &owner, id).await;
                }
            }
            Err(error) => tracing::warn!(%error, "mail accounts were not read"),
        }
    }
    lock(watchers).retain(|id, task| {
        let keep = wanted.contains(id) && !task.is_finished();
        if !keep {
            task.abort();
        }
        keep
    });
    began + EVERY
}

/// Starts account `id`'s IDLE watcher unless it runs: each change it sees
/// wakes the loop; a watcher that fails ends, and the next round (which
/// logs in again first) starts another.
async fn watch(app: &App, watchers: &Watchers, owner: &str, id: &str) {
    if lock(watchers).get(id).is_some_and(|t| !t.is_finished()) {
        return;
    }
    let Ok(reach) = app.mail_reach(owner, id).await else {
        return;
    };
    let (app2, id2) = (app.clone(), id.to_owned());
    let task = tokio::spawn(async move {
        let login = reach.login();
        let mut stop = app2.stop.subscribe();
        loop {
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                changed = app2.mail.syncer.wait_inbox(&id2, &login) => match changed {
                    Ok(()) => app2.mail.wake.notify_one(),
                    Err(error) => {
                        tracing::info!(account = %id2, %error, "mail IDLE ended");
                        return;
                    }
                },
            }
        }
    });
    lock(watchers).insert(id.to_owned(), task);
}

impl App {
    /// Brings back account `id`'s snoozed threads that are due by the app clock.
    async fn wake_snoozed(&self, owner: &str, id: &str) {
        let Ok(reach) = self.mail_reach(owner, id).await else {
            return;
        };
        let now = self.clock.now().unix_timestamp();
        if let Err(error) = self.mail.syncer.wake_due(id, &reach.login(), now).await {
            tracing::info!(account = %id, %error, "snoozed mail did not come back yet");
            self.mail
                .accounts
                .set_status(id, MailStatus::Failing, Some(error.to_string()));
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
