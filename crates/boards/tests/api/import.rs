//! CSV and JSON import, and the JSON export that round-trips through it.

use ::boards::*;
use serde_json::{Value, json};

use crate::common::{ACCOUNT, ACTOR, OTHER, db, fixture, full_json, is_invalid, item, values};

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
