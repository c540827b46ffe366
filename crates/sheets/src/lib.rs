//! Spreadsheets (issue 70, docs/files.md "Sheets"): `.xlsx`, `.ods` and `.csv`
//! files read from their bytes, edited where they are trusted, and moved
//! between sheets and boards.
//!
//! - [`read`]: sheet names and rows in pages (`offset`, `limit`), each cell
//!   with its last computed value and, when it has one, its formula. An
//!   `.xlsx` page is streamed from the sheet XML (rows before the page are
//!   parsed and dropped), so a 1,000,000-row sheet is never held whole.
//! - [`edit`]: cell edits written back: `.xlsx` by patching only the edited
//!   cells inside the sheet XML (every other byte of the sheet and every
//!   other zip entry is copied as it was), `.csv` rewritten, `.ods` refused
//!   as a read-only format.
//! - [`trust`]: the `trustedSheets` rules: an untrusted spreadsheet is
//!   read-only and an edit to a column not listed is refused naming it.
//! - [`boards_io`]: a board exported as `.xlsx`, and a sheet mapped into a
//!   new board (columns to board column types); pure functions.
//! - [`cache`]: files kept in memory by ETag so paging does not download
//!   the file again for every page.
//!
//! This crate knows nothing of HTTP, drives or settings storage: the
//! application fetches the bytes from a drive, passes the setting's value to
//! [`trust::TrustedSheets::parse`] and writes the edited bytes back.

pub mod boards_io;
pub mod cache;
pub mod edit;
mod error;
pub mod read;
pub mod trust;
mod xlsx_patch;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

pub use error::SheetError;

/// The most rows one page may ask for.
pub const MAX_PAGE_ROWS: u32 = 5_000;
/// The most cells one page holds (a row reaching column XFD is 16,384 cells),
/// so a page stays small whatever the sheet's shape; a page that would pass it
/// ends early and its `next` says where to go on.
pub const MAX_PAGE_CELLS: usize = 500_000;
/// The largest spreadsheet file read or written.
pub const MAX_FILE_BYTES: usize = 100 * 1024 * 1024;
/// The largest uncompressed part of an `.xlsx` or `.ods` zip, so a small file
/// cannot unpack into gigabytes.
pub const MAX_PART_BYTES: u64 = 512 * 1024 * 1024;

/// Which kind of spreadsheet a file is, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(rename = "SheetFormat")]
#[schema(as = SheetFormat)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Xlsx,
    Ods,
    Csv,
}

impl Format {
    /// The format a file's extension names (case-insensitive).
    pub fn from_path(path: &str) -> Result<Self, SheetError> {
        let ext = path
            .rsplit_once('.')
            .map(|(_, ext)| ext.to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "xlsx" | "xlsm" => Ok(Self::Xlsx),
            "ods" => Ok(Self::Ods),
            "csv" => Ok(Self::Csv),
            _ => Err(SheetError::UnknownFormat(path.to_owned())),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Xlsx => "xlsx",
            Self::Ods => "ods",
            Self::Csv => "csv",
        }
    }
}

/// A cell's value as the file last computed it: dates and times as ISO 8601
/// text, errors as their Excel text (`#DIV/0!`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(rename = "SheetCellValue")]
#[schema(as = SheetCellValue)]
#[serde(untagged)]
pub enum CellValue {
    Number(f64),
    Text(String),
    Bool(bool),
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS, ToSchema)]
#[ts(rename = "SheetCell")]
#[schema(as = SheetCell)]
#[serde(rename_all = "camelCase")]
pub struct Cell {
    /// `null` for an empty cell.
    pub value: Option<CellValue>,
    /// The formula without its leading `=`, when the cell has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub formula: Option<String>,
}

/// One sheet of a spreadsheet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SheetInfo {
    pub name: String,
    /// Rows up to the last used one (from the sheet's own dimension record
    /// in `.xlsx`, which a writer may leave out: then 0 until paged).
    pub rows: u64,
    pub columns: u32,
}

/// One page of a sheet's rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(rename = "SheetRowsPage")]
#[schema(as = SheetRowsPage)]
#[serde(rename_all = "camelCase")]
pub struct RowsPage {
    pub sheet: String,
    /// The 0-based index of `rows[0]`.
    pub offset: u64,
    /// `rows[i]` is row `offset + i`, its cells from column 0 to its last
    /// non-empty one (an empty row is `[]`).
    pub rows: Vec<Vec<Cell>>,
    /// The offset of the next page, `null` after the last row.
    pub next: Option<u64>,
}

/// One edit: 0-based row and column; `value` `null` clears the cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(rename = "SheetCellEdit")]
#[schema(as = SheetCellEdit)]
#[serde(rename_all = "camelCase")]
pub struct CellEdit {
    pub row: u32,
    pub column: u32,
    pub value: Option<CellValue>,
}

/// A 0-based column index as its spreadsheet letters (0 → `A`, 27 → `AB`).
pub fn column_letters(column: u32) -> String {
    let mut n = u64::from(column) + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = ((n - 1) % 26) as u8;
        out.push(b'A' + rem);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8_lossy(&out).into_owned()
}
