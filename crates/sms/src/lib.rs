//! Text messages (issue 69, docs/phone.md "Text messages"): sent and
//! received over the user's own phone or a relay, kept as threads per
//! number.
//!
//! - [`config`]: `DIR/sms.toml`, which names the saved keys holding the
//!   credentials.
//! - [`gateway`]: the two providers' HTTP calls: the SMS Gateway for
//!   Android app's REST API (`native`) and the documented relay shape.
//! - [`webhook`]: an incoming delivery's signature checked and its body read.
//! - [`number`]: numbers normalized; short codes told apart.
//! - [`health`]: when a failing gateway is news (one alert) and when it is
//!   over.
//! - [`Sms`] (`service.rs`, `book.rs`): sending (stored first, so a text the
//!   gateway never took is kept, failed, never lost), receiving (stored once
//!   per gateway id; held in Spam by `spamFilterSmsEnabled`'s rule), threads.
//!
//! Knows nothing of HTTP servers, settings, saved keys or the inbox: the app
//! reads the switches, reveals the secrets, and raises the rows and alerts.

mod book;
pub mod config;
mod error;
pub mod gateway;
pub mod health;
pub mod number;
mod service;
pub mod webhook;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

pub use config::{CONFIG_FILE, Config, Provider};
pub use error::SmsError;
pub use gateway::{Endpoint, Gateway, GatewayError};
pub use health::Transition;
pub use service::{Received, Sent, Sms};
pub use webhook::{Delivery, Incoming};

/// The longest text sent: ten concatenated parts.
pub const MAX_SEND_CHARS: usize = 1_600;
/// The longest incoming text kept whole (a concatenated SMS of 255 parts is
/// shorter); anything longer is cut there.
pub const MAX_STORED_CHARS: usize = 40_000;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "sms",
    sql: "CREATE TABLE sms_messages (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            number TEXT NOT NULL,
            direction TEXT NOT NULL,
            text TEXT NOT NULL,
            state TEXT NOT NULL,
            failure TEXT,
            gateway_id TEXT,
            spam INTEGER NOT NULL,
            read INTEGER NOT NULL,
            created_at TEXT NOT NULL
          ) STRICT;
          CREATE UNIQUE INDEX sms_messages_gateway ON sms_messages (account_id, direction, gateway_id);
          CREATE INDEX sms_messages_thread ON sms_messages (account_id, number, created_at);
          CREATE TABLE sms_threads (
            account_id TEXT NOT NULL,
            number TEXT NOT NULL,
            spam INTEGER NOT NULL,
            last_at TEXT NOT NULL,
            PRIMARY KEY (account_id, number)
          ) STRICT;
          CREATE TABLE sms_contacts (
            account_id TEXT NOT NULL,
            number TEXT NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (account_id, number)
          ) STRICT;
          CREATE TABLE sms_health (
            account_id TEXT PRIMARY KEY,
            failing_since TEXT NOT NULL,
            failure TEXT NOT NULL,
            alerted INTEGER NOT NULL
          ) STRICT;",
}];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SmsDirection {
    In,
    Out,
}

/// Where a text stands: `received` for incoming ones; outgoing ones go
/// `pending` (the gateway has it), `sent`, `delivered`, or `failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SmsDeliveryState")]
#[schema(as = SmsDeliveryState)]
pub enum DeliveryState {
    Received,
    Pending,
    Sent,
    Delivered,
    Failed,
}

impl DeliveryState {
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryState::Received => "received",
            DeliveryState::Pending => "pending",
            DeliveryState::Sent => "sent",
            DeliveryState::Delivered => "delivered",
            DeliveryState::Failed => "failed",
        }
    }

    pub(crate) fn parse(text: &str) -> Self {
        match text {
            "received" => DeliveryState::Received,
            "sent" => DeliveryState::Sent,
            "delivered" => DeliveryState::Delivered,
            "failed" => DeliveryState::Failed,
            _ => DeliveryState::Pending,
        }
    }

    /// A state as either provider names it (the app capitalizes).
    pub(crate) fn from_gateway(text: &str) -> Self {
        match text.to_ascii_lowercase().as_str() {
            "sent" => DeliveryState::Sent,
            "delivered" => DeliveryState::Delivered,
            "failed" | "cancelled" => DeliveryState::Failed,
            _ => DeliveryState::Pending,
        }
    }
}

/// One text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SmsMessage {
    pub id: String,
    /// The other side's number (or a business's sender name).
    pub number: String,
    pub direction: SmsDirection,
    pub text: String,
    pub state: DeliveryState,
    /// Why an outgoing text failed.
    pub failure: Option<String>,
    /// Held in Spam by `spamFilterSmsEnabled`.
    pub spam: bool,
    pub created_at: String,
}

/// The conversation with one number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SmsThread {
    pub number: String,
    /// The saved contact's name.
    pub name: Option<String>,
    pub spam: bool,
    pub last_at: String,
    pub last_text: String,
    pub count: i64,
    pub unread: i64,
}

/// A number saved as a contact: named in its thread, trusted by the spam rule.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SmsContact {
    pub name: String,
}

/// A text to send.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SendSms {
    pub to: String,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SmsHealthState")]
#[schema(as = SmsHealthState)]
pub enum HealthState {
    Ok,
    /// Calls fail, not (yet) for long enough to be news.
    Failing,
    /// Failing and alerted.
    Alerting,
}

/// Whether texts work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SmsHealth")]
#[schema(as = SmsHealth)]
pub struct Health {
    pub state: HealthState,
    pub failure: Option<String>,
    pub failing_since: Option<String>,
}
