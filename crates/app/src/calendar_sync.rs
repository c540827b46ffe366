//! Calendars at work (docs/calendar.md): one loop on the app clock
//! synchronises each account of the `calendar` crate, one at a time, once
//! it has not been synchronised for five minutes, while `calendarEnabled`
//! is on. It looks every minute, and at once when an account is added
//! ([`App::wake_calendars`]) or a setting changes; an early look syncs only
//! the accounts that are due (a new one), never every account again. A server that
//! fails is already recorded on its account (failing, with the reason, its
//! events kept); the loop only logs it.

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

/// Starts the loop.
pub(crate) fn start(app: &App) {
    crate::looking::spawn(app, app.calendars_wake.clone(), |app| async move {
        sync_all(&app).await
    });
}

/// Synchronises the accounts that are due while calendars are on; the
/// next look is [`LOOK_EVERY`] after this one began.
async fn sync_all(app: &App) -> time::OffsetDateTime {
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
    for (owner, id) in accounts {
        let service = app.calendars.clone();
        let account = id.clone();
        if let Err(error) = blocking(move || service.sync(&owner, &account)).await {
            tracing::info!(%error, account = %id, "a calendar did not synchronise");
        }
    }
    began + LOOK_EVERY
}
