//! Items: every value checked against its column's type, and batches that store all or nothing.

use ::boards::*;
use serde_json::{Value, json};

use crate::common::{ACCOUNT, ACTOR, db, fixture, full_json, is_invalid, item, item_count};

#[test]
fn values_are_validated_per_column_type() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let m = f.member.id.as_str();
    let accepted = [
        ("text", json!("hello")),
        ("text", json!("")),
        ("number", json!(12.5)),
        ("number", json!(-3)),
        ("status", json!("Done")),
        ("people", json!([m])),
        ("people", json!([])),
        ("date", json!("2024-02-29")),
        (
            "timeline",
            json!({"from": "2025-01-01", "to": "2025-01-01"}),
        ),
        (
            "timeline",
            json!({"from": "2025-01-01", "to": "2025-03-01"}),
        ),
        ("checkbox", json!(true)),
        ("dropdown", json!(["a", "b"])),
        ("dropdown", json!([])),
        ("text", Value::Null),
        ("people", Value::Null),
    ];
    for (col, value) in accepted {
        let created = create_item(
            &db,
            ACCOUNT,
            ACTOR,
            &f.board.id,
            &item("ok", json!({ col: value.clone() })),
        )
        .unwrap_or_else(|e| panic!("{col} = {value} refused: {e}"));
        assert_eq!(
            created.values.get(col),
            (!value.is_null()).then_some(&value)
        );
    }
    let stored = item_count(&db, &f.board.id);
    let refused = [
        ("text", json!(5)),
        ("text", json!(["a"])),
        ("number", json!("5")),
        ("number", json!(true)),
        ("status", json!("Stuck")),
        ("status", json!("done")),
        ("status", json!(1)),
        ("people", json!("not-an-array")),
        ("people", json!(["unknown-member"])),
        ("people", json!([m, 3])),
        ("date", json!("2025-02-29")),
        ("date", json!("2025-1-5")),
        ("date", json!("05/01/2025")),
        ("date", json!(20250101)),
        (
            "timeline",
            json!({"from": "2025-03-01", "to": "2025-01-01"}),
        ),
        ("timeline", json!({"from": "2025-03-01"})),
        (
            "timeline",
            json!({"from": "2025-01-01", "to": "2025-02-30"}),
        ),
        ("timeline", json!(["2025-01-01", "2025-01-02"])),
        (
            "timeline",
            json!({"from": "2025-01-01", "to": "2025-01-02", "x": 1}),
        ),
        ("checkbox", json!("true")),
        ("checkbox", json!(1)),
        ("dropdown", json!("a")),
        ("dropdown", json!([1])),
        ("no_such_column", json!("x")),
    ];
    for (col, value) in refused {
        let message = is_invalid(create_item(
            &db,
            ACCOUNT,
            ACTOR,
            &f.board.id,
            &item("bad", json!({ col: value.clone() })),
        ));
        assert!(message.contains(col), "{col} = {value}: {message}");
    }
    assert_eq!(
        item_count(&db, &f.board.id),
        stored,
        "a refused write stored something"
    );
    is_invalid(create_item(
        &db,
        ACCOUNT,
        ACTOR,
        &f.board.id,
        &item("  ", json!({})),
    ));
}

#[test]
fn a_batch_is_all_or_nothing() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let etag = board_etag(&db, ACCOUNT, &f.board.id).unwrap();
    let mut batch: Vec<NewItem> = (0..5)
        .map(|i| item(&format!("item {i}"), json!({"number": i})))
        .collect();
    batch[3].values.insert("status".into(), json!("Nope"));
    let message = is_invalid(create_items(&db, ACCOUNT, ACTOR, &f.board.id, &batch));
    assert!(message.contains("items[3]"), "{message}");
    assert_eq!(item_count(&db, &f.board.id), 0);
    assert_eq!(board_etag(&db, ACCOUNT, &f.board.id).unwrap(), etag);

    batch[3].values.insert("status".into(), json!("Done"));
    batch[4].group_id = Some("todo".into());
    let ids = create_items(&db, ACCOUNT, ACTOR, &f.board.id, &batch).unwrap();
    assert_eq!(ids.len(), 5);
    let body = full_json(&db, ACCOUNT, &f.board.id);
    let names: Vec<&str> = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["item 0", "item 1", "item 2", "item 3", "item 4"]);

    let too_many: Vec<NewItem> = (0..MAX_BATCH_ITEMS + 1)
        .map(|i| item(&format!("{i}"), json!({})))
        .collect();
    is_invalid(create_items(&db, ACCOUNT, ACTOR, &f.board.id, &too_many));
    assert_eq!(item_count(&db, &f.board.id), 5);
}
