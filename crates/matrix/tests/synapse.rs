//! The messenger against a real Synapse: two users, a room, messages both
//! ways; the since token stored so nothing comes twice; sends idempotent
//! and rate limits waited out; a revoked token a clear state; the legacy
//! engine and the sign-out an engine switch makes.

mod rig;

use std::sync::Arc;
use std::time::Duration;

use clock::SystemClock;
use matrix::{Engine, Matrix, MatrixError, MessengerState};
use rig::{Synapse, encode};
use serde_json::json;

const ACCOUNT: &str = "owner";

struct World {
    _dir: tempfile::TempDir,
    synapse: Synapse,
    matrix: Matrix,
    bob: String,
    room: String,
}

/// Synapse with alice (the person) and bob, and a room "Team" bob made and
/// alice joined.
fn world() -> Option<World> {
    let synapse = Synapse::start()?;
    synapse.register("alice", "alice-password");
    synapse.register("bob", "bob-password");
    let bob = synapse.token("bob", "bob-password");
    let room = synapse.post(
        "/createRoom",
        Some(&bob),
        json!({"name": "Team", "invite": ["@alice:localhost"]}),
    )["room_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let alice = synapse.token("alice", "alice-password");
    synapse.post(&format!("/join/{}", encode(&room)), Some(&alice), json!({}));
    synapse.post("/logout", Some(&alice), json!({}));
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("t.db")).unwrap());
    db.migrate(matrix::MIGRATIONS).unwrap();
    Some(World {
        _dir: dir,
        synapse,
        matrix: Matrix::new(db, Arc::new(SystemClock)),
        bob,
        room,
    })
}

fn bob_says(world: &World, txn: &str, text: &str) {
    world.synapse.put(
        &format!("/rooms/{}/send/m.room.message/{txn}", encode(&world.room)),
        &world.bob,
        json!({"msgtype": "m.text", "body": text}),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn messages_go_both_ways_and_nothing_is_fetched_twice() {
    let Some(world) = world() else { return };
    let url = world.synapse.url();
    let anonymous = world.matrix.client(&url, Engine::Maintained, None);
    assert!(matches!(
        world
            .matrix
            .login(ACCOUNT, &anonymous, "alice", "wrong")
            .await,
        Err(MatrixError::LoginRefused)
    ));
    let login = world
        .matrix
        .login(ACCOUNT, &anonymous, "alice", "alice-password")
        .await
        .unwrap();
    assert_eq!(login.user_id, "@alice:localhost");
    let client = world
        .matrix
        .client(&url, Engine::Maintained, Some(login.access_token));

    let first = world
        .matrix
        .sync(ACCOUNT, &client, Duration::ZERO)
        .await
        .unwrap();
    assert!(first.initial);
    let rooms = world.matrix.rooms(ACCOUNT).unwrap();
    assert_eq!(rooms.len(), 1);
    assert_eq!(rooms[0].id, world.room);
    assert_eq!(rooms[0].name, "Team");

    bob_says(&world, "b1", "Lunch at noon?");
    bob_says(&world, "b2", "🍕");
    let news = world
        .matrix
        .sync(ACCOUNT, &client, Duration::from_secs(5))
        .await
        .unwrap();
    assert!(!news.initial);
    let bodies: Vec<_> = news.new_messages.iter().map(|m| m.body.as_str()).collect();
    assert_eq!(bodies, ["Lunch at noon?", "🍕"]);
    assert!(
        news.new_messages
            .iter()
            .all(|m| m.sender == "@bob:localhost" && !m.own)
    );

    let again = world
        .matrix
        .sync(ACCOUNT, &client, Duration::ZERO)
        .await
        .unwrap();
    assert!(again.new_messages.is_empty(), "the since token was kept");

    let reply = world
        .matrix
        .send(ACCOUNT, &client, &world.room, "Yes, see you there")
        .await
        .unwrap();
    assert!(reply.own);
    let seen_by_bob = world.synapse.get(
        &format!("/rooms/{}/messages?dir=b&limit=5", encode(&world.room)),
        &world.bob,
    );
    let bobs_view: Vec<_> = seen_by_bob["chunk"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "m.room.message")
        .map(|e| {
            (
                e["sender"].as_str().unwrap(),
                e["content"]["body"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(bobs_view[0], ("@alice:localhost", "Yes, see you there"));

    // Our own message comes back in the next sync: stored once, not news.
    let echo = world
        .matrix
        .sync(ACCOUNT, &client, Duration::ZERO)
        .await
        .unwrap();
    assert!(echo.new_messages.is_empty());
    let stored = world.matrix.messages(ACCOUNT, &world.room).unwrap();
    assert_eq!(stored.len(), 3);
    assert_eq!(
        world.matrix.status(ACCOUNT).unwrap().state,
        MessengerState::Connected
    );
    assert!(matches!(
        world.matrix.messages(ACCOUNT, "!nope:localhost"),
        Err(MatrixError::NotFound)
    ));
}

#[tokio::test(flavor = "multi_thread")]
async fn rate_limits_are_waited_out_and_a_transaction_is_sent_once() {
    let Some(world) = world() else { return };
    let url = world.synapse.url();
    let anonymous = world.matrix.client(&url, Engine::Maintained, None);
    let login = world
        .matrix
        .login(ACCOUNT, &anonymous, "alice", "alice-password")
        .await
        .unwrap();
    let client = world
        .matrix
        .client(&url, Engine::Maintained, Some(login.access_token));
    world
        .matrix
        .sync(ACCOUNT, &client, Duration::ZERO)
        .await
        .unwrap();

    // The burst is 4 at 0.5 a second: the later sends meet 429s with
    // retry_after_ms and wait them out.
    let started = std::time::Instant::now();
    for n in 0..7 {
        world
            .matrix
            .send(ACCOUNT, &client, &world.room, &format!("note {n}"))
            .await
            .unwrap();
    }
    assert!(
        started.elapsed() >= Duration::from_secs(3),
        "seven sends over a burst of four waited for the homeserver"
    );
    // The same transaction id again is the same event, not a second message.
    let one = client
        .send_text(&world.room, "fixed-txn", "once")
        .await
        .unwrap();
    let two = client
        .send_text(&world.room, "fixed-txn", "once")
        .await
        .unwrap();
    assert_eq!(one, two);
    let history = world.synapse.get(
        &format!("/rooms/{}/messages?dir=b&limit=50", encode(&world.room)),
        &world.bob,
    );
    let bodies: Vec<_> = history["chunk"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["content"]["body"].as_str())
        .collect();
    assert_eq!(bodies.iter().filter(|b| **b == "once").count(), 1);
    for n in 0..7 {
        let note = format!("note {n}");
        assert_eq!(bodies.iter().filter(|b| **b == note).count(), 1, "{note}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_revoked_token_is_a_clear_state_and_an_engine_switch_signs_out() {
    let Some(world) = world() else { return };
    let url = world.synapse.url();
    let anonymous = world.matrix.client(&url, Engine::Legacy, None);
    let login = world
        .matrix
        .login(ACCOUNT, &anonymous, "alice", "alice-password")
        .await
        .unwrap();
    let legacy = world
        .matrix
        .client(&url, Engine::Legacy, Some(login.access_token.clone()));
    world
        .matrix
        .sync(ACCOUNT, &legacy, Duration::ZERO)
        .await
        .unwrap();
    bob_says(&world, "r1", "over r0");
    let news = world
        .matrix
        .sync(ACCOUNT, &legacy, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(news.new_messages.len(), 1, "the legacy engine syncs too");

    // Switching engines signs out: the stored position is gone and the
    // old client is refused until a new sign-in.
    assert!(
        world
            .matrix
            .switch_engine(ACCOUNT, Engine::Maintained)
            .unwrap()
    );
    assert!(
        !world
            .matrix
            .switch_engine(ACCOUNT, Engine::Maintained)
            .unwrap()
    );
    assert_eq!(
        world.matrix.status(ACCOUNT).unwrap().state,
        MessengerState::SignedOut
    );
    assert!(
        world
            .matrix
            .sync(ACCOUNT, &legacy, Duration::ZERO)
            .await
            .is_err()
    );

    let maintained = world.matrix.client(&url, Engine::Maintained, None);
    let login = world
        .matrix
        .login(ACCOUNT, &maintained, "alice", "alice-password")
        .await
        .unwrap();
    let client = world
        .matrix
        .client(&url, Engine::Maintained, Some(login.access_token));
    world
        .matrix
        .sync(ACCOUNT, &client, Duration::ZERO)
        .await
        .unwrap();

    // Signed out elsewhere: the token is revoked.
    client.logout().await.unwrap();
    assert!(matches!(
        world.matrix.sync(ACCOUNT, &client, Duration::ZERO).await,
        Err(MatrixError::TokenRevoked)
    ));
    let status = world.matrix.status(ACCOUNT).unwrap();
    assert_eq!(status.state, MessengerState::Revoked);
    assert!(status.failure.unwrap().contains("sign in again"));
    assert!(matches!(
        world
            .matrix
            .send(ACCOUNT, &client, &world.room, "lost?")
            .await,
        Err(MatrixError::TokenRevoked)
    ));
}
