//! Pushes that are not a session's, through the real binary against the
//! push-service stand-in (which checks the VAPID signature and decrypts as
//! the device would): texts failing (one push besides the inbox alert), an
//! agent alert sent with `push: true` (and not one
//! without), the daily briefing on a device that chose it, and a ringing alarm on a clock the test moves (started at the
//! real time: the stand-in, as a push service would, refuses a VAPID token
//! dated otherwise); content-free by default, each once.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::json;
use standins::push::{PushService, Received};
use standins::sms_gateway::Gateway;

/// A device subscribed as its browser would; its id.
fn subscribe(server: &TestServer, service: &PushService) -> String {
    let key = server.call("GET", "/push/vapid-public-key", None).json();
    let device = service.device(key["key"].as_str().unwrap());
    let body = json!({
        "endpoint": device.endpoint,
        "keys": {"p256dh": device.p256dh, "auth": device.auth},
        "name": "Pixel 9",
    });
    let made = server.call("POST", "/push/subscriptions", Some(&body));
    assert_eq!(made.status, 201, "{}", made.text());
    made.json()["id"].as_str().unwrap().to_owned()
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
fn an_agent_alert_asked_to_be_pushed_is_pushed_once() {
    let server = TestServer::start();
    server.set_setting("agentAlertsEnabled", json!(true));
    let service = PushService::start().unwrap();
    subscribe(&server, &service);

    let quiet = server.call("POST", "/alert", Some(&json!({"title": "Build is green"})));
    assert_eq!(quiet.status, 201, "{}", quiet.text());
    let body =
        json!({"title": "Disk almost full", "body": "alice@example.com's volume", "push": true});
    let loud = server.call("POST", "/alert", Some(&body));
    assert_eq!(loud.status, 201, "{}", loud.text());
    let row = loud.json()["id"].as_str().unwrap().to_owned();

    let received = wait_received(&service, 1);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        service.received().len(),
        1,
        "only the alert asked to be pushed"
    );
    let push = &received[0].payload;
    assert_eq!(push["title"], "Switchboard");
    assert_eq!(push["body"], "Something needs your attention");
    assert_eq!(push["url"], format!("/inbox?row={row}"));
    assert!(!push.to_string().contains("alice"), "{push}");

    server.set_setting("contentFreeMobilePush", json!(false));
    let again = server.call("POST", "/alert", Some(&body));
    assert_eq!(again.status, 201, "{}", again.text());
    let received = wait_received(&service, 2);
    assert_eq!(received[1].payload["title"], "Disk almost full");
    assert_eq!(received[1].payload["url"], format!("/inbox?row={row}"));
}

#[test]
fn a_ringing_alarm_is_pushed() {
    let now = jiff::Timestamp::now();
    let start_ms = now.as_millisecond();
    let server = TestServer::start_with(&["--manual-clock-start-ms", &start_ms.to_string()]);
    let at = jiff::Timestamp::from_millisecond(start_ms + 60_000).unwrap();
    server.set_setting("contentFreeMobilePush", json!(false));
    let service = PushService::start().unwrap();
    subscribe(&server, &service);
    let alarm = server.call(
        "POST",
        "/alarms",
        Some(&json!({"label": "Call Sam", "at": at.to_string()})),
    );
    assert_eq!(alarm.status, 201, "{}", alarm.text());

    let moved = server.call("POST", "/test/clock", Some(&json!({ "advanceMs": 61_000 })));
    assert_eq!(moved.status, 204, "{}", moved.text());
    let received = wait_received(&service, 1);
    assert_eq!(received[0].payload["title"], "Call Sam");
    assert_eq!(received[0].payload["url"], "/");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(service.received().len(), 1, "one push per ring");
}

#[test]
fn texts_failing_make_one_push_besides_the_alert() {
    let server = TestServer::start();
    let service = PushService::start().unwrap();
    subscribe(&server, &service);
    let gateway = Gateway::start("sms", "phone-pass-0815").unwrap();
    std::fs::write(
        server.data_dir().join("sms.toml"),
        format!(
            "webhook_secret_key = \"SMS_WEBHOOK_SECRET\"\n\n[native]\nurl = \"{}\"\nusername = \"sms\"\npassword_key = \"SMS_GATEWAY_PASSWORD\"\n",
            gateway.url()
        ),
    )
    .unwrap();
    let saved = server.call(
        "PUT",
        "/keys/SMS_GATEWAY_PASSWORD",
        Some(&json!({"value": "phone-pass-0815"})),
    );
    assert!(saved.status < 300, "{}", saved.text());
    server.set_setting("smsEnabled", json!(true));
    server.set_setting("smsProvider", json!("native"));

    gateway.set_refusing(true);
    for text in ["one", "two"] {
        let body = json!({"to": "+4930222333", "text": text});
        let failed = server.call("POST", "/sms/send", Some(&body));
        assert_eq!(failed.status, 201, "{}", failed.text());
    }
    let received = wait_received(&service, 1);
    assert_eq!(received[0].payload["url"], "/texts");
    assert_eq!(
        received[0].payload["body"],
        "Something needs your attention"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(service.received().len(), 1, "one push per failing spell");
}

#[test]
fn the_daily_briefing_is_pushed_only_to_a_device_that_chose_it() {
    let server = TestServer::start();
    server.set_setting("dailyDigestEnabled", json!(true));
    let service = PushService::start().unwrap();
    let device = subscribe(&server, &service);
    let run = || {
        let reply = server.call("POST", "/digests/run?kind=daily", None);
        assert_eq!(reply.status, 201, "{}", reply.text());
        reply.json()["id"].as_str().unwrap().to_owned()
    };

    run();
    std::thread::sleep(Duration::from_millis(500));
    assert!(service.received().is_empty(), "not chosen: not pushed");

    let path = format!("/push/subscriptions/{device}");
    for bad in [
        json!({}),
        json!({"dailyBriefing": "yes"}),
        json!({"dailyBriefing": true, "x": 1}),
    ] {
        let refused = server.call("PATCH", &path, Some(&bad));
        assert_eq!(refused.status, 400, "{bad}: {}", refused.text());
    }
    let unknown = server.call(
        "PATCH",
        "/push/subscriptions/nope",
        Some(&json!({"dailyBriefing": true})),
    );
    assert_eq!(unknown.status, 404, "{}", unknown.text());
    assert_eq!(
        server.call("GET", "/push/subscriptions", None).json()[0]["dailyBriefing"],
        false
    );
    let chosen = server.call("PATCH", &path, Some(&json!({"dailyBriefing": true})));
    assert_eq!(chosen.status, 200, "{}", chosen.text());
    assert_eq!(chosen.json()["dailyBriefing"], true);
    let row = run();
    let received = wait_received(&service, 1);
    assert_eq!(
        received[0].payload["body"],
        "Something needs your attention"
    );
    assert_eq!(received[0].payload["url"], format!("/inbox?row={row}"));

    server.set_setting("contentFreeMobilePush", json!(false));
    let row = run();
    let received = wait_received(&service, 2);
    let title = received[1].payload["title"].as_str().unwrap();
    assert!(title.starts_with("Daily briefing for "), "{title}");
    assert_eq!(received[1].payload["url"], format!("/inbox?row={row}"));
}
