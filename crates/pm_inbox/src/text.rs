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
    /// What the notice folds, and over what: `changes:<session>`,
    /// `due_today:<day>` or `overdue:<day>`. Notices of one board with the
    /// same reason fold into one unread row.
    pub reason: String,
    /// How many items it stands for; `summary` and `item_id` are of the
    /// last of them.
    pub count: u32,
}

impl Notice {
    /// What `total` items folded into the notice amount to, without the
    /// board: the item's own change for one, how many for more.
    pub fn what_for(&self, total: u32) -> String {
        let items = plural(total as usize, "item", "items");
        match (total, self.reason.split(':').next()) {
            (0 | 1, _) | (_, None) => self.summary.clone(),
            (_, Some("due_today")) => format!("{items} due today"),
            (_, Some("overdue")) => format!("{items} overdue"),
            (_, Some(_)) => format!("{items} changed"),
        }
    }

    /// The row's title for `total` items folded into it.
    pub fn title_for(&self, total: u32) -> String {
        let what = self.what_for(total);
        let title = match (total, self.reason.starts_with("changes:")) {
            (0 | 1, _) => format!("{}: {what}", self.board_name),
            (_, true) => format!("{what} on {} by {}", self.board_name, self.actor),
            (_, false) => format!("{what} on {}", self.board_name),
        };
        clip(&title, MAX_TITLE_CHARS)
    }

    pub fn title(&self) -> String {
        self.title_for(self.count)
    }

    pub fn body(&self) -> String {
        let by = format!("On the board {}, by {}.", self.board_name, self.actor);
        if self.count > 1 {
            clip(&format!("Latest: {}. {by}", self.summary), MAX_BODY_CHARS)
        } else {
            by
        }
    }
}

/// Whether an item event's actor is an agent (a session's token, or an
/// agent token without one) rather than a member acting for themselves.
pub fn is_agent(recorded: &str) -> bool {
    matches!(recorded.split_once(':'), Some(("session" | "agent", _)))
}

/// The actor an item event recorded, as a reader says it, and its session.
pub fn actor(recorded: &str) -> (String, Option<String>) {
    match recorded.split_once(':') {
        Some(("session", id)) => (format!("agent session {id}"), Some(id.to_owned())),
        Some(("agent", _)) => ("an agent".to_owned(), None),
        Some(("rule", _)) => ("an automation rule".to_owned(), None),
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
        EventKind::GroupChanged => format!(
            "{item} moved from group {} to {}",
            plain(&event.before, "?"),
            plain(&event.after, "?")
        ),
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

/// Notices grouped by board, boards in name order, and within a board the
/// notices of one fold (an agent's passes, a day's overdue items) as one
/// line counting them all, in the order they first came: the body of a
/// digest.
pub fn by_board<'a>(notices: impl IntoIterator<Item = &'a Notice>) -> String {
    let mut boards: BTreeMap<(&str, &str), Vec<Notice>> = BTreeMap::new();
    for notice in notices {
        let folds = boards
            .entry((notice.board_name.as_str(), notice.board_id.as_str()))
            .or_default();
        match folds.iter_mut().find(|fold| fold.reason == notice.reason) {
            Some(fold) => {
                fold.count += notice.count;
                fold.summary.clone_from(&notice.summary);
            }
            None => folds.push(notice.clone()),
        }
    }
    let mut out = String::new();
    for ((name, _), folds) in boards {
        if !out.is_empty() {
            out.push('\n');
        }
        let count: u32 = folds.iter().map(|n| n.count).sum();
        let _ = writeln!(out, "{name} ({count})");
        for fold in folds {
            let _ = writeln!(out, "- {} (by {})", fold.what_for(fold.count), fold.actor);
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
