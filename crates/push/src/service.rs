//! The account's VAPID key and its devices' subscriptions.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use clock::Clock;
use secrets::{Secrets, SecretsError};
use store::Db;
use store::rusqlite::{OptionalExtension, Row, params};

use crate::error::PushError;
use crate::vapid::VapidKey;
use crate::{Choice, MAX_NAME_CHARS, NewSubscription, Subscription, VAPID_KEY_NAME, endpoint};

/// Subscriptions and delivery; cheap to share behind an `Arc`.
pub struct Push {
    pub(crate) db: Arc<Db>,
    pub(crate) clock: Arc<dyn Clock>,
    secrets: Arc<Secrets>,
    /// The VAPID `sub` claim: who the push services may write to.
    pub(crate) contact: String,
    pub(crate) agent: ureq::Agent,
    /// Two first requests at once must not each make (and save) a key.
    key_made: Mutex<()>,
}

/// A push service that takes longer than this is treated as down (5xx).
const SEND_TIMEOUT: Duration = Duration::from_secs(15);

impl Push {
    /// `contact` is a `mailto:` or `https:` URL the push services may use
    /// to reach whoever runs this server.
    pub fn new(
        db: Arc<Db>,
        clock: Arc<dyn Clock>,
        secrets: Arc<Secrets>,
        contact: impl Into<String>,
    ) -> Self {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(SEND_TIMEOUT))
            // A push service answers; it does not send the message elsewhere.
            .max_redirects(0)
            .user_agent("switchboard-push")
            .build()
            .into();
        Self {
            db,
            clock,
            secrets,
            contact: contact.into(),
            agent,
            key_made: Mutex::new(()),
        }
    }

    /// The account's VAPID key, made and saved the first time it is asked.
    pub fn vapid_key(&self, owner: &str) -> Result<VapidKey, PushError> {
        let _made = self.key_made.lock().unwrap_or_else(PoisonError::into_inner);
        match self.secrets.reveal(owner, VAPID_KEY_NAME) {
            Ok(saved) => VapidKey::from_saved(&saved),
            Err(SecretsError::KeyNotFound(_)) => {
                let key = VapidKey::generate()?;
                self.secrets
                    .save_key(owner, VAPID_KEY_NAME, &key.to_saved())?;
                Ok(key)
            }
            Err(other) => Err(other.into()),
        }
    }

    /// The public key a browser subscribes with (`applicationServerKey`).
    pub fn public_key(&self, owner: &str) -> Result<String, PushError> {
        Ok(self.vapid_key(owner)?.public_key())
    }

    /// Keeps a device's subscription. The same endpoint again (a browser
    /// that subscribed anew) updates its keys and name and keeps its id.
    pub fn subscribe(&self, owner: &str, new: NewSubscription) -> Result<Subscription, PushError> {
        let endpoint = endpoint::check(new.endpoint.trim())?;
        let p256dh = decode("keys.p256dh", &new.keys.p256dh)?;
        if p256dh.len() != 65 || p256::PublicKey::from_sec1_bytes(&p256dh).is_err() {
            return Err(PushError::invalid(
                "keys.p256dh",
                "is not an uncompressed P-256 public key",
            ));
        }
        if decode("keys.auth", &new.keys.auth)?.len() != 16 {
            return Err(PushError::invalid("keys.auth", "must be 16 bytes"));
        }
        let name = new.name.trim();
        if name.is_empty()
            || name.chars().count() > MAX_NAME_CHARS
            || name.contains(char::is_control)
        {
            return Err(PushError::invalid(
                "name",
                format!("must be 1 to {MAX_NAME_CHARS} characters on one line"),
            ));
        }
        let now = self.clock.timestamp();
        let id = self.db.write(|tx| {
            tx.query_row(
                "INSERT INTO push_subscriptions (id, account_id, name, endpoint, p256dh, auth, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (account_id, endpoint) DO UPDATE SET
                   name = excluded.name, p256dh = excluded.p256dh, auth = excluded.auth,
                   last_failure = NULL
                 RETURNING id",
                params![
                    store::new_id(),
                    owner,
                    name,
                    endpoint.as_str(),
                    URL_SAFE_NO_PAD.encode(&p256dh),
                    new.keys.auth.trim().trim_end_matches('='),
                    now
                ],
                |r| r.get::<_, String>(0),
            )
            .map_err(PushError::from)
        })?;
        self.subscription(owner, &id)
    }

    /// The account's devices, oldest first.
    pub fn subscriptions(&self, owner: &str) -> Result<Vec<Subscription>, PushError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT id, name, endpoint, created_at, last_delivered_at, last_failure,
                        daily_briefing
                 FROM push_subscriptions WHERE account_id = ?1 ORDER BY created_at, id",
            )?;
            let rows = stmt.query_map(params![owner], row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    pub fn subscription(&self, owner: &str, id: &str) -> Result<Subscription, PushError> {
        self.db
            .read(|tx| {
                tx.query_row(
                    "SELECT id, name, endpoint, created_at, last_delivered_at, last_failure,
                            daily_briefing
                     FROM push_subscriptions WHERE account_id = ?1 AND id = ?2",
                    params![owner, id],
                    row,
                )
                .optional()
                .map_err(PushError::from)
            })?
            .ok_or(PushError::NotFound)
    }

    /// What the user chose for device `id`: whether it gets the daily
    /// briefing too.
    pub fn choose(
        &self,
        owner: &str,
        id: &str,
        choice: &Choice,
    ) -> Result<Subscription, PushError> {
        let changed = self.db.write(|tx| {
            tx.execute(
                "UPDATE push_subscriptions SET daily_briefing = ?3 WHERE account_id = ?1 AND id = ?2",
                params![owner, id, choice.daily_briefing],
            )
            .map_err(PushError::from)
        })?;
        if changed == 0 {
            return Err(PushError::NotFound);
        }
        self.subscription(owner, id)
    }

    /// Forgets a device and what was still to be sent to it.
    pub fn unsubscribe(&self, owner: &str, id: &str) -> Result<(), PushError> {
        let removed = self.db.write(|tx| {
            let removed = tx.execute(
                "DELETE FROM push_subscriptions WHERE account_id = ?1 AND id = ?2",
                params![owner, id],
            )?;
            if removed > 0 {
                tx.execute(
                    "DELETE FROM push_deliveries WHERE subscription_id = ?1",
                    params![id],
                )?;
            }
            Ok::<_, PushError>(removed)
        })?;
        if removed == 0 {
            return Err(PushError::NotFound);
        }
        Ok(())
    }
}

fn row(r: &Row<'_>) -> store::rusqlite::Result<Subscription> {
    let endpoint: String = r.get(2)?;
    Ok(Subscription {
        id: r.get(0)?,
        name: r.get(1)?,
        service: url::Url::parse(&endpoint)
            .map(|u| endpoint::audience(&u))
            .unwrap_or_default(),
        created_at: r.get(3)?,
        last_delivered_at: r.get(4)?,
        last_failure: r.get(5)?,
        daily_briefing: r.get(6)?,
    })
}

/// Browsers give base64url without padding; padding is taken too.
pub(crate) fn decode(field: &'static str, text: &str) -> Result<Vec<u8>, PushError> {
    URL_SAFE_NO_PAD
        .decode(text.trim().trim_end_matches('='))
        .map_err(|_| PushError::invalid(field, "is not base64url"))
}
