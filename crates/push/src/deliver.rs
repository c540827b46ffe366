//! Sending: a ledger row per (subscription, notification id) makes each
//! push happen once. A row is claimed before its attempt (its next attempt
//! moved a lease ahead), so two callers never send it at once, and a
//! process that dies mid-send tries again after the lease rather than
//! never. What the push service answers decides the row's fate:
//!
//! - 2xx (201 Created, as RFC 8030 says): delivered, never sent again.
//! - 404 or 410: the subscription is gone (the user revoked it, the
//!   browser was reset); it and its rows are removed.
//! - 429: again at `Retry-After` (capped at an hour), or with backoff.
//! - 5xx, or no answer: again with backoff (30 s doubling, capped at 30
//!   minutes), until [`MAX_ATTEMPTS`].
//! - Any other status (400, 401, 403, 413): failed, not retried: sending
//!   the same request again would get the same answer.

use serde::Serialize;
use store::rusqlite::{Transaction, params};
use time::OffsetDateTime;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::PushError;
use crate::service::decode;
use crate::{Devices, Payload, Push, Urgency, endpoint};

/// Attempts before a row is given up as failed.
pub const MAX_ATTEMPTS: i64 = 8;
const FIRST_BACKOFF: time::Duration = time::Duration::seconds(30);
const MAX_BACKOFF: time::Duration = time::Duration::minutes(30);
const MAX_RETRY_AFTER: time::Duration = time::Duration::hours(1);
/// How long a claimed row waits before another caller may take it over.
const LEASE: time::Duration = time::Duration::minutes(2);
/// Finished rows kept this long, so a repeated notification stays unsent.
const KEEP_FINISHED: time::Duration = time::Duration::days(30);
/// RFC 8030 `TTL`: a push not delivered within 12 hours is stale news.
const TTL_SECS: &str = "43200";

/// What became of one push to one device.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(tag = "state", rename_all = "camelCase")]
#[ts(rename = "PushOutcome")]
#[schema(as = PushOutcome)]
pub enum Outcome {
    Delivered,
    /// Sent again at `at`.
    #[serde(rename_all = "camelCase")]
    Retrying {
        status: Option<u16>,
        at: String,
    },
    /// The push service says the subscription is no more; it is removed.
    Gone,
    #[serde(rename_all = "camelCase")]
    Failed {
        status: Option<u16>,
        reason: String,
    },
}

/// What a round of sending did, device by device.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub delivered: usize,
    pub retrying: usize,
    pub gone: usize,
    pub failed: usize,
}

impl Report {
    fn add(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Delivered => self.delivered += 1,
            Outcome::Retrying { .. } => self.retrying += 1,
            Outcome::Gone => self.gone += 1,
            Outcome::Failed { .. } => self.failed += 1,
        }
    }
}

struct Claimed {
    subscription_id: String,
    account_id: String,
    endpoint: String,
    p256dh: String,
    auth: String,
    notification_id: String,
    payload: String,
    urgency: Urgency,
    attempts: i64,
}

/// Which due rows a claim takes.
enum Due<'a> {
    All,
    Notification { owner: &'a str, id: &'a str },
}

impl Push {
    /// Pushes `payload` to every device of `owner`, once per
    /// `notification_id`: a second call with the same id sends nothing to a
    /// device that has (or is still to get) it.
    pub fn notify(
        &self,
        owner: &str,
        notification_id: &str,
        payload: &Payload,
        urgency: Urgency,
    ) -> Result<Report, PushError> {
        self.notify_after(owner, notification_id, payload, urgency, None, Devices::All)
    }

    /// [`Push::notify`] to the owner's `devices`, held until `not_before`
    /// when it is given (quiet hours): [`Push::retry_due`] sends it then.
    pub fn notify_after(
        &self,
        owner: &str,
        notification_id: &str,
        payload: &Payload,
        urgency: Urgency,
        not_before: Option<OffsetDateTime>,
        devices: Devices,
    ) -> Result<Report, PushError> {
        let now = self.clock.now();
        let first = clock::timestamp(not_before.map_or(now, |at| at.max(now)));
        let now = clock::timestamp(now);
        let body = serde_json::to_string(payload).map_err(|e| PushError::Encrypt(e.to_string()))?;
        self.db.write(|tx| {
            tx.execute(
                "INSERT OR IGNORE INTO push_deliveries
                   (subscription_id, notification_id, payload, urgency, state,
                    next_attempt_at, created_at, updated_at)
                 SELECT id, ?2, ?3, ?4, 'pending', ?5, ?6, ?6
                 FROM push_subscriptions WHERE account_id = ?1 AND (?7 OR daily_briefing)",
                params![
                    owner,
                    notification_id,
                    body,
                    urgency.as_str(),
                    first,
                    now,
                    devices == Devices::All
                ],
            )?;
            Ok::<_, PushError>(())
        })?;
        let mut report = Report::default();
        for claimed in self.claim(&Due::Notification {
            owner,
            id: notification_id,
        })? {
            report.add(&self.attempt(claimed)?);
        }
        Ok(report)
    }

    /// The device's test button: a push of its own each time.
    pub fn send_test(
        &self,
        owner: &str,
        id: &str,
        content_free: bool,
    ) -> Result<Outcome, PushError> {
        let device = self.subscription(owner, id)?;
        let notification_id = format!("test-{}", store::new_id());
        let body = serde_json::to_string(&Payload::test(&device.name, content_free))
            .map_err(|e| PushError::Encrypt(e.to_string()))?;
        let (stamp, lease) = self.lease();
        // Written and claimed in one transaction: the retry loop, which
        // takes every due row, must never send the test in its place.
        let claimed = self.db.write(|tx| {
            tx.execute(
                "INSERT INTO push_deliveries
                   (subscription_id, notification_id, payload, urgency, state,
                    next_attempt_at, created_at, updated_at)
                 VALUES (?1, ?2, ?3, 'normal', 'pending', ?4, ?4, ?4)",
                params![id, notification_id, body, stamp],
            )?;
            let due = Due::Notification {
                owner,
                id: &notification_id,
            };
            claim_in(tx, &due, &stamp, &lease)
        })?;
        match claimed.into_iter().next() {
            Some(claimed) => self.attempt(claimed),
            None => Err(PushError::NotFound),
        }
    }

    /// Sends every row whose next attempt has come, and drops finished rows
    /// past keeping.
    pub fn retry_due(&self) -> Result<Report, PushError> {
        let mut report = Report::default();
        for claimed in self.claim(&Due::All)? {
            report.add(&self.attempt(claimed)?);
        }
        let old = clock::timestamp(self.clock.now() - KEEP_FINISHED);
        self.db.write(|tx| {
            tx.execute(
                "DELETE FROM push_deliveries WHERE state != 'pending' AND updated_at < ?1",
                params![old],
            )?;
            Ok::<_, PushError>(())
        })?;
        Ok(report)
    }

    /// When the earliest waiting row is due, for a loop that sleeps until then.
    pub fn next_due(&self) -> Result<Option<OffsetDateTime>, PushError> {
        let next: Option<String> = self.db.read(|tx| {
            tx.query_row(
                "SELECT MIN(next_attempt_at) FROM push_deliveries WHERE state = 'pending'",
                [],
                |r| r.get(0),
            )
            .map_err(PushError::from)
        })?;
        Ok(next.and_then(|at| {
            OffsetDateTime::parse(&at, &time::format_description::well_known::Rfc3339).ok()
        }))
    }

    fn claim(&self, due: &Due<'_>) -> Result<Vec<Claimed>, PushError> {
        let (stamp, lease) = self.lease();
        self.db.write(|tx| claim_in(tx, due, &stamp, &lease))
    }

    /// Now, and when a claim taken now lapses.
    fn lease(&self) -> (String, String) {
        let now = self.clock.now();
        (clock::timestamp(now), clock::timestamp(now + LEASE))
    }

    /// One request to the push service, and its answer written down.
    fn attempt(&self, claimed: Claimed) -> Result<Outcome, PushError> {
        let outcome = match self.send(&claimed) {
            Ok(status) => self.judge(&claimed, status),
            Err(Unsendable::Retry(reason)) => {
                tracing::info!(%reason, "push service unreachable");
                self.backoff(&claimed, None)
            }
            Err(Unsendable::Never(reason)) => Outcome::Failed {
                status: None,
                reason,
            },
        };
        self.record(&claimed, &outcome)?;
        Ok(outcome)
    }

    fn send(&self, claimed: &Claimed) -> Result<Answer, Unsendable> {
        let never = |e: PushError| Unsendable::Never(e.to_string());
        let key = self.vapid_key(&claimed.account_id).map_err(never)?;
        let url = endpoint::check(&claimed.endpoint).map_err(never)?;
        let device_key = decode("keys.p256dh", &claimed.p256dh)
            .ok()
            .and_then(|bytes| p256::PublicKey::from_sec1_bytes(&bytes).ok())
            .ok_or_else(|| Unsendable::Never("the device key is damaged".to_owned()))?;
        let auth = decode("keys.auth", &claimed.auth).map_err(never)?;
        if auth.len() != 16 {
            return Err(Unsendable::Never("the device secret is damaged".to_owned()));
        }
        let auth = web_push_native::Auth::clone_from_slice(&auth);
        let body =
            web_push_native::encrypt(claimed.payload.clone().into_bytes(), &device_key, &auth)
                .map_err(|e| Unsendable::Never(format!("encryption failed: {e}")))?;
        let authorization =
            key.authorization(&endpoint::audience(&url), &self.contact, self.clock.now());
        let response = self
            .agent
            .post(url.as_str())
            .header("TTL", TTL_SECS)
            .header("Urgency", claimed.urgency.as_str())
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("Authorization", &authorization)
            .send(&body[..])
            .map_err(|e| Unsendable::Retry(e.to_string()))?;
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after(v, self.clock.now()));
        Ok(Answer {
            status: response.status().as_u16(),
            retry_after,
        })
    }

    fn judge(&self, claimed: &Claimed, answer: Answer) -> Outcome {
        match answer.status {
            200..=299 => Outcome::Delivered,
            404 | 410 => Outcome::Gone,
            429 => match answer.retry_after {
                Some(wait) if claimed.attempts < MAX_ATTEMPTS => Outcome::Retrying {
                    status: Some(429),
                    at: clock::timestamp(
                        self.clock.now() + wait.clamp(time::Duration::SECOND, MAX_RETRY_AFTER),
                    ),
                },
                _ => self.backoff(claimed, Some(429)),
            },
            status @ 500..=599 => self.backoff(claimed, Some(status)),
            status => Outcome::Failed {
                status: Some(status),
                reason: format!("the push service refused it ({status})"),
            },
        }
    }

    fn backoff(&self, claimed: &Claimed, status: Option<u16>) -> Outcome {
        if claimed.attempts >= MAX_ATTEMPTS {
            return Outcome::Failed {
                status,
                reason: format!("the push service failed {MAX_ATTEMPTS} times"),
            };
        }
        let doublings = u32::try_from(claimed.attempts.saturating_sub(1).min(16)).unwrap_or(16);
        let wait = (FIRST_BACKOFF * 2_i32.saturating_pow(doublings)).min(MAX_BACKOFF);
        Outcome::Retrying {
            status,
            at: clock::timestamp(self.clock.now() + wait),
        }
    }

    fn record(&self, claimed: &Claimed, outcome: &Outcome) -> Result<(), PushError> {
        let now = self.clock.timestamp();
        let ids = params![claimed.subscription_id, claimed.notification_id];
        self.db.write(|tx| {
            match outcome {
                Outcome::Delivered => {
                    finish(tx, claimed, "delivered", Some(201), &now)?;
                    tx.execute(
                        "UPDATE push_subscriptions SET last_delivered_at = ?2, last_failure = NULL
                         WHERE id = ?1",
                        params![claimed.subscription_id, now],
                    )?;
                }
                Outcome::Gone => {
                    tx.execute(
                        "DELETE FROM push_subscriptions WHERE id = ?1",
                        params![claimed.subscription_id],
                    )?;
                    tx.execute(
                        "DELETE FROM push_deliveries WHERE subscription_id = ?1",
                        params![claimed.subscription_id],
                    )?;
                }
                Outcome::Retrying { status, at } => {
                    tx.execute(
                        "UPDATE push_deliveries SET next_attempt_at = ?3, last_status = ?4,
                           updated_at = ?5
                         WHERE subscription_id = ?1 AND notification_id = ?2",
                        params![ids[0], ids[1], at, status, now],
                    )?;
                }
                Outcome::Failed { status, reason } => {
                    finish(tx, claimed, "failed", *status, &now)?;
                    tx.execute(
                        "UPDATE push_subscriptions SET last_failure = ?2 WHERE id = ?1",
                        params![claimed.subscription_id, reason],
                    )?;
                }
            }
            Ok::<_, PushError>(())
        })
    }
}

struct Answer {
    status: u16,
    retry_after: Option<time::Duration>,
}

enum Unsendable {
    /// The service did not answer: it may next time.
    Retry(String),
    /// Nothing about this row will change by waiting.
    Never(String),
}

fn finish(
    tx: &Transaction<'_>,
    claimed: &Claimed,
    state: &str,
    status: Option<u16>,
    now: &str,
) -> Result<(), PushError> {
    tx.execute(
        "UPDATE push_deliveries SET state = ?3, last_status = ?4, updated_at = ?5
         WHERE subscription_id = ?1 AND notification_id = ?2",
        params![
            claimed.subscription_id,
            claimed.notification_id,
            state,
            status,
            now
        ],
    )?;
    Ok(())
}

/// Takes the rows `due` names whose next attempt has come, leasing them
/// until `lease` so no other claim sends them meanwhile.
fn claim_in(
    tx: &Transaction<'_>,
    due: &Due<'_>,
    stamp: &str,
    lease: &str,
) -> Result<Vec<Claimed>, PushError> {
    let claimed = match due {
        Due::All => select(tx, "", params![stamp])?,
        Due::Notification { owner, id } => select(
            tx,
            "AND s.account_id = ?2 AND d.notification_id = ?3",
            params![stamp, owner, id],
        )?,
    };
    for row in &claimed {
        tx.execute(
            "UPDATE push_deliveries SET next_attempt_at = ?3, attempts = attempts + 1,
               updated_at = ?4
             WHERE subscription_id = ?1 AND notification_id = ?2",
            params![row.subscription_id, row.notification_id, lease, stamp],
        )?;
    }
    Ok(claimed)
}

fn select(
    tx: &Transaction<'_>,
    filter: &str,
    params: &[&dyn store::rusqlite::ToSql],
) -> Result<Vec<Claimed>, PushError> {
    let mut stmt = tx.prepare(&format!(
        "SELECT d.subscription_id, s.account_id, s.endpoint, s.p256dh, s.auth,
                d.notification_id, d.payload, d.urgency, d.attempts
         FROM push_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= ?1 {filter}
         ORDER BY d.next_attempt_at"
    ))?;
    let rows = stmt.query_map(params, |r| {
        Ok(Claimed {
            subscription_id: r.get(0)?,
            account_id: r.get(1)?,
            endpoint: r.get(2)?,
            p256dh: r.get(3)?,
            auth: r.get(4)?,
            notification_id: r.get(5)?,
            payload: r.get(6)?,
            urgency: Urgency::parse(&r.get::<_, String>(7)?),
            // The attempt about to be made counts.
            attempts: r.get::<_, i64>(8)? + 1,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// `Retry-After` as seconds or as an HTTP date, as a wait from `now`.
fn retry_after(value: &str, now: OffsetDateTime) -> Option<time::Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<i64>() {
        return Some(time::Duration::seconds(seconds.max(0)));
    }
    let at = OffsetDateTime::parse(value, &time::format_description::well_known::Rfc2822).ok()?;
    Some((at - now).max(time::Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = time::macros::datetime!(2015-10-21 07:27:00 UTC);
        assert_eq!(retry_after("120", now), Some(time::Duration::seconds(120)));
        assert_eq!(
            retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now),
            Some(time::Duration::seconds(60))
        );
        assert_eq!(retry_after("soon", now), None);
    }
}
