//! Agents asking to move the user's view (`POST /ui/navigate`) or to bring
//! the app forward (`POST /ui/foreground`), and where each request goes.
//!
//! - [`Presence`]: each open web app says, when its tab is shown or hidden
//!   and every [`HEARTBEAT`] while open, whether it is in front; a web app
//!   silent for [`PRESENCE_TTL`] on the clock is gone (a closed tab).
//! - [`View`]: the views a request may name, and the web app's address for
//!   each.
//! - [`navigation`] and [`foreground`]: the rules. A navigation goes to an
//!   app in front as a click-to-go toast, or straight through with
//!   `allowAgentDirectNavigation`; with no app in front (none open, or its
//!   tab hidden) it becomes a dismissible inbox note. A foreground request
//!   with the app already in front does nothing; behind, it is a system
//!   notification with `allowAgentForegroundFromBackground`, else a note.
//!
//! Knows nothing of HTTP, settings or the inbox.

mod presence;
mod view;

pub use presence::{HEARTBEAT, PRESENCE_TTL, Presence};
pub use view::{View, ViewError};

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

/// Whether an account has a web app open, and in front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Front {
    /// No web app is open.
    None,
    /// Open, but every one of its tabs is hidden.
    Hidden,
    /// A tab of it is shown.
    Visible,
}

/// Where a request went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// A click-to-go toast in the web app.
    Toast,
    /// The web app switched views at once.
    Navigated,
    /// A system notification that brings the app's tab forward when clicked.
    Notification,
    /// The app is already in front: nothing to do.
    AlreadyInFront,
    /// A dismissible `note` row in the inbox.
    Inbox,
}

pub fn navigation(direct_allowed: bool, front: Front) -> Delivery {
    match front {
        Front::Visible if direct_allowed => Delivery::Navigated,
        Front::Visible => Delivery::Toast,
        Front::Hidden | Front::None => Delivery::Inbox,
    }
}

pub fn foreground(from_background_allowed: bool, front: Front) -> Delivery {
    match front {
        Front::Visible => Delivery::AlreadyInFront,
        Front::Hidden if from_background_allowed => Delivery::Notification,
        Front::Hidden | Front::None => Delivery::Inbox,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_navigation_reaches_an_app_in_front_else_the_inbox() {
        assert_eq!(navigation(false, Front::Visible), Delivery::Toast);
        assert_eq!(navigation(true, Front::Visible), Delivery::Navigated);
        for direct in [false, true] {
            assert_eq!(navigation(direct, Front::Hidden), Delivery::Inbox);
            assert_eq!(navigation(direct, Front::None), Delivery::Inbox);
        }
    }

    #[test]
    fn a_foreground_request_notifies_only_when_allowed_and_behind() {
        assert_eq!(foreground(true, Front::Hidden), Delivery::Notification);
        assert_eq!(foreground(false, Front::Hidden), Delivery::Inbox);
        assert_eq!(foreground(true, Front::None), Delivery::Inbox);
        assert_eq!(foreground(false, Front::Visible), Delivery::AlreadyInFront);
    }
}
