//! Calendars at work (docs/calendar.md): one loop on the app clock
//! synchronises each account of the `calendar` crate, one at a time, once
//! it has not been synchronised for five minutes, while `calendarEnabled`
//! is on. It looks every minute, and at once when an account is added
//! ([`App::wake_calendars`]) or a setting changes; an early look syncs only
//! the accounts that are due (a new one), never every account again. A server that
//! fails is already recorded on its account (failing, with the reason, its
//! events kept); the loop only logs it. A round that brought changes wakes
//! the reminders' loop (`calendar_reminders.rs`), which it starts. Each
//! round ends with the spam sweep (`calendar_spam.rs`), whose filter it
//! hands the calendars before the first.

use std::sync::Arc;

use settings::SettingsStore;
use tokio::sync::Notify;

use crate::error::blocking;
use crate::services::App;

/// How often each account is synchronised.
const EVERY: time::Duration = time::Duration::minutes(5);
/// How often the loop looks for accounts that are due.
const LOOK_EVERY: time::Duration = time::Duration::minutes(1);

impl App {
    /// An account was added: the loop synchronises now rather than at its
    /// next round.
    pub fn wake_calendars(&self) {
        self.calendars_wake.notify_one();
    }
}

/// Starts the loop, and the reminders' loop it wakes.
pub(crate) fn start(app: &App) {
    crate::calendar_spam::screen(app);
    let synced = Arc::new(Notify::new());
    crate::calendar_reminders::start(app, synced.clone());
    let reads = |s: &SettingsStore| s.calendar_enabled();
    crate::looking::spawn_reading(app, app.calendars_wake.clone(), reads, move |app| {
        let synced = synced.clone();
        async move { sync_all(&app, &synced).await }
    });
}

/// Synchronises the accounts that are due while calendars are on, and
/// wakes `synced` when one changed; the next look is [`LOOK_EVERY`] after
/// this one began.
async fn sync_all(app: &App, synced: &Notify) -> time::OffsetDateTime {
    let began = app.clock.now();
    if !app.settings.calendar_enabled() {
        return began + LOOK_EVERY;
    }
    let service = app.calendars.clone();
    let accounts = blocking(move || service.due_accounts(EVERY))
        .await
        .unwrap_or_else(|error| {
            tracing::warn!(%error, "calendar accounts were not read");
            Vec::new()
        });
    let mut owners: Vec<String> = accounts.iter().map(|(owner, _)| owner.clone()).collect();
    owners.sort();
    owners.dedup();
    for (owner, id) in accounts {
        let service = app.calendars.clone();
        let account = id.clone();
        match blocking(move || service.sync(&owner, &account)).await {
            Ok(report) if report.fetched > 0 || report.removed > 0 => synced.notify_one(),
            Ok(_) => {}
            Err(error) => {
                tracing::info!(%error, account = %id, "a calendar did not synchronise");
            }
        }
    }
    crate::calendar_spam::sweep(app, owners).await;
    began + LOOK_EVERY
}
