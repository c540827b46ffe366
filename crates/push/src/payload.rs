//! What a device receives (decrypted by its browser and handed to the
//! service worker): JSON `{title, body, url, tag}`. With
//! `contentFreeMobilePush` the title and body are generic and name no
//! sender, subject or message text; the page fetches the details after the
//! click, signed in.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

/// The title of every content-free push.
pub const GENERIC_TITLE: &str = "Switchboard";
/// The body of a content-free push about a session.
pub const GENERIC_NEEDS_YOU: &str = "A session needs you";
/// The body of a content-free push of an alert, an alarm or a briefing.
pub const GENERIC_ALERT: &str = "Something needs your attention";

const MAX_TITLE_CHARS: usize = 120;
/// Push services take about 4 KB of ciphertext; the body stays far below.
const MAX_BODY_CHARS: usize = 600;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(rename = "PushPayload")]
#[schema(as = PushPayload)]
pub struct Payload {
    pub title: String,
    pub body: String,
    /// The page a click opens (a path on this server).
    pub url: String,
    /// A device shows one notification per tag: a newer push replaces it.
    pub tag: String,
}

/// A session waits for the user: a question, an approval, a failure.
pub struct NeedsYou<'a> {
    /// The session's title.
    pub session: &'a str,
    /// What it waits for, as the notification says it.
    pub detail: &'a str,
    pub url: &'a str,
    pub tag: &'a str,
}

impl Payload {
    pub fn needs_you(needs: &NeedsYou<'_>, content_free: bool) -> Self {
        if content_free {
            return Payload {
                title: GENERIC_TITLE.to_owned(),
                body: GENERIC_NEEDS_YOU.to_owned(),
                url: needs.url.to_owned(),
                tag: needs.tag.to_owned(),
            };
        }
        Payload {
            title: clip(needs.session, MAX_TITLE_CHARS),
            body: clip(needs.detail, MAX_BODY_CHARS),
            url: needs.url.to_owned(),
            tag: needs.tag.to_owned(),
        }
    }

    /// An alert that is not a session's (an alarm ringing, an agent's alert,
    /// texts failing): `url` opens its row or page.
    pub fn alert(title: &str, detail: &str, url: &str, tag: &str, content_free: bool) -> Self {
        let (title, body) = if content_free {
            (GENERIC_TITLE.to_owned(), GENERIC_ALERT.to_owned())
        } else {
            (clip(title, MAX_TITLE_CHARS), clip(detail, MAX_BODY_CHARS))
        };
        Payload {
            title,
            body,
            url: url.to_owned(),
            tag: tag.to_owned(),
        }
    }

    /// What the device's test button sends: it names nothing either way.
    pub fn test(device: &str, content_free: bool) -> Self {
        let body = if content_free {
            "Notifications reach this device.".to_owned()
        } else {
            clip(&format!("Notifications reach {device}."), MAX_BODY_CHARS)
        };
        Payload {
            title: GENERIC_TITLE.to_owned(),
            body,
            url: "/".to_owned(),
            tag: "switchboard-test".to_owned(),
        }
    }
}

fn clip(text: &str, max: usize) -> String {
    let text = text.trim();
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}…", text[..cut].trim_end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEEDS: NeedsYou<'static> = NeedsYou {
        session: "Fix the login bug",
        detail: "Approve: rm -rf target from alice@example.com",
        url: "/sessions/s1",
        tag: "session-s1",
    };

    #[test]
    fn content_free_names_nothing_of_the_session() {
        let payload = Payload::needs_you(&NEEDS, true);
        let text = serde_json::to_string(&payload).unwrap();
        assert!(!text.contains("login"));
        assert!(!text.contains("alice"));
        assert_eq!(payload.body, GENERIC_NEEDS_YOU);
        assert_eq!(payload.url, "/sessions/s1");
    }

    #[test]
    fn content_free_alert_names_nothing_but_keeps_its_url() {
        let payload = Payload::alert(
            "Texts are failing",
            "401 from the gateway",
            "/texts",
            "sms-health",
            true,
        );
        assert_eq!(payload.title, GENERIC_TITLE);
        assert_eq!(payload.body, GENERIC_ALERT);
        assert_eq!(payload.url, "/texts");
        let plain = Payload::alert(
            "Texts are failing",
            "401 from the gateway",
            "/texts",
            "sms-health",
            false,
        );
        assert_eq!(plain.title, "Texts are failing");
        assert_eq!(plain.body, "401 from the gateway");
    }

    #[test]
    fn plain_payload_is_clipped_on_a_character_boundary() {
        let long = "é".repeat(1_000);
        let payload = Payload::needs_you(
            &NeedsYou {
                detail: &long,
                ..NEEDS
            },
            false,
        );
        assert_eq!(payload.title, "Fix the login bug");
        assert_eq!(payload.body.chars().count(), MAX_BODY_CHARS + 1);
    }
}
