//! Sheets and documents through the real binary against a real WebDAV
//! server (WsgiDAV with a password): a spreadsheet on the drive opened,
//! paged and edited where `trustedSheets` allows (403 naming an untrusted
//! column, 409 on a stale ETag, 422 for a corrupt file), and Markdown
//! published as `.docx`, `.md` and `.html` into `docsDestFolderId`, then
//! appended to a `docsTemplateId` document; each switch answers 403 while
//! off; an agent's token reads and edits trusted spreadsheets only.

mod common;

use common::TestServer;
use serde_json::{Value, json};

const USER: &str = "grace";
const PASSWORD: &str = "dav-sheets-secret-1618";

fn query(pairs: &[(&str, &str)]) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        q.append_pair(k, v);
    }
    q.finish()
}

fn plan_xlsx() -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name("Launch").unwrap();
    for (col, title) in ["Task", "Owner", "Status", "Points"].iter().enumerate() {
        sheet.write_string(0, col as u16, *title).unwrap();
    }
    for row in 1..=3u32 {
        sheet.write_string(row, 0, format!("task {row}")).unwrap();
        sheet.write_string(row, 1, "ana").unwrap();
        sheet.write_string(row, 2, "todo").unwrap();
        sheet.write_number(row, 3, f64::from(row)).unwrap();
    }
    sheet.write_formula(4, 3, "=SUM(D2:D4)").unwrap();
    book.save_to_buffer().unwrap()
}

#[test]
fn trusted_cells_are_edited_and_documents_published_on_a_webdav_drive() {
    let dav_dir = tempfile::tempdir().unwrap();
    let Some(dav) = test_servers::serve_webdav(dav_dir.path(), USER, PASSWORD) else {
        return;
    };
    let share = dav_dir.path().join("root");
    std::fs::write(share.join("plan.xlsx"), plan_xlsx()).unwrap();
    std::fs::write(
        share.join("broken.xlsx"),
        b"PK\x03\x04 this is not a workbook",
    )
    .unwrap();
    let server = TestServer::with_token_holders(|_| {});
    let (_session, agent) = server.holder_session();
    server.add_webdav_drive(&dav.url(""), USER, PASSWORD);

    let book_path = format!(
        "/sheets?{}",
        query(&[("driveId", "main"), ("path", "/plan.xlsx")])
    );
    let off = server.call("GET", &book_path, None);
    assert_eq!(
        (off.status, off.error_code()),
        (403, "sheets_disabled".into())
    );
    server.set_setting("sheetsEnabled", json!(true));
    let book = server.call("GET", &book_path, None);
    assert_eq!(book.status, 200, "{}", book.text());
    let book = book.json();
    assert_eq!(book["sheets"][0]["name"], "Launch");
    assert_eq!(book["format"], "xlsx");
    assert_eq!(book["editableColumns"], json!([]));
    let etag = book["etag"].as_str().unwrap().to_owned();

    let rows_path = format!(
        "/sheets/rows?{}",
        query(&[
            ("driveId", "main"),
            ("path", "/plan.xlsx"),
            ("sheet", "Launch"),
            ("offset", "1"),
            ("limit", "2")
        ])
    );
    let rows = server.call("GET", &rows_path, None);
    assert_eq!(rows.status, 200, "{}", rows.text());
    let rows = rows.json();
    assert_eq!(rows["offset"], 1);
    assert_eq!(rows["rows"][0][0]["value"], "task 1");
    assert_eq!(rows["next"], 3);

    let edit =
        |column: u32, etag: &str| {
            server.call(
            "PATCH",
            "/sheets/cells",
            Some(&json!({"driveId": "main", "path": "/plan.xlsx", "sheet": "Launch", "etag": etag,
                "cells": [{"row": 1, "column": column, "value": "done"}]})),
        )
        };
    let untrusted = edit(2, &etag);
    assert_eq!(
        (untrusted.status, untrusted.error_code()),
        (403, "sheet_not_trusted".into())
    );
    server.set_setting(
        "trustedSheets",
        json!([{"spreadsheetId": "main:/plan.xlsx", "label": "Launch", "editableColumns": [2]}]),
    );
    assert_eq!(
        server.call("GET", &book_path, None).json()["editableColumns"],
        json!([2])
    );
    // An agent's token reads only trusted spreadsheets and writes only their trusted columns.
    let agent_broken = server.call_as(
        &agent,
        "GET",
        &format!(
            "/sheets?{}",
            query(&[("driveId", "main"), ("path", "/broken.xlsx")])
        ),
        None,
    );
    assert_eq!(
        (agent_broken.status, agent_broken.error_code()),
        (403, "sheet_not_trusted".into())
    );
    assert_eq!(server.call_as(&agent, "GET", &book_path, None).status, 200);
    let agent_edit = server.call_as(
        &agent,
        "PATCH",
        "/sheets/cells",
        Some(
            &json!({"driveId": "main", "path": "/plan.xlsx", "sheet": "Launch", "etag": etag,
            "cells": [{"row": 2, "column": 0, "value": "renamed"}]}),
        ),
    );
    assert_eq!(
        (agent_edit.status, agent_edit.error_code()),
        (403, "column_not_editable".into())
    );
    let refused = edit(1, &etag);
    assert_eq!(
        (refused.status, refused.error_code()),
        (403, "column_not_editable".into())
    );
    assert!(refused.text().contains("column B"), "{}", refused.text());
    let before = std::fs::read(share.join("plan.xlsx")).unwrap();
    let saved = edit(2, &etag);
    assert_eq!(saved.status, 200, "{}", saved.text());
    assert_ne!(saved.json()["etag"].as_str(), Some(etag.as_str()));
    assert_ne!(std::fs::read(share.join("plan.xlsx")).unwrap(), before);
    let page = server
        .call(
            "GET",
            &rows_path
                .replace("offset=1", "offset=0")
                .replace("limit=2", "limit=10"),
            None,
        )
        .json();
    assert_eq!(page["rows"][1][2]["value"], "done");
    assert_eq!(page["rows"][1][1]["value"], "ana");
    assert_eq!(page["rows"][4][3]["formula"], "SUM(D2:D4)");
    let stale = edit(2, &etag);
    assert_eq!((stale.status, stale.error_code()), (409, "conflict".into()));

    let broken = server.call(
        "GET",
        &format!(
            "/sheets?{}",
            query(&[("driveId", "main"), ("path", "/broken.xlsx")])
        ),
        None,
    );
    assert_eq!(
        (broken.status, broken.error_code()),
        (422, "corrupt_spreadsheet".into())
    );

    let publish = |body: &Value| server.call("POST", "/documents/publish", Some(body));
    let doc = json!({"markdown": "# Notes\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "title": "Launch notes"});
    let off = publish(&doc);
    assert_eq!(
        (off.status, off.error_code()),
        (403, "docs_disabled".into())
    );
    server.set_setting("docsExportEnabled", json!(true));
    std::fs::create_dir(share.join("Published")).unwrap();
    server.set_setting("docsDestFolderId", json!("/Published"));
    let first = publish(&doc);
    assert_eq!(first.status, 201, "{}", first.text());
    let first = first.json();
    assert_eq!(first["path"], "/Published/Launch notes.docx");
    assert!(
        first["url"]
            .as_str()
            .unwrap()
            .ends_with("/Published/Launch%20notes.docx"),
        "{first}"
    );
    for name in ["Launch notes.docx", "Launch notes.md", "Launch notes.html"] {
        assert!(share.join("Published").join(name).is_file(), "{name}");
    }
    let docx = std::fs::read(share.join("Published/Launch notes.docx")).unwrap();
    assert!(docx.starts_with(b"PK"));
    let second = publish(&doc).json();
    assert_eq!(
        second["path"], "/Published/Launch notes (2).docx",
        "a taken name is never replaced"
    );

    server.set_setting("docsTemplateId", json!("main:/Published/Launch notes.docx"));
    let appended = publish(&json!({"markdown": "Later *news*.", "title": "Tuesday"}));
    assert_eq!(appended.status, 201, "{}", appended.text());
    assert_eq!(appended.json()["path"], "/Published/Launch notes.docx");
    let grown = std::fs::read(share.join("Published/Launch notes.docx")).unwrap();
    assert_ne!(grown, docx, "the template got a new section");
    assert!(!share.join("Published/Tuesday.docx").exists());
}
