//! Calendar spam invitations at work (docs/calendar.md, "Spam
//! invitations"): what the `calendar` crate's filter asks of the
//! application, `spamFilterCalendarEnabled` and the user's own addresses
//! (the mail client's accounts and `email.toml`'s), and the sweep after
//! each sync round: with `spamFilterCalendarDeleteEvent` on too, the
//! invitations of senders marked spam are deleted on the server into the
//! calendar trash; the trash forgets what is 30 days old either way.

use std::sync::Arc;

use settings::SettingsStore;

use crate::error::blocking;
use crate::mail_accounts::MailClient;
use crate::services::App;

/// The switch and the addresses, as the calendars read them.
struct Screening {
    settings: Arc<SettingsStore>,
    mail: Arc<MailClient>,
}

impl calendar::Screening for Screening {
    fn filtering(&self) -> bool {
        self.settings.spam_filter_calendar_enabled()
    }

    fn addresses(&self, owner: &str) -> Vec<String> {
        // `email.toml`'s addresses are the user's whether or not the mail
        // client shows them.
        match self.mail.accounts.list(owner, true) {
            Ok(accounts) => accounts.into_iter().map(|a| a.address).collect(),
            Err(error) => {
                tracing::warn!(%error, "the mail accounts' addresses were not read for the calendar's spam filter");
                Vec::new()
            }
        }
    }
}

/// Hands the calendars the application's side of their spam filter.
pub(crate) fn screen(app: &App) {
    app.calendars.set_screening(Arc::new(Screening {
        settings: app.settings.clone(),
        mail: app.mail.clone(),
    }));
}

/// After a sync round: the spam senders' invitations of `owners` deleted
/// while both switches are on, and the trash's old entries forgotten.
pub(crate) async fn sweep(app: &App, owners: Vec<String>) {
    let deleting = app.settings.spam_filter_calendar_enabled()
        && app.settings.spam_filter_calendar_delete_event();
    let service = app.calendars.clone();
    let swept = blocking(move || -> crate::error::AppResult<()> {
        if deleting {
            for owner in owners {
                if let (_, Some(failure)) = service.trash_spam(&owner)? {
                    tracing::info!(%failure, "a spam invitation was not deleted on its server");
                }
            }
        }
        service.purge_trash()?;
        Ok(())
    })
    .await;
    if let Err(error) = swept {
        tracing::warn!(%error, "the calendar's spam invitations were not swept");
    }
}
