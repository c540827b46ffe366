//! The messenger through the real binary against a real Synapse (the rig
//! of crates/matrix/tests): `matrix.toml` with a password key, the server
//! signing in by itself and keeping the token as a saved key, the room
//! listed by name, the other user's message an inbox row, a reply through
//! `POST /messenger/rooms/{id}/messages` that the other user reads, and
//! `messengerEnabled` off → 403.

mod common;
#[path = "../../matrix/tests/rig/mod.rs"]
mod rig;

use std::time::{Duration, Instant};

use common::TestServer;
use rig::{Synapse, encode};
use serde_json::{Value, json};

fn wait_for(what: &str, mut check: impl FnMut() -> Option<Value>) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn matrix_rooms_are_listed_and_answered() {
    let Some(synapse) = Synapse::start() else {
        return;
    };
    synapse.register("alice", "alice-password");
    synapse.register("bob", "bob-password");
    let bob = synapse.token("bob", "bob-password");
    let room = synapse.post(
        "/createRoom",
        Some(&bob),
        json!({"name": "Family", "invite": ["@alice:localhost"]}),
    )["room_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let alice = synapse.token("alice", "alice-password");
    synapse.post(&format!("/join/{}", encode(&room)), Some(&alice), json!({}));

    let server = TestServer::start();
    let off = server.call("GET", "/messenger/rooms", None);
    assert_eq!(
        (off.status, off.error_code()),
        (403, "messenger_disabled".into())
    );
    std::fs::write(
        server.data_dir().join("matrix.toml"),
        format!(
            "homeserver = \"{}\"\nuser = \"alice\"\npassword_key = \"MATRIX_PASSWORD\"\n",
            synapse.url()
        ),
    )
    .unwrap();
    let saved = server.call(
        "PUT",
        "/keys/MATRIX_PASSWORD",
        Some(&json!({"value": "alice-password"})),
    );
    assert!(saved.status < 300, "{}", saved.text());
    server.set_setting("messengerEnabled", json!(true));

    let rooms = wait_for("the room", || {
        let rooms = server.call("GET", "/messenger/rooms", None).json();
        (rooms.as_array().is_some_and(|r| !r.is_empty())).then_some(rooms)
    });
    assert_eq!(rooms[0]["id"], room.as_str());
    assert_eq!(rooms[0]["name"], "Family");
    let keys = server.call("GET", "/keys", None).text();
    assert!(
        keys.contains("MATRIX_ACCESS_TOKEN"),
        "the token is a saved key: {keys}"
    );

    synapse.put(
        &format!("/rooms/{}/send/m.room.message/dinner", encode(&room)),
        &bob,
        json!({"msgtype": "m.text", "body": "Dinner at 7?"}),
    );
    let row = wait_for("the inbox row", || {
        let rows = server.call("GET", "/inbox?category=messenger", None).json();
        rows.as_array().and_then(|r| r.first().cloned())
    });
    assert_eq!(row["title"], "@bob:localhost in Family");
    assert_eq!(row["body"], "Dinner at 7?");

    let reply = server.call(
        "POST",
        &format!("/messenger/rooms/{}/messages", encode(&room)),
        Some(&json!({"text": "Yes! 🍝"})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    assert_eq!(reply.json()["own"], true);
    let seen = synapse.get(
        &format!("/rooms/{}/messages?dir=b&limit=5", encode(&room)),
        &bob,
    );
    let last = seen["chunk"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "m.room.message")
        .unwrap()
        .clone();
    assert_eq!(last["sender"], "@alice:localhost");
    assert_eq!(last["content"]["body"], "Yes! 🍝");
    let unknown = server.call(
        "POST",
        "/messenger/rooms/%21nope%3Alocalhost/messages",
        Some(&json!({"text": "x"})),
    );
    assert_eq!(unknown.status, 404);

    // The reply comes back through sync: stored once, no row of its own.
    std::thread::sleep(Duration::from_secs(2));
    let rows = server.call("GET", "/inbox?category=messenger", None).json();
    assert_eq!(rows.as_array().unwrap().len(), 1);
    let messages = server
        .call(
            "GET",
            &format!("/messenger/rooms/{}/messages", encode(&room)),
            None,
        )
        .json();
    let bodies: Vec<&str> = messages
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["body"].as_str())
        .collect();
    assert_eq!(bodies.iter().filter(|b| **b == "Yes! 🍝").count(), 1);
}
