//! The maker's announcements (`crates/announcements`) for the running
//! version, while `developerMessagesEnabled` is on: off, none are shown and
//! none can be dismissed, so turning it back on shows the unseen ones.

use announcements::{Announcement, AnnouncementError};

use crate::error::{AppError, AppResult, blocking};
use crate::services::App;

/// The version whose announcements show: this build's.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// This version's announcements the account has not dismissed; none while off.
pub async fn pending(state: &App, account_id: &str) -> AppResult<Vec<Announcement>> {
    if !state.settings.developer_messages_enabled() {
        return Ok(Vec::new());
    }
    let (all, account) = (state.announcements.clone(), account_id.to_owned());
    blocking(move || all.pending(&account, VERSION).map_err(app_error)).await
}

/// The account has read this version's announcements.
pub async fn dismiss(state: &App, account_id: &str) -> AppResult<()> {
    let (all, account) = (state.announcements.clone(), account_id.to_owned());
    blocking(move || all.dismiss(&account, VERSION).map_err(app_error)).await
}

/// A store failure is the database's, mapped like the inbox's own.
fn app_error(e: AnnouncementError) -> AppError {
    match e {
        AnnouncementError::Store(e) => AppError::Inbox(inbox::InboxError::Store(e)),
    }
}
