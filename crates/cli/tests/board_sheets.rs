//! Boards and sheets through the real binary: a board with typed columns
//! exported as `.xlsx` (read back by calamine: header, names, numbers and
//! checkboxes as typed cells), and a `.csv` on a real WebDAV drive (WsgiDAV
//! with a password) imported as a new board with its columns mapped to
//! board column types, a cell that is not a number skipped and named; an
//! agent's token may export but not import, and `sheetsEnabled` off → 403.

mod common;

use std::io::Cursor;

use calamine::{Data, Reader, Xlsx};
use common::TestServer;
use serde_json::json;

const USER: &str = "hopper";
const PASSWORD: &str = "dav-boards-secret-2718";

#[test]
fn a_board_is_exported_as_xlsx_and_a_sheet_imported_as_a_board() {
    let dav_dir = tempfile::tempdir().unwrap();
    let Some(dav) = test_servers::serve_webdav(dav_dir.path(), USER, PASSWORD) else {
        return;
    };
    std::fs::write(
        dav_dir.path().join("root").join("launch.csv"),
        "Task,Points,Done,State\nwrite docs,3,yes,todo\nship it,soon,no,doing\n,9,no,todo\ntest,5,x,doing\n",
    )
    .unwrap();
    let server = TestServer::with_token_holders(|_| {});
    let (_session, agent) = server.holder_session();

    let workspace = server
        .call("POST", "/workspaces", Some(&json!({"name": "launch"})))
        .json();
    let board = server.call(
        "POST",
        "/boards",
        Some(
            &json!({"workspaceId": workspace["id"], "name": "Launch plan", "groups": [],
            "columns": [{"id": "pts", "title": "Points", "type": "number"},
                        {"id": "ok", "title": "Done", "type": "checkbox"}]}),
        ),
    );
    assert_eq!(board.status, 201, "{}", board.text());
    let board_id = board.json()["id"].as_str().unwrap().to_owned();
    for (name, points, done) in [("alpha", 2, true), ("beta", 7, false)] {
        let item = server.call(
            "POST",
            &format!("/boards/{board_id}/items"),
            Some(&json!({"name": name, "values": {"pts": points, "ok": done}})),
        );
        assert_eq!(item.status, 201, "{}", item.text());
    }

    let export = server.call_as(
        &agent,
        "GET",
        &format!("/boards/{board_id}/export.xlsx"),
        None,
    );
    assert_eq!(export.status, 200, "{}", export.text());
    assert!(
        export
            .headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("content-type") && v.contains("spreadsheetml")),
        "{:?}",
        export.headers
    );
    let mut book = Xlsx::new(Cursor::new(export.body.clone())).unwrap();
    assert_eq!(book.sheet_names(), vec!["Launch plan".to_owned()]);
    let range = book.worksheet_range("Launch plan").unwrap();
    let rows: Vec<Vec<Data>> = range.rows().map(<[Data]>::to_vec).collect();
    assert_eq!(
        rows[0][..4],
        [
            Data::String("Name".into()),
            Data::String("Group".into()),
            Data::String("Points".into()),
            Data::String("Done".into())
        ]
    );
    let alpha = rows
        .iter()
        .find(|r| r[0] == Data::String("alpha".into()))
        .expect("alpha exported");
    assert_eq!(alpha[2], Data::Float(2.0));
    assert_eq!(alpha[3], Data::Bool(true));
    assert_eq!(rows.len(), 3);
    let missing = server.call("GET", "/boards/nope/export.xlsx", None);
    assert_eq!(missing.status, 404, "{}", missing.text());

    server.add_webdav_drive(&dav.url(""), USER, PASSWORD);
    let import = json!({"driveId": "main", "path": "/launch.csv", "sheet": "Sheet1",
        "workspaceId": workspace["id"], "name": "From the sheet", "nameColumn": 0,
        "columns": [{"column": 1, "type": "number"},
                    {"column": 2, "title": "Finished", "type": "checkbox"},
                    {"column": 3, "type": "status"}]});
    let off = server.call("POST", "/boards/import-sheet", Some(&import));
    assert_eq!(
        (off.status, off.error_code()),
        (403, "sheets_disabled".into())
    );
    server.set_setting("sheetsEnabled", json!(true));
    let by_agent = server.call_as(&agent, "POST", "/boards/import-sheet", Some(&import));
    assert_eq!(by_agent.status, 403, "{}", by_agent.text());
    let people = server.call(
        "POST",
        "/boards/import-sheet",
        Some(
            &json!({"driveId": "main", "path": "/launch.csv", "sheet": "Sheet1",
            "workspaceId": workspace["id"], "name": "x", "nameColumn": 0,
            "columns": [{"column": 1, "type": "people"}]}),
        ),
    );
    assert_eq!(
        (people.status, people.error_code()),
        (400, "invalid_request".into())
    );

    let imported = server.call("POST", "/boards/import-sheet", Some(&import));
    assert_eq!(imported.status, 201, "{}", imported.text());
    let imported = imported.json();
    assert_eq!(imported["items"], 3, "the row without a name is left out");
    assert_eq!(imported["skipped"], json!(["B3: \"soon\" is not a number"]));
    let full = server
        .call(
            "GET",
            &format!("/boards/{}/full", imported["boardId"].as_str().unwrap()),
            None,
        )
        .json();
    assert_eq!(full["board"]["name"], "From the sheet");
    let columns: Vec<(&str, &str)> = full["board"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["title"].as_str().unwrap(), c["type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        columns,
        [
            ("Points", "number"),
            ("Finished", "checkbox"),
            ("State", "status")
        ]
    );
    let items = full["items"].as_array().unwrap();
    let docs = items.iter().find(|i| i["name"] == "write docs").unwrap();
    assert_eq!(docs["values"]["c0"], 3.0);
    assert_eq!(docs["values"]["c1"], true);
    assert_eq!(docs["values"]["c2"], "todo");
    let ship = items.iter().find(|i| i["name"] == "ship it").unwrap();
    assert!(ship["values"].get("c0").is_none());
    assert_eq!(ship["values"]["c1"], false);
}
