//! The hub's rules: order, per-account isolation, resumes, resets, and a
//! stalled subscriber dropped without ever holding the publisher up.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio_stream::StreamExt;

use super::*;

fn hub(ring_events: usize, buffer: usize) -> Hub {
    Hub::new(Config {
        epoch: 0xabc,
        ring_events,
        ring_bytes: 1 << 20,
        buffer,
        buffer_bytes: usize::MAX,
    })
}

fn to(account: &str) -> Audience {
    Audience::Account(account.to_owned())
}

/// Everything the subscription yields without waiting.
fn ready(subscription: &mut Subscription) -> Vec<Arc<Event>> {
    let waker = std::task::Waker::noop();
    let mut cx = Context::from_waker(waker);
    let mut out = Vec::new();
    while let Poll::Ready(Some(event)) = Pin::new(&mut *subscription).poll_next(&mut cx) {
        out.push(event);
    }
    out
}

fn names(events: &[Arc<Event>]) -> Vec<&'static str> {
    events.iter().map(|e| e.name.as_str()).collect()
}

fn datas(events: &[Arc<Event>]) -> Vec<String> {
    events.iter().map(|e| e.data.clone()).collect()
}

#[test]
fn events_arrive_in_publish_order_with_increasing_ids() {
    let hub = hub(100, 100);
    let mut sub = hub.subscribe("a", None);
    let ids: Vec<String> = (0..5)
        .map(|n| hub.publish(to("a"), Name::Output, &json!({ "n": n })))
        .collect();
    let got = ready(&mut sub);
    assert_eq!(got.iter().map(|e| e.id.clone()).collect::<Vec<_>>(), ids);
    assert_eq!(datas(&got)[4], r#"{"n":4}"#);
    assert_eq!(ids[0], "abc-1");
    assert_eq!(ids[4], "abc-5");
}

#[test]
fn an_account_receives_only_its_own_events_and_everyones() {
    let hub = hub(100, 100);
    let mut a = hub.subscribe("a", None);
    let mut b = hub.subscribe("b", None);
    hub.publish(to("a"), Name::Session, &json!({ "for": "a" }));
    hub.publish(to("b"), Name::Session, &json!({ "for": "b" }));
    hub.publish(Audience::Everyone, Name::Settings, &json!({ "key": "k" }));
    assert_eq!(datas(&ready(&mut a)), [r#"{"for":"a"}"#, r#"{"key":"k"}"#]);
    assert_eq!(datas(&ready(&mut b)), [r#"{"for":"b"}"#, r#"{"key":"k"}"#]);
}

#[test]
fn a_resume_replays_the_accounts_missed_events_then_live_ones() {
    let hub = hub(100, 100);
    let seen = hub.publish(to("a"), Name::Output, &json!({ "n": 1 }));
    hub.publish(to("a"), Name::Output, &json!({ "n": 2 }));
    hub.publish(to("b"), Name::Output, &json!({ "n": "b" }));
    hub.publish(to("a"), Name::Output, &json!({ "n": 3 }));
    let mut sub = hub.subscribe("a", Some(&seen));
    hub.publish(to("a"), Name::Output, &json!({ "n": 4 }));
    assert_eq!(
        datas(&ready(&mut sub)),
        [r#"{"n":2}"#, r#"{"n":3}"#, r#"{"n":4}"#]
    );
}

#[test]
fn a_resume_from_the_latest_id_replays_nothing() {
    let hub = hub(2, 100);
    for n in 0..5 {
        hub.publish(to("a"), Name::Output, &json!({ "n": n }));
    }
    let last = hub.publish(to("a"), Name::Output, &json!({}));
    let mut sub = hub.subscribe("a", Some(&last));
    assert!(ready(&mut sub).is_empty());
}

#[test]
fn a_resume_past_the_ring_starts_with_reset() {
    let hub = hub(3, 100);
    let first = hub.publish(to("a"), Name::Output, &json!({ "n": 1 }));
    for n in 2..=5 {
        hub.publish(to("a"), Name::Output, &json!({ "n": n }));
    }
    let mut sub = hub.subscribe("a", Some(&first));
    let got = ready(&mut sub);
    assert_eq!(names(&got), ["reset"]);
    // The reset carries the newest id, so a client that refetches and then
    // reconnects with it misses nothing that came after.
    assert_eq!(got[0].id, "abc-5");
    hub.publish(to("a"), Name::Output, &json!({ "n": 6 }));
    assert_eq!(datas(&ready(&mut sub)), [r#"{"n":6}"#]);
}

#[test]
fn the_ring_is_bounded_by_bytes_too() {
    let hub = Hub::new(Config {
        epoch: 1,
        ring_events: 1000,
        ring_bytes: 2000,
        buffer: 10,
        buffer_bytes: usize::MAX,
    });
    let first = hub.publish(to("a"), Name::Output, &json!({ "text": "x".repeat(500) }));
    for _ in 0..10 {
        hub.publish(to("a"), Name::Output, &json!({ "text": "x".repeat(500) }));
    }
    assert!(hub.state().ring.len() < 5);
    let mut sub = hub.subscribe("a", Some(&first));
    assert_eq!(names(&ready(&mut sub)), ["reset"]);
}

#[test]
fn unknown_malformed_and_earlier_run_ids_get_reset() {
    let hub = hub(100, 100);
    hub.publish(to("a"), Name::Output, &json!({}));
    for id in ["abc-99", "garbage", "", "1-1", "abc-x", "-1"] {
        let mut sub = hub.subscribe("a", Some(id));
        assert_eq!(names(&ready(&mut sub)), ["reset"], "id {id:?}");
    }
}

#[test]
fn a_full_subscriber_gets_its_buffer_then_reset_then_the_end() {
    let hub = hub(100, 3);
    let mut slow = hub.subscribe("a", None);
    let mut fast = hub.subscribe("a", None);
    let mut ids = Vec::new();
    for n in 0..5 {
        ids.push(hub.publish(to("a"), Name::Output, &json!({ "n": n })));
        ready(&mut fast);
    }
    let got = ready(&mut slow);
    assert_eq!(names(&got), ["output", "output", "output", "reset"]);
    // The reset names the first event that did not fit: resuming from it
    // after a refetch loses nothing.
    assert_eq!(got[3].id, ids[3]);
    let waker = std::task::Waker::noop();
    let mut cx = Context::from_waker(waker);
    assert_eq!(
        Pin::new(&mut slow).poll_next(&mut cx),
        Poll::Ready(None),
        "a dropped subscriber's stream ends"
    );
    assert_eq!(hub.subscriber_count(), 1, "only the fast one is left");
}

#[test]
fn the_buffer_is_bounded_by_bytes_too() {
    let hub = Hub::new(Config {
        epoch: 0xabc,
        ring_events: 1000,
        ring_bytes: 1 << 20,
        buffer: 1000,
        buffer_bytes: 2000,
    });
    let mut slow = hub.subscribe("a", None);
    let mut reading = hub.subscribe("a", None);
    let mut ids = Vec::new();
    for _ in 0..5 {
        let id = hub.publish(to("a"), Name::Output, &json!({ "text": "x".repeat(500) }));
        ids.push(id);
        assert_eq!(ready(&mut reading).len(), 1, "a reader that keeps up stays");
    }
    // Three events of about 600 bytes fit in 2,000, the fourth does not.
    let got = ready(&mut slow);
    assert_eq!(names(&got), ["output", "output", "output", "reset"]);
    assert_eq!(got[3].id, ids[3]);
    // One publish larger than the whole bound still reaches an empty buffer.
    hub.publish_all(drafts("a", 0, 20));
    assert_eq!(ready(&mut reading).len(), 20);
    assert_eq!(hub.subscriber_count(), 1);
}

#[test]
fn publishing_never_waits_for_a_stalled_subscriber() {
    let hub = hub(10_000, 16);
    let stalled: Vec<Subscription> = (0..100).map(|_| hub.subscribe("a", None)).collect();
    let started = Instant::now();
    for n in 0..20_000 {
        hub.publish(to("a"), Name::Output, &json!({ "n": n }));
    }
    // Generous: the point is that it finishes at all, and not per subscriber per event.
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(hub.subscriber_count(), 0);
    drop(stalled);
}

#[test]
fn gone_subscribers_are_forgotten() {
    let hub = hub(100, 100);
    let sub = hub.subscribe("a", None);
    assert_eq!(hub.subscriber_count(), 1);
    drop(sub);
    hub.publish(to("a"), Name::Output, &json!({}));
    assert_eq!(hub.subscriber_count(), 0);
}

#[tokio::test]
async fn a_waiting_subscriber_wakes_for_a_new_event() {
    let hub = Arc::new(hub(100, 100));
    let mut sub = hub.subscribe("a", None);
    let publisher = Arc::clone(&hub);
    tokio::spawn(async move {
        tokio::task::yield_now().await;
        publisher.publish(to("a"), Name::Inbox, &json!({ "id": "r1" }));
    });
    let event = tokio::time::timeout(Duration::from_secs(5), sub.next())
        .await
        .ok()
        .flatten();
    assert_eq!(event.map(|e| e.name), Some(Name::Inbox));
}

#[test]
fn closing_ends_every_subscription_now_and_later() {
    let hub = hub(100, 100);
    let mut before = hub.subscribe("a", None);
    hub.publish(to("a"), Name::Output, &json!({}));
    hub.close();
    let mut after = hub.subscribe("a", None);
    let waker = std::task::Waker::noop();
    let mut cx = Context::from_waker(waker);
    assert_eq!(names(&ready(&mut before)), ["output"]);
    assert_eq!(Pin::new(&mut before).poll_next(&mut cx), Poll::Ready(None));
    assert_eq!(Pin::new(&mut after).poll_next(&mut cx), Poll::Ready(None));
}

fn drafts(account: &str, from: usize, count: usize) -> Vec<Draft> {
    (from..from + count)
        .map(|n| Draft {
            audience: to(account),
            name: Name::Output,
            data: format!(r#"{{"n":{n}}}"#),
        })
        .collect()
}

#[test]
fn a_burst_takes_consecutive_ids_and_one_place_in_each_buffer() {
    // A buffer of one publish holds a burst of a thousand events.
    let hub = hub(10_000, 1);
    let mut sub = hub.subscribe("a", None);
    let last = hub.publish_all(drafts("a", 0, 1000));
    assert_eq!(last.as_deref(), Some("abc-1000"));
    let got = ready(&mut sub);
    assert_eq!(got.len(), 1000);
    assert_eq!(got[0].id, "abc-1");
    assert_eq!(got[999].data, r#"{"n":999}"#);
    assert_eq!(hub.publish_all(Vec::new()), None, "nothing to publish");
}

#[test]
fn a_burst_reaches_each_account_with_only_its_own_events() {
    let hub = hub(100, 10);
    let mut a = hub.subscribe("a", None);
    let mut b = hub.subscribe("b", None);
    let mut mixed = drafts("a", 0, 2);
    mixed.push(Draft {
        audience: Audience::Everyone,
        name: Name::Settings,
        data: r#"{"key":"k"}"#.to_owned(),
    });
    mixed.extend(drafts("b", 2, 1));
    hub.publish_all(mixed);
    assert_eq!(
        datas(&ready(&mut a)),
        [r#"{"n":0}"#, r#"{"n":1}"#, r#"{"key":"k"}"#]
    );
    assert_eq!(datas(&ready(&mut b)), [r#"{"key":"k"}"#, r#"{"n":2}"#]);
}

#[test]
fn a_resume_from_inside_a_burst_replays_the_rest_of_it() {
    let hub = hub(100, 10);
    hub.publish_all(drafts("a", 0, 5));
    let mut sub = hub.subscribe("a", Some("abc-2"));
    assert_eq!(
        datas(&ready(&mut sub)),
        [r#"{"n":2}"#, r#"{"n":3}"#, r#"{"n":4}"#]
    );
}

#[test]
fn a_burst_that_does_not_fit_ends_the_stream_with_its_newest_id() {
    let hub = hub(100, 1);
    let mut slow = hub.subscribe("a", None);
    hub.publish_all(drafts("a", 0, 3));
    hub.publish_all(drafts("a", 3, 4));
    let got = ready(&mut slow);
    assert_eq!(names(&got), ["output", "output", "output", "reset"]);
    // Resuming from it after a refetch misses nothing that came after.
    assert_eq!(got[3].id, "abc-7");
}

#[tokio::test]
async fn batches_hold_everything_ready_and_end_with_the_stream() {
    let hub = hub(100, 10);
    hub.publish(to("a"), Name::Inbox, &json!({ "n": "replayed" }));
    let sub = hub.subscribe("a", Some("abc-0"));
    hub.publish_all(drafts("a", 0, 3));
    hub.publish(to("a"), Name::Inbox, &json!({}));
    let mut batches = sub.batches(4);
    let first = batches.next().await.map(|b| b.len());
    assert_eq!(first, Some(4), "everything ready, up to the most");
    let second = batches.next().await.map(|b| b.len());
    assert_eq!(second, Some(1));
    hub.close();
    assert!(batches.next().await.is_none());
}
