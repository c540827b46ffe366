//! GitHub-style delivery signatures: `X-Hub-Signature-256: sha256=<hex>`,
//! the HMAC-SHA256 of the raw body keyed with the hook's signing secret.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Whether `header` signs `body` with `signing_secret`. The comparison is
/// constant-time (`verify_slice`), so timing says nothing about how much of
/// a forged signature was right.
pub fn signature_matches(signing_secret: &str, body: &[u8], header: Option<&str>) -> bool {
    let Some(hex_digest) = header.and_then(|h| h.trim().strip_prefix("sha256=")) else {
        return false;
    };
    let Ok(claimed) = hex::decode(hex_digest) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(signing_secret.as_bytes()) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&claimed).is_ok()
}

/// The header value a sender computes: for tests and for clients.
pub fn sign(signing_secret: &str, body: &[u8]) -> String {
    // HMAC takes a key of any length, so this cannot fail.
    let mut mac = Hmac::<Sha256>::new_from_slice(signing_secret.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of every length"));
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_github_example_signature_matches() {
        // GitHub's documented example ("Validating webhook deliveries").
        let header = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
        assert!(signature_matches(
            "It's a Secret to Everybody",
            b"Hello, World!",
            Some(header)
        ));
        assert_eq!(sign("It's a Secret to Everybody", b"Hello, World!"), header);
    }

    #[test]
    fn anything_else_does_not() {
        let good = sign("s3cret", b"{}");
        assert!(signature_matches("s3cret", b"{}", Some(&good)));
        assert!(!signature_matches("other", b"{}", Some(&good)));
        assert!(!signature_matches("s3cret", b"{ }", Some(&good)));
        assert!(!signature_matches("s3cret", b"{}", None));
        assert!(!signature_matches(
            "s3cret",
            b"{}",
            Some(good.trim_start_matches("sha256="))
        ));
        assert!(!signature_matches("s3cret", b"{}", Some("sha256=zz")));
        assert!(!signature_matches(
            "s3cret",
            b"{}",
            Some(&good[..good.len() - 2])
        ));
        assert!(!signature_matches("s3cret", b"{}", Some("sha1=00")));
    }
}
