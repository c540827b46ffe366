//! Inbound webhooks: external services (CI, monitoring, custom scripts) post
//! to an address given to them, and each delivery becomes an inbox row.
//!
//! - A hook's address holds a secret from [`store::new_secret`]; only its
//!   digest is stored, so the address is shown once, when the hook is made.
//! - With a signing secret, a delivery must carry GitHub's
//!   `X-Hub-Signature-256` ([`signature_matches`], constant-time).
//! - At most [`PER_MINUTE`] deliveries a minute per hook ([`RateLimiter`]),
//!   counted on the injected [`clock::Clock`].
//! - [`read_message`] names the row from common payloads (GitHub, Grafana,
//!   Alertmanager, `title`/`text`/`message`), else the body's first line.
//!
//! Knows nothing of HTTP, settings or the inbox: the server turns a
//! [`Received`] delivery into a row and says whether the feature is on.
//! The signing secret is stored as given, since checking an HMAC needs the
//! key itself; it is the sender's shared secret, not a credential here.

mod error;
mod hooks;
mod rate;
mod signature;
mod title;

pub use error::{MAX_NAME_CHARS, MAX_SIGNING_SECRET_CHARS, WebhookError};
pub use hooks::{Created, Purpose, Received, Webhook, Webhooks};
pub use rate::{PER_MINUTE, RateLimiter};
pub use signature::{sign, signature_matches};
pub use title::{Delivery, MAX_BODY_CHARS, MAX_TITLE_CHARS, Message, read_message};

use store::Migration;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        feature: "webhooks",
        sql: "CREATE TABLE webhooks (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            name TEXT NOT NULL,
            secret_digest BLOB NOT NULL UNIQUE,
            signing_secret TEXT,
            created_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX webhooks_by_account ON webhooks (account_id, created_at);",
    },
    // A hook's deliveries become inbox rows or Bug Intake reports.
    Migration {
        feature: "webhooks",
        sql: "ALTER TABLE webhooks ADD COLUMN purpose TEXT NOT NULL DEFAULT 'inbox'
                CHECK (purpose IN ('inbox', 'bug_intake'));",
    },
];

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn hooks() -> (tempfile::TempDir, Webhooks) {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(MIGRATIONS).unwrap();
        (
            dir,
            Webhooks::new(db, Arc::new(clock::ManualClock::starting_now())),
        )
    }

    fn delivery<'a>(body: &'a [u8], signature: Option<&'a str>) -> Delivery<'a> {
        Delivery {
            body,
            is_json: false,
            github_event: None,
            signature,
        }
    }

    #[test]
    fn a_hook_is_found_by_its_secret_and_checks_its_signature() {
        let (_dir, hooks) = hooks();
        let plain = hooks.create("a", " CI ", None, Purpose::Inbox).unwrap();
        let signed = hooks
            .create("a", "GitHub", Some("s3cret"), Purpose::Inbox)
            .unwrap();
        assert_eq!(plain.webhook.name, "CI");
        let listed = hooks.list("a").unwrap();
        assert_eq!(listed.len(), 2);
        assert!(hooks.list("b").unwrap().is_empty());

        let got = hooks
            .receive(&plain.secret, &delivery(b"build ok", None))
            .unwrap();
        assert_eq!(
            (got.account_id.as_str(), got.message.title.as_str()),
            ("a", "build ok")
        );
        let body = b"{}";
        let good = sign("s3cret", body);
        assert!(
            hooks
                .receive(&signed.secret, &delivery(body, Some(&good)))
                .is_ok()
        );
        assert!(matches!(
            hooks.receive(&signed.secret, &delivery(body, None)),
            Err(WebhookError::InvalidSignature)
        ));
        assert!(matches!(
            hooks.receive("nope", &delivery(body, None)),
            Err(WebhookError::UnknownHook)
        ));

        assert!(matches!(
            hooks.delete("b", &plain.webhook.id),
            Err(WebhookError::NotFound)
        ));
        hooks.delete("a", &plain.webhook.id).unwrap();
        assert!(matches!(
            hooks.receive(&plain.secret, &delivery(b"x", None)),
            Err(WebhookError::UnknownHook)
        ));
    }

    #[test]
    fn names_and_signing_secrets_are_checked() {
        let (_dir, hooks) = hooks();
        assert!(matches!(
            hooks.create("a", "  ", None, Purpose::Inbox),
            Err(WebhookError::InvalidName)
        ));
        let long = "n".repeat(MAX_NAME_CHARS + 1);
        assert!(matches!(
            hooks.create("a", &long, None, Purpose::Inbox),
            Err(WebhookError::InvalidName)
        ));
        assert!(matches!(
            hooks.create("a", "x", Some(""), Purpose::Inbox),
            Err(WebhookError::InvalidSigningSecret)
        ));
        assert!(hooks.list("a").unwrap().is_empty());
    }
}
