//! Accounts are walled off: another account's ids answer exactly like missing ones.

use ::boards::*;
use serde_json::json;
use store::Db;

use crate::common::{ACCOUNT, ACTOR, OTHER, column, db, fixture, is_invalid, item};

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
            Box::new(|db, a, id| move_item(db, a, "ui:a", id, "todo", None).map(drop)),
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
