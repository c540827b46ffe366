//! Calendars at work (docs/calendar.md): one loop on the app clock
//! synchronises every account of the `calendar` crate, one at a time, every
//! five minutes while `calendarEnabled` is on, at once when an account is
//! added ([`App::wake_calendars`]) or the setting turns on. A server that
//! fails is already recorded on its account (failing, with the reason, its
//! events kept); the loop only logs it.

use crate::error::blocking;
use crate::services::App;

/// How often every account is synchronised.
const EVERY: time::Duration = time::Duration::minutes(5);

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

/// Synchronises every account while calendars are on; the next round is
/// [`EVERY`] after this one began.
async fn sync_all(app: &App) -> time::OffsetDateTime {
    let began = app.clock.now();
    if !app.settings.calendar_enabled() {
        return began + EVERY;
    }
    let service = app.calendars.clone();
    let accounts = blocking(move || service.all_accounts())
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
    began + EVERY
}
