//! The views a navigation request names, checked, and the web app's
//! address for each.

use serde::Deserialize;
use ts_rs::TS;
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "NavigationView")]
#[schema(as = NavigationView)]
pub enum View {
    Boards,
    Board,
    Dashboard,
    Inbox,
    Sessions,
    Session,
    Settings,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ViewError {
    #[error("view {0} needs an id")]
    MissingId(&'static str),
    #[error("view {0} takes no id")]
    UnexpectedId(&'static str),
    #[error("only the settings view has panes")]
    UnexpectedPane,
    #[error("id and pane are at most 200 characters of letters, digits, '-' and '_'")]
    BadText,
}

impl View {
    fn name(self) -> &'static str {
        match self {
            View::Boards => "boards",
            View::Board => "board",
            View::Dashboard => "dashboard",
            View::Inbox => "inbox",
            View::Sessions => "sessions",
            View::Session => "session",
            View::Settings => "settings",
        }
    }

    /// The web app's address for this view: the path its router matches,
    /// and `#<pane>` for a settings pane.
    pub fn path(self, id: Option<&str>, pane: Option<&str>) -> Result<String, ViewError> {
        let clean = |text: &str| {
            !text.is_empty()
                && text.len() <= 200
                && text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        if id.is_some_and(|i| !clean(i)) || pane.is_some_and(|p| !clean(p)) {
            return Err(ViewError::BadText);
        }
        if pane.is_some() && self != View::Settings {
            return Err(ViewError::UnexpectedPane);
        }
        let needs_id = matches!(self, View::Board | View::Dashboard | View::Session);
        match (needs_id, id) {
            (true, None) => return Err(ViewError::MissingId(self.name())),
            (false, Some(_)) => return Err(ViewError::UnexpectedId(self.name())),
            _ => {}
        }
        let id = id.unwrap_or_default();
        Ok(match self {
            View::Boards => "/".to_owned(),
            View::Board => format!("/boards/{id}"),
            View::Dashboard => format!("/dashboards/{id}"),
            View::Inbox => "/inbox".to_owned(),
            View::Sessions => "/sessions".to_owned(),
            View::Session => format!("/sessions/{id}"),
            View::Settings => match pane {
                Some(pane) => format!("/settings#{pane}"),
                None => "/settings".to_owned(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_view_has_its_address_and_its_rules() {
        assert_eq!(
            View::Session.path(Some("abc"), None).unwrap(),
            "/sessions/abc"
        );
        assert_eq!(View::Boards.path(None, None).unwrap(), "/");
        assert_eq!(
            View::Settings.path(None, Some("sessions-agents")).unwrap(),
            "/settings#sessions-agents"
        );
        assert_eq!(
            View::Board.path(None, None),
            Err(ViewError::MissingId("board"))
        );
        assert_eq!(
            View::Inbox.path(Some("x"), None),
            Err(ViewError::UnexpectedId("inbox"))
        );
        assert_eq!(
            View::Inbox.path(None, Some("x")),
            Err(ViewError::UnexpectedPane)
        );
        assert_eq!(
            View::Session.path(Some("../x"), None),
            Err(ViewError::BadText)
        );
    }
}
