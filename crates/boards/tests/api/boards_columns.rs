//! Boards, their columns and groups: definitions checked, ids kept or generated, and structural
//! changes that leave items consistent.

use ::boards::*;
use serde_json::json;

use crate::common::{ACCOUNT, ACTOR, column, db, fixture, full_json, is_invalid, item, item_count};

#[test]
fn column_definitions_are_validated() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let bad = [
        column("x", "rating", None),
        column("x", "number", Some(json!({"unitPosition": "above"}))),
        column("x", "status", Some(json!({"labels": "Done"}))),
        column("bad id!", "text", None),
        column("status", "text", None),
    ];
    for (i, c) in bad.iter().enumerate() {
        let r = add_column(&db, ACCOUNT, &f.board.id, c);
        if i == 4 {
            assert!(matches!(r, Err(BoardsError::Conflict { .. })), "{r:?}");
        } else {
            is_invalid(r);
        }
    }
    let dup = NewBoard {
        workspace_id: f.workspace.id.clone(),
        name: "Dup".into(),
        columns: vec![column("a", "text", None), column("a", "number", None)],
        ..Default::default()
    };
    is_invalid(create_board(&db, ACCOUNT, &dup));
}

#[test]
fn missing_ids_are_generated_unique_and_given_ones_kept() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let board = create_board(
        &db,
        ACCOUNT,
        &NewBoard {
            workspace_id: f.workspace.id.clone(),
            name: "Ids".into(),
            columns: vec![
                NewColumn {
                    id: None,
                    title: "Owner".into(),
                    kind: "people".into(),
                    settings: None,
                },
                column("owner", "text", None),
                NewColumn {
                    id: None,
                    title: "Owner".into(),
                    kind: "text".into(),
                    settings: None,
                },
            ],
            ..Default::default()
        },
    )
    .unwrap();
    let ids: Vec<&str> = board.columns.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids[1], "owner");
    assert!(ids[0] != ids[2] && ids[0] != "owner" && ids[2] != "owner");
    assert_eq!(board.groups.len(), 1, "a board without groups gets one");
}

#[test]
fn structural_changes_keep_items_consistent() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let b = f.board.id.as_str();
    let done = f.board.groups[1].id.clone();
    let a = create_item(
        &db,
        ACCOUNT,
        ACTOR,
        b,
        &item(
            "a",
            json!({"text": "x", "status": "Done", "people": [f.member.id]}),
        ),
    )
    .unwrap();
    let c = create_item(&db, ACCOUNT, ACTOR, b, &item("c", json!({}))).unwrap();

    // A label in use cannot be dropped; one not in use can.
    is_invalid(set_column_settings(
        &db,
        ACCOUNT,
        b,
        "status",
        &json!({"labels": [{"name": "Working on it"}]}),
    ));
    // A rename sent with refused settings is refused whole: the title stays.
    let status_title = || {
        get_board(&db, ACCOUNT, b)
            .unwrap()
            .columns
            .into_iter()
            .find(|c| c.id == "status")
            .unwrap()
            .title
    };
    let before = status_title();
    is_invalid(change_column(
        &db,
        ACCOUNT,
        b,
        "status",
        Some("Renamed"),
        Some(&json!({"labels": [{"name": "Working on it"}]})),
    ));
    assert_eq!(status_title(), before);
    assert_ne!(before, "Renamed");
    is_invalid(change_column(&db, ACCOUNT, b, "status", None, None));
    set_column_settings(
        &db,
        ACCOUNT,
        b,
        "status",
        &json!({"labels": [{"name": "Done", "done": true}, {"name": "Blocked"}]}),
    )
    .unwrap();

    remove_column(&db, ACCOUNT, b, "text").unwrap();
    assert!(
        !get_item(&db, ACCOUNT, &a.id)
            .unwrap()
            .values
            .contains_key("text")
    );
    assert!(matches!(
        remove_column(&db, ACCOUNT, b, "text"),
        Err(BoardsError::NotFound { what: "column" })
    ));

    delete_member(&db, ACCOUNT, &f.member.id).unwrap();
    assert!(
        !get_item(&db, ACCOUNT, &a.id)
            .unwrap()
            .values
            .contains_key("people")
    );

    move_item(&db, ACCOUNT, "ui:a", &c.id, "todo", Some(0)).unwrap();
    let order: Vec<String> = full_json(&db, ACCOUNT, b)["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(order, [c.id.clone(), a.id.clone()]);

    move_item(&db, ACCOUNT, "ui:a", &a.id, &done, None).unwrap();
    remove_group(&db, ACCOUNT, b, &done, Some("todo")).unwrap();
    assert_eq!(get_item(&db, ACCOUNT, &a.id).unwrap().group_id, "todo");
    remove_group(&db, ACCOUNT, b, "todo", None).unwrap();
    assert_eq!(item_count(&db, b), 0, "removing a group deletes its items");
    assert!(matches!(
        get_item(&db, ACCOUNT, &a.id),
        Err(BoardsError::NotFound { what: "item" })
    ));
}
