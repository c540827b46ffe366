//! Text messages through the real binary, against the stand-in of the SMS
//! Gateway for Android app: `sms.toml` naming saved keys, a text sent over
//! the phone, signed incoming deliveries stored once and shown as inbox
//! rows (strangers held in Spam instead), a wrong signature refused, the
//! refused-credentials alert raised once and cleared, and each switch
//! (`smsEnabled`, `inboxShowSms`) doing what it says.

mod common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::TestServer;
use serde_json::{Value, json};
use standins::sms_gateway::{Gateway, received_delivery};

const SIGNING_KEY: &str = "sms-webhook-signing-key-4711";

fn deliver(server: &TestServer, id: &str, from: &str, text: &str, key: &str) -> common::Reply {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let (body, timestamp, signature) =
        received_delivery(key, id, from, text, i64::try_from(now).unwrap());
    common::request(
        server.control(),
        "POST",
        "/sms/incoming",
        &[
            ("Content-Type", "application/json"),
            ("X-Timestamp", timestamp.as_str()),
            ("X-Signature", signature.as_str()),
        ],
        Some(&body),
    )
}

fn rows(server: &TestServer, category: &str) -> Vec<Value> {
    let listed = server.call("GET", &format!("/inbox?category={category}"), None);
    assert_eq!(listed.status, 200, "{}", listed.text());
    listed.json().as_array().unwrap().clone()
}

#[test]
fn texts_go_out_and_come_in_through_the_phone() {
    let server = TestServer::start();
    let off = server.call("GET", "/sms/threads", None);
    assert_eq!((off.status, off.error_code()), (403, "sms_disabled".into()));
    assert_eq!(
        deliver(&server, "x", "+4930111", "hi", SIGNING_KEY).status,
        404
    );

    let gateway = Gateway::start("sms", "phone-pass-0815").unwrap();
    std::fs::write(
        server.data_dir().join("sms.toml"),
        format!(
            "webhook_secret_key = \"SMS_WEBHOOK_SECRET\"\n\n[native]\nurl = \"{}\"\nusername = \"sms\"\npassword_key = \"SMS_GATEWAY_PASSWORD\"\n",
            gateway.url()
        ),
    )
    .unwrap();
    for (name, value) in [
        ("SMS_GATEWAY_PASSWORD", "phone-pass-0815"),
        ("SMS_WEBHOOK_SECRET", SIGNING_KEY),
    ] {
        let saved = server.call(
            "PUT",
            &format!("/keys/{name}"),
            Some(&json!({"value": value})),
        );
        assert!(saved.status < 300, "{}", saved.text());
    }
    server.set_setting("smsEnabled", json!(true));
    server.set_setting("smsProvider", json!("native"));

    let sent = server.call(
        "POST",
        "/sms/send",
        Some(&json!({"to": "+49 30 222-333", "text": "Running late, 10 min 🚲"})),
    );
    assert_eq!(sent.status, 201, "{}", sent.text());
    let sent = sent.json();
    assert_eq!(sent["state"], "pending");
    assert_eq!(sent["number"], "+4930222333");
    let on_phone = gateway.sent();
    assert_eq!(on_phone.len(), 1);
    assert_eq!(on_phone[0].text, "Running late, 10 min 🚲");
    assert_eq!(on_phone[0].id, sent["id"].as_str().unwrap());
    let bad = server.call(
        "POST",
        "/sms/send",
        Some(&json!({"to": "call me", "text": "x"})),
    );
    assert_eq!(bad.status, 400);

    // A reply from the number texted: stored once, one inbox row.
    let reply = deliver(&server, "in-1", "+4930222333", "No problem 👍", SIGNING_KEY);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["stored"], true);
    let repeat = deliver(&server, "in-1", "+4930222333", "No problem 👍", SIGNING_KEY);
    assert_eq!(repeat.json()["stored"], false);
    let texts = rows(&server, "sms");
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert_eq!(texts[0]["title"], "Text from +4930222333");
    assert_eq!(texts[0]["body"], "No problem 👍");
    assert_eq!(
        texts[0]["actions"][0]["path"],
        "/texts?number=%2B4930222333"
    );

    let forged = deliver(&server, "in-2", "+4930222333", "forged", "not-the-key");
    assert_eq!(
        (forged.status, forged.error_code()),
        (401, "bad_signature".into())
    );

    // A stranger's 2,000 characters: kept whole, held in Spam, no row.
    let long: String = "Claim your prize now! "
        .repeat(100)
        .chars()
        .take(2_000)
        .collect();
    assert_eq!(
        deliver(&server, "in-3", "+4930999", &long, SIGNING_KEY).status,
        200
    );
    let spam = server.call("GET", "/sms/threads?spam=true", None).json();
    assert_eq!(spam.as_array().unwrap().len(), 1);
    assert_eq!(spam[0]["number"], "+4930999");
    assert_eq!(rows(&server, "sms").len(), 1);
    let thread = server
        .call("GET", "/sms/threads/%2B4930999/messages", None)
        .json();
    assert_eq!(thread[0]["text"].as_str().unwrap().chars().count(), 2_000);
    // Let out of Spam: the thread and its later texts arrive as any other's.
    let released = server.call("POST", "/sms/threads/%2B4930999/not-spam", None);
    assert_eq!(released.status, 204, "{}", released.text());
    let spam = server.call("GET", "/sms/threads?spam=true", None).json();
    assert!(spam.as_array().unwrap().is_empty(), "{spam}");
    assert_eq!(
        deliver(&server, "in-3b", "+4930999", "Me again", SIGNING_KEY).status,
        200
    );
    assert!(
        rows(&server, "sms")
            .iter()
            .any(|r| r["body"].as_str().is_some_and(|b| b.contains("Me again"))),
        "a text from a thread let out of Spam is an inbox row"
    );
    let unknown = server.call("POST", "/sms/threads/%2B4930000/not-spam", None);
    assert_eq!(unknown.status, 404, "{}", unknown.text());
    let saved = server.call(
        "PUT",
        "/sms/contacts/%2B4930555",
        Some(&json!({"name": "Ada"})),
    );
    assert_eq!(saved.status, 204, "{}", saved.text());
    assert_eq!(
        deliver(&server, "in-4", "+4930555", "Ada here", SIGNING_KEY).status,
        200
    );
    assert_eq!(
        rows(&server, "sms").len(),
        3,
        "a contact is never held in Spam"
    );
    let threads = server.call("GET", "/sms/threads", None).json();
    assert_eq!(threads.as_array().unwrap().len(), 3);
    assert_eq!(threads[0]["name"], "Ada");
    assert_eq!(threads[1]["lastText"], "Me again");
    assert_eq!(threads[2]["lastText"], "No problem 👍");

    // inboxShowSms off: the rows are hidden, the texts still kept.
    server.set_setting("inboxShowSms", json!(false));
    assert!(rows(&server, "sms").is_empty());
    server.set_setting("inboxShowSms", json!(true));

    // The phone refuses the password: one alert, cleared when it works again.
    gateway.set_refusing(true);
    for text in ["one", "two"] {
        let failed = server.call(
            "POST",
            "/sms/send",
            Some(&json!({"to": "+4930222333", "text": text})),
        );
        assert_eq!(failed.status, 201);
        assert_eq!(failed.json()["state"], "failed");
    }
    let alerts: Vec<Value> = rows(&server, "alert")
        .into_iter()
        .filter(|r| r["title"] == "Text messages are failing")
        .collect();
    assert_eq!(alerts.len(), 1, "{alerts:?}");
    assert_eq!(alerts[0]["count"], 1);
    gateway.set_refusing(false);
    let works = server.call(
        "POST",
        "/sms/send",
        Some(&json!({"to": "+4930222333", "text": "ok"})),
    );
    assert_eq!(works.json()["state"], "pending");
    assert!(
        rows(&server, "alert")
            .iter()
            .all(|r| r["title"] != "Text messages are failing"),
        "the alert cleared"
    );
}
