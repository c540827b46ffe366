//! The inbox against a real server: keyset pages, read and archive, read-all,
//! unread counts, repeats folded into one row, categories hidden by their
//! `inboxShow*` setting, and an `inbox` event for every change.

mod common;

use std::time::Duration;

use common::TestServer;
use common::sse::Stream;
use serde_json::{Value, json};

fn alert(server: &TestServer, title: &str) -> Value {
    let reply = server.call(
        "POST",
        "/alert",
        Some(&json!({ "title": title, "body": "b" })),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

fn titles(server: &TestServer, path: &str) -> Vec<String> {
    let reply = server.call("GET", path, None);
    assert_eq!(reply.status, 200, "{path}: {}", reply.text());
    reply
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["title"].as_str().unwrap().to_owned())
        .collect()
}

fn patch(server: &TestServer, id: &str, body: Value) -> common::Reply {
    server.call("PATCH", &format!("/inbox/{id}"), Some(&body))
}

#[test]
fn pages_states_read_all_and_counts() {
    let server = TestServer::start();
    let ids: Vec<String> = (0..7)
        .map(|n| {
            alert(&server, &format!("row {n}"))["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let first = server.call("GET", "/inbox?limit=3", None).json();
    let first: Vec<&str> = first
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["title"].as_str().unwrap())
        .collect();
    assert_eq!(first, ["row 6", "row 5", "row 4"]);
    assert_eq!(
        titles(&server, &format!("/inbox?limit=3&before={}", ids[4])),
        ["row 3", "row 2", "row 1"]
    );
    assert_eq!(
        titles(&server, &format!("/inbox?before={}", ids[1])),
        ["row 0"]
    );

    let read = patch(&server, &ids[1], json!({"read": true}));
    assert_eq!(read.status, 200, "{}", read.text());
    assert!(read.json()["readAt"].is_string());
    let archived = patch(&server, &ids[2], json!({"archived": true}));
    assert!(archived.json()["archivedAt"].is_string());
    assert_eq!(titles(&server, "/inbox?state=read"), ["row 1"]);
    assert_eq!(titles(&server, "/inbox?state=archived"), ["row 2"]);
    assert_eq!(titles(&server, "/inbox?state=unread").len(), 5);
    // The default leaves archived rows out.
    assert_eq!(titles(&server, "/inbox").len(), 6);
    assert_eq!(titles(&server, "/inbox?state=all&category=alert").len(), 7);
    assert_eq!(titles(&server, "/inbox?category=webhook").len(), 0);
    // Restored from the archive, unread again.
    let restored = patch(&server, &ids[2], json!({"archived": false, "read": false}));
    assert!(restored.json()["archivedAt"].is_null());

    for bad in [
        "/inbox?state=new",
        "/inbox?category=nope",
        "/inbox?limit=0",
        "/inbox?limit=501",
        "/inbox?before=no-such-row",
    ] {
        let reply = server.call("GET", bad, None);
        assert_eq!(
            (reply.status, reply.error_code().as_str()),
            (400, "invalid_request"),
            "{bad}"
        );
    }
    for bad in [json!({"read": "yes"}), json!({"pinned": true}), json!([])] {
        assert_eq!(patch(&server, &ids[0], bad).status, 400);
    }

    // Another account's row answers exactly like a missing one.
    let other = server.call("POST", "/accounts", Some(&json!({"name": "other"})));
    let other = other.json()["token"].as_str().unwrap().to_owned();
    let theirs = server.call_as(
        &other,
        "PATCH",
        &format!("/inbox/{}", ids[0]),
        Some(&json!({"read": true})),
    );
    let missing = patch(&server, "no-such-row", json!({"read": true}));
    assert_eq!((theirs.status, &theirs.body), (404, &missing.body));
    assert!(
        server
            .call_as(&other, "GET", "/inbox", None)
            .json()
            .as_array()
            .unwrap()
            .is_empty()
    );

    let counts = server.call("GET", "/inbox/counts", None).json();
    assert_eq!(counts["alert"], 6);
    assert_eq!(counts["webhook"], 0);
    let done = server.call(
        "POST",
        "/inbox/read-all",
        Some(&json!({"category": "webhook"})),
    );
    assert_eq!(done.json()["count"], 0);
    let done = server.call("POST", "/inbox/read-all", None);
    assert_eq!(done.status, 200, "{}", done.text());
    assert_eq!(done.json()["count"], 6);
    assert!(titles(&server, "/inbox?state=unread").is_empty());
    assert_eq!(server.call("GET", "/inbox/counts", None).json()["alert"], 0);
}

#[test]
fn a_repeat_bumps_the_unread_row_and_a_read_one_starts_anew() {
    let server = TestServer::start();
    let first = alert(&server, "Tests failing");
    alert(&server, "something else");
    let again = alert(&server, "Tests failing");
    assert_eq!(again["id"], first["id"]);
    assert_eq!(again["count"], 2);
    // One row, moved to the top.
    assert_eq!(
        titles(&server, "/inbox"),
        ["Tests failing", "something else"]
    );

    patch(
        &server,
        first["id"].as_str().unwrap(),
        json!({"read": true}),
    );
    let fresh = alert(&server, "Tests failing");
    assert_ne!(fresh["id"], first["id"]);
    assert_eq!(fresh["count"], 1);
    assert_eq!(titles(&server, "/inbox?state=all").len(), 3);
}

/// Rows of the categories this version has no source for yet (sessions
/// needing attention, approvals, digests), written as a later source would.
fn insert_row(server: &TestServer, category: &str, title: &str) {
    let account = server.call("GET", "/me", None).json()["accountId"]
        .as_str()
        .unwrap()
        .to_owned();
    let db = store::rusqlite::Connection::open(server.data_dir().join("switchboard.db")).unwrap();
    db.busy_timeout(Duration::from_secs(5)).unwrap();
    db.execute(
        "INSERT INTO inbox_rows (id, account_id, category, title, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
        store::rusqlite::params![format!("row-{title}"), account, category, title],
    )
    .unwrap();
}

#[test]
fn a_hidden_category_is_left_out_until_shown_again() {
    let server = TestServer::start();
    insert_row(&server, "session", "needs you");
    insert_row(&server, "digest", "daily digest");
    insert_row(&server, "cli_pending", "approve rm");
    alert(&server, "an alert");
    assert_eq!(titles(&server, "/inbox").len(), 4);

    server.set_setting("inboxShowSessions", json!(false));
    server.set_setting("inboxShowDigest", json!(false));
    server.set_setting("inboxShowCliPending", json!(false));
    assert_eq!(titles(&server, "/inbox"), ["an alert"]);
    assert!(titles(&server, "/inbox?category=session").is_empty());
    assert_eq!(
        titles(&server, "/inbox?category=session&hidden=true"),
        ["needs you"]
    );
    assert_eq!(titles(&server, "/inbox?hidden=true").len(), 4);
    let counts = server.call("GET", "/inbox/counts", None).json();
    assert!(counts.get("session").is_none(), "{counts}");
    assert_eq!(counts["alert"], 1);
    assert_eq!(
        server.call("GET", "/inbox/counts?hidden=true", None).json()["session"],
        1
    );
    // Read-all leaves what the user cannot see unread.
    assert_eq!(
        server
            .call("POST", "/inbox/read-all", Some(&json!({})))
            .json()["count"],
        1
    );

    // Shown again, with what arrived meanwhile.
    insert_row(&server, "session", "needs you again");
    server.set_setting("inboxShowSessions", json!(true));
    assert_eq!(
        titles(&server, "/inbox?category=session&state=unread"),
        ["needs you again", "needs you"]
    );
}

#[test]
fn every_change_is_an_inbox_event() {
    let server = TestServer::start();
    let mut stream = Stream::bearer(&server, &server.token, None);
    let inbox_events = |stream: &mut Stream| {
        stream
            .until(|e| e.name == "inbox")
            .pop()
            .map(|e| e.data)
            .unwrap()
    };
    let row = alert(&server, "first");
    let created = inbox_events(&mut stream);
    assert_eq!(
        (created["change"].as_str(), &created["id"]),
        (Some("created"), &row["id"])
    );
    alert(&server, "first");
    let repeated = inbox_events(&mut stream);
    assert_eq!(
        (repeated["change"].as_str(), &repeated["count"]),
        (Some("repeated"), &json!(2))
    );
    patch(
        &server,
        row["id"].as_str().unwrap(),
        json!({"archived": true}),
    );
    let updated = inbox_events(&mut stream);
    assert_eq!(updated["change"], "updated");
    assert!(updated["archivedAt"].is_string());
    alert(&server, "second");
    inbox_events(&mut stream);
    server.call(
        "POST",
        "/inbox/read-all",
        Some(&json!({"category": "alert"})),
    );
    let read_all = inbox_events(&mut stream);
    assert_eq!(
        read_all,
        json!({"change": "read_all", "category": "alert", "count": 1})
    );
}
