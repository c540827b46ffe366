//! Files on the user's drives: a WebDAV server's PROPFIND answer, and the
//! spreadsheets (`.xlsx`, `.ods`, `.csv`) read and edited in place, which
//! anyone who can write to the drive may have made.

use sheets::{CellEdit, CellValue, Format, MAX_PAGE_ROWS};

use crate::input::{choice, text};

/// A multistatus answer: members, or the reason it is none. Every member
/// has the href the server gave, sizes are what it said.
pub fn webdav(data: &[u8]) {
    let Ok(found) = drives::xml::multistatus(&text(data)) else {
        return;
    };
    // One member per <response>, and each response is more than 10 bytes.
    assert!(
        found.len() <= data.len() / 10 + 1,
        "{} members",
        found.len()
    );
    for member in found {
        if let Some(etag) = member.etag {
            assert!(etag.starts_with('"') || etag.starts_with("W/"), "{etag}");
        }
    }
}

const FORMATS: [Format; 3] = [Format::Xlsx, Format::Ods, Format::Csv];

/// A spreadsheet of the format the first byte chooses: its sheets, a page
/// of each one's rows within the page's bounds, and an edit of its first
/// cell (which must read back as written, or be refused).
pub fn spreadsheet(data: &[u8]) {
    let (pick, bytes) = choice(data, FORMATS.len());
    let format = FORMATS[pick];
    let Ok(sheets) = sheets::read::sheets(bytes, format) else {
        return;
    };
    for sheet in &sheets {
        let Ok(page) = sheets::read::rows(bytes, format, &sheet.name, 0, 50) else {
            continue;
        };
        assert!(
            page.rows.len() <= 50,
            "{} rows in a page of 50",
            page.rows.len()
        );
        assert!(page.next.is_none_or(|next| next == 50), "{:?}", page.next);
    }
    assert!(
        sheets::read::rows(bytes, format, "", 0, MAX_PAGE_ROWS + 1).is_err(),
        "a page past the limit"
    );
    let Some(first) = sheets.first() else {
        return;
    };
    let edit = CellEdit {
        row: 0,
        column: 0,
        value: Some(CellValue::Text("fuzzed".to_owned())),
    };
    let Ok(edited) = sheets::edit::apply(bytes, format, &first.name, &[edit]) else {
        return;
    };
    if let Ok(page) = sheets::read::rows(&edited, format, &first.name, 0, 1) {
        let cell = page.rows.first().and_then(|row| row.first());
        assert_eq!(
            cell.and_then(|c| c.value.clone()),
            Some(CellValue::Text("fuzzed".to_owned())),
            "the edited cell reads back otherwise"
        );
    }
}
