//! The inbox's Stats against a real server: a row's first action and the
//! page's view reports are recorded per category while
//! `inboxAnalyticsEnabled` is on; turned off, nothing is recorded and what
//! was is cleared, so turning it back on starts from nothing. People only.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

fn stats(server: &TestServer) -> Value {
    let reply = server.call("GET", "/inbox/stats", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

/// Recording runs beside the change it records: waits for it to show.
fn stats_until(server: &TestServer, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let page = stats(server);
        if done(&page) {
            return page;
        }
        assert!(Instant::now() < deadline, "{what}: {page}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn row_of<'a>(page: &'a Value, category: &str) -> Option<&'a Value> {
    page["week"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["category"] == category)
}

fn read_new_alert(server: &TestServer, title: &str) {
    let alert = server.call("POST", "/alert", Some(&json!({ "title": title })));
    assert_eq!(alert.status, 201, "{}", alert.text());
    let id = alert.json()["id"].as_str().unwrap().to_owned();
    let read = server.call(
        "PATCH",
        &format!("/inbox/{id}"),
        Some(&json!({"read": true})),
    );
    assert_eq!(read.status, 200, "{}", read.text());
}

fn report(server: &TestServer, body: &Value) -> common::Reply {
    server.call("POST", "/inbox/stats/views", Some(body))
}

#[test]
fn recorded_while_on_cleared_and_stopped_when_off() {
    let server = TestServer::start();
    let empty = stats(&server);
    assert_eq!(empty["enabled"], true);
    assert_eq!(empty["week"]["days"].as_array().unwrap().len(), 7);

    read_new_alert(&server, "disk almost full");
    let page = stats_until(&server, "the read is recorded", |p| {
        row_of(p, "alert").is_some_and(|r| r["actions"] == 1 && r["unread"] == 0)
    });
    let alert = row_of(&page, "alert").unwrap();
    assert!(alert["waitMs"].as_i64().unwrap() >= 0);
    // Counts and durations only: nothing of the row's title or id.
    assert!(!page.to_string().contains("disk almost full"));

    let views = json!([{ "category": "alert", "looks": 3, "idleLooks": 1, "visibleMs": 4200 }]);
    let kept = report(&server, &views);
    assert_eq!(kept.status, 200, "{}", kept.text());
    assert_eq!(kept.json()["recorded"], true);
    let alert = row_of(&stats(&server), "alert").unwrap().clone();
    assert_eq!(
        (&alert["looks"], &alert["idleLooks"], &alert["visibleMs"]),
        (&json!(3), &json!(1), &json!(4200))
    );
    let impossible = json!([{ "category": "alert", "looks": 1, "idleLooks": 2, "visibleMs": 0 }]);
    let refused = report(&server, &impossible);
    assert_eq!(refused.status, 400, "{}", refused.text());
    assert_eq!(refused.error_code(), "invalid_request");

    server.set_setting("inboxAnalyticsEnabled", json!(false));
    let off = stats(&server);
    assert_eq!(off["enabled"], false);
    assert_eq!(off["week"]["rows"], json!([]));
    assert_eq!(report(&server, &views).json()["recorded"], false);
    read_new_alert(&server, "another");

    server.set_setting("inboxAnalyticsEnabled", json!(true));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        stats(&server)["week"]["rows"],
        json!([]),
        "what was recorded before the switch went off is gone, and nothing was recorded while off"
    );
    read_new_alert(&server, "after");
    stats_until(&server, "recording resumes", |p| {
        row_of(p, "alert").is_some_and(|r| r["actions"] == 1 && r["looks"] == 0)
    });
}

#[test]
fn agent_tokens_are_refused() {
    let server = TestServer::with_token_holders(|_| {});
    let (_session, token) = server.holder_session();
    for (method, path, body) in [
        ("GET", "/inbox/stats", None),
        ("POST", "/inbox/stats/views", Some(json!([]))),
    ] {
        let reply = server.call_as(&token, method, path, body.as_ref());
        assert_eq!(reply.status, 403, "{method} {path}: {}", reply.text());
    }
}
