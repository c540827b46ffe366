//! The full-board read: the contract's shape, an ETag that moves with every change and never with a
//! read, and the streamed body.

use ::boards::*;
use serde_json::{Value, json};
use store::Db;

use crate::common::{ACCOUNT, ACTOR, column, db, fixture, item, values};

#[test]
fn the_full_read_has_the_contract_shape() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let done_group = f.board.groups[1].id.clone();
    let second = create_item(
        &db,
        ACCOUNT,
        ACTOR,
        &f.board.id,
        &NewItem {
            group_id: Some(done_group.clone()),
            name: "Ship \"v2\"".into(),
            values: values(json!({"status": "Done", "number": 3})),
        },
    )
    .unwrap();
    let first = create_item(
        &db,
        ACCOUNT,
        ACTOR,
        &f.board.id,
        &item("Plan", json!({"people": [f.member.id]})),
    )
    .unwrap();
    let full = full_board(&db, ACCOUNT, &f.board.id).unwrap();
    assert!(full.etag.starts_with('"') && full.etag.ends_with('"'));
    assert_eq!(full.etag, board_etag(&db, ACCOUNT, &f.board.id).unwrap());
    let body: Value = serde_json::from_slice(&full.body).unwrap();
    // The streamed body is exactly what the declared wire type describes.
    let typed: ::boards::FullBoardBody = serde_json::from_slice(&full.body).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), body);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&body), ["board", "items"]);
    assert_eq!(
        keys(&body["board"]),
        ["id", "workspaceId", "name", "columns", "groups"]
    );
    assert_eq!(body["board"]["id"], json!(f.board.id));
    assert_eq!(body["board"]["workspaceId"], json!(f.workspace.id));
    assert_eq!(body["board"]["name"], "Roadmap");
    let columns: Vec<Column> = serde_json::from_value(body["board"]["columns"].clone()).unwrap();
    assert_eq!(columns, f.board.columns);
    let groups: Vec<Group> = serde_json::from_value(body["board"]["groups"].clone()).unwrap();
    assert_eq!(groups, f.board.groups);
    let items = body["items"].as_array().unwrap();
    assert_eq!(
        keys(&items[0]),
        ["id", "groupId", "name", "values", "createdAt", "updatedAt"]
    );
    // Items come in group order: the first group's item first.
    assert_eq!(items[0]["id"], json!(first.id));
    assert_eq!(items[0]["groupId"], "todo");
    assert_eq!(items[0]["values"], json!({"people": [f.member.id]}));
    assert_eq!(items[1]["id"], json!(second.id));
    assert_eq!(items[1]["name"], "Ship \"v2\"");
    assert_eq!(items[1]["values"], json!({"status": "Done", "number": 3}));
    assert_eq!(items[1]["createdAt"], json!(second.created_at));
    assert_eq!(items[1]["updatedAt"], json!(second.updated_at));
}

#[test]
fn the_etag_changes_on_every_change_and_not_on_reads() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let b = f.board.id.as_str();
    let it = create_item(&db, ACCOUNT, ACTOR, b, &item("one", json!({}))).unwrap();
    let first = board_etag(&db, ACCOUNT, b).unwrap();
    let mut seen = vec![first.clone()];
    let mut check = |what: &str, db: &Db| {
        let etag = board_etag(db, ACCOUNT, b).unwrap();
        assert!(!seen.contains(&etag), "{what} did not change the etag");
        assert_eq!(full_board(db, ACCOUNT, b).unwrap().etag, etag);
        seen.push(etag);
    };
    // Reads first: none of them may move the etag.
    full_board(&db, ACCOUNT, b).unwrap();
    get_board(&db, ACCOUNT, b).unwrap();
    get_item(&db, ACCOUNT, &it.id).unwrap();
    list_boards(&db, ACCOUNT, &f.workspace.id).unwrap();
    assert_eq!(board_etag(&db, ACCOUNT, b).unwrap(), first);

    rename_board(&db, ACCOUNT, b, "Renamed").unwrap();
    check("rename_board", &db);
    add_column(&db, ACCOUNT, b, &column("extra", "text", None)).unwrap();
    check("add_column", &db);
    rename_column(&db, ACCOUNT, b, "extra", "Extra!").unwrap();
    check("rename_column", &db);
    set_column_settings(&db, ACCOUNT, b, "number", &json!({"unit": "€"})).unwrap();
    check("set_column_settings", &db);
    let mut order: Vec<String> = get_board(&db, ACCOUNT, b)
        .unwrap()
        .columns
        .iter()
        .map(|c| c.id.clone())
        .collect();
    order.reverse();
    reorder_columns(&db, ACCOUNT, b, &order).unwrap();
    check("reorder_columns", &db);
    remove_column(&db, ACCOUNT, b, "extra").unwrap();
    check("remove_column", &db);
    let g = add_group(
        &db,
        ACCOUNT,
        b,
        &NewGroup {
            id: Some("later".into()),
            title: "Later".into(),
        },
    )
    .unwrap();
    check("add_group", &db);
    rename_group(&db, ACCOUNT, b, &g.id, "Much later").unwrap();
    check("rename_group", &db);
    let mut groups: Vec<String> = get_board(&db, ACCOUNT, b)
        .unwrap()
        .groups
        .iter()
        .map(|g| g.id.clone())
        .collect();
    groups.reverse();
    reorder_groups(&db, ACCOUNT, b, &groups).unwrap();
    check("reorder_groups", &db);
    let two = create_item(&db, ACCOUNT, ACTOR, b, &item("two", json!({}))).unwrap();
    check("create_item", &db);
    create_items(&db, ACCOUNT, ACTOR, b, &[item("three", json!({}))]).unwrap();
    check("create_items", &db);
    let patch = ItemPatch {
        name: Some("uno".into()),
        ..Default::default()
    };
    update_item(&db, ACCOUNT, ACTOR, &it.id, &patch).unwrap();
    check("update_item", &db);
    move_item(&db, ACCOUNT, "ui:a", &it.id, "later", Some(0)).unwrap();
    check("move_item", &db);
    delete_item(&db, ACCOUNT, &two.id).unwrap();
    check("delete_item", &db);
    remove_group(&db, ACCOUNT, b, "later", Some("todo")).unwrap();
    check("remove_group", &db);
    update_item(
        &db,
        ACCOUNT,
        ACTOR,
        &it.id,
        &ItemPatch {
            values: Some(values(json!({"people": [f.member.id]}))),
            ..Default::default()
        },
    )
    .unwrap();
    check("assigning a member", &db);
    delete_member(&db, ACCOUNT, &f.member.id).unwrap();
    check("delete_member of an assigned member", &db);
}

#[test]
fn the_full_read_streams_in_chunks_and_stops_when_asked() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let many: Vec<NewItem> = (0..3000)
        .map(|n| item(&format!("item {n} with a name long enough"), json!({})))
        .collect();
    create_items(&db, ACCOUNT, ACTOR, &f.board.id, &many).unwrap();
    let whole = full_board(&db, ACCOUNT, &f.board.id).unwrap();
    let mut chunks = Vec::new();
    let mut etag = String::new();
    stream_full_board(
        &db,
        ACCOUNT,
        &f.board.id,
        |e| etag = e,
        |c| {
            chunks.push(c);
            true
        },
    )
    .unwrap();
    assert!(chunks.len() > 2, "a big board comes in several chunks");
    assert_eq!(chunks.concat(), whole.body);
    assert_eq!(etag, whole.etag);

    let mut received = 0;
    stream_full_board(
        &db,
        ACCOUNT,
        &f.board.id,
        |_| {},
        |_| {
            received += 1;
            false
        },
    )
    .unwrap();
    assert_eq!(received, 1, "no chunk after the receiver said stop");
    let mut started = false;
    let missing = stream_full_board(&db, "other", &f.board.id, |_| started = true, |_| true);
    assert!(matches!(missing, Err(BoardsError::NotFound { .. })));
    assert!(
        !started,
        "nothing is started for a board the caller cannot see"
    );
}
