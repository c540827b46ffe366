//! What the user chose, as plain data: the server reads the settings and
//! hands them over, so this crate knows nothing of the settings store.

use std::collections::HashMap;

use jiff::tz::TimeZone;

use crate::window::QuietHours;

/// Which of a board's events reach the inbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BoardPreference {
    /// Every event (a board not in the map).
    #[default]
    All,
    /// Only events of items whose people columns include the account's own member.
    AssignedOnly,
    None,
}

impl BoardPreference {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "all" => Some(Self::All),
            "assigned-only" => Some(Self::AssignedOnly),
            "none" => Some(Self::None),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Prefs {
    /// `pmInboxEnabled`: off, events pass by unnoticed (not held for later).
    pub enabled: bool,
    pub boards: HashMap<String, BoardPreference>,
    /// `pmInboxDigestMode`: one digest row an hour instead of a row per event.
    pub digest: bool,
    /// `None` while quiet hours are off.
    pub quiet: Option<QuietHours>,
    /// Where quiet hours, hours, days and "today" are reckoned.
    pub zone: TimeZone,
    /// `dailyDigestEnabled`: a new day asks the caller for the daily
    /// briefing (which sources it holds is the caller's to read).
    pub daily: bool,
}

impl Default for Prefs {
    fn default() -> Self {
        Self {
            enabled: true,
            boards: HashMap::new(),
            digest: false,
            quiet: None,
            zone: TimeZone::UTC,
            daily: false,
        }
    }
}

impl Prefs {
    pub fn board(&self, board_id: &str) -> BoardPreference {
        self.boards.get(board_id).copied().unwrap_or_default()
    }
}
