//! Items by their dates, for the inbox's due-today and overdue notices: which
//! items of every account have a date on or before a given day, and whether
//! each is done (its status is a label marked `"done": true`) and who is on it.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use store::Db;
use store::rusqlite::params;

use crate::boards::load_columns;
use crate::columns::ColumnType;
use crate::error::Result;

/// One item's date in one date column.
#[derive(Debug, Clone, PartialEq)]
pub struct DatedItem {
    pub account_id: String,
    pub board_id: String,
    pub board_name: String,
    pub item_id: String,
    pub item_name: String,
    pub column_id: String,
    pub column_title: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Some status column of the item holds a label marked done.
    pub done: bool,
    /// The member ids in the item's people columns.
    pub people: Vec<String>,
}

/// What a board's status and people columns say about its items.
struct BoardShape {
    /// Status column id → its labels marked done.
    done_labels: Vec<(String, HashSet<String>)>,
    people: Vec<String>,
}

/// Every item of every account whose date in a date column is on or before
/// `day` (`YYYY-MM-DD`; dates sort as text), or of those only among `items`
/// (ids). The full scan is one pass a day, so a scan of the date columns is
/// affordable; a change of dates looks at the items it changed.
pub fn dated_items(db: &Db, day: &str, items: Option<&[String]>) -> Result<Vec<DatedItem>> {
    const DATED: &str =
        "SELECT b.account_id, b.id, b.name, i.id, i.name, c.id, c.title, i.vals, d.value
             FROM board_columns c
             JOIN boards b ON b.id = c.board_id
             JOIN items i ON i.board_id = c.board_id
             JOIN json_each(i.vals) d ON d.key = c.id
             WHERE c.type = 'date' AND d.type = 'text' AND d.value <= ?1";
    let only = items.map(|ids| serde_json::to_string(ids).unwrap_or_default());
    db.read(|tx| {
        let mut stmt = match &only {
            None => tx.prepare_cached(DATED)?,
            Some(_) => tx.prepare_cached(&format!(
                "{DATED} AND i.id IN (SELECT value FROM json_each(?2))"
            ))?,
        };
        let map_row = |r: &store::rusqlite::Row<'_>| {
            Ok((
                DatedItem {
                    account_id: r.get(0)?,
                    board_id: r.get(1)?,
                    board_name: r.get(2)?,
                    item_id: r.get(3)?,
                    item_name: r.get(4)?,
                    column_id: r.get(5)?,
                    column_title: r.get(6)?,
                    date: r.get(8)?,
                    done: false,
                    people: Vec::new(),
                },
                r.get::<_, String>(7)?,
            ))
        };
        let rows = match &only {
            None => stmt.query_map(params![day], map_row)?,
            Some(ids) => stmt.query_map(params![day, ids], map_row)?,
        };
        let mut shapes: HashMap<String, BoardShape> = HashMap::new();
        let mut items = Vec::new();
        for row in rows {
            let (mut item, vals) = row?;
            if !shapes.contains_key(&item.board_id) {
                let shape = board_shape(tx, &item.board_id)?;
                shapes.insert(item.board_id.clone(), shape);
            }
            let Some(shape) = shapes.get(&item.board_id) else {
                continue;
            };
            let vals: Map<String, Value> = serde_json::from_str(&vals).unwrap_or_default();
            item.done = shape.done_labels.iter().any(|(column, done)| {
                vals.get(column)
                    .and_then(Value::as_str)
                    .is_some_and(|label| done.contains(label))
            });
            item.people = shape
                .people
                .iter()
                .filter_map(|column| vals.get(column).and_then(Value::as_array))
                .flatten()
                .filter_map(|m| m.as_str().map(str::to_owned))
                .collect();
            items.push(item);
        }
        Ok(items)
    })
}

fn board_shape(tx: &store::rusqlite::Transaction<'_>, board_id: &str) -> Result<BoardShape> {
    let mut shape = BoardShape {
        done_labels: Vec::new(),
        people: Vec::new(),
    };
    for column in load_columns(tx, board_id)? {
        match column.kind {
            ColumnType::Status => shape
                .done_labels
                .push((column.id, done_labels(&column.settings))),
            ColumnType::People => shape.people.push(column.id),
            _ => {}
        }
    }
    Ok(shape)
}

/// The names of a status column's labels marked `"done": true`.
pub fn done_labels(settings: &Value) -> HashSet<String> {
    settings
        .get("labels")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|l| l.get("done").and_then(Value::as_bool) == Some(true))
        .filter_map(|l| l.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect()
}
