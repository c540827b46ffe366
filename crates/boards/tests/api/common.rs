//! What the boards tests share: a temporary database, two accounts, and a fixture board with one
//! column of every type.

use ::boards::*;
use serde_json::{Map, Value, json};
use store::Db;

pub const ACCOUNT: &str = "acct-a";
pub const OTHER: &str = "acct-b";
pub const ACTOR: &str = "tester";

pub fn db() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
    migrate(&db).unwrap();
    (dir, db)
}

pub fn values(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

pub fn column(id: &str, kind: &str, settings: Option<Value>) -> NewColumn {
    NewColumn {
        id: Some(id.into()),
        title: id.to_uppercase(),
        kind: kind.into(),
        settings,
    }
}

/// A workspace, a member and a board with one column of each type.
pub struct Fixture {
    pub workspace: Workspace,
    pub member: Member,
    pub board: Board,
}

pub fn fixture(db: &Db, account: &str) -> Fixture {
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

pub fn item(name: &str, v: Value) -> NewItem {
    NewItem {
        group_id: None,
        name: name.into(),
        values: values(v),
    }
}

pub fn full_json(db: &Db, account: &str, board: &str) -> Value {
    serde_json::from_slice(&full_board(db, account, board).unwrap().body).unwrap()
}

pub fn item_count(db: &Db, board: &str) -> usize {
    full_json(db, ACCOUNT, board)["items"]
        .as_array()
        .unwrap()
        .len()
}

pub fn is_invalid(r: Result<impl std::fmt::Debug, BoardsError>) -> String {
    match r {
        Err(BoardsError::Invalid { message }) => message,
        other => panic!("expected Invalid, got {other:?}"),
    }
}
