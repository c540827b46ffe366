//! The webhook's two secrets: the path segment the app serves updates at,
//! and the `secret_token` Telegram sends back in every delivery's
//! `X-Telegram-Bot-Api-Secret-Token` header.
//!
//! Both are derived from the bot token (HMAC-SHA256 under distinct labels),
//! so nothing more is stored, they survive restarts, and they change when the
//! token is rotated; neither reveals the token.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// The header Telegram puts the `secret_token` of `setWebhook` in.
pub const SECRET_TOKEN_HEADER: &str = "X-Telegram-Bot-Api-Secret-Token";

pub struct WebhookSecrets {
    path: String,
    header: String,
}

/// No secret is printed, even by `{:?}`.
impl std::fmt::Debug for WebhookSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WebhookSecrets(..)")
    }
}

impl WebhookSecrets {
    pub fn derive(bot_token: &str) -> Self {
        Self {
            path: derive(bot_token, "switchboard messenger webhook path"),
            header: derive(bot_token, "switchboard messenger webhook secret_token"),
        }
    }

    /// The secret part of the webhook's path: 64 hex digits.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What `setWebhook` is given as `secret_token`: 64 hex digits, within
    /// Telegram's 1–256 characters of `A-Z a-z 0-9 _ -`.
    pub fn secret_token(&self) -> &str {
        &self.header
    }

    /// Whether a delivery's path segment is ours, compared in constant time.
    pub fn path_matches(&self, segment: &str) -> bool {
        bool::from(self.path.as_bytes().ct_eq(segment.as_bytes()))
    }

    /// Whether a delivery's `X-Telegram-Bot-Api-Secret-Token` is ours,
    /// compared in constant time, so timing tells nothing of how much of a
    /// forged value was right. A missing header never matches.
    pub fn header_matches(&self, header: Option<&str>) -> bool {
        header.is_some_and(|value| bool::from(self.header.as_bytes().ct_eq(value.as_bytes())))
    }
}

fn derive(key: &str, label: &str) -> String {
    // HMAC takes a key of any length, so this cannot fail.
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of every length"));
    mac.update(label.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_stable_distinct_and_checked() {
        let token = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11";
        let secrets = WebhookSecrets::derive(token);
        assert_eq!(secrets.path(), WebhookSecrets::derive(token).path());
        assert_ne!(secrets.path(), secrets.secret_token());
        assert_ne!(
            secrets.path(),
            WebhookSecrets::derive("123456:other").path()
        );
        for secret in [secrets.path(), secrets.secret_token()] {
            assert_eq!(secret.len(), 64);
            assert!(secret.bytes().all(|b| b.is_ascii_hexdigit()));
            assert!(!secret.contains(token));
        }
        let header = secrets.secret_token().to_owned();
        assert!(secrets.header_matches(Some(&header)));
        assert!(!secrets.header_matches(None));
        assert!(!secrets.header_matches(Some(&header[..63])));
        assert!(!secrets.header_matches(Some(secrets.path())));
        assert!(secrets.path_matches(secrets.path()));
        assert!(!secrets.path_matches(""));
        assert!(!format!("{secrets:?}").contains(&header));
    }
}
