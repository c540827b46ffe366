//! Web Push end to end against the push-service stand-in, which checks the
//! VAPID signature and decrypts each push as the subscribed browser would:
//! what these tests read is what a phone would show.

use std::sync::Arc;

use clock::{Clock, ManualClock};
use push::{NeedsYou, NewSubscription, Outcome, Payload, Push, PushError, Report, Urgency};
use standins::push::{Answer, Device, PushService};
use time::macros::datetime;

const OWNER: &str = "acct-1";

struct Rig {
    _dir: tempfile::TempDir,
    db: Arc<store::Db>,
    clock: Arc<ManualClock>,
    secrets: Arc<secrets::Secrets>,
    push: Push,
    service: PushService,
}

fn rig() -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(secrets::MIGRATIONS).unwrap();
    db.migrate(push::MIGRATIONS).unwrap();
    let start = datetime!(2026-01-05 09:00 UTC);
    let clock = Arc::new(ManualClock::new(start));
    let cipher = secrets::Cipher::load_or_create(&dir.path().join(secrets::KEY_FILE)).unwrap();
    let secrets = Arc::new(secrets::Secrets::new(db.clone(), clock.clone(), cipher));
    let push = Push::new(
        db.clone(),
        clock.clone(),
        secrets.clone(),
        "mailto:owner@example.com",
    );
    let service = PushService::start().unwrap();
    service.set_now(start.unix_timestamp());
    Rig {
        _dir: dir,
        db,
        clock,
        secrets,
        push,
        service,
    }
}

impl Rig {
    fn subscribe(&self, name: &str) -> (Device, String) {
        let device = self.service.device(&self.push.public_key(OWNER).unwrap());
        let subscription = self.push.subscribe(OWNER, new(&device, name)).unwrap();
        (device, subscription.id)
    }

    fn advance(&self, by: time::Duration) {
        self.clock.advance(by);
        self.service.set_now(self.clock.now().unix_timestamp());
    }
}

fn new(device: &Device, name: &str) -> NewSubscription {
    serde_json::from_value(serde_json::json!({
        "endpoint": device.endpoint,
        "keys": {"p256dh": device.p256dh, "auth": device.auth},
        "name": name,
    }))
    .unwrap()
}

const NEEDS: NeedsYou<'static> = NeedsYou {
    session: "Fix the login bug",
    detail: "Asks: may I drop the users table? (from alice@example.com)",
    url: "/sessions/s-1",
    tag: "session-s-1",
};

fn report(delivered: usize, retrying: usize, gone: usize, failed: usize) -> Report {
    Report {
        delivered,
        retrying,
        gone,
        failed,
    }
}

#[test]
fn the_device_reads_the_plain_payload_signed_for_its_push_service() {
    let rig = rig();
    let (device, _) = rig.subscribe("Pixel");
    let sent = rig
        .push
        .notify(
            OWNER,
            "att-1",
            &Payload::needs_you(&NEEDS, false),
            Urgency::High,
        )
        .unwrap();
    assert_eq!(sent, report(1, 0, 0, 0));
    assert!(
        rig.service.rejected().is_empty(),
        "{:?}",
        rig.service.rejected()
    );
    let received = rig.service.received();
    assert_eq!(received.len(), 1);
    let push = &received[0];
    assert_eq!(push.endpoint, device.endpoint);
    assert_eq!(
        push.payload,
        serde_json::json!({
            "title": "Fix the login bug",
            "body": "Asks: may I drop the users table? (from alice@example.com)",
            "url": "/sessions/s-1",
            "tag": "session-s-1",
        })
    );
    assert_eq!(push.urgency.as_deref(), Some("high"));
    assert_eq!(push.claims["aud"], rig.service.origin());
    assert_eq!(push.claims["sub"], "mailto:owner@example.com");
    let listed = rig.push.subscriptions(OWNER).unwrap();
    assert_eq!(listed[0].service, rig.service.origin());
    assert!(listed[0].last_delivered_at.is_some());

    // The same notification again, and a retry round: nothing more is sent.
    let again = rig
        .push
        .notify(
            OWNER,
            "att-1",
            &Payload::needs_you(&NEEDS, false),
            Urgency::High,
        )
        .unwrap();
    assert_eq!(again, Report::default());
    rig.advance(time::Duration::hours(1));
    assert_eq!(rig.push.retry_due().unwrap(), Report::default());
    assert_eq!(rig.service.requests(), 1);
}

#[test]
fn content_free_push_names_no_sender_subject_or_text() {
    let rig = rig();
    rig.subscribe("Pixel");
    rig.push
        .notify(
            OWNER,
            "att-2",
            &Payload::needs_you(&NEEDS, true),
            Urgency::High,
        )
        .unwrap();
    let received = rig.service.received();
    assert_eq!(received.len(), 1);
    let payload = &received[0].payload;
    assert_eq!(payload["title"], "Switchboard");
    assert_eq!(payload["body"], "A session needs you");
    assert_eq!(payload["url"], "/sessions/s-1");
    let text = payload.to_string();
    for leak in ["login", "users table", "alice"] {
        assert!(!text.contains(leak), "{leak} in {text}");
    }
}

#[test]
fn a_gone_subscription_is_removed_and_others_still_get_theirs() {
    let rig = rig();
    rig.subscribe("Old phone");
    rig.subscribe("Laptop");
    rig.subscribe("Tablet");
    rig.service.answer(Answer::Status(410));
    rig.service.answer(Answer::Status(404));
    let sent = rig
        .push
        .notify(
            OWNER,
            "att-3",
            &Payload::needs_you(&NEEDS, false),
            Urgency::High,
        )
        .unwrap();
    assert_eq!(sent, report(1, 0, 2, 0));
    let left = rig.push.subscriptions(OWNER).unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].name, "Tablet");
    rig.advance(time::Duration::hours(2));
    assert_eq!(rig.push.retry_due().unwrap(), Report::default());
    assert_eq!(rig.service.requests(), 3);
}

#[test]
fn too_many_requests_waits_for_retry_after_then_delivers_once() {
    let rig = rig();
    rig.subscribe("Pixel");
    rig.service.answer(Answer::TooMany {
        retry_after_secs: 120,
    });
    let payload = Payload::needs_you(&NEEDS, false);
    let sent = rig
        .push
        .notify(OWNER, "att-4", &payload, Urgency::High)
        .unwrap();
    assert_eq!(sent, report(0, 1, 0, 0));
    let due = rig.push.next_due().unwrap().unwrap();
    assert_eq!(due, datetime!(2026-01-05 09:02 UTC));

    rig.advance(time::Duration::seconds(119));
    assert_eq!(rig.push.retry_due().unwrap(), Report::default());
    // Asked again while it waits: still one pending push, not two.
    assert_eq!(
        rig.push
            .notify(OWNER, "att-4", &payload, Urgency::High)
            .unwrap(),
        Report::default()
    );
    assert_eq!(rig.service.requests(), 1);

    rig.advance(time::Duration::seconds(1));
    assert_eq!(rig.push.retry_due().unwrap(), report(1, 0, 0, 0));
    rig.advance(time::Duration::hours(1));
    assert_eq!(rig.push.retry_due().unwrap(), Report::default());
    assert_eq!(rig.service.received().len(), 1);
    assert_eq!(rig.service.requests(), 2);
    assert_eq!(rig.push.next_due().unwrap(), None);
}

#[test]
fn server_errors_back_off_doubling_then_deliver_once_recovered() {
    let rig = rig();
    rig.subscribe("Pixel");
    rig.service.answer(Answer::Status(500));
    rig.service.answer(Answer::Status(503));
    let sent = rig
        .push
        .notify(
            OWNER,
            "att-5",
            &Payload::needs_you(&NEEDS, false),
            Urgency::High,
        )
        .unwrap();
    assert_eq!(sent, report(0, 1, 0, 0));
    assert_eq!(
        rig.push.next_due().unwrap(),
        Some(datetime!(2026-01-05 09:00:30 UTC))
    );
    rig.advance(time::Duration::seconds(30));
    assert_eq!(rig.push.retry_due().unwrap(), report(0, 1, 0, 0));
    assert_eq!(
        rig.push.next_due().unwrap(),
        Some(datetime!(2026-01-05 09:01:30 UTC))
    );
    rig.advance(time::Duration::seconds(59));
    assert_eq!(rig.push.retry_due().unwrap(), Report::default());
    rig.advance(time::Duration::seconds(1));
    assert_eq!(rig.push.retry_due().unwrap(), report(1, 0, 0, 0));
    rig.advance(time::Duration::hours(3));
    assert_eq!(rig.push.retry_due().unwrap(), Report::default());
    assert_eq!(rig.service.received().len(), 1);
    assert_eq!(rig.service.requests(), 3);
}

#[test]
fn an_unreachable_service_is_retried_and_a_refusal_is_not() {
    let rig = rig();
    let device = rig.service.device(&rig.push.public_key(OWNER).unwrap());
    // A loopback port nobody listens on: the connection is refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let mut unreachable = new(&device, "Unreachable");
    unreachable.endpoint = format!("http://127.0.0.1:{port}/push/1");
    rig.push.subscribe(OWNER, unreachable).unwrap();
    let (_, refusing) = rig.subscribe("Refusing");
    rig.service.answer(Answer::Status(400));
    let sent = rig
        .push
        .notify(
            OWNER,
            "att-6",
            &Payload::needs_you(&NEEDS, false),
            Urgency::High,
        )
        .unwrap();
    assert_eq!(sent, report(0, 1, 0, 1));
    let refused = rig.push.subscription(OWNER, &refusing).unwrap();
    assert!(refused.last_failure.unwrap().contains("400"));
    rig.advance(time::Duration::hours(1));
    assert_eq!(rig.push.retry_due().unwrap(), report(0, 1, 0, 0));
    assert_eq!(rig.service.requests(), 1);
}

#[test]
fn the_test_button_pushes_each_time_and_answers_what_happened() {
    let rig = rig();
    let (_, id) = rig.subscribe("Pixel");
    assert_eq!(
        rig.push.send_test(OWNER, &id, false).unwrap(),
        Outcome::Delivered
    );
    assert_eq!(
        rig.push.send_test(OWNER, &id, true).unwrap(),
        Outcome::Delivered
    );
    let received = rig.service.received();
    assert_eq!(received.len(), 2);
    assert_eq!(received[0].payload["body"], "Notifications reach Pixel.");
    assert_eq!(
        received[1].payload["body"],
        "Notifications reach this device."
    );
    rig.service.answer(Answer::Status(410));
    assert_eq!(
        rig.push.send_test(OWNER, &id, false).unwrap(),
        Outcome::Gone
    );
    assert!(matches!(
        rig.push.send_test(OWNER, &id, false),
        Err(PushError::NotFound)
    ));
    assert!(matches!(
        rig.push.send_test("someone-else", "nope", false),
        Err(PushError::NotFound)
    ));
}

#[test]
fn the_vapid_key_is_made_once_and_kept_with_the_saved_keys() {
    let rig = rig();
    let key = rig.push.public_key(OWNER).unwrap();
    let names: Vec<String> = rig
        .secrets
        .keys(OWNER)
        .unwrap()
        .into_iter()
        .map(|k| k.name)
        .collect();
    assert_eq!(names, vec![push::VAPID_KEY_NAME.to_owned()]);
    let reopened = Push::new(
        rig.db.clone(),
        rig.clock.clone(),
        rig.secrets.clone(),
        "mailto:owner@example.com",
    );
    assert_eq!(reopened.public_key(OWNER).unwrap(), key);
    assert_ne!(reopened.public_key("acct-2").unwrap(), key);
}

#[test]
fn bad_subscriptions_are_refused_and_a_repeat_keeps_its_id() {
    let rig = rig();
    let device = rig.service.device(&rig.push.public_key(OWNER).unwrap());
    let refused = |change: &dyn Fn(&mut NewSubscription), field: &str| {
        let mut bad = new(&device, "Pixel");
        change(&mut bad);
        match rig.push.subscribe(OWNER, bad) {
            Err(PushError::Invalid { field: got, .. }) => assert_eq!(got, field),
            other => panic!("{field}: {other:?}"),
        }
    };
    refused(&|s| s.endpoint = "http://push.example/1".into(), "endpoint");
    refused(&|s| s.endpoint = "https://".into(), "endpoint");
    refused(&|s| s.keys.p256dh = "AAAA".into(), "keys.p256dh");
    refused(&|s| s.keys.p256dh = "not base64!".into(), "keys.p256dh");
    refused(&|s| s.keys.auth = "AAAA".into(), "keys.auth");
    refused(&|s| s.name = "  ".into(), "name");
    refused(&|s| s.name = "x".repeat(81), "name");
    assert!(rig.push.subscriptions(OWNER).unwrap().is_empty());

    let first = rig.push.subscribe(OWNER, new(&device, "Pixel")).unwrap();
    let again = rig.push.subscribe(OWNER, new(&device, "Pixel 9")).unwrap();
    assert_eq!(first.id, again.id);
    assert_eq!(again.name, "Pixel 9");
    assert_eq!(rig.push.subscriptions(OWNER).unwrap().len(), 1);
    rig.push.unsubscribe(OWNER, &first.id).unwrap();
    assert!(matches!(
        rig.push.unsubscribe(OWNER, &first.id),
        Err(PushError::NotFound)
    ));
}

#[test]
fn the_service_refuses_a_push_signed_with_another_key() {
    let rig = rig();
    let other = push::VapidKey::generate().unwrap();
    let device = rig.service.device(&other.public_key());
    rig.push.subscribe(OWNER, new(&device, "Pixel")).unwrap();
    let sent = rig
        .push
        .notify(
            OWNER,
            "att-7",
            &Payload::needs_you(&NEEDS, false),
            Urgency::High,
        )
        .unwrap();
    assert_eq!(sent, report(0, 0, 0, 1));
    let rejected = rig.service.rejected();
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0].status, 401);
    assert!(
        rejected[0].reason.contains("k is not"),
        "{}",
        rejected[0].reason
    );
    assert!(rig.service.received().is_empty());
}

#[test]
fn a_held_push_goes_out_when_its_moment_comes() {
    let rig = rig();
    rig.subscribe("Pixel");
    let payload = Payload::needs_you(&NEEDS, false);
    let until = datetime!(2026-01-05 10:00 UTC);
    let sent = rig
        .push
        .notify_after(
            OWNER,
            "att-8",
            &payload,
            Urgency::High,
            Some(until),
            push::Devices::All,
        )
        .unwrap();
    assert_eq!(sent, Report::default());
    assert_eq!(rig.push.next_due().unwrap(), Some(until));
    rig.advance(time::Duration::minutes(59));
    assert_eq!(rig.push.retry_due().unwrap(), Report::default());
    rig.advance(time::Duration::minutes(1));
    assert_eq!(rig.push.retry_due().unwrap(), report(1, 0, 0, 0));
    assert_eq!(rig.service.received().len(), 1);
}

#[test]
fn the_daily_briefing_goes_only_to_the_devices_that_chose_it() {
    let rig = rig();
    let (phone, phone_id) = rig.subscribe("Phone");
    let (_laptop, laptop_id) = rig.subscribe("Laptop");
    assert!(
        !rig.push
            .subscription(OWNER, &phone_id)
            .unwrap()
            .daily_briefing
    );
    let chosen = rig
        .push
        .choose(
            OWNER,
            &phone_id,
            &push::Choice {
                daily_briefing: true,
            },
        )
        .unwrap();
    assert!(chosen.daily_briefing);
    assert!(matches!(
        rig.push.choose(
            OWNER,
            "nope",
            &push::Choice {
                daily_briefing: true
            }
        ),
        Err(PushError::NotFound)
    ));
    assert!(matches!(
        rig.push.choose(
            "someone-else",
            &laptop_id,
            &push::Choice {
                daily_briefing: true
            }
        ),
        Err(PushError::NotFound)
    ));

    let briefing = Payload::alert(
        "Your day",
        "3 events",
        "/inbox?row=r1",
        "daily-briefing",
        false,
    );
    let sent = rig
        .push
        .notify_after(
            OWNER,
            "briefing-r1",
            &briefing,
            Urgency::High,
            None,
            push::Devices::DailyBriefing,
        )
        .unwrap();
    assert_eq!(sent, report(1, 0, 0, 0));
    let received = rig.service.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].endpoint, phone.endpoint);

    // Everything else still reaches both.
    let sent = rig
        .push
        .notify(
            OWNER,
            "att-9",
            &Payload::needs_you(&NEEDS, false),
            Urgency::High,
        )
        .unwrap();
    assert_eq!(sent, report(2, 0, 0, 0));
}
