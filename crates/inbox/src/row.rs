//! What an inbox row is: its category, where it came from, what the user can
//! do about it, and the shapes the inbox's queries take and give.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

/// What kind of row this is; the inbox's `inboxShow*` settings hide by it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Alert,
    Session,
    CliPending,
    PmEvent,
    Digest,
    Webhook,
    Alarm,
    Note,
    /// A recipe's run that failed, stalled or ended incomplete.
    Recipes,
    /// A schedule an agent made, waiting for the user's approval.
    Cron,
    /// An automation rule an agent made, waiting for approval, or one
    /// that hit its hourly cap.
    Automations,
    /// A calendar event about to start (`reason: "reminder"`), or the
    /// day's agenda (`reason: "agenda"`).
    Calendar,
    /// A mail the email summarizer summarized, or could not.
    EmailSummary,
    /// New mail in the mail client's inbox (`mailclientEmailsInInbox`),
    /// answered from the row.
    Mail,
    /// An incoming text message (`inboxShowSms`), answered from its thread.
    Sms,
    /// A new message in one of the user's Matrix rooms (`inboxShowMessenger`).
    Messenger,
}

impl Category {
    pub const ALL: [Category; 16] = [
        Category::Alert,
        Category::Session,
        Category::CliPending,
        Category::PmEvent,
        Category::Digest,
        Category::Webhook,
        Category::Alarm,
        Category::Note,
        Category::Recipes,
        Category::Cron,
        Category::Automations,
        Category::Calendar,
        Category::EmailSummary,
        Category::Mail,
        Category::Sms,
        Category::Messenger,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Alert => "alert",
            Category::Session => "session",
            Category::CliPending => "cli_pending",
            Category::PmEvent => "pm_event",
            Category::Digest => "digest",
            Category::Webhook => "webhook",
            Category::Alarm => "alarm",
            Category::Note => "note",
            Category::Recipes => "recipes",
            Category::Cron => "cron",
            Category::Automations => "automations",
            Category::Calendar => "calendar",
            Category::EmailSummary => "email_summary",
            Category::Mail => "mail",
            Category::Sms => "sms",
            Category::Messenger => "messenger",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

/// Where a row came from: the keys that apply, none of the others.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub board_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub item_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub webhook_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub alarm_id: Option<String>,
    /// The input request or key proposal the row asks the user to answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub request_id: Option<String>,
}

/// Something the user can do straight from a row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Open the session the row is about.
    OpenSession {
        #[serde(rename = "sessionId")]
        session_id: String,
    },
    /// Open a board item (project events).
    OpenItem {
        #[serde(rename = "boardId")]
        board_id: String,
        #[serde(rename = "itemId")]
        item_id: String,
    },
    /// Open a board (project events folded over many of its items).
    OpenBoard {
        #[serde(rename = "boardId")]
        board_id: String,
    },
    /// Open a view of the web app at its address (an agent's navigation
    /// request that found no app in front).
    OpenPath { path: String },
    /// Approve or decline a messenger user's pairing code.
    ApprovePairing { code: String },
    /// Approve or refuse the start of a session that a session on a runner
    /// started (`cloudStartedSessionsEnabled`).
    ApproveSessionStart {
        #[serde(rename = "sessionId")]
        session_id: String,
    },
    /// Approve a schedule an agent made (`POST /schedules/{id}/approve`).
    ApproveSchedule {
        #[serde(rename = "scheduleId")]
        schedule_id: String,
    },
    /// Approve an automation rule an agent made (`POST /rules/{id}/approve`).
    ApproveRule {
        #[serde(rename = "ruleId")]
        rule_id: String,
    },
    /// Open the setting whose value caused what the row tells (a run
    /// refused by it), named by its label as the settings page names it.
    OpenSetting { key: String, label: String },
}

/// One row as the API gives it.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InboxRow {
    pub id: String,
    pub category: Category,
    pub title: String,
    pub body: Option<String>,
    /// When the first of the `count` occurrences arrived.
    pub created_at: String,
    /// When the latest occurrence arrived (`createdAt` while `count` is 1).
    pub updated_at: String,
    pub read_at: Option<String>,
    pub archived_at: Option<String>,
    /// How many times this source raised this while the row was unread.
    pub count: i64,
    /// Why the source raised it, when the source says (a `session` row:
    /// `question`, `failed` or `routine`); the newest occurrence's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    pub source: Source,
    pub actions: Vec<Action>,
}

/// A row to add. With a `dedup_key`, an unread row of the account with the
/// same key is bumped instead (count, time, newest title and body).
#[derive(Debug, Clone)]
pub struct NewRow {
    pub category: Category,
    pub title: String,
    pub body: Option<String>,
    /// Why the source raised it (shown, not part of the dedup key).
    pub reason: Option<String>,
    pub source: Source,
    pub actions: Vec<Action>,
    pub dedup_key: Option<String>,
}

impl NewRow {
    pub fn new(category: Category, title: impl Into<String>) -> Self {
        Self {
            category,
            title: title.into(),
            body: None,
            reason: None,
            source: Source::default(),
            actions: Vec::new(),
            dedup_key: None,
        }
    }

    /// Marks the row as the same as any unread one with this category, this
    /// source and this `reason` (for an alert, its title): a repeat bumps
    /// that row instead of adding another.
    pub fn dedup(mut self, reason: &str) -> Self {
        let source = serde_json::to_string(&self.source).unwrap_or_default();
        self.dedup_key = Some(format!(
            "{}\u{1f}{source}\u{1f}{reason}",
            self.category.as_str()
        ));
        self
    }
}

/// Which rows a listing shows by their read and archived state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StateFilter {
    Unread,
    Read,
    Archived,
    /// Unread and read, not archived: what the inbox shows by default.
    #[default]
    Open,
    All,
}

/// A listing: newest first, `limit` rows older than the row `before`.
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    pub category: Option<Category>,
    pub state: StateFilter,
    pub before: Option<String>,
    pub limit: usize,
    /// Categories left out (their `inboxShow*` setting is off).
    pub hidden: Vec<Category>,
}

/// A row's new state; what is `None` stays as it is.
#[derive(Debug, Clone, Copy, Default, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RowChange {
    #[ts(optional)]
    pub read: Option<bool>,
    #[ts(optional)]
    pub archived: Option<bool>,
}

/// What [`crate::Inbox::add`] did.
#[derive(Debug, Clone)]
pub struct Added {
    pub row: InboxRow,
    /// The row was already there, unread, and was bumped.
    pub repeated: bool,
}

pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_BODY_CHARS: usize = 10_000;

/// `text` cut to at most `max` characters (not bytes), the last an ellipsis
/// when it was cut: how a source fits a long title or body into a row.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}
pub const MAX_PAGE: usize = 500;

#[derive(Debug, thiserror::Error)]
pub enum InboxError {
    #[error("title must be 1 to {MAX_TITLE_CHARS} characters")]
    InvalidTitle,
    #[error("body must be at most {MAX_BODY_CHARS} characters")]
    InvalidBody,
    #[error("limit must be 1 to {MAX_PAGE}")]
    InvalidLimit,
    #[error("before names no row of this inbox")]
    UnknownCursor,
    #[error("no such inbox row")]
    NotFound,
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for InboxError {
    fn from(e: store::rusqlite::Error) -> Self {
        InboxError::Store(e.into())
    }
}
