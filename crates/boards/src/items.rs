//! Items: creation (one or a batch, all or nothing), partial updates, moves and
//! deletion, every value checked against its column before anything is stored.

use std::collections::HashMap;

use serde_json::{Map, Value};
use store::Db;
use store::rusqlite::{OptionalExtension, Row, Transaction, params};

use crate::boards::check_board;
use crate::error::{Result, invalid, not_found};
use crate::events::{Change, Recorder};
use crate::model::{Item, ItemPatch, NewItem};
use crate::rules::BoardRules;
use crate::tables::touch_board;

/// Most batches fit in one request body; larger ones must be split by the caller.
pub const MAX_BATCH_ITEMS: usize = 10_000;

fn item_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        Err("name must not be empty".into())
    } else if name.chars().count() > 1000 {
        Err("name must be at most 1000 characters".into())
    } else {
        Ok(name.to_owned())
    }
}

/// Inserts already-named items after checking each; `what(i)` says how to name
/// item `i` in a refusal. Returns the new ids in order.
pub(crate) fn insert_items_tx(
    tx: &Transaction<'_>,
    rules: &BoardRules,
    recorder: Option<&Recorder<'_>>,
    board_id: &str,
    items: &[NewItem],
    what: impl Fn(usize) -> String,
) -> Result<Vec<String>> {
    let now = store::now_rfc3339();
    let mut next_position: HashMap<&str, i64> = HashMap::new();
    let mut insert = tx.prepare_cached(
        "INSERT INTO items (id, board_id, group_id, name, position, vals, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
    )?;
    let mut max_position = tx.prepare_cached(
        "SELECT coalesce(max(position) + 1, 0) FROM items WHERE board_id = ?1 AND group_id = ?2",
    )?;
    let empty = Map::new();
    let mut ids = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let refuse = |e: String| invalid(format!("{}: {e}", what(index)));
        let name = item_name(&item.name).map_err(refuse)?;
        let group = rules.group(item.group_id.as_deref()).map_err(refuse)?;
        let mut values = Map::new();
        for (key, value) in &item.values {
            rules.check(key, value).map_err(refuse)?;
            if !value.is_null() {
                values.insert(key.clone(), value.clone());
            }
        }
        let position = match next_position.get_mut(group) {
            Some(p) => p,
            None => {
                let first = max_position.query_row([board_id, group], |r| r.get(0))?;
                next_position.entry(group).or_insert(first)
            }
        };
        let id = store::new_id();
        let vals = Value::Object(values);
        insert.execute(params![
            id,
            board_id,
            group,
            name,
            *position,
            vals.to_string(),
            now
        ])?;
        *position += 1;
        if let (Some(recorder), Value::Object(values)) = (recorder, &vals) {
            let change = Change {
                item_id: &id,
                before: &empty,
                after: values,
                created: true,
            };
            recorder.record(rules, &change, values.keys())?;
        }
        ids.push(id);
    }
    if !items.is_empty() {
        touch_board(tx, board_id, &now)?;
    }
    Ok(ids)
}

/// Creates one item; `actor` is recorded on the events it causes.
pub fn create_item(
    db: &Db,
    account_id: &str,
    actor: &str,
    board_id: &str,
    item: &NewItem,
) -> Result<Item> {
    db.write(|tx| {
        let ids = write_items(
            tx,
            account_id,
            Some(actor),
            board_id,
            std::slice::from_ref(item),
        )?;
        let id = ids.first().ok_or(not_found("item"))?;
        load_item(tx, account_id, id)
    })
}

/// Creates up to [`MAX_BATCH_ITEMS`] items in one transaction: all or nothing.
/// A refusal names the index of the first bad item (`items[3]: ...`).
pub fn create_items(
    db: &Db,
    account_id: &str,
    actor: &str,
    board_id: &str,
    items: &[NewItem],
) -> Result<Vec<String>> {
    check_batch(items)?;
    db.write(|tx| write_items(tx, account_id, Some(actor), board_id, items))
}

/// Like [`create_items`], for a batch of an import: no item events are
/// recorded, since nobody is to be notified of assignments a file brought in.
pub fn import_items(
    db: &Db,
    account_id: &str,
    board_id: &str,
    items: &[NewItem],
) -> Result<Vec<String>> {
    check_batch(items)?;
    db.write(|tx| write_items(tx, account_id, None, board_id, items))
}

fn check_batch(items: &[NewItem]) -> Result<()> {
    if items.len() > MAX_BATCH_ITEMS {
        return Err(invalid(format!(
            "a batch holds at most {MAX_BATCH_ITEMS} items, not {}",
            items.len()
        )));
    }
    Ok(())
}

/// `actor` is recorded on the events the items cause; `None` records none.
fn write_items(
    tx: &Transaction<'_>,
    account_id: &str,
    actor: Option<&str>,
    board_id: &str,
    items: &[NewItem],
) -> Result<Vec<String>> {
    check_board(tx, account_id, board_id)?;
    let rules = BoardRules::load(tx, account_id, board_id)?;
    let now = store::now_rfc3339();
    let recorder = actor.map(|actor| Recorder {
        tx,
        board_id,
        actor,
        now: &now,
    });
    let single = items.len() == 1;
    insert_items_tx(tx, &rules, recorder.as_ref(), board_id, items, |i| {
        if single {
            SINGLE_ITEM.to_owned()
        } else {
            format!("items[{i}]")
        }
    })
}

/// How a refusal names the one item of a single-item write.
const SINGLE_ITEM: &str = "item";

/// The index of the item a batch refusal names, and the reason after it:
/// `items[3]: unknown column id "x"` gives `(3, "unknown column id \"x\"")`
/// (a one-item batch's `item: ...` gives 0). A client that splits a long
/// list into batches uses it to name the item in its whole list.
pub fn batch_refusal(message: &str) -> Option<(usize, &str)> {
    if let Some(reason) = message
        .strip_prefix(SINGLE_ITEM)
        .and_then(|rest| rest.strip_prefix(": "))
    {
        return Some((0, reason));
    }
    let (index, reason) = message.strip_prefix("items[")?.split_once("]: ")?;
    Some((index.parse().ok()?, reason))
}

struct StoredItem {
    item: Item,
    position: i64,
}

fn stored_item(row: &Row<'_>) -> store::rusqlite::Result<StoredItem> {
    let vals: String = row.get(4)?;
    Ok(StoredItem {
        item: Item {
            id: row.get(0)?,
            board_id: row.get(1)?,
            group_id: row.get(2)?,
            name: row.get(3)?,
            values: serde_json::from_str(&vals).unwrap_or_default(),
            created_at: row.get(5)?,
            updated_at: row.get(6)?,
        },
        position: row.get(7)?,
    })
}

/// The item when its board belongs to the account; `NotFound` otherwise.
fn find_item(tx: &Transaction<'_>, account_id: &str, item_id: &str) -> Result<StoredItem> {
    tx.prepare_cached(
        "SELECT i.id, i.board_id, i.group_id, i.name, i.vals, i.created_at, i.updated_at, i.position
         FROM items i JOIN boards b ON b.id = i.board_id
         WHERE i.id = ?1 AND b.account_id = ?2",
    )?
    .query_row([item_id, account_id], stored_item)
    .optional()?
    .ok_or(not_found("item"))
}

fn load_item(tx: &Transaction<'_>, account_id: &str, item_id: &str) -> Result<Item> {
    find_item(tx, account_id, item_id).map(|s| s.item)
}

pub fn get_item(db: &Db, account_id: &str, item_id: &str) -> Result<Item> {
    db.read(|tx| load_item(tx, account_id, item_id))
}

/// Applies a partial update (name, group, values) and records the events it
/// causes. A refused value leaves the item as it was.
pub fn update_item(
    db: &Db,
    account_id: &str,
    actor: &str,
    item_id: &str,
    patch: &ItemPatch,
) -> Result<Item> {
    let name = patch
        .name
        .as_deref()
        .map(item_name)
        .transpose()
        .map_err(invalid)?;
    db.write(|tx| {
        let StoredItem { item, position } = find_item(tx, account_id, item_id)?;
        let board_id = item.board_id.as_str();
        let rules = BoardRules::load(tx, account_id, board_id)?;
        let mut updated = item.clone();
        if let Some(name) = name {
            updated.name = name;
        }
        let mut position = position;
        if let Some(group) = patch.group_id.as_deref() {
            let group = rules.group(Some(group)).map_err(invalid)?;
            if group != item.group_id {
                updated.group_id = group.to_owned();
                position = end_of_group(tx, board_id, group)?;
            }
        }
        let empty = Map::new();
        let changes = patch.values.as_ref().unwrap_or(&empty);
        for (key, value) in changes {
            rules.check(key, value).map_err(invalid)?;
            if value.is_null() {
                updated.values.remove(key);
            } else {
                updated.values.insert(key.clone(), value.clone());
            }
        }
        let now = store::now_rfc3339();
        updated.updated_at = now.clone();
        tx.execute(
            "UPDATE items SET name = ?2, group_id = ?3, position = ?4, vals = ?5, updated_at = ?6
             WHERE id = ?1",
            params![
                item_id,
                updated.name,
                updated.group_id,
                position,
                Value::Object(updated.values.clone()).to_string(),
                now
            ],
        )?;
        let recorder = Recorder {
            tx,
            board_id,
            actor,
            now: &now,
        };
        let change = Change {
            item_id,
            before: &item.values,
            after: &updated.values,
            created: false,
        };
        recorder.record(&rules, &change, changes.keys())?;
        recorder.group_changed(item_id, &item.group_id, &updated.group_id)?;
        touch_board(tx, board_id, &now)?;
        Ok(updated)
    })
}

fn end_of_group(tx: &Transaction<'_>, board_id: &str, group_id: &str) -> Result<i64> {
    Ok(tx
        .prepare_cached(
            "SELECT coalesce(max(position) + 1, 0) FROM items WHERE board_id = ?1 AND group_id = ?2",
        )?
        .query_row([board_id, group_id], |r| r.get(0))?)
}

/// Moves the item into `group_id` (its own or another of the board) at
/// `index` among that group's items, or to its end when `index` is `None`
/// or past it.
pub fn move_item(
    db: &Db,
    account_id: &str,
    actor: &str,
    item_id: &str,
    group_id: &str,
    index: Option<usize>,
) -> Result<Item> {
    db.write(|tx| {
        let StoredItem { mut item, .. } = find_item(tx, account_id, item_id)?;
        let board_id = item.board_id.clone();
        let rules = BoardRules::load(tx, account_id, &board_id)?;
        let group = rules.group(Some(group_id)).map_err(invalid)?;
        let mut order: Vec<String> = tx
            .prepare_cached(
                "SELECT id FROM items WHERE board_id = ?1 AND group_id = ?2 AND id <> ?3
                 ORDER BY position",
            )?
            .query_map([board_id.as_str(), group, item_id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let at = index.unwrap_or(order.len()).min(order.len());
        order.insert(at, item_id.to_owned());
        let now = store::now_rfc3339();
        let mut place = tx.prepare_cached(
            "UPDATE items SET group_id = ?2, position = ?3, updated_at =
                 CASE WHEN id = ?4 THEN ?5 ELSE updated_at END
             WHERE id = ?1",
        )?;
        for (position, id) in order.iter().enumerate() {
            place.execute(params![id, group, position as i64, item_id, now])?;
        }
        let recorder = Recorder {
            tx,
            board_id: &board_id,
            actor,
            now: &now,
        };
        recorder.group_changed(item_id, &item.group_id, group)?;
        touch_board(tx, &board_id, &now)?;
        item.group_id = group.to_owned();
        item.updated_at = now;
        Ok(item)
    })
}

pub fn delete_item(db: &Db, account_id: &str, item_id: &str) -> Result<()> {
    db.write(|tx| {
        let StoredItem { item, .. } = find_item(tx, account_id, item_id)?;
        tx.execute("DELETE FROM items WHERE id = ?1", [item_id])?;
        touch_board(tx, &item.board_id, &store::now_rfc3339())
    })
}

#[cfg(test)]
mod tests {
    use super::batch_refusal;

    #[test]
    fn a_batch_refusal_names_its_item() {
        assert_eq!(
            batch_refusal("items[12]: unknown column id \"x\""),
            Some((12, "unknown column id \"x\""))
        );
        assert_eq!(
            batch_refusal("item: name must not be empty"),
            Some((0, "name must not be empty"))
        );
        assert_eq!(batch_refusal("The board does not exist."), None);
        assert_eq!(batch_refusal("items[x]: no"), None);
    }
}
