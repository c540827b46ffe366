//! Which push endpoints a subscription may name, and the origin a VAPID
//! signature is made out to.
//!
//! An endpoint is `https`: the push message crosses the internet and the
//! endpoint URL itself is a capability. The one exception is `http` on
//! loopback (`127.0.0.0/8`, `::1`, `localhost`): a push service on this
//! machine, such as the tests' stand-in, never leaves it.

use std::net::IpAddr;

use url::{Host, Url};

use crate::error::PushError;

pub const MAX_ENDPOINT_CHARS: usize = 2_048;

/// The endpoint parsed, or why it cannot be one.
pub fn check(endpoint: &str) -> Result<Url, PushError> {
    let invalid = |reason: &str| PushError::invalid("endpoint", reason);
    if endpoint.len() > MAX_ENDPOINT_CHARS {
        return Err(invalid("is longer than 2048 characters"));
    }
    let url = Url::parse(endpoint).map_err(|e| invalid(&format!("is not a URL ({e})")))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid("must not carry credentials"));
    }
    match url.scheme() {
        "https" if url.host().is_some() => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        "http" => Err(invalid("must be https (http only on loopback)")),
        _ => Err(invalid("must be an https URL")),
    }
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        Some(Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

/// The VAPID `aud`: the endpoint's origin, with its port when not the
/// scheme's default.
pub fn audience(endpoint: &Url) -> String {
    endpoint.origin().ascii_serialization()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_anywhere_and_http_only_on_loopback() {
        assert!(check("https://fcm.googleapis.com/fcm/send/abc").is_ok());
        assert!(check("http://127.0.0.1:8080/push/1").is_ok());
        assert!(check("http://[::1]:8080/push/1").is_ok());
        assert!(check("http://localhost:8080/push/1").is_ok());
        assert!(check("http://push.example/1").is_err());
        assert!(check("http://10.0.0.2/1").is_err());
        assert!(check("ftp://push.example/1").is_err());
        assert!(check("https://user:pw@push.example/1").is_err());
        assert!(check("not a url").is_err());
        assert!(check(&format!("https://push.example/{}", "a".repeat(2_100))).is_err());
    }

    #[test]
    fn audience_keeps_a_non_default_port() {
        let url = check("http://127.0.0.1:8080/push/1").unwrap();
        assert_eq!(audience(&url), "http://127.0.0.1:8080");
        let url = check("https://updates.push.services.mozilla.com:443/wpush/v2/x").unwrap();
        assert_eq!(audience(&url), "https://updates.push.services.mozilla.com");
    }
}
