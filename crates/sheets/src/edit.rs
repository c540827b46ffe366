//! Edits written back into a spreadsheet's bytes: `.xlsx` patched in place
//! (see `xlsx_patch`), `.csv` rewritten record by record, `.ods` refused with
//! [`SheetError::ReadOnlyFormat`] (patching `content.xml`'s repeated-cell
//! runs safely is a project of its own; its users can save as `.xlsx`).

use std::collections::BTreeMap;

use crate::read::{csv_delimiter, csv_reader, guarded, read_csv_record};
use crate::{CellEdit, CellValue, Format, MAX_FILE_BYTES, SheetError, xlsx_patch};

/// The most cells one call may edit.
pub const MAX_EDITS: usize = 10_000;
/// Rows and columns an `.xlsx` sheet can have at most (Excel's own limits).
pub const MAX_ROWS: u32 = 1_048_576;
pub const MAX_COLUMNS: u32 = 16_384;

/// The spreadsheet with `edits` applied to `sheet`.
pub fn apply(
    bytes: &[u8],
    format: Format,
    sheet: &str,
    edits: &[CellEdit],
) -> Result<Vec<u8>, SheetError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(SheetError::TooLarge {
            size: bytes.len() as u64,
            limit: MAX_FILE_BYTES as u64,
        });
    }
    if edits.is_empty() || edits.len() > MAX_EDITS {
        return Err(SheetError::Invalid(format!(
            "an edit holds 1 to {MAX_EDITS} cells"
        )));
    }
    for edit in edits {
        if edit.row >= MAX_ROWS || edit.column >= MAX_COLUMNS {
            return Err(SheetError::Invalid(format!(
                "cell ({}, {}) is outside a sheet ({MAX_ROWS} rows, {MAX_COLUMNS} columns)",
                edit.row, edit.column
            )));
        }
        if let Some(CellValue::Number(n)) = edit.value
            && !n.is_finite()
        {
            return Err(SheetError::Invalid("a number must be finite".into()));
        }
    }
    match format {
        Format::Xlsx => {
            crate::read::check_zip(bytes)?;
            guarded(|| xlsx_patch::patch(bytes, sheet, edits))
        }
        Format::Csv => {
            if sheet != crate::read::CSV_SHEET {
                return Err(SheetError::SheetNotFound(sheet.into()));
            }
            rewrite_csv(bytes, edits)
        }
        Format::Ods => Err(SheetError::ReadOnlyFormat(Format::Ods)),
    }
}

/// Every record copied with the edited fields replaced; the delimiter and
/// line ending stay the file's, quoting is the writer's (only where needed).
fn rewrite_csv(bytes: &[u8], edits: &[CellEdit]) -> Result<Vec<u8>, SheetError> {
    let mut by_row: BTreeMap<u32, BTreeMap<u32, String>> = BTreeMap::new();
    for edit in edits {
        by_row
            .entry(edit.row)
            .or_default()
            .insert(edit.column, csv_text(&edit.value));
    }
    let terminator = if bytes.windows(2).any(|w| w == b"\r\n") {
        csv::Terminator::CRLF
    } else {
        csv::Terminator::Any(b'\n')
    };
    let mut writer = csv::WriterBuilder::new()
        .flexible(true)
        .delimiter(csv_delimiter(bytes))
        .terminator(terminator)
        .from_writer(Vec::with_capacity(bytes.len() + 64));
    let mut reader = csv_reader(bytes);
    let mut record = csv::StringRecord::new();
    let mut row = 0u32;
    let mut fields: Vec<String> = Vec::new();
    let write = |writer: &mut csv::Writer<Vec<u8>>, fields: &[String]| {
        writer.write_record(fields).map_err(SheetError::corrupt)
    };
    while read_csv_record(&mut reader, &mut record)? {
        fields.clear();
        fields.extend(record.iter().map(str::to_owned));
        if let Some(cells) = by_row.remove(&row) {
            set_fields(&mut fields, cells);
        }
        write(&mut writer, &fields)?;
        row = row.saturating_add(1);
    }
    for (index, cells) in by_row {
        while row < index {
            write(&mut writer, &[String::new()])?;
            row += 1;
        }
        fields.clear();
        set_fields(&mut fields, cells);
        write(&mut writer, &fields)?;
        row += 1;
    }
    writer.into_inner().map_err(SheetError::corrupt)
}

fn set_fields(fields: &mut Vec<String>, cells: BTreeMap<u32, String>) {
    for (column, text) in cells {
        let column = column as usize;
        if fields.len() <= column {
            fields.resize(column + 1, String::new());
        }
        fields[column] = text;
    }
}

fn csv_text(value: &Option<CellValue>) -> String {
    match value {
        None => String::new(),
        Some(CellValue::Text(t)) => t.clone(),
        Some(CellValue::Number(n)) => n.to_string(),
        Some(CellValue::Bool(b)) => if *b { "TRUE" } else { "FALSE" }.into(),
    }
}
