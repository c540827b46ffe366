//! What an alarm is (its row and wire shape, status and repeat rule) and
//! what can go wrong with one.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where an alarm is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "AlarmStatus")]
#[schema(as = AlarmStatus)]
pub enum Status {
    /// Waiting for `at`.
    Scheduled,
    /// Due and not yet answered.
    Ringing,
    /// Answered with Snooze: rings again at `at`.
    Snoozed,
    /// Answered with Dismiss (a one-time alarm; a repeating one goes back to
    /// `scheduled` at its next occurrence).
    Dismissed,
    /// Rang unanswered for `alarmsMaxRingingMinutes`, or fell due while the
    /// server was down (a one-time alarm; a repeating one is rescheduled).
    Missed,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Scheduled => "scheduled",
            Status::Ringing => "ringing",
            Status::Snoozed => "snoozed",
            Status::Dismissed => "dismissed",
            Status::Missed => "missed",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [
            Status::Scheduled,
            Status::Ringing,
            Status::Snoozed,
            Status::Dismissed,
            Status::Missed,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }

    /// Still to ring (or ringing): answerable with Dismiss.
    pub(crate) fn is_active(self) -> bool {
        matches!(self, Status::Scheduled | Status::Ringing | Status::Snoozed)
    }
}

/// How an alarm comes back after it rang.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "AlarmRepeat")]
#[schema(as = AlarmRepeat)]
pub enum Repeat {
    /// Every day at the same local time.
    Daily,
    /// Monday to Friday at the same local time.
    Weekdays,
}

impl Repeat {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Repeat::Daily => "daily",
            Repeat::Weekdays => "weekdays",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [Repeat::Daily, Repeat::Weekdays]
            .into_iter()
            .find(|r| r.as_str() == text)
    }
}

/// An alarm as the API gives it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Alarm {
    pub id: String,
    pub label: String,
    /// When it rings next, or rang (RFC 3339, UTC).
    pub at: String,
    pub repeat: Option<Repeat>,
    /// The local time of day (`HH:MM:SS`) a repeating alarm rings at, in the
    /// server's time zone; `null` for a one-time alarm.
    pub time_of_day: Option<String>,
    pub status: Status,
    /// Snoozes since it last began ringing on schedule.
    pub snoozes: u32,
    /// When it began ringing, while `status` is `ringing`.
    pub ringing_since: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Whose alarm it is: the server sends its events to this account.
    #[serde(skip)]
    #[ts(skip)]
    pub account_id: String,
}

pub const MAX_LABEL_CHARS: usize = 200;

#[derive(Debug, thiserror::Error)]
pub enum AlarmError {
    #[error("an alarm's label must be 1 to {MAX_LABEL_CHARS} characters")]
    InvalidLabel,
    #[error(
        "`at` must be an RFC 3339 time with an offset (2026-03-01T07:30:00+01:00) or a local HH:MM"
    )]
    InvalidTime,
    #[error("a one-time alarm's `at` must be in the future")]
    InPast,
    #[error("there is no such alarm")]
    NotFound,
    #[error("only a ringing alarm can be snoozed")]
    NotRinging,
    #[error("this alarm has been snoozed {0} times, the most allowed; only Dismiss remains")]
    SnoozeLimit(u32),
    #[error("an alarm's stored time is unreadable")]
    Corrupt,
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for AlarmError {
    fn from(e: store::rusqlite::Error) -> Self {
        AlarmError::Store(e.into())
    }
}

/// What the scheduler reports: each becomes an `alarm` event, and a missed
/// one an inbox row too.
#[derive(Debug, Clone, PartialEq)]
pub enum Fired {
    /// The alarm began ringing.
    Ringing(Alarm),
    /// The alarm went unanswered: it rang for the longest allowed, or fell
    /// due while the server was down. `alarm` is its state after (a repeating
    /// one already at its next occurrence); `due_at` is when it was due.
    Missed { alarm: Alarm, due_at: String },
}

/// The settings the snooze rule reads, handed over by the caller (this crate
/// knows nothing of settings).
#[derive(Debug, Clone, Copy)]
pub struct SnoozeRule {
    pub minutes: u32,
    /// `None`: no limit.
    pub max_snoozes: Option<u32>,
}
