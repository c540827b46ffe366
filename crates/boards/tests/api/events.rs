//! The item events recorded with each change: assignments, status and due dates.

use ::boards::*;
use serde_json::{Value, json};

use crate::common::{ACCOUNT, OTHER, db, fixture, is_invalid, item, values};

#[test]
fn item_events_are_recorded_once_per_change() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let other = create_member(
        &db,
        ACCOUNT,
        &NewMember {
            name: "Bea".into(),
            email: None,
        },
    )
    .unwrap();
    let it = create_item(
        &db,
        ACCOUNT,
        "alice",
        &f.board.id,
        &item(
            "task",
            json!({"people": [f.member.id], "status": "Working on it", "date": "2025-05-01"}),
        ),
    )
    .unwrap();
    let kinds = |events: &[ItemEvent]| events.iter().map(|e| e.kind).collect::<Vec<_>>();
    let events = events_since(&db, ACCOUNT, 0, 100).unwrap();
    assert_eq!(kinds(&events), [EventKind::Assigned, EventKind::DueDateSet]);
    assert_eq!(events[0].member_id.as_deref(), Some(f.member.id.as_str()));
    assert_eq!(events[0].actor, "alice");
    assert_eq!(events[0].item_id, it.id);
    assert_eq!(events[0].board_id, f.board.id);
    assert_eq!(events[1].before, Value::Null);
    assert_eq!(events[1].after, json!("2025-05-01"));
    let last = events[1].seq;

    let patch = |v: Value| ItemPatch {
        values: Some(values(v)),
        ..Default::default()
    };
    update_item(&db, ACCOUNT, "bob", &it.id, &patch(json!({"people": [f.member.id, other.id], "status": "Done", "date": "2025-06-01", "text": "x"}))).unwrap();
    let events = events_since(&db, ACCOUNT, last, 100).unwrap();
    assert_eq!(
        kinds(&events),
        [
            EventKind::Assigned,
            EventKind::StatusChanged,
            EventKind::DueDateChanged
        ]
    );
    assert_eq!(events[0].member_id.as_deref(), Some(other.id.as_str()));
    assert_eq!(events[0].before, json!([f.member.id]));
    assert_eq!(events[1].before, json!("Working on it"));
    assert_eq!(events[1].after, json!("Done"));
    assert_eq!(events[2].before, json!("2025-05-01"));
    assert!(events.iter().all(|e| e.actor == "bob"));
    let last = events[2].seq;

    // Same values again, a removal, and a cleared date: nothing to tell.
    update_item(
        &db,
        ACCOUNT,
        "bob",
        &it.id,
        &patch(json!({"status": "Done", "people": [other.id], "date": null})),
    )
    .unwrap();
    assert!(events_since(&db, ACCOUNT, last, 100).unwrap().is_empty());
    // A refused change records nothing either.
    is_invalid(update_item(
        &db,
        ACCOUNT,
        "bob",
        &it.id,
        &patch(json!({"status": "Working on it", "number": "x"})),
    ));
    assert!(events_since(&db, ACCOUNT, last, 100).unwrap().is_empty());
    assert!(events_since(&db, OTHER, 0, 100).unwrap().is_empty());
    let wire = serde_json::to_value(&events_since(&db, ACCOUNT, 0, 1).unwrap()[0]).unwrap();
    assert_eq!(wire["kind"], "assigned");
    assert!(wire.get("boardId").is_some() && wire.get("memberId").is_some());
}
