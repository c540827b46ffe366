//! The server's VAPID identity (RFC 8292): a P-256 key pair made once per
//! account and kept sealed with the saved keys, and the `Authorization:
//! vapid t=…, k=…` header that signs each push for one push service.
//!
//! The JWT is built here rather than by web-push-native's VAPID part: that
//! one names the audience without its port (a push service on a non-default
//! port, such as the tests' stand-in, would refuse it) and reads the system
//! clock, where expiry must follow the injectable one.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Signer as _;
use p256::ecdsa::{Signature, SigningKey};
use serde_json::json;
use time::OffsetDateTime;

use crate::error::PushError;

/// How long a signature holds: RFC 8292 allows at most 24 hours; half of
/// that leaves room for a clock that runs ahead of the push service's.
pub const SIGNATURE_LIFETIME: time::Duration = time::Duration::hours(12);

/// A VAPID key pair.
#[derive(Clone)]
pub struct VapidKey(SigningKey);

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("VapidKey").field(&self.public_key()).finish()
    }
}

impl VapidKey {
    /// A fresh key pair from the operating system's randomness.
    pub fn generate() -> Result<Self, PushError> {
        loop {
            let mut scalar = [0u8; 32];
            getrandom::fill(&mut scalar).map_err(|e| PushError::NoRandomness(e.to_string()))?;
            // Zero or a value past the group order: draw again (about 2^-32).
            if let Ok(key) = SigningKey::from_slice(&scalar) {
                return Ok(Self(key));
            }
        }
    }

    /// The private scalar as saved: 32 bytes, base64url without padding.
    pub fn from_saved(text: &str) -> Result<Self, PushError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(text.trim())
            .map_err(|_| PushError::DamagedKey)?;
        SigningKey::from_slice(&bytes)
            .map(Self)
            .map_err(|_| PushError::DamagedKey)
    }

    pub fn to_saved(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.0.to_bytes())
    }

    /// The public key as browsers take it for `applicationServerKey` and as
    /// the header's `k`: the uncompressed point, base64url without padding.
    pub fn public_key(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.0.verifying_key().to_encoded_point(false).as_bytes())
    }

    /// The header value for a push to a service at `audience` (its origin),
    /// signed now and expiring [`SIGNATURE_LIFETIME`] later; `contact` is
    /// the `sub` claim (a `mailto:` or `https:` URL).
    pub fn authorization(&self, audience: &str, contact: &str, now: OffsetDateTime) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = json!({
            "aud": audience,
            "exp": (now + SIGNATURE_LIFETIME).unix_timestamp(),
            "sub": contact,
        });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signed = format!("{header}.{claims}");
        let signature: Signature = self.0.sign(signed.as_bytes());
        let signature = URL_SAFE_NO_PAD.encode(signature.to_bytes());
        format!("vapid t={signed}.{signature}, k={}", self.public_key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_form_round_trips_and_public_key_is_an_uncompressed_point() {
        let key = VapidKey::generate().unwrap();
        let again = VapidKey::from_saved(&key.to_saved()).unwrap();
        assert_eq!(key.public_key(), again.public_key());
        let point = URL_SAFE_NO_PAD.decode(key.public_key()).unwrap();
        assert_eq!(point.len(), 65);
        assert_eq!(point[0], 0x04);
        assert!(VapidKey::from_saved("not a key").is_err());
    }

    #[test]
    fn header_carries_a_jwt_whose_claims_name_audience_expiry_and_contact() {
        let key = VapidKey::generate().unwrap();
        let now = time::macros::datetime!(2026-01-05 09:00 UTC);
        let header = key.authorization("https://push.example:8443", "mailto:me@example.com", now);
        let (token, k) = header
            .strip_prefix("vapid t=")
            .unwrap()
            .split_once(", k=")
            .unwrap();
        assert_eq!(k, key.public_key());
        let claims = token.split('.').nth(1).unwrap();
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims).unwrap()).unwrap();
        assert_eq!(claims["aud"], "https://push.example:8443");
        assert_eq!(claims["sub"], "mailto:me@example.com");
        assert_eq!(
            claims["exp"],
            (now + time::Duration::hours(12)).unix_timestamp()
        );
    }
}
