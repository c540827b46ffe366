//! Web Push through the real binary, against the push-service stand-in that
//! checks each push's VAPID signature and decrypts it as the subscribed
//! browser would: a device subscribed over HTTP gets a push when a session
//! fails (content-free by default, the session's words once
//! `contentFreeMobilePush` is off), the test button answers what happened,
//! a gone device is removed, bad subscriptions are 400s.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};
use standins::push::{Answer, Device, PushService, Received};

fn server() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let fail = "echo 'engine exploded: disk quota of alice@example.com' >&2; exit 3";
    std::fs::write(
        dir.path().join("engines.toml"),
        format!("[engines.fail]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {fail:?}]\n"),
    )
    .unwrap();
    let server = TestServer::start_in(dir);
    server.set_setting("sessionTitleStyle", json!("custom"));
    server
}

fn subscribe(server: &TestServer, service: &PushService, name: &str) -> (Device, String) {
    let key = server.call("GET", "/push/vapid-public-key", None);
    assert_eq!(key.status, 200, "{}", key.text());
    let device = service.device(key.json()["key"].as_str().unwrap());
    let made = server.call("POST", "/push/subscriptions", Some(&body(&device, name)));
    assert_eq!(made.status, 201, "{}", made.text());
    let made = made.json();
    assert_eq!(made["name"], name);
    assert!(made["createdAt"].is_string());
    (device, made["id"].as_str().unwrap().to_owned())
}

fn body(device: &Device, name: &str) -> Value {
    json!({
        "endpoint": device.endpoint,
        "keys": {"p256dh": device.p256dh, "auth": device.auth},
        "name": name,
    })
}

fn wait_received(service: &PushService, count: usize) -> Vec<Received> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let received = service.received();
        if received.len() >= count {
            return received;
        }
        assert!(
            Instant::now() < deadline,
            "{count} pushes never came: {received:?}, rejected {:?}",
            service.rejected()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_failing_session_is_pushed_to_the_subscribed_device() {
    let server = server();
    let service = PushService::start().unwrap();
    let (_, id) = subscribe(&server, &service, "Pixel 9");

    let failed = server.browser_session("fail", "Ship the release notes");
    let session_id = failed["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&session_id, "failed");
    let received = wait_received(&service, 1);
    let push = &received[0].payload;
    assert_eq!(push["title"], "Switchboard");
    assert_eq!(push["body"], "A session needs you");
    assert_eq!(push["url"], format!("/sessions/{session_id}"));
    assert!(!push.to_string().contains("alice"), "{push}");
    assert_eq!(received[0].urgency.as_deref(), Some("high"));
    assert_eq!(received[0].claims["aud"], service.origin());

    server.set_setting("contentFreeMobilePush", json!(false));
    let failed = server.browser_session("fail", "Rotate the keys");
    let session_id = failed["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&session_id, "failed");
    let received = wait_received(&service, 2);
    let push = &received[1].payload;
    assert!(push["title"].as_str().unwrap().contains("failed"), "{push}");
    assert!(
        push["body"].as_str().unwrap().contains("engine exploded"),
        "{push}"
    );
    assert_eq!(push["url"], format!("/sessions/{session_id}"));
    assert!(service.rejected().is_empty(), "{:?}", service.rejected());

    let listed = server.call("GET", "/push/subscriptions", None).json();
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["service"], service.origin());
    assert!(listed[0]["lastDeliveredAt"].is_string());
    assert!(listed[0].get("endpoint").is_none());
}

#[test]
fn the_test_button_a_gone_device_and_bad_input() {
    let server = server();
    let service = PushService::start().unwrap();
    let (device, id) = subscribe(&server, &service, "Laptop");
    let key = server.call("GET", "/push/vapid-public-key", None).json();
    assert_eq!(
        server.call("GET", "/push/vapid-public-key", None).json(),
        key,
        "the key is made once"
    );

    let tested = server.call("POST", &format!("/push/subscriptions/{id}/test"), None);
    assert_eq!(tested.status, 200, "{}", tested.text());
    assert_eq!(tested.json()["state"], "delivered");
    assert_eq!(
        wait_received(&service, 1)[0].payload["body"],
        "Notifications reach this device."
    );

    service.answer(Answer::TooMany {
        retry_after_secs: 600,
    });
    let busy = server
        .call("POST", &format!("/push/subscriptions/{id}/test"), None)
        .json();
    assert_eq!(busy["state"], "retrying");
    assert_eq!(busy["status"], 429);
    assert!(busy["at"].is_string());

    service.answer(Answer::Status(410));
    let gone = server
        .call("POST", &format!("/push/subscriptions/{id}/test"), None)
        .json();
    assert_eq!(gone["state"], "gone");
    let listed = server.call("GET", "/push/subscriptions", None).json();
    assert_eq!(listed, json!([]));
    let missing = server.call("POST", &format!("/push/subscriptions/{id}/test"), None);
    assert_eq!(missing.status, 404);

    let mut plain_http = body(&device, "Phone");
    plain_http["endpoint"] = json!("http://push.example.com/x");
    let refused = server.call("POST", "/push/subscriptions", Some(&plain_http));
    assert_eq!(refused.status, 400, "{}", refused.text());
    assert_eq!(refused.json()["error"]["field"], "endpoint");
    let mut short_key = body(&device, "Phone");
    short_key["keys"]["p256dh"] = json!("BAAA");
    let refused = server.call("POST", "/push/subscriptions", Some(&short_key));
    assert_eq!(refused.status, 400);
    assert_eq!(refused.json()["error"]["field"], "keys.p256dh");
    let no_name = server.call(
        "POST",
        "/push/subscriptions",
        Some(&json!({"endpoint": device.endpoint})),
    );
    assert_eq!(no_name.status, 400, "{}", no_name.text());

    let (_, again) = subscribe(&server, &service, "Phone");
    let removed = server.call("DELETE", &format!("/push/subscriptions/{again}"), None);
    assert_eq!(removed.status, 204);
    let removed = server.call("DELETE", &format!("/push/subscriptions/{again}"), None);
    assert_eq!(removed.status, 404);
}

#[test]
fn a_replaced_vapid_key_is_a_conflict_until_it_is_deleted() {
    let server = server();
    let first = server.call("GET", "/push/vapid-public-key", None).json();
    let replaced = server.call(
        "PUT",
        "/keys/PUSH_VAPID_KEY",
        Some(&json!({"value": "not a key"})),
    );
    assert_eq!(replaced.status, 200, "{}", replaced.text());

    let refused = server.call("GET", "/push/vapid-public-key", None);
    assert_eq!(refused.status, 409, "{}", refused.text());
    let error = &refused.json()["error"];
    assert_eq!(error["code"], "vapid_key_damaged");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("PUSH_VAPID_KEY") && message.contains("Delete it"),
        "{message}"
    );

    let deleted = server.call("DELETE", "/keys/PUSH_VAPID_KEY", None);
    assert!(deleted.status < 300, "{}", deleted.text());
    let made = server.call("GET", "/push/vapid-public-key", None);
    assert_eq!(made.status, 200, "{}", made.text());
    assert_ne!(
        made.json(),
        first,
        "a new key once the replaced one is gone"
    );
}
