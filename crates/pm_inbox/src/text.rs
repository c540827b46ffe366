//! How notices read: one line saying what changed, who changed it, and the
//! digests that list notices by board. Kept apart from the rules so wording
//! changes touch nothing else.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use boards::{EventKind, ItemEvent};
use inbox::{MAX_BODY_CHARS, MAX_TITLE_CHARS, clip};
use serde_json::Value;

/// What a notice says and about whom, before it is a row.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub account_id: String,
    pub board_id: String,
    pub board_name: String,
    pub item_id: String,
    /// What happened, without the board: "Launch: Working on it → Done".
    pub summary: String,
    /// Who did it, as a reader says it: "you", "agent session 0193…".
    pub actor: String,
    /// The agent's session when an agent made the change.
    pub session_id: Option<String>,
    /// Repeats of the same reason for the same item fold into one unread row.
    pub reason: String,
}

impl Notice {
    pub fn title(&self) -> String {
        clip(
            &format!("{}: {}", self.board_name, self.summary),
            MAX_TITLE_CHARS,
        )
    }

    pub fn body(&self) -> String {
        format!("On the board {}, by {}.", self.board_name, self.actor)
    }
}

/// The actor an item event recorded, as a reader says it, and its session.
pub fn actor(recorded: &str) -> (String, Option<String>) {
    match recorded.split_once(':') {
        Some(("session", id)) => (format!("agent session {id}"), Some(id.to_owned())),
        Some(("agent", _)) => ("an agent".to_owned(), None),
        Some(("due", _)) => ("its due date".to_owned(), None),
        _ => ("you".to_owned(), None),
    }
}

/// What an event changed, in words; `member` is the assigned member's name.
pub fn summary(event: &ItemEvent, item: &str, member: Option<&str>) -> String {
    match event.kind {
        EventKind::Assigned => format!("{item} assigned to {}", member.unwrap_or("someone")),
        EventKind::StatusChanged => format!(
            "{item}: {} → {}",
            plain(&event.before, "no status"),
            plain(&event.after, "no status")
        ),
        EventKind::DueDateSet => format!("{item} due {}", plain(&event.after, "?")),
        EventKind::DueDateChanged => format!(
            "{item} due {} (was {})",
            plain(&event.after, "?"),
            plain(&event.before, "?")
        ),
    }
}

fn plain(value: &Value, empty: &str) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => empty.to_owned(),
        other => other.to_string(),
    }
}

/// Notices grouped by board, boards in name order, notices in the order they
/// came: the body of a digest.
pub fn by_board<'a>(notices: impl IntoIterator<Item = &'a Notice>) -> String {
    let mut boards: BTreeMap<(&str, &str), Vec<&Notice>> = BTreeMap::new();
    for notice in notices {
        boards
            .entry((notice.board_name.as_str(), notice.board_id.as_str()))
            .or_default()
            .push(notice);
    }
    let mut out = String::new();
    for ((name, _), notices) in boards {
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(out, "{name} ({})", notices.len());
        for notice in notices {
            let _ = writeln!(out, "- {} (by {})", notice.summary, notice.actor);
        }
    }
    clip(out.trim_end(), MAX_BODY_CHARS)
}

/// How many distinct boards the notices are on.
pub fn board_count<'a>(notices: impl IntoIterator<Item = &'a Notice>) -> usize {
    let mut ids: Vec<&str> = notices.into_iter().map(|n| n.board_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.len()
}

pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}
