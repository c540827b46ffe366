//! Web Push to the user's devices (issue 69, docs/phone.md): a phone or a
//! browser that chose **Notify me on this device** gets a push when a
//! session needs the user, even with no Switchboard tab open.
//!
//! - [`vapid`]: the account's VAPID key pair (RFC 8292), made once and kept
//!   sealed with the saved keys, and the signed `Authorization` header.
//! - [`endpoint`]: https endpoints only, http only on loopback.
//! - [`payload`]: `{title, body, url, tag}`, generic when
//!   `contentFreeMobilePush` is on.
//! - [`Push`] (`service.rs`): subscriptions per device, with a name.
//! - `deliver.rs`: every notification goes through a ledger row per device
//!   (subscription, notification id): sent once, encrypted with RFC 8291
//!   aes128gcm (web-push-native); 404/410 removes the subscription; 429 and
//!   5xx are tried again at `Retry-After` or with backoff on the injectable
//!   clock ([`Push::retry_due`]); a row once delivered is never sent again.
//!
//! Knows nothing of HTTP servers, settings, quiet hours or focus: the
//! application decides whether and what to push, and the server maps calls
//! to routes.

mod deliver;
pub mod endpoint;
mod error;
pub mod payload;
mod service;
pub mod vapid;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

pub use deliver::{Outcome, Report};
pub use error::PushError;
pub use payload::{NeedsYou, Payload};
pub use service::Push;
pub use vapid::VapidKey;

/// The saved key (per account) holding the VAPID private key.
pub const VAPID_KEY_NAME: &str = "PUSH_VAPID_KEY";
pub const MAX_NAME_CHARS: usize = 80;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[
    store::Migration {
        feature: "push",
        sql: "CREATE TABLE push_subscriptions (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            name TEXT NOT NULL,
            endpoint TEXT NOT NULL,
            p256dh TEXT NOT NULL,
            auth TEXT NOT NULL,
            created_at TEXT NOT NULL,
            last_delivered_at TEXT,
            last_failure TEXT,
            UNIQUE (account_id, endpoint)
          ) STRICT;
          CREATE TABLE push_deliveries (
            subscription_id TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            payload TEXT NOT NULL,
            urgency TEXT NOT NULL,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at TEXT NOT NULL,
            last_status INTEGER,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (subscription_id, notification_id)
          ) STRICT;
          CREATE INDEX push_deliveries_due ON push_deliveries (state, next_attempt_at);",
    },
    store::Migration {
        feature: "push",
        sql: "ALTER TABLE push_subscriptions ADD COLUMN daily_briefing INTEGER NOT NULL DEFAULT 0;",
    },
];

/// A device's subscription as listed: never its endpoint or keys (the
/// endpoint is a capability: whoever holds it can push to the device).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "PushSubscription")]
#[schema(as = PushSubscription)]
pub struct Subscription {
    pub id: String,
    pub name: String,
    /// The push service's origin, e.g. `https://fcm.googleapis.com`.
    pub service: String,
    pub created_at: String,
    pub last_delivered_at: Option<String>,
    /// Why the last push failed, until one succeeds.
    pub last_failure: Option<String>,
    /// This device also gets each daily briefing, as the user chose on it.
    pub daily_briefing: bool,
}

/// `PATCH /push/subscriptions/{id}`: what the user chose for one device.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "PushSubscriptionChoice")]
#[schema(as = PushSubscriptionChoice)]
pub struct Choice {
    pub daily_briefing: bool,
}

/// Which of an account's devices a push goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Devices {
    All,
    /// Those that chose the daily briefing.
    DailyBriefing,
}

/// `GET /push/vapid-public-key`: what a browser subscribes with
/// (`applicationServerKey`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
pub struct VapidPublicKey {
    /// The uncompressed P-256 point, base64url without padding.
    pub key: String,
}

/// The keys a browser's `PushSubscription.toJSON()` holds.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[ts(rename = "PushSubscriptionKeys")]
#[schema(as = PushSubscriptionKeys)]
pub struct Keys {
    /// The device's P-256 public key, base64url.
    pub p256dh: String,
    /// The 16-byte authentication secret, base64url.
    pub auth: String,
}

/// `POST /push/subscriptions`: what `PushSubscription.toJSON()` gives, with
/// the name the user chose for the device.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[ts(rename = "NewPushSubscription")]
#[schema(as = NewPushSubscription)]
pub struct NewSubscription {
    pub endpoint: String,
    pub keys: Keys,
    pub name: String,
}

/// How urgently a push service should wake the device (RFC 8030 `Urgency`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    Normal,
    High,
}

impl Urgency {
    pub fn as_str(self) -> &'static str {
        match self {
            Urgency::Normal => "normal",
            Urgency::High => "high",
        }
    }

    pub(crate) fn parse(text: &str) -> Self {
        if text == "high" {
            Urgency::High
        } else {
            Urgency::Normal
        }
    }
}
