//! Behaviour of the boards module through its public API, on a temporary database.

use ::boards::*;
use serde_json::{Map, Value, json};
use store::Db;

const ACCOUNT: &str = "acct-a";
const OTHER: &str = "acct-b";
const ACTOR: &str = "tester";

fn db() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
    migrate(&db).unwrap();
    (dir, db)
}

fn values(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn column(id: &str, kind: &str, settings: Option<Value>) -> NewColumn {
    NewColumn {
        id: Some(id.into()),
        title: id.to_uppercase(),
        kind: kind.into(),
        settings,
    }
}

/// A workspace, a member and a board with one column of each type.
struct Fixture {
    workspace: Workspace,
    member: Member,
    board: Board,
}

fn fixture(db: &Db, account: &str) -> Fixture {
    let workspace = create_workspace(db, account, "Main").unwrap();
    let member = create_member(
        db,
        account,
        &NewMember {
            name: "Ada".into(),
            email: Some("ada@example.com".into()),
        },
    )
    .unwrap();
    let board = create_board(
        db,
        account,
        &NewBoard {
            workspace_id: workspace.id.clone(),
            name: "Roadmap".into(),
            columns: vec![
                column("text", "text", None),
                column(
                    "number",
                    "number",
                    Some(json!({"unit": "$", "unitPosition": "left"})),
                ),
                column(
                    "status",
                    "status",
                    Some(json!({"labels": [{"name": "Working on it"}, {"name": "Done", "done": true}]})),
                ),
                column("people", "people", None),
                column("date", "date", None),
                column("timeline", "timeline", None),
                column("checkbox", "checkbox", None),
                column("dropdown", "dropdown", None),
            ],
            groups: vec![
                NewGroup {
                    id: Some("todo".into()),
                    title: "To do".into(),
                },
                NewGroup {
                    id: None,
                    title: "Done things".into(),
                },
            ],
            preset: None,
        },
    )
    .unwrap();
    Fixture {
        workspace,
        member,
        board,
    }
}

fn item(name: &str, v: Value) -> NewItem {
    NewItem {
        group_id: None,
        name: name.into(),
        values: values(v),
    }
}

fn full_json(db: &Db, account: &str, board: &str) -> Value {
    serde_json::from_slice(&full_board(db, account, board).unwrap().body).unwrap()
}

fn item_count(db: &Db, board: &str) -> usize {
    full_json(db, ACCOUNT, board)["items"]
        .as_array()
        .unwrap()
        .len()
}

fn is_invalid(r: Result<impl std::fmt::Debug, BoardsError>) -> String {
    match r {
        Err(BoardsError::Invalid { message }) => message,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

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
    move_item(&db, ACCOUNT, &it.id, "later", Some(0)).unwrap();
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

    move_item(&db, ACCOUNT, &c.id, "todo", Some(0)).unwrap();
    let order: Vec<String> = full_json(&db, ACCOUNT, b)["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(order, [c.id.clone(), a.id.clone()]);

    move_item(&db, ACCOUNT, &a.id, &done, None).unwrap();
    remove_group(&db, ACCOUNT, b, &done, Some("todo")).unwrap();
    assert_eq!(get_item(&db, ACCOUNT, &a.id).unwrap().group_id, "todo");
    remove_group(&db, ACCOUNT, b, "todo", None).unwrap();
    assert_eq!(item_count(&db, b), 0, "removing a group deletes its items");
    assert!(matches!(
        get_item(&db, ACCOUNT, &a.id),
        Err(BoardsError::NotFound { what: "item" })
    ));
}

/// Walks every function that takes an id with another account's ids, and
/// checks each answers exactly like a random id would.
#[test]
fn another_accounts_ids_answer_like_missing_ones() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let it = create_item(&db, ACCOUNT, ACTOR, &f.board.id, &item("mine", json!({}))).unwrap();
    let _theirs = fixture(&db, OTHER);
    let random = "0000000000000000000000000000dead";

    type Probe<'a> = Box<dyn Fn(&Db, &str, &str) -> Result<(), BoardsError> + 'a>;
    let probes: Vec<(&str, &str, Probe)> = vec![
        (
            "rename_workspace",
            &f.workspace.id,
            Box::new(|db, a, id| rename_workspace(db, a, id, "x").map(drop)),
        ),
        (
            "delete_workspace",
            &f.workspace.id,
            Box::new(delete_workspace),
        ),
        (
            "list_boards",
            &f.workspace.id,
            Box::new(|db, a, id| list_boards(db, a, id).map(drop)),
        ),
        (
            "create_board",
            &f.workspace.id,
            Box::new(|db, a, id| {
                create_board(
                    db,
                    a,
                    &NewBoard {
                        workspace_id: id.into(),
                        name: "x".into(),
                        ..Default::default()
                    },
                )
                .map(drop)
            }),
        ),
        (
            "import_board_json",
            &f.workspace.id,
            Box::new(|db, a, id| {
                import_board_json(db, a, id, br#"{"board": {"name": "x"}, "items": []}"#).map(drop)
            }),
        ),
        (
            "import_csv",
            &f.workspace.id,
            Box::new(|db, a, id| {
                import_csv(db, a, id, "x", "Name\none\n".as_bytes(), &mut |_| ()).map(drop)
            }),
        ),
        (
            "update_member",
            &f.member.id,
            Box::new(|db, a, id| {
                update_member(
                    db,
                    a,
                    id,
                    &MemberPatch {
                        name: Some("x".into()),
                        email: None,
                    },
                )
                .map(drop)
            }),
        ),
        ("delete_member", &f.member.id, Box::new(delete_member)),
        (
            "get_board",
            &f.board.id,
            Box::new(|db, a, id| get_board(db, a, id).map(drop)),
        ),
        (
            "rename_board",
            &f.board.id,
            Box::new(|db, a, id| rename_board(db, a, id, "x").map(drop)),
        ),
        ("delete_board", &f.board.id, Box::new(delete_board)),
        (
            "full_board",
            &f.board.id,
            Box::new(|db, a, id| full_board(db, a, id).map(drop)),
        ),
        (
            "board_etag",
            &f.board.id,
            Box::new(|db, a, id| board_etag(db, a, id).map(drop)),
        ),
        (
            "add_column",
            &f.board.id,
            Box::new(|db, a, id| add_column(db, a, id, &column("n", "text", None)).map(drop)),
        ),
        (
            "rename_column",
            &f.board.id,
            Box::new(|db, a, id| rename_column(db, a, id, "text", "x").map(drop)),
        ),
        (
            "set_column_settings",
            &f.board.id,
            Box::new(|db, a, id| set_column_settings(db, a, id, "number", &json!({})).map(drop)),
        ),
        (
            "reorder_columns",
            &f.board.id,
            Box::new(|db, a, id| reorder_columns(db, a, id, &[]).map(drop)),
        ),
        (
            "remove_column",
            &f.board.id,
            Box::new(|db, a, id| remove_column(db, a, id, "text")),
        ),
        (
            "add_group",
            &f.board.id,
            Box::new(|db, a, id| {
                add_group(
                    db,
                    a,
                    id,
                    &NewGroup {
                        id: None,
                        title: "x".into(),
                    },
                )
                .map(drop)
            }),
        ),
        (
            "rename_group",
            &f.board.id,
            Box::new(|db, a, id| rename_group(db, a, id, "todo", "x").map(drop)),
        ),
        (
            "reorder_groups",
            &f.board.id,
            Box::new(|db, a, id| reorder_groups(db, a, id, &[]).map(drop)),
        ),
        (
            "remove_group",
            &f.board.id,
            Box::new(|db, a, id| remove_group(db, a, id, "todo", None)),
        ),
        (
            "create_item",
            &f.board.id,
            Box::new(|db, a, id| create_item(db, a, ACTOR, id, &item("x", json!({}))).map(drop)),
        ),
        (
            "create_items",
            &f.board.id,
            Box::new(|db, a, id| create_items(db, a, ACTOR, id, &[item("x", json!({}))]).map(drop)),
        ),
        (
            "get_item",
            &it.id,
            Box::new(|db, a, id| get_item(db, a, id).map(drop)),
        ),
        (
            "update_item",
            &it.id,
            Box::new(|db, a, id| update_item(db, a, ACTOR, id, &ItemPatch::default()).map(drop)),
        ),
        (
            "move_item",
            &it.id,
            Box::new(|db, a, id| move_item(db, a, id, "todo", None).map(drop)),
        ),
        ("delete_item", &it.id, Box::new(delete_item)),
    ];
    let before = full_board(&db, ACCOUNT, &f.board.id).unwrap();
    for (name, id, probe) in &probes {
        let foreign = probe(&db, OTHER, id);
        let missing = probe(&db, OTHER, random);
        let (
            Err(foreign @ BoardsError::NotFound { .. }),
            Err(missing @ BoardsError::NotFound { .. }),
        ) = (foreign, missing)
        else {
            panic!("{name}: another account's id must answer NotFound");
        };
        assert_eq!(foreign.to_string(), missing.to_string(), "{name}");
        assert_eq!(format!("{foreign:?}"), format!("{missing:?}"), "{name}");
    }
    assert_eq!(full_board(&db, ACCOUNT, &f.board.id).unwrap(), before);
    assert_eq!(
        list_workspaces(&db, ACCOUNT).unwrap(),
        vec![f.workspace.clone()]
    );
    assert_eq!(list_members(&db, ACCOUNT).unwrap(), vec![f.member.clone()]);

    // Another account's member in a people value reads like an unknown one.
    let theirs = list_boards(&db, OTHER, &list_workspaces(&db, OTHER).unwrap()[0].id).unwrap();
    let put = |member: &str| {
        is_invalid(create_item(
            &db,
            OTHER,
            ACTOR,
            &theirs[0].id,
            &item("x", json!({"people": [member]})),
        ))
        .replace(member, "<id>")
    };
    assert_eq!(put(&f.member.id), put(random));
}

#[test]
fn workspaces_and_members_are_managed() {
    let (_dir, db) = db();
    let w = create_workspace(&db, ACCOUNT, "  Team  ").unwrap();
    assert_eq!(w.name, "Team");
    is_invalid(create_workspace(&db, ACCOUNT, " "));
    assert_eq!(
        rename_workspace(&db, ACCOUNT, &w.id, "Crew").unwrap().name,
        "Crew"
    );
    let m = create_member(
        &db,
        ACCOUNT,
        &NewMember {
            name: "Bo".into(),
            email: None,
        },
    )
    .unwrap();
    is_invalid(create_member(
        &db,
        ACCOUNT,
        &NewMember {
            name: "Cy".into(),
            email: Some("nope".into()),
        },
    ));
    let patched: MemberPatch = serde_json::from_value(json!({"email": "bo@example.com"})).unwrap();
    assert_eq!(
        update_member(&db, ACCOUNT, &m.id, &patched)
            .unwrap()
            .email
            .as_deref(),
        Some("bo@example.com")
    );
    let cleared: MemberPatch = serde_json::from_value(json!({"email": null})).unwrap();
    assert_eq!(
        update_member(&db, ACCOUNT, &m.id, &cleared).unwrap().email,
        None
    );
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        json!({"id": m.id, "name": "Bo"})
    );
    let b = create_board(
        &db,
        ACCOUNT,
        &NewBoard {
            workspace_id: w.id.clone(),
            name: "B".into(),
            ..Default::default()
        },
    )
    .unwrap();
    delete_workspace(&db, ACCOUNT, &w.id).unwrap();
    assert!(list_workspaces(&db, ACCOUNT).unwrap().is_empty());
    assert!(matches!(
        get_board(&db, ACCOUNT, &b.id),
        Err(BoardsError::NotFound { what: "board" })
    ));
}

#[test]
fn every_preset_builds_and_sprint_presets_share_column_ids() {
    let (_dir, db) = db();
    let w = create_workspace(&db, ACCOUNT, "Presets").unwrap();
    let sprint_style = [
        "first-agent-board",
        "jira",
        "linear",
        "clickup",
        "engineering-linear",
        "engineering-jira",
    ];
    for name in presets::PRESETS {
        let board = create_board(
            &db,
            ACCOUNT,
            &NewBoard {
                workspace_id: w.id.clone(),
                name: name.into(),
                preset: Some(name.into()),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !board.views.is_empty() && !board.groups.is_empty(),
            "{name}"
        );
        let status = board
            .columns
            .iter()
            .find(|c| c.id == "status")
            .unwrap_or_else(|| panic!("{name} has no status"));
        let labels = status.settings["labels"].as_array().unwrap();
        assert!(
            labels.iter().any(|l| l["done"] == true),
            "{name} has no done label"
        );
        if sprint_style.contains(&name) {
            for (id, kind) in [
                ("sprint", ColumnType::Text),
                ("effort", ColumnType::Number),
                ("status", ColumnType::Status),
                ("done_on", ColumnType::Date),
                ("owner", ColumnType::People),
                ("due", ColumnType::Date),
            ] {
                let c = board
                    .columns
                    .iter()
                    .find(|c| c.id == id)
                    .unwrap_or_else(|| panic!("{name} lacks {id}"));
                assert_eq!(c.kind, kind, "{name}.{id}");
            }
        }
    }
    let jira = presets::preset("jira").unwrap();
    let status = jira
        .columns
        .iter()
        .find(|c| c.id.as_deref() == Some("status"))
        .unwrap();
    let names: Vec<&str> = status.settings.as_ref().unwrap()["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["To Do", "In Progress", "In Review", "Done"]);
    let titles: Vec<&str> = jira.columns.iter().map(|c| c.title.as_str()).collect();
    for t in ["Story points", "Sprint", "Assignee", "Due date"] {
        assert!(titles.contains(&t), "jira lacks {t}");
    }
    is_invalid(create_board(
        &db,
        ACCOUNT,
        &NewBoard {
            workspace_id: w.id.clone(),
            name: "x".into(),
            preset: Some("monday".into()),
            ..Default::default()
        },
    ));
}

#[test]
fn demo_seeding_fills_an_empty_account_once() {
    let (_dir, db) = db();
    assert!(seed_demo(&db, ACCOUNT).unwrap());
    let workspaces = list_workspaces(&db, ACCOUNT).unwrap();
    assert_eq!(workspaces.len(), 1);
    let boards = list_boards(&db, ACCOUNT, &workspaces[0].id).unwrap();
    assert!(boards.len() >= 6);
    let presets: std::collections::HashSet<Vec<String>> = boards
        .iter()
        .map(|b| b.views.iter().map(|v| v.name.clone()).collect())
        .collect();
    assert_eq!(
        presets.len(),
        boards.len(),
        "boards come from different presets"
    );
    let mut sprints = std::collections::HashSet::new();
    let mut dollars = false;
    for b in &boards {
        let body = full_json(&db, ACCOUNT, &b.id);
        let items = body["items"].as_array().unwrap();
        assert!(
            (40..=100).contains(&items.len()),
            "{}: {} items",
            b.name,
            items.len()
        );
        for i in items {
            if let (Some(s), Some(_)) = (
                i["values"]["sprint"].as_str(),
                i["values"]["effort"].as_f64(),
            ) {
                sprints.insert(s.to_owned());
            }
        }
        dollars |= b.columns.iter().any(|c| c.settings["unit"] == "$");
        assert!(
            items.iter().any(|i| i["values"]["done_on"].is_string())
                || !b.columns.iter().any(|c| c.id == "done_on")
        );
    }
    assert!(sprints.len() >= 3 && dollars);
    assert!(list_members(&db, ACCOUNT).unwrap().len() >= 5);
    let before: Vec<_> = boards
        .iter()
        .map(|b| board_etag(&db, ACCOUNT, &b.id).unwrap())
        .collect();
    assert!(!seed_demo(&db, ACCOUNT).unwrap());
    assert_eq!(list_workspaces(&db, ACCOUNT).unwrap().len(), 1);
    let after: Vec<_> = boards
        .iter()
        .map(|b| board_etag(&db, ACCOUNT, &b.id).unwrap())
        .collect();
    assert_eq!(before, after);

    // An account with any board of its own is never seeded.
    let f = fixture(&db, OTHER);
    assert!(!seed_demo(&db, OTHER).unwrap());
    assert_eq!(list_workspaces(&db, OTHER).unwrap(), vec![f.workspace]);
}

#[test]
fn csv_import_infers_types_and_refuses_bad_rows_by_line() {
    let (_dir, db) = db();
    let w = create_workspace(&db, ACCOUNT, "Imports").unwrap();
    let csv = "Title,Status,Estimate,Due,Billable,Notes,Group\n\
               Write spec,Done,3,2025-01-10,yes,first,Q1\n\
               Build it,Working,\"$1,200\",2025-02-01,no,,Q1\n\
               Test it,Working,5,,yes,\"with, comma\",Q2\n\
               Ship it,Done,8,2025-03-01,no,last,Q2\n";
    let mut seen = Vec::new();
    let report = import_csv(&db, ACCOUNT, &w.id, "From CSV", csv.as_bytes(), &mut |n| {
        seen.push(n)
    })
    .unwrap();
    assert_eq!(report.rows, 4);
    assert_eq!(report.name_column, "Title");
    assert_eq!(report.group_column.as_deref(), Some("Group"));
    let kinds: Vec<(&str, ColumnType)> = report
        .columns
        .iter()
        .map(|c| (c.title.as_str(), c.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("Status", ColumnType::Status),
            ("Estimate", ColumnType::Number),
            ("Due", ColumnType::Date),
            ("Billable", ColumnType::Checkbox),
            ("Notes", ColumnType::Text)
        ]
    );
    assert_eq!(seen.last(), Some(&4));
    let body = full_json(&db, ACCOUNT, &report.board.id);
    let groups: Vec<&str> = body["board"]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["title"].as_str().unwrap())
        .collect();
    assert_eq!(groups, ["Q1", "Q2"]);
    let second = &body["items"][1];
    assert_eq!(second["name"], "Build it");
    assert_eq!(
        second["values"],
        json!({"status": "Working", "estimate": 1200, "due": "2025-02-01", "billable": false})
    );
    let estimate = report
        .board
        .columns
        .iter()
        .find(|c| c.id == "estimate")
        .unwrap();
    assert_eq!(estimate.settings["unit"], "$");
    let status = report
        .board
        .columns
        .iter()
        .find(|c| c.id == "status")
        .unwrap();
    assert_eq!(
        status.settings["labels"][0],
        json!({"name": "Done", "done": true})
    );

    let bad = "Name,Due,Points\n\
               ok,2025-01-01,1\n\
               short,2025-01-02\n\
               ,2025-01-03,2\n\
               bad date,2025-02-30,3\n";
    let message = is_invalid(import_csv(
        &db,
        ACCOUNT,
        &w.id,
        "Bad",
        bad.as_bytes(),
        &mut |_| (),
    ));
    for needle in ["line 3", "line 4", "line 5"] {
        assert!(message.contains(needle), "{needle} missing from {message}");
    }
    assert!(!message.contains("line 2"), "{message}");
    assert_eq!(
        list_boards(&db, ACCOUNT, &w.id).unwrap().len(),
        1,
        "a refused import stored a board"
    );
}

#[test]
fn json_export_imports_as_a_new_board() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    let done = f.board.groups[1].id.clone();
    create_items(
        &db,
        ACCOUNT,
        ACTOR,
        &f.board.id,
        &[
            item("a", json!({"status": "Done", "people": [f.member.id], "timeline": {"from": "2025-01-01", "to": "2025-01-05"}})),
            NewItem { group_id: Some(done), name: "b".into(), values: values(json!({"number": 2})) },
        ],
    )
    .unwrap();
    let export = full_board(&db, ACCOUNT, &f.board.id).unwrap().body;

    // Into another account: the member is unknown there and is dropped.
    let w = create_workspace(&db, OTHER, "Elsewhere").unwrap();
    let report = import_board_json(&db, OTHER, &w.id, &export).unwrap();
    assert_eq!(report.items, 2);
    assert_eq!(report.dropped_members, std::slice::from_ref(&f.member.id));
    assert_ne!(report.board.id, f.board.id);
    let original: Value = serde_json::from_slice(&export).unwrap();
    let copy = full_json(&db, OTHER, &report.board.id);
    assert_eq!(copy["board"]["columns"], original["board"]["columns"]);
    assert_eq!(
        copy["items"][0]["values"],
        json!({"status": "Done", "people": [], "timeline": {"from": "2025-01-01", "to": "2025-01-05"}})
    );
    assert_eq!(
        copy["items"][1]["groupId"],
        copy["board"]["groups"][1]["id"]
    );
    assert_ne!(copy["items"][0]["id"], original["items"][0]["id"]);

    // Into the same account: nothing is dropped.
    let again = import_board_json(&db, ACCOUNT, &f.workspace.id, &export).unwrap();
    assert!(again.dropped_members.is_empty());
    is_invalid(import_board_json(
        &db,
        ACCOUNT,
        &f.workspace.id,
        b"{\"nope\": 1}",
    ));
}

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
