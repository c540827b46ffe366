//! [`crate::BotState`] on a real database file, time moved by hand.

use std::sync::Arc;

use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::{
    BotState, CODE_ALPHABET, CODE_LENGTH, ChatKey, Decision, MIGRATIONS, MessengerError,
    PairingState, User, callback_data,
};

const NOON: OffsetDateTime = datetime!(2026-03-02 12:00 UTC);

fn open(dir: &tempfile::TempDir) -> BotState {
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    BotState::new(db)
}

fn sender(id: i64) -> User {
    User {
        id,
        is_bot: false,
        first_name: "Grace".to_owned(),
        last_name: Some("Hopper".to_owned()),
        username: Some("grace".to_owned()),
    }
}

fn key(chat_id: i64, thread_id: Option<i64>) -> ChatKey {
    ChatKey { chat_id, thread_id }
}

#[test]
fn the_offset_survives_a_restart_and_never_moves_back() {
    let dir = tempfile::tempdir().unwrap();
    let state = open(&dir);
    assert_eq!(state.offset(42).unwrap(), None);
    state.set_offset(42, 1001).unwrap();
    state.set_offset(42, 990).unwrap();
    state.set_offset(43, 5).unwrap();
    drop(state);
    let state = open(&dir);
    assert_eq!(state.offset(42).unwrap(), Some(1001));
    assert_eq!(state.offset(43).unwrap(), Some(5));
}

#[test]
fn each_chat_and_topic_keeps_its_session_until_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let state = open(&dir);
    let general = key(-100, None);
    let topic = key(-100, Some(7));
    assert_eq!(state.set_session(general, "s1", NOON).unwrap(), None);
    state.set_session(topic, "s2", NOON).unwrap();
    assert_eq!(state.session_of(general).unwrap().as_deref(), Some("s1"));
    assert_eq!(state.session_of(topic).unwrap().as_deref(), Some("s2"));
    assert_eq!(state.session_of(key(-100, Some(8))).unwrap(), None);
    let later = NOON + Duration::minutes(1);
    assert_eq!(
        state.set_session(general, "s3", later).unwrap().as_deref(),
        Some("s1")
    );
    assert_eq!(state.chat_of_session("s3").unwrap(), Some(general));
    assert_eq!(state.chat_of_session("s1").unwrap(), None);
    assert_eq!(
        state.chats().unwrap(),
        [(general, "s3".to_owned()), (topic, "s2".to_owned())]
    );
}

#[test]
fn a_pairing_code_is_given_once_approved_and_then_gone() {
    let dir = tempfile::tempdir().unwrap();
    let state = open(&dir);
    let first = state.request_pairing(&sender(5), 5, NOON).unwrap();
    assert!(first.new);
    let code = first.pairing.code.clone();
    assert_eq!(code.len(), CODE_LENGTH);
    assert!(code.chars().all(|c| CODE_ALPHABET.contains(c)), "{code}");
    assert_eq!(first.pairing.name, "Grace Hopper");
    assert_eq!(first.pairing.expires_at, "2026-03-02T13:00:00.000Z");

    // Writing again gives the same code: one pending request per sender.
    let again = state
        .request_pairing(&sender(5), 5, NOON + Duration::minutes(10))
        .unwrap();
    assert!(!again.new);
    assert_eq!(again.pairing.code, code);
    let other = state.request_pairing(&sender(6), 6, NOON).unwrap();
    assert_ne!(other.pairing.code, code);
    assert_eq!(state.pending_pairings(NOON).unwrap().len(), 2);

    let approved = state
        .approve_pairing(
            &format!(" {} ", code.to_lowercase()),
            NOON + Duration::minutes(59),
        )
        .unwrap();
    assert_eq!(
        (approved.user_id, approved.state),
        (5, PairingState::Approved)
    );
    assert!(matches!(
        state.approve_pairing(&code, NOON + Duration::minutes(59)),
        Err(MessengerError::UnknownPairing)
    ));
    let rejected = state
        .reject_pairing(&other.pairing.code, NOON + Duration::minutes(1))
        .unwrap();
    assert_eq!(rejected.state, PairingState::Rejected);
    assert!(state.pending_pairings(NOON).unwrap().is_empty());
}

#[test]
fn a_pairing_code_expires_after_an_hour_on_the_callers_clock() {
    let dir = tempfile::tempdir().unwrap();
    let state = open(&dir);
    let first = state.request_pairing(&sender(5), 5, NOON).unwrap();
    let code = first.pairing.code;
    let hour = NOON + Duration::HOUR;
    assert_eq!(
        state
            .pending_pairings(hour - Duration::SECOND)
            .unwrap()
            .len(),
        1
    );
    assert!(state.pending_pairings(hour).unwrap().is_empty());
    assert!(matches!(
        state.approve_pairing(&code, hour),
        Err(MessengerError::PairingExpired)
    ));
    // The sender asks again: a new request, the old one dropped.
    let second = state.request_pairing(&sender(5), 5, hour).unwrap();
    assert!(second.new);
    assert_ne!(second.pairing.id, first.pairing.id);
    assert_eq!(state.pending_pairings(hour).unwrap().len(), 1);
    state
        .approve_pairing(&second.pairing.code, hour + Duration::minutes(5))
        .unwrap();
}

#[test]
fn the_bots_messages_are_known_until_pruned() {
    let dir = tempfile::tempdir().unwrap();
    let state = open(&dir);
    let topic = key(-100, Some(7));
    state.record_sent(topic, 501, Some("s1"), NOON).unwrap();
    state
        .record_sent(topic, 502, None, NOON + Duration::DAY)
        .unwrap();
    let sent = state.sent(-100, 501).unwrap().unwrap();
    assert_eq!((sent.key, sent.session_id.as_deref()), (topic, Some("s1")));
    assert_eq!(state.sent(-100, 503).unwrap(), None);
    assert_eq!(state.sent(-200, 501).unwrap(), None);
    state.prune(NOON + Duration::HOUR).unwrap();
    assert_eq!(state.sent(-100, 501).unwrap(), None);
    assert!(state.sent(-100, 502).unwrap().is_some());
}

#[test]
fn an_approval_is_announced_once_and_answered_once() {
    let dir = tempfile::tempdir().unwrap();
    let state = open(&dir);
    let chat = key(9, None);
    let id = "0192f0c4a1b27c3d8e9f0a1b2c3d4e5f";
    let token = state.announce_approval(id, chat, NOON).unwrap().unwrap();
    assert_eq!(token, id, "a simple UUID is its own token");
    // Not sent yet: a retry gets the same token.
    assert_eq!(
        state.announce_approval(id, chat, NOON).unwrap().as_deref(),
        Some(id)
    );
    state.approval_sent(id, 77).unwrap();
    assert_eq!(state.announce_approval(id, chat, NOON).unwrap(), None);

    let found = state.approval_by_token(&token).unwrap().unwrap();
    assert_eq!(
        (found.approval_id.as_str(), found.key, found.message_id),
        (id, chat, Some(77))
    );
    let answered = state.approval_answered(id, NOON).unwrap().unwrap();
    assert!(answered.answered);
    assert_eq!(answered.message_id, Some(77));
    assert_eq!(state.approval_answered(id, NOON).unwrap(), None);
}

#[test]
fn an_approval_id_too_long_for_a_button_gets_a_short_token() {
    let dir = tempfile::tempdir().unwrap();
    let state = open(&dir);
    let id = format!("approval:{}", "x".repeat(70));
    let token = state
        .announce_approval(&id, key(9, None), NOON)
        .unwrap()
        .unwrap();
    assert_ne!(token, id);
    assert!(callback_data(&token, Decision::Allow).is_some());
    assert_eq!(
        state
            .approval_by_token(&token)
            .unwrap()
            .unwrap()
            .approval_id,
        id
    );
    assert_eq!(state.approval_by_token(&id).unwrap(), None);
}
