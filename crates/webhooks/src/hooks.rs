//! The hooks an account made, and taking a delivery for one: the secret in
//! its address finds it, the rate limit and the signature admit it, and the
//! payload says what the row is called.

use std::sync::Arc;

use clock::Clock;
use serde::{Deserialize, Serialize};
use store::Db;
use store::rusqlite::{OptionalExtension, params};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::{MAX_NAME_CHARS, MAX_SIGNING_SECRET_CHARS, WebhookError};
use crate::rate::{PER_MINUTE, RateLimiter};
use crate::signature::signature_matches;
use crate::title::{Delivery, Message, read_message};

/// A hook as `GET /webhooks` lists it: never its address, whose secret is
/// shown once, at creation.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    pub id: String,
    pub name: String,
    pub created_at: String,
    /// Deliveries must carry a matching `X-Hub-Signature-256`.
    pub signed: bool,
    pub purpose: Purpose,
}

/// What a hook's deliveries become.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "WebhookPurpose")]
#[schema(as = WebhookPurpose)]
pub enum Purpose {
    /// A `webhook` inbox row.
    #[default]
    Inbox,
    /// A Bug Intake report (GitHub issues, Sentry, the generic shape).
    BugIntake,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::Inbox => "inbox",
            Purpose::BugIntake => "bug_intake",
        }
    }

    fn from_column(text: &str) -> Self {
        if text == "bug_intake" {
            Purpose::BugIntake
        } else {
            Purpose::Inbox
        }
    }
}

/// A hook just made, with the secret of its address (not kept anywhere).
#[derive(Debug, Clone)]
pub struct Created {
    pub webhook: Webhook,
    pub secret: String,
}

/// A delivery that was admitted: whose hook it was and the row it makes.
#[derive(Debug, Clone)]
pub struct Received {
    pub webhook_id: String,
    pub account_id: String,
    pub purpose: Purpose,
    pub message: Message,
}

pub struct Webhooks {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
    limiter: RateLimiter,
}

impl Webhooks {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self {
            db,
            limiter: RateLimiter::new(clock.clone(), PER_MINUTE),
            clock,
        }
    }

    pub fn create(
        &self,
        account_id: &str,
        name: &str,
        signing_secret: Option<&str>,
        purpose: Purpose,
    ) -> Result<Created, WebhookError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
            return Err(WebhookError::InvalidName);
        }
        if signing_secret
            .is_some_and(|s| s.is_empty() || s.chars().count() > MAX_SIGNING_SECRET_CHARS)
        {
            return Err(WebhookError::InvalidSigningSecret);
        }
        let secret = store::new_secret().map_err(WebhookError::Random)?;
        let webhook = Webhook {
            id: store::new_id(),
            name: name.to_owned(),
            created_at: self.clock.timestamp(),
            signed: signing_secret.is_some(),
            purpose,
        };
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO webhooks (id, account_id, name, secret_digest, signing_secret, created_at, purpose)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    webhook.id,
                    account_id,
                    webhook.name,
                    store::secret_digest(&secret),
                    signing_secret,
                    webhook.created_at,
                    purpose.as_str()
                ],
            )
        })?;
        Ok(Created { webhook, secret })
    }

    /// The account's hooks, oldest first.
    pub fn list(&self, account_id: &str) -> Result<Vec<Webhook>, WebhookError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT id, name, created_at, signing_secret IS NOT NULL, purpose FROM webhooks
                 WHERE account_id = ?1 ORDER BY created_at, id",
            )?;
            let rows = stmt.query_map([account_id], |r| {
                Ok(Webhook {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    created_at: r.get(2)?,
                    signed: r.get(3)?,
                    purpose: Purpose::from_column(&r.get::<_, String>(4)?),
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// Deletes a hook; its address stops working at once.
    pub fn delete(&self, account_id: &str, id: &str) -> Result<(), WebhookError> {
        let deleted = self.db.write(|tx| {
            tx.execute(
                "DELETE FROM webhooks WHERE id = ?1 AND account_id = ?2",
                params![id, account_id],
            )
        })?;
        if deleted == 0 {
            return Err(WebhookError::NotFound);
        }
        self.limiter.forget(id);
        Ok(())
    }

    /// Takes a delivery to the address with `secret`: an unknown secret,
    /// then the rate limit (checked before the signature, so forged
    /// deliveries are limited too), then the signature.
    pub fn receive(&self, secret: &str, delivery: &Delivery<'_>) -> Result<Received, WebhookError> {
        let hook: Option<(String, String, String, Option<String>, String)> =
            self.db.read(|tx| {
                tx.query_row(
                    "SELECT id, account_id, name, signing_secret, purpose FROM webhooks
                     WHERE secret_digest = ?1",
                    [store::secret_digest(secret)],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
                )
                .optional()
            })?;
        let (webhook_id, account_id, name, signing_secret, purpose) =
            hook.ok_or(WebhookError::UnknownHook)?;
        if !self.limiter.admit(&webhook_id) {
            return Err(WebhookError::RateLimited {
                per_minute: PER_MINUTE,
            });
        }
        if let Some(signing_secret) = signing_secret
            && !signature_matches(&signing_secret, delivery.body, delivery.signature)
        {
            return Err(WebhookError::InvalidSignature);
        }
        Ok(Received {
            webhook_id,
            account_id,
            purpose: Purpose::from_column(&purpose),
            message: read_message(delivery, &name),
        })
    }
}
