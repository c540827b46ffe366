//! `POST /sms/incoming`: a delivery checked against the webhook's signing
//! key and read into an [`Incoming`] text.
//!
//! The signature is the gateway app's: `X-Signature` is the hex
//! HMAC-SHA256, under the signing key, of the raw body followed by the
//! `X-Timestamp` header's value (Unix seconds). A delivery more than
//! [`MAX_SKEW`] away from now is refused, so a captured one cannot be
//! replayed later; one replayed within it is stored once (by its id).
//!
//! Two bodies are read: the gateway's envelope `{event: "sms:received",
//! payload: {messageId, message | textMessage.text, phoneNumber | sender,
//! receivedAt}}` (other events are [`Delivery::Ignored`]) and the relay's
//! `{id, from, text, receivedAt}`.

use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;
use time::{Duration, OffsetDateTime};

use crate::SmsError;

pub const SIGNATURE_HEADER: &str = "x-signature";
pub const TIMESTAMP_HEADER: &str = "x-timestamp";
/// How far a delivery's timestamp may be from now.
pub const MAX_SKEW: Duration = Duration::minutes(5);

/// A text that arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// The gateway's id of the message: a delivery repeated is stored once.
    pub id: String,
    pub from: String,
    pub text: String,
    pub received_at: Option<String>,
}

/// What a delivery holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    Text(Incoming),
    /// Another event (`sms:sent`, `system:ping`, ...): answered, not stored.
    Ignored(String),
}

/// The signature the gateway puts on `body` sent at `timestamp`.
pub fn sign(key: &str, body: &[u8], timestamp: &str) -> String {
    let mut mac = mac(key);
    mac.update(body);
    mac.update(timestamp.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

fn mac(key: &str) -> Hmac<Sha256> {
    // HMAC takes a key of any length.
    match Hmac::<Sha256>::new_from_slice(key.as_bytes()) {
        Ok(mac) => mac,
        Err(_) => unreachable!("HMAC accepts keys of every length"),
    }
}

/// Checks the signature and the timestamp (against `now`) in constant time.
pub fn verify(
    key: &str,
    body: &[u8],
    timestamp: Option<&str>,
    signature: Option<&str>,
    now: OffsetDateTime,
) -> Result<(), SmsError> {
    let (Some(timestamp), Some(signature)) = (timestamp, signature) else {
        return Err(SmsError::BadSignature);
    };
    let seconds: i64 = timestamp
        .trim()
        .parse()
        .map_err(|_| SmsError::BadSignature)?;
    let sent = OffsetDateTime::from_unix_timestamp(seconds).map_err(|_| SmsError::BadSignature)?;
    if (now - sent).abs() > MAX_SKEW {
        return Err(SmsError::BadSignature);
    }
    let given = hex::decode(signature.trim()).map_err(|_| SmsError::BadSignature)?;
    let mut mac = mac(key);
    mac.update(body);
    mac.update(timestamp.as_bytes());
    mac.verify_slice(&given).map_err(|_| SmsError::BadSignature)
}

/// Reads a checked delivery's body.
pub fn parse(body: &[u8]) -> Result<Delivery, SmsError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| SmsError::Invalid(format!("the delivery is not JSON: {e}")))?;
    if let Some(event) = value.get("event").and_then(Value::as_str) {
        if event != "sms:received" {
            return Ok(Delivery::Ignored(event.to_owned()));
        }
        let payload = &value["payload"];
        let text = payload["message"]
            .as_str()
            .or_else(|| payload["textMessage"]["text"].as_str());
        let from = payload["phoneNumber"]
            .as_str()
            .or_else(|| payload["sender"].as_str());
        let id = payload["messageId"]
            .as_str()
            .or_else(|| value["id"].as_str());
        return incoming(id, from, text, payload["receivedAt"].as_str());
    }
    incoming(
        value["id"].as_str(),
        value["from"].as_str(),
        value["text"].as_str(),
        value["receivedAt"].as_str(),
    )
}

fn incoming(
    id: Option<&str>,
    from: Option<&str>,
    text: Option<&str>,
    received_at: Option<&str>,
) -> Result<Delivery, SmsError> {
    let missing = |field: &str| SmsError::Invalid(format!("the delivery has no {field}"));
    let id = id
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| missing("message id"))?;
    Ok(Delivery::Text(Incoming {
        id: id.chars().take(128).collect(),
        from: from.ok_or_else(|| missing("sender"))?.to_owned(),
        text: text.ok_or_else(|| missing("text"))?.to_owned(),
        received_at: received_at.map(str::to_owned),
    }))
}
