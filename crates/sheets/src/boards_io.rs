//! Boards and sheets: a board exported as an `.xlsx` file, and a sheet's rows
//! planned as a new board with the columns the user mapped to board column
//! types. Both are pure: the application reads the board or the rows and
//! stores the result.

use std::collections::BTreeSet;

use boards::{Board, ColumnType, Item, NewBoard, NewColumn, NewItem};
use rust_xlsxwriter::{Format as CellFormat, Workbook};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::{Cell, CellValue, SheetError, column_letters};

/// A board as one sheet: a header row (`Name`, `Group`, then the column
/// titles) and one row per item, numbers and checkboxes as typed cells,
/// people as their member ids, a timeline as `from – to`.
pub fn export_board(board: &Board, items: &[Item]) -> Result<Vec<u8>, SheetError> {
    let fail = |e: rust_xlsxwriter::XlsxError| SheetError::Invalid(format!("export: {e}"));
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let name: String = board
        .name
        .chars()
        .filter(|c| !matches!(c, '[' | ']' | ':' | '*' | '?' | '/' | '\\'))
        .take(31)
        .collect();
    if !name.trim().is_empty() {
        sheet.set_name(name.trim()).map_err(fail)?;
    }
    let bold = CellFormat::new().set_bold();
    let headers = ["Name", "Group"]
        .into_iter()
        .map(str::to_owned)
        .chain(board.columns.iter().map(|c| c.title.clone()));
    for (col, title) in headers.enumerate() {
        sheet
            .write_string_with_format(0, col as u16, title, &bold)
            .map_err(fail)?;
    }
    for (i, item) in items.iter().enumerate() {
        let row = u32::try_from(i + 1)
            .map_err(|_| SheetError::Invalid("too many items for one sheet".into()))?;
        sheet.write_string(row, 0, &item.name).map_err(fail)?;
        let group = board
            .groups
            .iter()
            .find(|g| g.id == item.group_id)
            .map_or("", |g| g.title.as_str());
        sheet.write_string(row, 1, group).map_err(fail)?;
        for (c, column) in board.columns.iter().enumerate() {
            let col = (c + 2) as u16;
            match item.values.get(&column.id) {
                None | Some(Value::Null) => {}
                Some(Value::Number(n)) => {
                    sheet
                        .write_number(row, col, n.as_f64().unwrap_or_default())
                        .map_err(fail)?;
                }
                Some(Value::Bool(b)) => {
                    sheet.write_boolean(row, col, *b).map_err(fail)?;
                }
                Some(Value::String(s)) => {
                    sheet.write_string(row, col, s).map_err(fail)?;
                }
                Some(Value::Array(list)) => {
                    let text: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
                    sheet
                        .write_string(row, col, text.join(", "))
                        .map_err(fail)?;
                }
                Some(Value::Object(o)) => {
                    let part = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or_default();
                    let text = format!("{} – {}", part("from"), part("to"));
                    sheet.write_string(row, col, text).map_err(fail)?;
                }
            }
        }
    }
    sheet.autofit();
    book.save_to_buffer().map_err(fail)
}

/// How a sheet becomes a board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct SheetImport {
    /// The column whose text names each item.
    pub name_column: u32,
    /// Rows before the data (the header); their first row titles unmapped
    /// columns' defaults. Usually 1.
    #[serde(default = "one")]
    pub header_rows: u32,
    pub columns: Vec<ColumnMapping>,
}

fn one() -> u32 {
    1
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct ColumnMapping {
    /// 0-based sheet column.
    pub column: u32,
    /// The board column's title; the header cell's text when left out.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(rename = "type")]
    pub kind: ColumnType,
}

/// A planned board: what `POST /boards` and item creation take, and the
/// cells that could not become values of their column's type.
#[derive(Debug, Clone)]
pub struct BoardPlan {
    pub board: NewBoard,
    pub items: Vec<NewItem>,
    /// `C7: "soon" is not a date (YYYY-MM-DD)`, one per skipped cell.
    pub skipped: Vec<String>,
}

/// Plans a board from a sheet's rows (as [`crate::read::rows`] pages them).
/// Status columns get one label per distinct value, dropdowns their options;
/// people and timeline columns are refused (a sheet holds no member ids or
/// ranges in a form to trust). Rows without a name are skipped.
pub fn plan_board(
    workspace_id: &str,
    name: &str,
    rows: &[Vec<Cell>],
    import: &SheetImport,
) -> Result<BoardPlan, SheetError> {
    if let Some(m) = import
        .columns
        .iter()
        .find(|m| matches!(m.kind, ColumnType::People | ColumnType::Timeline))
    {
        return Err(SheetError::Invalid(format!(
            "column {} cannot be imported as {}: map it to text",
            column_letters(m.column),
            m.kind.as_str()
        )));
    }
    let header = import.header_rows as usize;
    let data = rows.get(header..).unwrap_or_default();
    let header_row = header.checked_sub(1).and_then(|h| rows.get(h));
    let mut columns = Vec::with_capacity(import.columns.len());
    for (i, m) in import.columns.iter().enumerate() {
        let title = m
            .title
            .clone()
            .or_else(|| header_row.and_then(|r| cell_text(r.get(m.column as usize))))
            .unwrap_or_else(|| column_letters(m.column));
        let distinct = || -> BTreeSet<String> {
            data.iter()
                .filter_map(|r| cell_text(r.get(m.column as usize)))
                .collect()
        };
        let settings = match m.kind {
            ColumnType::Status => {
                let labels: Vec<Value> =
                    distinct().into_iter().map(|n| json!({"name": n})).collect();
                (!labels.is_empty()).then(|| json!({"labels": labels}))
            }
            ColumnType::Dropdown => Some(json!({"options": distinct()})),
            _ => None,
        };
        columns.push(NewColumn {
            id: Some(format!("c{i}")),
            title,
            kind: m.kind.as_str().to_owned(),
            settings,
        });
    }
    let mut items = Vec::new();
    let mut skipped = Vec::new();
    for (r, row) in data.iter().enumerate() {
        let Some(item_name) = cell_text(row.get(import.name_column as usize)) else {
            continue;
        };
        let mut values = Map::new();
        for (i, m) in import.columns.iter().enumerate() {
            let cell = row.get(m.column as usize);
            let Some(value) = cell.and_then(|c| c.value.as_ref()) else {
                continue;
            };
            match convert(m.kind, value) {
                Some(v) => {
                    values.insert(format!("c{i}"), v);
                }
                None => skipped.push(format!(
                    "{}{}: {} is not {}",
                    column_letters(m.column),
                    header + r + 1,
                    serde_json::to_string(value).unwrap_or_default(),
                    what(m.kind)
                )),
            }
        }
        items.push(NewItem {
            group_id: None,
            name: item_name,
            values,
        });
    }
    Ok(BoardPlan {
        board: NewBoard {
            workspace_id: workspace_id.to_owned(),
            name: name.to_owned(),
            columns,
            groups: Vec::new(),
            preset: None,
        },
        items,
        skipped,
    })
}

fn cell_text(cell: Option<&Cell>) -> Option<String> {
    let text = match cell?.value.as_ref()? {
        CellValue::Text(t) => t.trim().to_owned(),
        CellValue::Number(n) => n.to_string(),
        CellValue::Bool(b) => b.to_string(),
    };
    (!text.is_empty()).then_some(text)
}

fn convert(kind: ColumnType, value: &CellValue) -> Option<Value> {
    match (kind, value) {
        (ColumnType::Number, CellValue::Number(n)) => {
            serde_json::Number::from_f64(*n).map(Value::Number)
        }
        (ColumnType::Number, CellValue::Text(t)) => t
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        (ColumnType::Checkbox, CellValue::Bool(b)) => Some(Value::Bool(*b)),
        (ColumnType::Checkbox, CellValue::Number(n)) => Some(Value::Bool(*n != 0.0)),
        (ColumnType::Checkbox, CellValue::Text(t)) => {
            match t.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "x" | "1" | "done" => Some(Value::Bool(true)),
                "false" | "no" | "" | "0" => Some(Value::Bool(false)),
                _ => None,
            }
        }
        (ColumnType::Date, CellValue::Text(t)) => {
            let day = t.trim().get(..10)?;
            is_day(day).then(|| Value::String(day.to_owned()))
        }
        (ColumnType::Dropdown, _) => cell_text(Some(&Cell {
            value: Some(value.clone()),
            formula: None,
        }))
        .map(|t| json!([t])),
        (ColumnType::Text | ColumnType::Status, _) => cell_text(Some(&Cell {
            value: Some(value.clone()),
            formula: None,
        }))
        .map(Value::String),
        _ => None,
    }
}

fn is_day(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

fn what(kind: ColumnType) -> &'static str {
    match kind {
        ColumnType::Number => "a number",
        ColumnType::Checkbox => "true or false",
        ColumnType::Date => "a date (YYYY-MM-DD)",
        _ => "text",
    }
}
