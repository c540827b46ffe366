//! Text messages against the stand-in of the SMS Gateway for Android app
//! (and of the documented relay): sending and delivery states, incoming deliveries checked and stored
//! once, the spam rule, and the health alerts on the injectable clock.

use std::sync::Arc;

use clock::{Clock, ManualClock};
use sms::webhook::{self, Delivery};
use sms::{Config, DeliveryState, Endpoint, HealthState, Provider, Sms, SmsDirection, Transition};
use standins::sms_gateway::{Gateway, received_delivery};
use time::Duration;
use time::macros::datetime;

const ACCOUNT: &str = "owner";
const KEY: &str = "webhook-signing-key";

struct Rig {
    _dir: tempfile::TempDir,
    clock: Arc<ManualClock>,
    sms: Sms,
    gateway: Gateway,
    endpoint: Endpoint,
}

fn rig() -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("t.db")).unwrap());
    db.migrate(sms::MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::new(datetime!(2026-01-05 09:00 UTC)));
    let gateway = Gateway::start("sms", "phone-pass").unwrap();
    let config = Config::parse(&format!(
        "webhook_secret_key = \"SMS_WEBHOOK_SECRET\"\n[native]\nurl = \"{}\"\nusername = \"sms\"\npassword_key = \"SMS_GATEWAY_PASSWORD\"\n",
        gateway.url()
    ))
    .unwrap();
    let section = config.section(Provider::Native).unwrap();
    let endpoint = Endpoint::new(Provider::Native, section, "phone-pass".to_owned());
    let sms = Sms::with_gateway(
        db,
        clock.clone(),
        sms::Gateway::new(std::time::Duration::from_secs(2)),
    );
    Rig {
        _dir: dir,
        clock,
        sms,
        gateway,
        endpoint,
    }
}

fn deliver(rig: &Rig, id: &str, from: &str, text: &str, filter: bool) -> sms::Received {
    let now = rig.clock.now().unix_timestamp();
    let (body, timestamp, signature) = received_delivery(KEY, id, from, text, now);
    webhook::verify(
        KEY,
        &body,
        Some(&timestamp),
        Some(&signature),
        rig.clock.now(),
    )
    .unwrap();
    let Delivery::Text(incoming) = webhook::parse(&body).unwrap() else {
        panic!("an sms:received delivery is a text");
    };
    rig.sms.receive(ACCOUNT, &incoming, filter).unwrap()
}

#[test]
fn a_text_goes_out_through_the_phone_and_its_delivery_is_followed() {
    let rig = rig();
    let sent = rig
        .sms
        .send(ACCOUNT, &rig.endpoint, "+49 (30) 1234-567", "On my way 🚲")
        .unwrap();
    assert_eq!(sent.message.state, DeliveryState::Pending);
    assert_eq!(sent.message.number, "+49301234567");
    assert_eq!(sent.health, None);
    let on_phone = rig.gateway.sent();
    assert_eq!(on_phone.len(), 1);
    assert_eq!(
        on_phone[0].id, sent.message.id,
        "our id is the gateway's, so a retry is one text"
    );
    assert_eq!(on_phone[0].to, vec!["+49301234567".to_owned()]);
    assert_eq!(on_phone[0].text, "On my way 🚲");

    rig.gateway.set_state(&sent.message.id, "Delivered");
    assert_eq!(rig.sms.refresh(ACCOUNT, &rig.endpoint).unwrap(), None);
    let thread = rig.sms.messages(ACCOUNT, "+49301234567").unwrap();
    assert_eq!(thread.len(), 1);
    assert_eq!(thread[0].state, DeliveryState::Delivered);
    assert_eq!(thread[0].direction, SmsDirection::Out);
}

#[test]
fn bad_input_is_refused_before_the_gateway_is_asked() {
    let rig = rig();
    for (to, text) in [("not a number", "hi"), ("+4930123", "   "), ("12", "hi")] {
        assert!(matches!(
            rig.sms.send(ACCOUNT, &rig.endpoint, to, text),
            Err(sms::SmsError::Invalid(_))
        ));
    }
    let long = "x".repeat(sms::MAX_SEND_CHARS + 1);
    assert!(
        rig.sms
            .send(ACCOUNT, &rig.endpoint, "+4930123", &long)
            .is_err()
    );
    assert_eq!(rig.gateway.posts(), 0);
}

#[test]
fn incoming_texts_are_stored_whole_and_once() {
    let rig = rig();
    let long: String = "Lorem ipsum dolor sit amet. "
        .repeat(80)
        .chars()
        .take(2_000)
        .collect();
    let first = deliver(&rig, "in-1", "+4930111", &long, false);
    assert!(first.new);
    assert_eq!(first.message.text.chars().count(), 2_000);
    let emoji = deliver(&rig, "in-2", "+4930111", "🎉🎉🙂", false);
    assert_eq!(emoji.message.text, "🎉🎉🙂");
    let again = deliver(&rig, "in-1", "+4930111", &long, false);
    assert!(!again.new, "a delivery repeated is stored once");
    assert_eq!(again.message.id, first.message.id);
    let threads = rig.sms.threads(ACCOUNT, false).unwrap();
    assert_eq!(threads.len(), 1);
    assert_eq!(threads[0].count, 2);
    assert_eq!(threads[0].unread, 2);
    assert_eq!(threads[0].last_text, "🎉🎉🙂");
    rig.sms.messages(ACCOUNT, "+4930111").unwrap();
    assert_eq!(rig.sms.threads(ACCOUNT, false).unwrap()[0].unread, 0);
}

#[test]
fn deliveries_with_a_wrong_signature_or_an_old_timestamp_are_refused() {
    let rig = rig();
    let now = rig.clock.now();
    let (body, timestamp, signature) =
        received_delivery(KEY, "x", "+4930111", "hi", now.unix_timestamp());
    let refused = |key: &str, body: &[u8], ts: Option<&str>, sig: Option<&str>| {
        matches!(
            webhook::verify(key, body, ts, sig, now),
            Err(sms::SmsError::BadSignature)
        )
    };
    assert!(refused(
        "another-key",
        &body,
        Some(&timestamp),
        Some(&signature)
    ));
    let mut tampered = body.clone();
    tampered[10] ^= 1;
    assert!(refused(KEY, &tampered, Some(&timestamp), Some(&signature)));
    assert!(refused(KEY, &body, None, Some(&signature)));
    assert!(refused(KEY, &body, Some(&timestamp), None));
    let (old, old_ts, old_sig) = received_delivery(
        KEY,
        "x",
        "+4930111",
        "hi",
        (now - Duration::minutes(6)).unix_timestamp(),
    );
    assert!(refused(KEY, &old, Some(&old_ts), Some(&old_sig)));
}

#[test]
fn other_events_and_the_relay_shape_are_read() {
    let ping = br#"{"event":"system:ping","payload":{}}"#;
    assert_eq!(
        webhook::parse(ping).unwrap(),
        Delivery::Ignored("system:ping".to_owned())
    );
    let relay =
        br#"{"id":"r-1","from":"+4930222","text":"via relay","receivedAt":"2026-01-05T09:00:00Z"}"#;
    let Delivery::Text(incoming) = webhook::parse(relay).unwrap() else {
        panic!("the relay shape is a text");
    };
    assert_eq!(incoming.from, "+4930222");
    assert_eq!(incoming.text, "via relay");
    assert!(webhook::parse(br#"{"from":"+4930222","text":"no id"}"#).is_err());
}

#[test]
fn strangers_go_to_spam_but_short_codes_contacts_and_texted_numbers_do_not() {
    let rig = rig();
    let stranger = deliver(&rig, "s-1", "+4930999", "You won a prize", true);
    assert!(stranger.message.spam);
    let code = deliver(&rig, "s-2", "72345", "Your code is 123456", true);
    assert!(!code.message.spam, "short codes are never checked");
    rig.sms.save_contact(ACCOUNT, "+49 30 555", "Ada").unwrap();
    assert!(
        !deliver(&rig, "s-3", "+4930555", "Hi, Ada here", true)
            .message
            .spam
    );
    rig.sms
        .send(ACCOUNT, &rig.endpoint, "+4930777", "Hello?")
        .unwrap();
    assert!(
        !deliver(&rig, "s-4", "+4930777", "Hello back", true)
            .message
            .spam
    );
    assert!(
        !deliver(&rig, "s-5", "+4930888", "filter off", false)
            .message
            .spam,
        "spamFilterSmsEnabled off holds nothing"
    );

    let spam = rig.sms.threads(ACCOUNT, true).unwrap();
    assert_eq!(spam.len(), 1);
    assert_eq!(spam[0].number, "+4930999");
    let inbox = rig.sms.threads(ACCOUNT, false).unwrap();
    assert!(
        inbox
            .iter()
            .any(|t| t.number == "+4930555" && t.name.as_deref() == Some("Ada"))
    );

    // Answering a held number lets its thread out of Spam.
    rig.sms
        .send(ACCOUNT, &rig.endpoint, "+4930999", "Who is this?")
        .unwrap();
    assert!(rig.sms.threads(ACCOUNT, true).unwrap().is_empty());
    assert!(
        !deliver(&rig, "s-6", "+4930999", "A friend", true)
            .message
            .spam
    );
}

#[test]
fn refused_credentials_alert_once_and_clear_when_texts_work_again() {
    let rig = rig();
    rig.gateway.set_refusing(true);
    let failed = rig
        .sms
        .send(ACCOUNT, &rig.endpoint, "+4930123", "one")
        .unwrap();
    assert_eq!(failed.message.state, DeliveryState::Failed);
    assert!(failed.message.failure.unwrap().contains("401"));
    assert!(
        matches!(failed.health, Some(Transition::Raised(reason)) if reason.contains("credentials"))
    );
    let again = rig
        .sms
        .send(ACCOUNT, &rig.endpoint, "+4930123", "two")
        .unwrap();
    assert_eq!(again.health, None, "one alert, however many calls fail");
    assert_eq!(
        rig.sms.health(ACCOUNT).unwrap().state,
        HealthState::Alerting
    );
    let kept = rig.sms.messages(ACCOUNT, "+4930123").unwrap();
    assert_eq!(kept.len(), 2, "texts the gateway refused are kept, failed");

    rig.gateway.set_refusing(false);
    let works = rig
        .sms
        .send(ACCOUNT, &rig.endpoint, "+4930123", "three")
        .unwrap();
    assert_eq!(works.health, Some(Transition::Cleared));
    assert_eq!(rig.sms.health(ACCOUNT).unwrap().state, HealthState::Ok);
}

#[test]
fn a_gateway_away_alerts_only_after_a_sustained_time_on_the_clock() {
    let rig = rig();
    rig.gateway.set_away(true);
    assert_eq!(rig.sms.refresh(ACCOUNT, &rig.endpoint).unwrap(), None);
    assert_eq!(rig.sms.health(ACCOUNT).unwrap().state, HealthState::Failing);
    rig.clock.advance(Duration::minutes(10));
    assert_eq!(rig.sms.refresh(ACCOUNT, &rig.endpoint).unwrap(), None);
    rig.clock
        .advance(sms::health::SUSTAINED_AWAY - Duration::minutes(10));
    assert!(matches!(
        rig.sms.refresh(ACCOUNT, &rig.endpoint).unwrap(),
        Some(Transition::Raised(reason)) if reason.contains("away")
    ));
    rig.clock.advance(Duration::minutes(5));
    assert_eq!(rig.sms.refresh(ACCOUNT, &rig.endpoint).unwrap(), None);

    rig.gateway.set_away(false);
    assert_eq!(
        rig.sms.refresh(ACCOUNT, &rig.endpoint).unwrap(),
        Some(Transition::Cleared)
    );
    assert_eq!(rig.sms.refresh(ACCOUNT, &rig.endpoint).unwrap(), None);
}

#[test]
fn the_config_names_saved_keys_and_checks_its_urls() {
    let config = Config::parse(
        "webhook_secret_key = \"W\"\n[relay]\nurl = \"https://relay.example.com/\"\ntoken_key = \"T\"\n",
    )
    .unwrap();
    let relay = config.section(Provider::Relay).unwrap();
    assert_eq!(relay.url, "https://relay.example.com");
    assert_eq!(relay.secret_key, "T");
    assert!(config.section(Provider::Native).is_err());
    assert!(
        Config::parse(
            "webhook_secret_key = \"W\"\n[relay]\nurl = \"ftp://x\"\ntoken_key = \"T\"\n"
        )
        .is_err()
    );
    let err = Config::parse("webhook_secret_key = \"W\"\npassword = \"hunter2\"\n").unwrap_err();
    assert!(
        !err.contains("hunter2"),
        "a pasted secret is never quoted: {err}"
    );
}

#[test]
fn the_relay_sends_follows_delivery_and_is_refused_with_a_wrong_token() {
    let rig = rig();
    let relay = Gateway::start_relay("relay-token").unwrap();
    let config = Config::parse(&format!(
        "webhook_secret_key = \"SMS_WEBHOOK_SECRET\"\n[relay]\nurl = \"{}\"\ntoken_key = \"SMS_RELAY_TOKEN\"\n",
        relay.url()
    ))
    .unwrap();
    let section = config.section(Provider::Relay).unwrap();
    let endpoint = Endpoint::new(Provider::Relay, section, "relay-token".to_owned());
    let sent = rig
        .sms
        .send(ACCOUNT, &endpoint, "+1 (555) 010-9999", "Build is green")
        .unwrap();
    assert_eq!(sent.message.state, DeliveryState::Pending);
    let taken = relay.sent();
    assert_eq!(taken.len(), 1);
    assert_eq!(taken[0].id, sent.message.id);
    assert_eq!(taken[0].to, vec!["+15550109999".to_owned()]);
    assert_eq!(taken[0].text, "Build is green");

    relay.set_state(&sent.message.id, "Delivered");
    assert_eq!(rig.sms.refresh(ACCOUNT, &endpoint).unwrap(), None);
    let thread = rig.sms.messages(ACCOUNT, "+15550109999").unwrap();
    assert_eq!(thread[0].state, DeliveryState::Delivered);

    let wrong = Endpoint::new(Provider::Relay, section, "not-the-token".to_owned());
    let refused = rig
        .sms
        .send(ACCOUNT, &wrong, "+15550109999", "again")
        .unwrap();
    assert_eq!(refused.message.state, DeliveryState::Failed);
    assert!(refused.message.failure.unwrap().contains("401"));
    assert!(
        matches!(refused.health, Some(Transition::Raised(reason)) if reason.contains("credentials"))
    );
}
