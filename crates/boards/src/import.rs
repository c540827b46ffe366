//! Import: a full-board JSON export read back as a new board, and CSV files
//! whose column types are inferred. Each is planned first, without the
//! database ([`plan_board_json`], [`plan_csv`]): the CLI plans locally and
//! creates the board through the API. [`import_board_json`] and [`import_csv`]
//! store a plan in one transaction. Neither way records item events (an
//! import is not a change anyone is notified about).
//!
//! Export needs no code of its own: it is the full-board read's body.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::Read;

use serde::Deserialize;
use serde_json::{Map, Value, json};
use store::Db;

use crate::boards::{BoardPlan, column_from, generate_id, insert_board, plan_board};
use crate::columns::{ColumnType, is_date};
use crate::error::{Result, check_name, invalid};
use crate::items::insert_items_tx;
use crate::model::{
    Board, CsvImportReport, ImportReport, InferredColumn, NewBoard, NewColumn, NewGroup, NewItem,
};
use crate::rules::BoardRules;
use crate::workspaces::check_workspace;

#[derive(Deserialize)]
struct Export {
    board: ExportedBoard,
    #[serde(default)]
    items: Vec<NewItem>,
}

#[derive(Deserialize)]
struct ExportedBoard {
    name: String,
    #[serde(default)]
    columns: Vec<NewColumn>,
    #[serde(default)]
    groups: Vec<NewGroup>,
}

/// A full-board JSON export read and checked, ready to be created: by
/// [`import_board_json`] here, or through the API by a client.
pub struct JsonImport {
    /// The new board (its `workspace_id` left empty for the caller): column
    /// ids kept, since dashboards address columns by id; fresh group ids.
    pub board: NewBoard,
    /// The items, their group ids already the new ones.
    pub items: Vec<NewItem>,
    plan: BoardPlan,
}

/// Reads a full-board JSON export. Column ids are kept; the groups get new ids
/// (and the items follow them). An item naming a group the export does not
/// have is refused (`items[12]: ...`); values are checked when the items are
/// created.
pub fn plan_board_json(bytes: &[u8]) -> Result<JsonImport> {
    let export: Export = serde_json::from_slice(bytes)
        .map_err(|e| invalid(format!("not a full-board export: {e}")))?;
    let mut group_ids = HashMap::new();
    let mut groups = Vec::with_capacity(export.board.groups.len());
    for group in &export.board.groups {
        let new_id = store::new_id();
        if let Some(old) = &group.id {
            group_ids.insert(old.clone(), new_id.clone());
        }
        groups.push(NewGroup {
            id: Some(new_id),
            title: group.title.clone(),
        });
    }
    let board = NewBoard {
        workspace_id: String::new(),
        name: export.board.name,
        columns: export.board.columns,
        groups,
        preset: None,
    };
    let plan = plan_board(&board)?;
    let mut items = export.items;
    for (index, item) in items.iter_mut().enumerate() {
        if let Some(old) = &item.group_id {
            let new = group_ids
                .get(old)
                .ok_or_else(|| invalid(format!("items[{index}]: unknown group id \"{old}\"")))?;
            item.group_id = Some(new.clone());
        }
    }
    Ok(JsonImport { board, items, plan })
}

impl JsonImport {
    /// Leaves member ids outside `members` (the importing account's) out of
    /// people values, and returns them, sorted and once each.
    pub fn drop_unknown_members(&mut self, members: &HashSet<String>) -> Vec<String> {
        let people: Vec<&str> = self
            .plan
            .columns
            .iter()
            .filter(|c| c.kind == ColumnType::People)
            .map(|c| c.id.as_str())
            .collect();
        let mut dropped = BTreeSet::new();
        for item in &mut self.items {
            for column in &people {
                if let Some(Value::Array(ids)) = item.values.get_mut(*column) {
                    ids.retain(|id| {
                        let known = id.as_str().is_none_or(|id| members.contains(id));
                        if !known {
                            dropped.insert(id.as_str().unwrap_or_default().to_owned());
                        }
                        known
                    });
                }
            }
        }
        dropped.into_iter().collect()
    }

    /// True when some column holds people, whose member ids must be checked
    /// against the importing account's directory.
    pub fn has_people(&self) -> bool {
        self.plan
            .columns
            .iter()
            .any(|c| c.kind == ColumnType::People)
    }
}

/// Creates a new board in `workspace_id` from a full-board JSON export
/// ([`plan_board_json`]), in one transaction. Member ids the account does not
/// know are dropped from people values and listed in the report; any other bad
/// value refuses the whole import, naming the item (`items[12]: ...`).
pub fn import_board_json(
    db: &Db,
    account_id: &str,
    workspace_id: &str,
    bytes: &[u8],
) -> Result<ImportReport> {
    let mut import = plan_board_json(bytes)?;
    db.write(|tx| {
        check_workspace(tx, account_id, workspace_id)?;
        let board = insert_board(tx, account_id, workspace_id, &import.plan)?;
        let rules = BoardRules::load(tx, account_id, &board.id)?;
        let dropped_members = import.drop_unknown_members(&rules.members);
        insert_items_tx(tx, &rules, None, &board.id, &import.items, |i| {
            format!("items[{i}]")
        })?;
        Ok(ImportReport {
            board,
            items: import.items.len() as u64,
            dropped_members,
        })
    })
}

/// Refusals listed in one error before the rest are only counted.
const SHOWN_REFUSALS: usize = 20;
/// How often `progress` hears about rows read.
const PROGRESS_EVERY: u64 = 1000;
/// A column with at most this many distinct values (each repeated) is a status.
const STATUS_MAX_LABELS: usize = 12;

const NAME_TITLES: [&str; 6] = ["name", "item", "title", "task", "summary", "issue"];
const DONE_WORDS: [&str; 8] = [
    "done",
    "complete",
    "completed",
    "closed",
    "resolved",
    "finished",
    "shipped",
    "merged",
];

struct Row {
    line: u64,
    cells: Vec<String>,
}

/// Creates a board called `name` from a CSV whose first row holds the column
/// titles. The name column is the first titled Name, Item, Title, Task,
/// Summary or Issue (else the first column); a column titled Group spreads the
/// items over groups. Every other column's type is inferred from its cells:
/// checkbox (true/false/yes/no), number (a leading $, € or £ becomes the unit),
/// date (YYYY-MM-DD), status (few distinct values that repeat), else text.
/// Rows with the wrong number of fields, an empty name or an impossible date
/// are refused with their line numbers, and then nothing is stored.
/// `progress` is told the number of rows read every 1,000 rows and at the end.
/// Nothing is stored: [`import_csv`] stores the plan here, a client sends it
/// through the API.
pub fn plan_csv(name: &str, reader: impl Read, progress: &mut dyn FnMut(u64)) -> Result<CsvImport> {
    let mut csv = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(reader);
    let mut record = csv::StringRecord::new();
    let mut refusals = Vec::new();
    let mut titles: Option<Vec<String>> = None;
    let mut rows = Vec::new();
    let mut read: u64 = 0;
    loop {
        match csv.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                let line = record.position().map_or(0, |p| p.line());
                let cells: Vec<String> = record.iter().map(|c| c.trim().to_owned()).collect();
                match &titles {
                    None => titles = Some(cells),
                    Some(t) if t.len() != cells.len() => refusals.push(format!(
                        "line {line}: expected {} fields, found {}",
                        t.len(),
                        cells.len()
                    )),
                    Some(_) => rows.push(Row { line, cells }),
                }
                read += 1;
                if read.is_multiple_of(PROGRESS_EVERY) {
                    progress(read);
                }
            }
            Err(e) => match e.kind() {
                csv::ErrorKind::Io(_) => return Err(invalid(format!("cannot read the CSV: {e}"))),
                _ => {
                    let line = e.position().map_or(0, |p| p.line());
                    refusals.push(format!("line {line}: {e}"));
                }
            },
        }
    }
    let titles = titles
        .ok_or_else(|| invalid("the CSV is empty: its first row must hold the column titles"))?;
    let titles: Vec<String> = titles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if t.is_empty() {
                format!("Column {}", i + 1)
            } else {
                t.clone()
            }
        })
        .collect();
    let name_at = titles
        .iter()
        .position(|t| NAME_TITLES.contains(&t.to_lowercase().as_str()))
        .unwrap_or(0);
    let group_at = titles
        .iter()
        .position(|t| t.eq_ignore_ascii_case("group"))
        .filter(|&g| g != name_at);
    for row in &rows {
        if row.cells[name_at].is_empty() {
            refusals.push(format!(
                "line {}: the name (column \"{}\") is empty",
                row.line, titles[name_at]
            ));
        }
    }

    let mut taken = HashSet::new();
    let mut inferred = Vec::new();
    let mut columns = Vec::new();
    for (at, title) in titles.iter().enumerate() {
        if at == name_at || Some(at) == group_at {
            continue;
        }
        let cells = rows.iter().map(|r| (r.line, r.cells[at].as_str()));
        let (kind, settings) = infer(cells.clone());
        if kind == ColumnType::Date {
            for (line, cell) in cells.filter(|(_, c)| !c.is_empty() && !is_date(c)) {
                refusals.push(format!(
                    "line {line}: \"{cell}\" in column \"{title}\" is not a real date"
                ));
            }
        }
        let id = generate_id(title, "column", &mut taken);
        inferred.push(InferredColumn {
            title: title.clone(),
            id: id.clone(),
            kind,
        });
        let new = NewColumn {
            id: Some(id),
            title: title.clone(),
            kind: kind.as_str().to_owned(),
            settings,
        };
        columns.push((at, kind, column_from(&new)?.1, new));
    }
    if !refusals.is_empty() {
        refusals.sort_by_key(|r| {
            r.strip_prefix("line ")
                .and_then(|r| r.split(':').next())
                .and_then(|n| n.parse::<u64>().ok())
        });
        let count = refusals.len();
        let mut message = format!("{count} row(s) refused, nothing imported: ");
        message.push_str(&refusals[..count.min(SHOWN_REFUSALS)].join("; "));
        if count > SHOWN_REFUSALS {
            message.push_str(&format!("; and {} more", count - SHOWN_REFUSALS));
        }
        return Err(invalid(message));
    }

    let mut group_ids: HashMap<&str, String> = HashMap::new();
    let mut groups = Vec::new();
    let mut group_taken = HashSet::new();
    let mut items = Vec::with_capacity(rows.len());
    for row in &rows {
        let group_title = group_at
            .map(|g| row.cells[g].as_str())
            .filter(|t| !t.is_empty())
            .unwrap_or("Imported");
        let group_id = group_ids
            .entry(group_title)
            .or_insert_with(|| {
                let id = generate_id(group_title, "group", &mut group_taken);
                groups.push(crate::model::Group {
                    id: id.clone(),
                    title: group_title.to_owned(),
                });
                id
            })
            .clone();
        let mut values = Map::new();
        for (at, kind, column, _) in &columns {
            if let Some(value) = cell_value(*kind, &row.cells[*at]) {
                values.insert(column.id.clone(), value);
            }
        }
        items.push(NewItem {
            group_id: Some(group_id),
            name: row.cells[name_at].clone(),
            values,
        });
    }
    if groups.is_empty() {
        groups.push(crate::model::Group {
            id: "imported".into(),
            title: "Imported".into(),
        });
    }
    let name = check_name("name", name)?;
    let board = NewBoard {
        workspace_id: String::new(),
        name: name.clone(),
        columns: columns.iter().map(|(_, _, _, new)| new.clone()).collect(),
        groups: groups
            .iter()
            .map(|g| NewGroup {
                id: Some(g.id.clone()),
                title: g.title.clone(),
            })
            .collect(),
        preset: None,
    };
    let plan = BoardPlan {
        name,
        columns: columns.into_iter().map(|(_, _, c, _)| c).collect(),
        groups,
        views: Vec::new(),
    };
    progress(rows.len() as u64);
    Ok(CsvImport {
        board,
        items,
        lines: rows.iter().map(|r| r.line).collect(),
        name_column: titles[name_at].clone(),
        group_column: group_at.map(|g| titles[g].clone()),
        columns: inferred,
        plan,
    })
}

/// A CSV file read, its column types inferred and every row checked, ready to
/// be created: by [`import_csv`] here, or through the API by a client.
pub struct CsvImport {
    /// The new board (its `workspace_id` left empty for the caller).
    pub board: NewBoard,
    /// One item per row, in file order.
    pub items: Vec<NewItem>,
    /// The file's line of each item, for refusals (`line 12: ...`).
    pub lines: Vec<u64>,
    pub name_column: String,
    pub group_column: Option<String>,
    pub columns: Vec<InferredColumn>,
    plan: BoardPlan,
}

impl CsvImport {
    /// The report of the import, once `board` exists.
    pub fn report(self, board: Board) -> CsvImportReport {
        CsvImportReport {
            board,
            rows: self.items.len() as u64,
            name_column: self.name_column,
            group_column: self.group_column,
            columns: self.columns,
        }
    }
}

/// Creates a board called `name` from a CSV ([`plan_csv`]) in one transaction:
/// all or nothing.
pub fn import_csv(
    db: &Db,
    account_id: &str,
    workspace_id: &str,
    name: &str,
    reader: impl Read,
    progress: &mut dyn FnMut(u64),
) -> Result<CsvImportReport> {
    let import = plan_csv(name, reader, progress)?;
    let board = db.write(|tx| -> Result<Board> {
        check_workspace(tx, account_id, workspace_id)?;
        let board = insert_board(tx, account_id, workspace_id, &import.plan)?;
        let rules = BoardRules::load(tx, account_id, &board.id)?;
        insert_items_tx(tx, &rules, None, &board.id, &import.items, |i| {
            format!("line {}", import.lines[i])
        })?;
        Ok(board)
    })?;
    Ok(import.report(board))
}

fn is_checkbox(cell: &str) -> bool {
    ["true", "false", "yes", "no"]
        .iter()
        .any(|w| cell.eq_ignore_ascii_case(w))
}

/// A number cell without its currency sign and thousands separators, and the sign.
fn parse_number(cell: &str) -> Option<(f64, Option<char>)> {
    let (unit, rest) = match cell.chars().next() {
        Some(c @ ('$' | '€' | '£')) => (Some(c), &cell[c.len_utf8()..]),
        _ => (None, cell),
    };
    let n: f64 = rest.replace(',', "").parse().ok()?;
    n.is_finite().then_some((n, unit))
}

fn date_shaped(cell: &str) -> bool {
    let b = cell.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

/// The type of one CSV column and the settings it needs, from its cells.
fn infer<'a>(cells: impl Iterator<Item = (u64, &'a str)>) -> (ColumnType, Option<Value>) {
    let filled: Vec<&str> = cells.map(|(_, c)| c).filter(|c| !c.is_empty()).collect();
    if filled.is_empty() {
        return (ColumnType::Text, None);
    }
    if filled.iter().all(|c| is_checkbox(c)) {
        return (ColumnType::Checkbox, None);
    }
    let numbers: Option<Vec<(f64, Option<char>)>> =
        filled.iter().map(|c| parse_number(c)).collect();
    if let Some(numbers) = numbers {
        let unit = numbers.iter().find_map(|(_, u)| *u);
        let settings = unit.map(|u| json!({"unit": u.to_string(), "unitPosition": "left"}));
        return (ColumnType::Number, settings);
    }
    if filled.iter().all(|c| date_shaped(c)) {
        return (ColumnType::Date, None);
    }
    let mut distinct: Vec<&str> = Vec::new();
    for cell in &filled {
        if !distinct.contains(cell) {
            distinct.push(cell);
            if distinct.len() > STATUS_MAX_LABELS {
                return (ColumnType::Text, None);
            }
        }
    }
    if filled.len() >= 4 && distinct.len() * 2 <= filled.len() {
        let labels: Vec<Value> = distinct
            .iter()
            .map(|l| {
                if DONE_WORDS.contains(&l.to_lowercase().as_str()) {
                    json!({"name": l, "done": true})
                } else {
                    json!({"name": l})
                }
            })
            .collect();
        return (ColumnType::Status, Some(json!({ "labels": labels })));
    }
    (ColumnType::Text, None)
}

/// The stored value of one cell of a column whose type was inferred from all
/// its cells (so every cell fits); `None` for an empty cell.
fn cell_value(kind: ColumnType, cell: &str) -> Option<Value> {
    if cell.is_empty() {
        return None;
    }
    Some(match kind {
        ColumnType::Checkbox => {
            json!(cell.eq_ignore_ascii_case("true") || cell.eq_ignore_ascii_case("yes"))
        }
        ColumnType::Number => {
            let n = parse_number(cell)?.0;
            // Whole numbers stay integers in the JSON ("3", not "3.0").
            if n.fract() == 0.0 && n.abs() < 9e15 {
                json!(n as i64)
            } else {
                json!(n)
            }
        }
        _ => json!(cell),
    })
}
