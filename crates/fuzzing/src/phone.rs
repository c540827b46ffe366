//! Reaching the person: an SMS gateway's webhook body and `sms.toml`, the
//! messenger's `matrix.toml`, and a device's push subscription as its
//! browser posts it.

use crate::input::text;

/// A delivery's body: a text, another event, or the reason it is neither.
/// A text always has its id (at most 128 characters), sender and body.
pub fn sms_webhook(data: &[u8]) {
    if let Ok(sms::Delivery::Text(incoming)) = sms::webhook::parse(data) {
        assert!(!incoming.id.trim().is_empty(), "a text without an id");
        assert!(
            incoming.id.chars().count() <= 128,
            "an id of {}",
            incoming.id
        );
    }
}

/// `sms.toml`: a checked configuration (an http(s) gateway, named keys) or
/// the reason, which never quotes the file's text.
pub fn sms_toml(data: &[u8]) {
    let text = text(data);
    match sms::Config::parse(&text) {
        Ok(config) => {
            for section in config.native.iter().chain(config.relay.iter()) {
                assert!(section.url.starts_with("http"), "{}", section.url);
                assert!(!section.secret_key.trim().is_empty());
            }
        }
        Err(reason) => assert!(reason.len() < 2_000, "a reason of {} bytes", reason.len()),
    }
}

/// `matrix.toml`: a homeserver with no trailing slash and a named token
/// key, or the reason.
pub fn matrix_toml(data: &[u8]) {
    if let Ok(config) = matrix::Config::parse(&text(data)) {
        assert!(!config.homeserver.ends_with('/'), "{}", config.homeserver);
        assert!(!config.token_key.trim().is_empty());
    }
}

/// `POST /push/subscriptions`'s body as the server reads it: the endpoint
/// is https, or http on loopback only, and carries no credentials.
pub fn push_subscription(data: &[u8]) {
    let Ok(new) = serde_json::from_slice::<push::NewSubscription>(data) else {
        return;
    };
    if let Ok(url) = push::endpoint::check(new.endpoint.trim()) {
        assert!(
            url.username().is_empty() && url.password().is_none(),
            "{url}"
        );
        match url.scheme() {
            "https" => assert!(url.host().is_some(), "{url}"),
            "http" => assert!(
                matches!(url.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"))
                    || url.host_str().is_some_and(|h| h.starts_with("127.")),
                "{url}"
            ),
            other => panic!("an endpoint of scheme {other}"),
        }
    }
}
