//! The spreadsheet crate against real files: workbooks written by openpyxl
//! and rust_xlsxwriter, read in pages, edited, and the edits read back by
//! openpyxl with every untouched cell, formula and style intact; plus the
//! trust rules, CSV, ODS and corrupt or hostile input.

use std::io::{Cursor, Read};

use serde_json::{Value, json};
use sheets::trust::TrustedSheets;
use sheets::{CellEdit, CellValue, Format, SheetError, edit, read};

/// A workbook with two sheets, styles, a shared string table, formulas
/// (a shared one too) and a date, written by openpyxl.
const MAKE_BOOK: &str = r#"
import sys, datetime, openpyxl
from openpyxl.styles import Font
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Launch"
ws.append(["Task", "Owner", "Status", "Points", "Double"])
for i in range(1, 6):
    ws.append([f"task {i}", "ana" if i % 2 else "bo", "todo", i, f"=D{i+1}*2"])
ws["A1"].font = Font(bold=True)
ws["F2"] = datetime.date(2026, 3, 14)
ws["G2"] = "=SUM(D2:D6)"
other = wb.create_sheet("Notes")
other["A1"] = "kept"
wb.save(sys.argv[1])
"#;

/// openpyxl reads every cell back as JSON: `{sheet: {ref: value}}`, formulas
/// as their text, with bold flags of A1.
const DUMP_BOOK: &str = r#"
import sys, json, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
out = {}
for ws in wb.worksheets:
    cells = {}
    for row in ws.iter_rows():
        for c in row:
            v = c.value
            if isinstance(v, (datetime.date, datetime.datetime)):
                v = v.isoformat()
            if v is not None:
                cells[c.coordinate] = v
    out[ws.title] = cells
out["boldA1"] = wb["Launch"]["A1"].font.b
print(json.dumps(out))
"#;

fn openpyxl_book(dir: &std::path::Path) -> Option<(std::path::PathBuf, Vec<u8>)> {
    let python = test_servers::python_with("openpyxl")?;
    let path = dir.join("book.xlsx");
    test_servers::run_python(&python, MAKE_BOOK, &[path.to_str().unwrap()]);
    let bytes = std::fs::read(&path).unwrap();
    Some((python, bytes))
}

fn dump(python: &std::path::Path, bytes: &[u8], dir: &std::path::Path) -> Value {
    let path = dir.join("dump.xlsx");
    std::fs::write(&path, bytes).unwrap();
    serde_json::from_str(&test_servers::run_python(
        python,
        DUMP_BOOK,
        &[path.to_str().unwrap()],
    ))
    .unwrap()
}

fn text(s: &str) -> Option<CellValue> {
    Some(CellValue::Text(s.into()))
}

#[test]
fn an_openpyxl_workbook_reads_with_values_and_formulas() {
    let dir = tempfile::tempdir().unwrap();
    let Some((_, bytes)) = openpyxl_book(dir.path()) else {
        return;
    };
    let sheets = read::sheets(&bytes, Format::Xlsx).unwrap();
    let names: Vec<&str> = sheets.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Launch", "Notes"]);
    assert_eq!(sheets[0].rows, 6);

    let page = read::rows(&bytes, Format::Xlsx, "Launch", 0, 100).unwrap();
    assert_eq!(page.next, None);
    assert_eq!(page.rows.len(), 6);
    assert_eq!(page.rows[0][0].value, text("Task"));
    assert_eq!(page.rows[1][3].value, Some(CellValue::Number(1.0)));
    assert_eq!(page.rows[1][4].formula.as_deref(), Some("D2*2"));
    assert_eq!(page.rows[1][5].value, text("2026-03-14"));
    assert_eq!(page.rows[1][6].formula.as_deref(), Some("SUM(D2:D6)"));

    let second = read::rows(&bytes, Format::Xlsx, "Launch", 2, 2).unwrap();
    assert_eq!(second.offset, 2);
    assert_eq!(second.rows.len(), 2);
    assert_eq!(second.rows[0][0].value, text("task 2"));
    assert_eq!(second.next, Some(4));

    let missing = read::rows(&bytes, Format::Xlsx, "Nope", 0, 10).unwrap_err();
    assert!(matches!(missing, SheetError::SheetNotFound(_)), "{missing}");
}

#[test]
fn xlsx_edits_read_back_by_openpyxl_with_everything_else_intact() {
    let dir = tempfile::tempdir().unwrap();
    let Some((python, bytes)) = openpyxl_book(dir.path()) else {
        return;
    };
    let before = dump(&python, &bytes, dir.path());
    let edits = [
        // An existing text cell, a formula cell replaced by a number, a cell
        // past the row's end, a new row past the sheet's end, a cleared cell,
        // and text that needs escaping.
        CellEdit {
            row: 1,
            column: 2,
            value: text("done"),
        },
        CellEdit {
            row: 2,
            column: 4,
            value: Some(CellValue::Number(99.5)),
        },
        CellEdit {
            row: 3,
            column: 9,
            value: Some(CellValue::Bool(true)),
        },
        CellEdit {
            row: 9,
            column: 1,
            value: text("<new> & \"quoted\""),
        },
        CellEdit {
            row: 5,
            column: 1,
            value: None,
        },
    ];
    let edited = edit::apply(&bytes, Format::Xlsx, "Launch", &edits).unwrap();
    let after = dump(&python, &edited, dir.path());

    let mut expected = before.clone();
    let launch = expected["Launch"].as_object_mut().unwrap();
    launch.insert("C2".into(), json!("done"));
    launch.insert("E3".into(), json!(99.5));
    launch.insert("J4".into(), json!(true));
    launch.insert("B10".into(), json!("<new> & \"quoted\""));
    launch.remove("B6");
    assert_eq!(after, expected, "only the edited cells changed");
    assert_eq!(
        after["Launch"]["E2"],
        json!("=D2*2"),
        "formulas stay formulas"
    );
    assert_eq!(after["boldA1"], json!(true), "styles stay");

    // Our own reader sees the edits too.
    let page = read::rows(&edited, Format::Xlsx, "Launch", 0, 20).unwrap();
    assert_eq!(page.rows[1][2].value, text("done"));
    assert_eq!(
        page.rows[2][4],
        sheets::Cell {
            value: Some(CellValue::Number(99.5)),
            formula: None
        }
    );
    assert_eq!(page.rows.len(), 10);

    // Every zip part but the edited sheet (and the workbook's calculation
    // settings, since a formula cell was replaced) is byte-for-byte the same.
    let parts = |b: &[u8]| -> Vec<(String, Vec<u8>)> {
        let mut zip = zip::ZipArchive::new(Cursor::new(b.to_vec())).unwrap();
        (0..zip.len())
            .map(|i| {
                let mut f = zip.by_index(i).unwrap();
                let mut body = Vec::new();
                f.read_to_end(&mut body).unwrap();
                (f.name().to_owned(), body)
            })
            .collect()
    };
    let old = parts(&bytes);
    let new = parts(&edited);
    let changed: Vec<&str> = old
        .iter()
        .filter(|(name, body)| {
            new.iter()
                .find(|(n, _)| n == name)
                .is_none_or(|(_, b)| b != body)
        })
        .map(|(n, _)| n.as_str())
        .collect();
    assert!(
        changed
            .iter()
            .all(|n| ["xl/worksheets/sheet1.xml", "xl/workbook.xml"].contains(n)),
        "changed parts: {changed:?}"
    );
}

#[test]
fn an_untouched_cell_keeps_its_exact_xml() {
    let dir = tempfile::tempdir().unwrap();
    let Some((_, bytes)) = openpyxl_book(dir.path()) else {
        return;
    };
    let sheet_xml = |b: &[u8]| -> String {
        let mut zip = zip::ZipArchive::new(Cursor::new(b.to_vec())).unwrap();
        let mut s = String::new();
        zip.by_name("xl/worksheets/sheet1.xml")
            .unwrap()
            .read_to_string(&mut s)
            .unwrap();
        s
    };
    let edited = edit::apply(
        &bytes,
        Format::Xlsx,
        "Launch",
        &[CellEdit {
            row: 1,
            column: 2,
            value: text("done"),
        }],
    )
    .unwrap();
    let (old, new) = (sheet_xml(&bytes), sheet_xml(&edited));
    let old_c2 = old.find("<c r=\"C2\"").unwrap();
    let old_end = old_c2 + old[old_c2..].find("</c>").unwrap() + 4;
    let new_c2 = new.find("<c r=\"C2\"").unwrap();
    let new_end = new_c2 + new[new_c2..].find("</c>").unwrap() + 4;
    assert_eq!(
        old[..old_c2],
        new[..new_c2],
        "everything before the cell is the same"
    );
    assert_eq!(
        old[old_end..],
        new[new_end..],
        "everything after the cell is the same"
    );
}

#[test]
fn a_100000_row_sheet_is_read_in_pages() {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for row in 0..100_000u32 {
        sheet.write_number(row, 0, f64::from(row)).unwrap();
        sheet.write_string(row, 1, format!("row {row}")).unwrap();
    }
    sheet.write_formula(0, 2, "=A1+1").unwrap();
    let bytes = book.save_to_buffer().unwrap();
    let info = read::sheets(&bytes, Format::Xlsx).unwrap();
    assert_eq!(info[0].rows, 100_000);

    let mut offset = 0;
    let mut seen = 0u64;
    let mut pages = 0;
    loop {
        let page = read::rows(
            &bytes,
            Format::Xlsx,
            "Sheet1",
            offset,
            sheets::MAX_PAGE_ROWS,
        )
        .unwrap();
        for (i, row) in page.rows.iter().enumerate() {
            let index = offset + i as u64;
            assert_eq!(row[0].value, Some(CellValue::Number(index as f64)));
            assert_eq!(row[1].value, text(&format!("row {index}")));
        }
        seen += page.rows.len() as u64;
        pages += 1;
        match page.next {
            Some(next) => offset = next,
            None => break,
        }
    }
    assert_eq!((seen, pages), (100_000, 20));

    let last = read::rows(&bytes, Format::Xlsx, "Sheet1", 99_990, 100).unwrap();
    assert_eq!(last.rows.len(), 10);
    assert_eq!(last.next, None);
    let past = read::rows(&bytes, Format::Xlsx, "Sheet1", 200_000, 100).unwrap();
    assert!(past.rows.is_empty() && past.next.is_none());
    let first = read::rows(&bytes, Format::Xlsx, "Sheet1", 0, 1).unwrap();
    assert_eq!(first.rows[0][2].formula.as_deref(), Some("A1+1"));

    let too_many = read::rows(&bytes, Format::Xlsx, "Sheet1", 0, sheets::MAX_PAGE_ROWS + 1);
    assert!(matches!(too_many, Err(SheetError::Invalid(_))));
}

#[test]
fn a_wide_page_stops_at_the_cell_cap() {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for row in 0..100u32 {
        sheet.write_number(row, 16_000, 1.0).unwrap();
    }
    let bytes = book.save_to_buffer().unwrap();
    let page = read::rows(&bytes, Format::Xlsx, "Sheet1", 0, 100).unwrap();
    let cells: usize = page.rows.iter().map(Vec::len).sum();
    assert!(cells <= sheets::MAX_PAGE_CELLS);
    assert_eq!(page.next, Some(page.rows.len() as u64));
}

#[test]
fn trust_rules_refuse_untrusted_sheets_and_columns() {
    let setting = json!([
        {"spreadsheetId": "d1:/plans/launch.xlsx", "label": "Launch", "editableColumns": [2, 3]},
        {"spreadsheetId": 7},
    ]);
    let trusted = TrustedSheets::parse(&setting);
    assert_eq!(trusted.0.len(), 1, "a malformed entry is skipped");
    let ok = [CellEdit {
        row: 4,
        column: 2,
        value: text("done"),
    }];
    trusted.check("d1:plans/launch.xlsx", &ok).unwrap();
    let refused = trusted
        .check(
            "d1:/plans/launch.xlsx",
            &[CellEdit {
                row: 0,
                column: 27,
                value: None,
            }],
        )
        .unwrap_err();
    assert!(matches!(
        refused,
        SheetError::ColumnNotEditable { column: 27, .. }
    ));
    assert!(refused.to_string().contains("column AB"), "{refused}");
    let untrusted = trusted.check("d2:/plans/launch.xlsx", &ok).unwrap_err();
    assert!(matches!(untrusted, SheetError::Untrusted(_)));
    assert!(TrustedSheets::parse(&json!("nonsense")).0.is_empty());
}

#[test]
fn csv_is_paged_and_rewritten() {
    let bytes = b"name;status\r\nalpha;todo\r\n\"b;eta\";doing\r\n".to_vec();
    let info = read::sheets(&bytes, Format::Csv).unwrap();
    assert_eq!((info[0].rows, info[0].columns), (3, 2));
    let page = read::rows(&bytes, Format::Csv, read::CSV_SHEET, 1, 1).unwrap();
    assert_eq!(
        page.rows,
        vec![vec![
            sheets::Cell {
                value: text("alpha"),
                formula: None
            },
            sheets::Cell {
                value: text("todo"),
                formula: None
            },
        ]]
    );
    assert_eq!(page.next, Some(2));
    let edited = edit::apply(
        &bytes,
        Format::Csv,
        read::CSV_SHEET,
        &[
            CellEdit {
                row: 1,
                column: 1,
                value: text("done"),
            },
            CellEdit {
                row: 4,
                column: 0,
                value: Some(CellValue::Number(3.0)),
            },
        ],
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(edited).unwrap(),
        "name;status\r\nalpha;done\r\n\"b;eta\";doing\r\n\"\"\r\n3\r\n"
    );
}

/// A minimal OpenDocument spreadsheet, as LibreOffice lays one out.
fn ods_bytes() -> Vec<u8> {
    use std::io::Write;
    let content = r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.2">
<office:body><office:spreadsheet>
<table:table table:name="Plan">
<table:table-row><table:table-cell office:value-type="string"><text:p>Item</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Cost</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>desk</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="120"><text:p>120</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>total</text:p></table:table-cell><table:table-cell table:formula="of:=SUM([.B2])" office:value-type="float" office:value="120"><text:p>120</text:p></table:table-cell></table:table-row>
</table:table>
</office:spreadsheet></office:body></office:document-content>"#;
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("mimetype", stored).unwrap();
    zip.write_all(b"application/vnd.oasis.opendocument.spreadsheet")
        .unwrap();
    zip.start_file("content.xml", stored).unwrap();
    zip.write_all(content.as_bytes()).unwrap();
    zip.start_file("META-INF/manifest.xml", stored).unwrap();
    zip.write_all(br#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#).unwrap();
    zip.finish().unwrap().into_inner()
}

#[test]
fn ods_reads_and_refuses_edits_as_a_read_only_format() {
    let bytes = ods_bytes();
    let info = read::sheets(&bytes, Format::Ods).unwrap();
    assert_eq!(info[0].name, "Plan");
    let page = read::rows(&bytes, Format::Ods, "Plan", 0, 10).unwrap();
    assert_eq!(page.rows[1][1].value, Some(CellValue::Number(120.0)));
    assert_eq!(page.rows[2][1].value, Some(CellValue::Number(120.0)));
    assert!(
        page.rows[2][1]
            .formula
            .as_deref()
            .is_some_and(|f| f.contains("SUM"))
    );
    let refused = edit::apply(
        &bytes,
        Format::Ods,
        "Plan",
        &[CellEdit {
            row: 0,
            column: 0,
            value: None,
        }],
    );
    assert!(matches!(
        refused,
        Err(SheetError::ReadOnlyFormat(Format::Ods))
    ));
}

#[test]
fn a_corrupt_xlsx_is_a_typed_error() {
    let mut book = rust_xlsxwriter::Workbook::new();
    book.add_worksheet().write_string(0, 0, "x").unwrap();
    let good = book.save_to_buffer().unwrap();
    let truncated = &good[..good.len() / 2];
    for bad in [
        truncated,
        b"PK\x03\x04 not a zip at all".as_slice(),
        b"".as_slice(),
    ] {
        assert!(matches!(
            read::sheets(bad, Format::Xlsx),
            Err(SheetError::Corrupt(_))
        ));
        assert!(matches!(
            read::rows(bad, Format::Xlsx, "Sheet1", 0, 10),
            Err(SheetError::Corrupt(_))
        ));
        let edit = [CellEdit {
            row: 0,
            column: 0,
            value: None,
        }];
        assert!(matches!(
            edit::apply(bad, Format::Xlsx, "Sheet1", &edit),
            Err(SheetError::Corrupt(_))
        ));
    }
    assert!(matches!(
        Format::from_path("notes.txt"),
        Err(SheetError::UnknownFormat(_))
    ));
    assert_eq!(Format::from_path("/a/B.XLSX").unwrap(), Format::Xlsx);
}

#[test]
fn mangled_files_never_panic() {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for row in 0..50u32 {
        sheet.write_number(row, 0, f64::from(row)).unwrap();
        sheet.write_formula(row, 1, "=A1*2").unwrap();
    }
    let good = book.save_to_buffer().unwrap();
    // A fixed-seed generator: the same mangled files every run.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let edit = [CellEdit {
        row: 3,
        column: 0,
        value: text("x"),
    }];
    for _ in 0..300 {
        let mut bad = good.clone();
        for _ in 0..(next() % 8 + 1) {
            let at = (next() as usize) % bad.len();
            bad[at] = next() as u8;
        }
        if next() % 4 == 0 {
            bad.truncate((next() as usize) % bad.len());
        }
        let _ = read::sheets(&bad, Format::Xlsx);
        let _ = read::rows(&bad, Format::Xlsx, "Sheet1", 0, 100);
        let _ = edit::apply(&bad, Format::Xlsx, "Sheet1", &edit);
        let _ = read::rows(&bad, Format::Csv, read::CSV_SHEET, 0, 100);
        let _ = read::rows(&bad, Format::Ods, "Sheet1", 0, 100);
    }
}

#[test]
fn a_board_exports_to_xlsx_and_a_sheet_plans_a_board() {
    use boards::{Board, Column, ColumnType, Group, Item};
    use sheets::boards_io::{ColumnMapping, SheetImport, export_board, plan_board};
    let board = Board {
        id: "b1".into(),
        workspace_id: "w".into(),
        name: "Launch".into(),
        columns: vec![
            Column {
                id: "st".into(),
                title: "Status".into(),
                kind: ColumnType::Status,
                settings: json!({}),
            },
            Column {
                id: "pt".into(),
                title: "Points".into(),
                kind: ColumnType::Number,
                settings: json!({}),
            },
            Column {
                id: "ok".into(),
                title: "Signed off".into(),
                kind: ColumnType::Checkbox,
                settings: json!({}),
            },
        ],
        groups: vec![Group {
            id: "g1".into(),
            title: "This week".into(),
        }],
        views: vec![],
        created_at: String::new(),
        updated_at: String::new(),
    };
    let item = |name: &str, values: Value| Item {
        id: name.into(),
        board_id: "b1".into(),
        group_id: "g1".into(),
        name: name.into(),
        values: values.as_object().unwrap().clone(),
        created_at: String::new(),
        updated_at: String::new(),
    };
    let items = [
        item("write docs", json!({"st": "Done", "pt": 3, "ok": true})),
        item("ship", json!({"st": "Stuck", "pt": 5.5})),
    ];
    let bytes = export_board(&board, &items).unwrap();

    let page = read::rows(&bytes, Format::Xlsx, "Launch", 0, 10).unwrap();
    assert_eq!(page.rows[0][0].value, text("Name"));
    assert_eq!(page.rows[0][4].value, text("Signed off"));
    assert_eq!(page.rows[1][2].value, text("Done"));
    assert_eq!(page.rows[2][3].value, Some(CellValue::Number(5.5)));

    let plan = plan_board(
        "w",
        "Imported",
        &page.rows,
        &SheetImport {
            name_column: 0,
            header_rows: 1,
            columns: vec![
                ColumnMapping {
                    column: 2,
                    title: None,
                    kind: ColumnType::Status,
                },
                ColumnMapping {
                    column: 3,
                    title: Some("Pts".into()),
                    kind: ColumnType::Number,
                },
                ColumnMapping {
                    column: 4,
                    title: None,
                    kind: ColumnType::Checkbox,
                },
                ColumnMapping {
                    column: 1,
                    title: None,
                    kind: ColumnType::Date,
                },
            ],
        },
    )
    .unwrap();
    let titles: Vec<&str> = plan
        .board
        .columns
        .iter()
        .map(|c| c.title.as_str())
        .collect();
    assert_eq!(titles, ["Status", "Pts", "Signed off", "Group"]);
    assert_eq!(
        plan.board.columns[0].settings,
        Some(json!({"labels": [{"name": "Done"}, {"name": "Stuck"}]}))
    );
    assert_eq!(plan.items.len(), 2);
    assert_eq!(
        Value::Object(plan.items[0].values.clone()),
        json!({"c0": "Done", "c1": 3.0, "c2": true})
    );
    assert_eq!(
        plan.skipped,
        [
            "B2: \"This week\" is not a date (YYYY-MM-DD)",
            "B3: \"This week\" is not a date (YYYY-MM-DD)"
        ]
    );

    let refused = plan_board(
        "w",
        "x",
        &page.rows,
        &SheetImport {
            name_column: 0,
            header_rows: 1,
            columns: vec![ColumnMapping {
                column: 1,
                title: None,
                kind: ColumnType::People,
            }],
        },
    );
    assert!(matches!(refused, Err(SheetError::Invalid(_))));
}
