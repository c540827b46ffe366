//! The shapes every part of the crate shares: the wire types (`Task`,
//! `Caught`, `Mirror` and the request bodies), the plain `Fields` the merge
//! compares, the error, and the rules that clean and check a value before it
//! is stored, so a task from the API and one read from tasks.md pass the same
//! gate.

use serde::{Deserialize, Deserializer, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

pub const MAX_TEXT_CHARS: usize = 2_000;
pub const MAX_NOTES_CHARS: usize = 20_000;
/// Caught follow-ups come from a model; their quotes are cut rather than refused.
pub const MAX_QUOTE_CHARS: usize = 2_000;
pub const MAX_ID_CHARS: usize = 200;

#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    #[error("no such task")]
    NotFound,
    #[error("{0}")]
    Invalid(String),
    #[error("cannot read or write {path}: {source}")]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for TaskError {
    fn from(e: store::rusqlite::Error) -> Self {
        TaskError::Store(e.into())
    }
}

pub(crate) fn invalid(message: impl Into<String>) -> TaskError {
    TaskError::Invalid(message.into())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "TaskState")]
pub enum TaskState {
    Open,
    Done,
    Dropped,
}

impl TaskState {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskState::Open => "open",
            TaskState::Done => "done",
            TaskState::Dropped => "dropped",
        }
    }

    /// The stored form back; the column's CHECK keeps it one of the three,
    /// and anything else reads as open rather than failing a whole list.
    pub fn from_stored(s: &str) -> Self {
        match s {
            "done" => TaskState::Done,
            "dropped" => TaskState::Dropped,
            _ => TaskState::Open,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub id: String,
    /// The workspace whose list holds it; `null` for the personal list.
    pub workspace_id: Option<String>,
    pub parent_id: Option<String>,
    /// Its place among its siblings, from 0, without gaps.
    pub position: i64,
    pub text: String,
    pub notes: String,
    pub state: TaskState,
    /// `YYYY-MM-DD`.
    pub due: Option<String>,
    /// RFC 3339 in UTC with milliseconds.
    pub snoozed_until: Option<String>,
    /// The agent session that made it (an agent's write, or a kept catch).
    pub source_session_id: Option<String>,
    /// True on the copy a conflicting tasks.md edit produced, beside the
    /// database's version.
    pub conflict: bool,
    pub created_at: String,
    pub updated_at: String,
    pub done_at: Option<String>,
}

impl Task {
    pub fn fields(&self) -> Fields {
        Fields {
            text: self.text.clone(),
            notes: self.notes.clone(),
            state: self.state,
            due: self.due.clone(),
            snoozed_until: self.snoozed_until.clone(),
            conflict: self.conflict,
        }
    }
}

/// What a task says, without where it sits or when it was made: what
/// tasks.md holds of it and what the merge compares field by field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fields {
    pub text: String,
    pub notes: String,
    pub state: TaskState,
    pub due: Option<String>,
    pub snoozed_until: Option<String>,
    pub conflict: bool,
}

impl Fields {
    /// An open task with only a text.
    pub fn text(text: &str) -> Self {
        Fields {
            text: text.to_owned(),
            notes: String::new(),
            state: TaskState::Open,
            due: None,
            snoozed_until: None,
            conflict: false,
        }
    }
}

/// `POST /tasks`. The source session is the caller's, never the body's.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct NewTask {
    pub text: String,
    #[serde(default)]
    pub parent_id: Option<String>,
    /// Absent for the personal list.
    #[serde(default)]
    pub workspace_id: Option<String>,
    #[serde(default)]
    pub due: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
    /// Its place among its siblings; absent puts it last.
    #[serde(default)]
    pub index: Option<usize>,
}

/// `PATCH /tasks/{id}`: absent fields stay; `due` and `snoozedUntil` given
/// as `null` clear.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct TaskPatch {
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
    #[serde(default)]
    pub state: Option<TaskState>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, nullable)]
    pub due: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, nullable)]
    pub snoozed_until: Option<Option<String>>,
}

/// Tells a field given as `null` (`Some(None)`) from an absent one (`None`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// `POST /tasks/reorder`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TaskMove {
    pub id: String,
    /// The new parent, in the same list; `null` for the top level.
    pub parent_id: Option<String>,
    pub index: usize,
}

/// A follow-up the utility model caught in a session's reply, waiting for
/// the user to keep or dismiss it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Caught {
    pub id: String,
    pub session_id: String,
    pub session_title: Option<String>,
    pub text: String,
    /// The sentence it came from.
    pub quote: String,
    pub created_at: String,
}

/// Where a list is mirrored: `path` is its tasks.md in the data directory,
/// `folder` the project folder whose `tasks.md` mirrors it too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "TaskMirror")]
#[schema(as = TaskMirror)]
pub struct Mirror {
    pub workspace_id: Option<String>,
    pub path: String,
    pub folder: Option<String>,
}

/// `PUT /tasks/mirror`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MirrorFolder {
    pub workspace_id: Option<String>,
    /// An absolute path to an existing directory; `null` stops mirroring there.
    pub folder: Option<String>,
}

/// Why a task is due for an inbox reminder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReminderReason {
    Due,
    SnoozeEnded,
}

/// An open task the inbox should be told about once. `due` and
/// `snoozed_until` are the moments this reminder covers; `mark_reminded`
/// records them so the same moment is never told twice, while a new due
/// date or a new snooze is told again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    pub account_id: String,
    pub task: Task,
    pub due: Option<String>,
    pub snoozed_until: Option<String>,
}

impl Reminder {
    /// The snooze ending wins: it is the moment the user chose to be told.
    pub fn reason(&self) -> ReminderReason {
        if self.snoozed_until.is_some() {
            ReminderReason::SnoozeEnded
        } else {
            ReminderReason::Due
        }
    }
}

/// One list: the personal one (`workspace_id` none) or a workspace's.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ListRef {
    pub account_id: String,
    pub workspace_id: Option<String>,
}

/// Control characters (a pasted newline, a tab) become spaces and the ends
/// are trimmed: a task's text is one line, which is what tasks.md can hold.
pub fn clean_text(text: &str) -> String {
    let spaced: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    spaced.trim().to_owned()
}

pub fn check_text(text: &str) -> Result<(), TaskError> {
    let n = text.chars().count();
    if n == 0 || n > MAX_TEXT_CHARS {
        return Err(invalid("text must be 1 to 2,000 characters"));
    }
    Ok(())
}

/// Line ends become `\n`, other control characters but tabs spaces, and
/// trailing blank space goes: the form tasks.md gives back unchanged.
pub fn clean_notes(notes: &str) -> String {
    let unified = notes.replace("\r\n", "\n").replace('\r', "\n");
    let spaced: String = unified
        .chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                ' '
            } else {
                c
            }
        })
        .collect();
    spaced.trim_end().to_owned()
}

pub fn check_notes(notes: &str) -> Result<(), TaskError> {
    if notes.chars().count() > MAX_NOTES_CHARS {
        return Err(invalid("notes must be at most 20,000 characters"));
    }
    Ok(())
}

/// A calendar date written exactly `YYYY-MM-DD` (jiff alone also reads
/// `20261201` and date-times, which tasks.md and text order could not).
pub fn parse_due(due: &str) -> Option<String> {
    let date: jiff::civil::Date = due.parse().ok()?;
    let shaped = due.len() == 10 && date.year() >= 1 && date.to_string() == due;
    shaped.then(|| due.to_owned())
}

pub fn check_due(due: &str) -> Result<String, TaskError> {
    parse_due(due).ok_or_else(|| invalid(format!("due must be a date YYYY-MM-DD, not {due:?}")))
}

/// Any RFC 3339 time, stored in UTC with milliseconds (the clock's form),
/// so stored times compare as text.
pub fn parse_snooze(at: &str) -> Option<String> {
    let ts: jiff::Timestamp = at.parse().ok()?;
    let t = jiff::tz::TimeZone::UTC.to_datetime(ts);
    if t.year() < 1 {
        return None;
    }
    Some(format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.millisecond()
    ))
}

pub fn check_snooze(at: &str) -> Result<String, TaskError> {
    parse_snooze(at).ok_or_else(|| {
        invalid(format!(
            "snoozedUntil must be an RFC 3339 time like 2026-12-01T09:00:00Z, not {at:?}"
        ))
    })
}

/// Ids that name a list or a caught session: no control characters, and
/// short, since they end up in paths and in the file.
pub fn check_workspace_id(id: &str) -> Result<(), TaskError> {
    if id.is_empty() || id.chars().count() > MAX_ID_CHARS || id.chars().any(char::is_control) {
        return Err(invalid("workspaceId must be 1 to 200 characters"));
    }
    Ok(())
}

/// Cuts `s` to at most `max` characters.
pub(crate) fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => s[..at].to_owned(),
        None => s.to_owned(),
    }
}

/// The stored form of a list: `''` is the personal list, so that the
/// columns stay `NOT NULL` and `=` finds it (SQL's `NULL = NULL` does not).
pub(crate) fn list_key(workspace_id: Option<&str>) -> &str {
    workspace_id.unwrap_or("")
}

pub(crate) fn workspace_of(key: String) -> Option<String> {
    (!key.is_empty()).then_some(key)
}
