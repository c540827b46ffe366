//! The data of the live event stream's events (`GET /stream`) that the
//! application itself assembles; the rest are domain types as they are
//! (`session`, `approval`). Exported to TypeScript with the API's other wire
//! types (`crates/server/tests/typescript.rs`).

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;
use utoipa::ToSchema;

/// `PATCH /settings/<key>` replies with the key and the value as stored.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
pub struct SettingChanged {
    pub key: String,
    pub value: Value,
}

/// The `alarm` stream event: the alarm after the change, or only its id
/// (`deleted: true`) once it is gone.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AlarmChanged {
    pub id: String,
    pub alarm: Option<alarms::Alarm>,
    pub deleted: bool,
}

/// The `tasks` event: which of the account's task views changed, so a page
/// showing it reads it again (a task list, named by its workspace, `null`
/// for the personal one, or the caught follow-ups).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TasksChanged {
    pub view: TasksView,
    pub workspace_id: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TasksView {
    Tasks,
    Caught,
}

/// The `output` event's data: one stored entry of a turn's typed transcript.
/// `seq` grows within a session (it is the entry's `seq` in
/// `GET /sessions/<id>/transcript?format=json`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OutputEvent {
    pub session_id: String,
    // JSON.parse gives a number, not a bigint.
    #[ts(type = "number")]
    pub turn: i64,
    #[ts(type = "number")]
    pub seq: i64,
    /// When the entry was stored (RFC 3339, UTC): its `at` in the transcript.
    pub at: String,
    pub entry: sessions::EntryBody,
}

/// The `board` event's data: the board's new ETag, `null` once it is deleted.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BoardChanged {
    pub board_id: String,
    pub etag: Option<String>,
}

/// The data of an `inbox` event: what changed in the account's inbox. A row
/// change is the row itself (as `GET /inbox` gives it, which is what this
/// event carried before it said more) with a `change` key added.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum InboxEvent {
    /// A new row.
    Created(inbox::InboxRow),
    /// An unread row came again: its `count`, time, title and body moved.
    Repeated(inbox::InboxRow),
    /// `PATCH /inbox/<id>` read, unread, archived or restored it, or
    /// `POST /sessions/<id>/seen` read it.
    Updated(inbox::InboxRow),
    /// `POST /inbox/read-all` marked `count` rows read (of `category`, or of
    /// every shown category when `null`).
    ReadAll {
        category: Option<inbox::Category>,
        count: usize,
    },
}

/// The `foreground` event's payload: who asks the app's tab to come
/// forward (an agent's request, a pomodoro phase change) and why.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ForegroundEvent {
    pub reason: String,
    pub from: String,
    pub session_id: Option<String>,
}
