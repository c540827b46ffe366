//! Boards with their ordered, typed columns and ordered groups.

use std::collections::HashSet;

use serde_json::Value;
use store::Db;
use store::rusqlite::{OptionalExtension, Transaction, params};

use crate::columns::{ColumnType, check_client_id, label_names, normalize_settings};
use crate::error::{BoardsError, Result, check_name, invalid, not_found};
use crate::model::{Board, Column, Group, NewBoard, NewColumn, NewGroup, View};
use crate::presets;
use crate::tables::{json_path, touch_board};
use crate::workspaces::check_workspace;

/// Fails with `NotFound` unless the board exists in the account.
pub fn check_board(tx: &Transaction<'_>, account_id: &str, board_id: &str) -> Result<()> {
    tx.prepare_cached("SELECT 1 FROM boards WHERE id = ?1 AND account_id = ?2")?
        .query_row([board_id, account_id], |_| Ok(()))
        .optional()?
        .ok_or(not_found("board"))
}

/// Lower-case letters, digits and `_` from a title, for generated ids.
fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_');
    out.chars().take(40).collect()
}

/// A fresh id derived from the title, unique among `taken`.
pub(crate) fn generate_id(title: &str, fallback: &str, taken: &mut HashSet<String>) -> String {
    let base = match slug(title) {
        s if s.is_empty() => fallback.to_owned(),
        s => s,
    };
    let mut candidate = base.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{base}_{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

pub(crate) fn column_from(new: &NewColumn) -> Result<(Option<String>, Column)> {
    let title = check_name("column title", &new.title)?;
    let kind = ColumnType::parse(&new.kind).ok_or_else(|| {
        invalid(format!(
            "column \"{title}\": unknown type \"{}\" (one of {})",
            new.kind,
            ColumnType::ALL.map(ColumnType::as_str).join(", ")
        ))
    })?;
    let settings = normalize_settings(kind, new.settings.as_ref())
        .map_err(|e| invalid(format!("column \"{title}\": {e}")))?;
    if let Some(id) = &new.id {
        check_client_id(id).map_err(|e| invalid(format!("column \"{title}\": {e}")))?;
    }
    let column = Column {
        id: new.id.clone().unwrap_or_default(),
        title,
        kind,
        settings,
    };
    Ok((new.id.clone(), column))
}

fn group_from(new: &NewGroup) -> Result<(Option<String>, Group)> {
    let title = check_name("group title", &new.title)?;
    if let Some(id) = &new.id {
        check_client_id(id).map_err(|e| invalid(format!("group \"{title}\": {e}")))?;
    }
    Ok((
        new.id.clone(),
        Group {
            id: new.id.clone().unwrap_or_default(),
            title,
        },
    ))
}

/// Keeps the ids clients gave (refusing one given twice) and generates the
/// missing ones, unique within the list.
fn assign_ids<T>(
    what: &str,
    fallback: &str,
    entries: Vec<(Option<String>, T)>,
    title: impl Fn(&T) -> &str,
    set_id: impl Fn(&mut T, String),
) -> Result<Vec<T>> {
    let mut taken = HashSet::new();
    for id in entries.iter().filter_map(|(id, _)| id.as_ref()) {
        if !taken.insert(id.clone()) {
            return Err(invalid(format!("{what} id \"{id}\" appears twice")));
        }
    }
    Ok(entries
        .into_iter()
        .map(|(id, mut entry)| {
            let id = id.unwrap_or_else(|| generate_id(title(&entry), fallback, &mut taken));
            set_id(&mut entry, id);
            entry
        })
        .collect())
}

/// A board checked and with every id assigned, ready to insert.
pub(crate) struct BoardPlan {
    pub name: String,
    pub columns: Vec<Column>,
    pub groups: Vec<Group>,
    pub views: Vec<View>,
}

/// Checks a new board and assigns the missing column and group ids.
pub(crate) fn plan_board(new: &NewBoard) -> Result<BoardPlan> {
    let name = check_name("name", &new.name)?;
    let template = match new.preset.as_deref() {
        Some(p) => Some(presets::preset(p).ok_or_else(|| {
            invalid(format!(
                "unknown preset \"{p}\" (one of {})",
                presets::PRESETS.join(", ")
            ))
        })?),
        None => None,
    };
    let (mut columns, mut groups, views) = match template {
        Some(t) => (t.columns, t.groups, t.views),
        None => (Vec::new(), Vec::new(), Vec::new()),
    };
    columns.extend(new.columns.iter().cloned());
    groups.extend(new.groups.iter().cloned());
    if groups.is_empty() {
        groups.push(NewGroup {
            id: None,
            title: "Items".into(),
        });
    }
    let columns = assign_ids(
        "column",
        "column",
        columns.iter().map(column_from).collect::<Result<_>>()?,
        |c| &c.title,
        |c, id| c.id = id,
    )?;
    let groups = assign_ids(
        "group",
        "group",
        groups.iter().map(group_from).collect::<Result<_>>()?,
        |g| &g.title,
        |g, id| g.id = id,
    )?;
    Ok(BoardPlan {
        name,
        columns,
        groups,
        views,
    })
}

/// Creates a board from an optional preset plus the given columns and groups.
/// The caller resolves the default: without columns and without a preset it
/// passes the `pmSetupPreset` setting as `preset`.
pub fn create_board(db: &Db, account_id: &str, new: &NewBoard) -> Result<Board> {
    let plan = plan_board(new)?;
    db.write(|tx| {
        check_workspace(tx, account_id, &new.workspace_id)?;
        insert_board(tx, account_id, &new.workspace_id, &plan)
    })
}

pub(crate) fn insert_board(
    tx: &Transaction<'_>,
    account_id: &str,
    workspace_id: &str,
    plan: &BoardPlan,
) -> Result<Board> {
    let BoardPlan {
        name,
        columns,
        groups,
        views,
    } = plan;
    let id = store::new_id();
    let now = store::now_rfc3339();
    let views_json = serde_json::to_string(views).map_err(|e| invalid(e.to_string()))?;
    tx.execute(
        "INSERT INTO boards (id, account_id, workspace_id, name, views, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
        params![id, account_id, workspace_id, name, views_json, now],
    )?;
    for (position, c) in columns.iter().enumerate() {
        insert_column(tx, &id, position as i64, c)?;
    }
    for (position, g) in groups.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO board_groups (board_id, id, position, title) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![id, g.id, position as i64, g.title])?;
    }
    Ok(Board {
        id,
        workspace_id: workspace_id.to_owned(),
        name: name.to_owned(),
        columns: columns.to_vec(),
        groups: groups.to_vec(),
        views: views.to_vec(),
        created_at: now.clone(),
        updated_at: now,
    })
}

fn insert_column(tx: &Transaction<'_>, board_id: &str, position: i64, c: &Column) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO board_columns (board_id, id, position, title, type, settings)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        board_id,
        c.id,
        position,
        c.title,
        c.kind.as_str(),
        c.settings.to_string()
    ])?;
    Ok(())
}

pub(crate) fn load_columns(tx: &Transaction<'_>, board_id: &str) -> Result<Vec<Column>> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, title, type, settings FROM board_columns WHERE board_id = ?1 ORDER BY position",
    )?;
    let rows = stmt.query_map([board_id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
        ))
    })?;
    let mut columns = Vec::new();
    for row in rows {
        let (id, title, kind, settings) = row?;
        columns.push(Column {
            id,
            title,
            kind: ColumnType::parse(&kind).unwrap_or(ColumnType::Text),
            settings: serde_json::from_str(&settings).unwrap_or_else(|_| serde_json::json!({})),
        });
    }
    Ok(columns)
}

pub(crate) fn load_groups(tx: &Transaction<'_>, board_id: &str) -> Result<Vec<Group>> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, title FROM board_groups WHERE board_id = ?1 ORDER BY position",
    )?;
    let rows = stmt.query_map([board_id], |r| {
        Ok(Group {
            id: r.get(0)?,
            title: r.get(1)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn load_board(tx: &Transaction<'_>, account_id: &str, board_id: &str) -> Result<Board> {
    let head = tx
        .prepare_cached(
            "SELECT workspace_id, name, views, created_at, updated_at FROM boards
             WHERE id = ?1 AND account_id = ?2",
        )?
        .query_row([board_id, account_id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
            ))
        })
        .optional()?
        .ok_or(not_found("board"))?;
    let (workspace_id, name, views, created_at, updated_at) = head;
    Ok(Board {
        id: board_id.to_owned(),
        workspace_id,
        name,
        columns: load_columns(tx, board_id)?,
        groups: load_groups(tx, board_id)?,
        views: serde_json::from_str(&views).unwrap_or_default(),
        created_at,
        updated_at,
    })
}

/// The board with its columns, groups and views, without items.
pub fn get_board(db: &Db, account_id: &str, board_id: &str) -> Result<Board> {
    db.read(|tx| load_board(tx, account_id, board_id))
}

/// The boards of one workspace, oldest first.
pub fn list_boards(db: &Db, account_id: &str, workspace_id: &str) -> Result<Vec<Board>> {
    db.read(|tx| {
        check_workspace(tx, account_id, workspace_id)?;
        let ids: Vec<String> = tx
            .prepare_cached(
                "SELECT id FROM boards WHERE workspace_id = ?1 AND account_id = ?2
                 ORDER BY created_at, id",
            )?
            .query_map([workspace_id, account_id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        ids.iter()
            .map(|id| load_board(tx, account_id, id))
            .collect()
    })
}

pub fn rename_board(db: &Db, account_id: &str, board_id: &str, name: &str) -> Result<Board> {
    let name = check_name("name", name)?;
    db.write(|tx| {
        check_board(tx, account_id, board_id)?;
        tx.execute(
            "UPDATE boards SET name = ?2 WHERE id = ?1",
            params![board_id, name],
        )?;
        touch_board(tx, board_id, &store::now_rfc3339())?;
        load_board(tx, account_id, board_id)
    })
}

/// Deletes the board with its columns, groups, items and events.
pub fn delete_board(db: &Db, account_id: &str, board_id: &str) -> Result<()> {
    db.write(|tx| {
        let changed = tx.execute(
            "DELETE FROM boards WHERE id = ?1 AND account_id = ?2",
            [board_id, account_id],
        )?;
        if changed == 0 {
            return Err(not_found("board"));
        }
        Ok(())
    })
}

fn taken_ids(tx: &Transaction<'_>, table: Table, board_id: &str) -> Result<HashSet<String>> {
    let sql = format!("SELECT id FROM {} WHERE board_id = ?1", table.name());
    let ids = tx
        .prepare_cached(&sql)?
        .query_map([board_id], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(ids)
}

fn next_position(tx: &Transaction<'_>, table: Table, board_id: &str) -> Result<i64> {
    let sql = format!(
        "SELECT coalesce(max(position) + 1, 0) FROM {} WHERE board_id = ?1",
        table.name()
    );
    Ok(tx.query_row(&sql, [board_id], |r| r.get(0))?)
}

/// A client's id when free, else `Conflict`; a generated one when none is given.
fn claim_id(
    tx: &Transaction<'_>,
    table: Table,
    board_id: &str,
    wanted: Option<&str>,
    title: &str,
) -> Result<String> {
    let mut taken = taken_ids(tx, table, board_id)?;
    match wanted {
        Some(id) if taken.contains(id) => Err(BoardsError::Conflict {
            message: format!("the board already has a {} with id \"{id}\"", table.what()),
        }),
        Some(id) => Ok(id.to_owned()),
        None => Ok(generate_id(title, table.what(), &mut taken)),
    }
}

pub fn add_column(db: &Db, account_id: &str, board_id: &str, new: &NewColumn) -> Result<Column> {
    let (wanted, mut column) = column_from(new)?;
    db.write(|tx| {
        check_board(tx, account_id, board_id)?;
        column.id = claim_id(
            tx,
            Table::Columns,
            board_id,
            wanted.as_deref(),
            &column.title,
        )?;
        let position = next_position(tx, Table::Columns, board_id)?;
        insert_column(tx, board_id, position, &column)?;
        touch_board(tx, board_id, &store::now_rfc3339())?;
        Ok(column)
    })
}

fn find_column(tx: &Transaction<'_>, board_id: &str, column_id: &str) -> Result<Column> {
    load_columns(tx, board_id)?
        .into_iter()
        .find(|c| c.id == column_id)
        .ok_or(not_found("column"))
}

/// Renames a column.
pub fn rename_column(
    db: &Db,
    account_id: &str,
    board_id: &str,
    column_id: &str,
    title: &str,
) -> Result<Column> {
    change_column(db, account_id, board_id, column_id, Some(title), None)
}

/// Replaces a column's settings. A status label still used by an item cannot
/// be dropped: the change is refused naming it.
pub fn set_column_settings(
    db: &Db,
    account_id: &str,
    board_id: &str,
    column_id: &str,
    settings: &Value,
) -> Result<Column> {
    change_column(db, account_id, board_id, column_id, None, Some(settings))
}

/// Renames a column and/or replaces its settings in one transaction: when
/// either part is refused, neither is stored.
pub fn change_column(
    db: &Db,
    account_id: &str,
    board_id: &str,
    column_id: &str,
    title: Option<&str>,
    settings: Option<&Value>,
) -> Result<Column> {
    if title.is_none() && settings.is_none() {
        return Err(invalid("Give a title or settings to change."));
    }
    let title = title.map(|t| check_name("column title", t)).transpose()?;
    db.write(|tx| {
        check_board(tx, account_id, board_id)?;
        let mut column = find_column(tx, board_id, column_id)?;
        if let Some(settings) = settings {
            column.settings = checked_settings(tx, board_id, &column, settings)?;
            tx.execute(
                "UPDATE board_columns SET settings = ?3 WHERE board_id = ?1 AND id = ?2",
                params![board_id, column_id, column.settings.to_string()],
            )?;
        }
        if let Some(title) = title {
            tx.execute(
                "UPDATE board_columns SET title = ?3 WHERE board_id = ?1 AND id = ?2",
                params![board_id, column_id, title],
            )?;
            column.title = title;
        }
        touch_board(tx, board_id, &store::now_rfc3339())?;
        Ok(column)
    })
}

/// The column's new settings, normalised; refused when a status label still
/// used by an item would be dropped.
fn checked_settings(
    tx: &Transaction<'_>,
    board_id: &str,
    column: &Column,
    settings: &Value,
) -> Result<Value> {
    let column_id = &column.id;
    let settings = normalize_settings(column.kind, Some(settings))
        .map_err(|e| invalid(format!("column \"{column_id}\": {e}")))?;
    if column.kind == ColumnType::Status {
        let kept = label_names(&settings);
        let path = json_path(column_id);
        for label in label_names(&column.settings) {
            if kept.contains(&label) {
                continue;
            }
            let used: i64 = tx.query_row(
                "SELECT count(*) FROM items WHERE board_id = ?1 AND json_extract(vals, ?2) = ?3",
                params![board_id, path, label],
                |r| r.get(0),
            )?;
            if used > 0 {
                return Err(invalid(format!(
                    "label \"{label}\" is still used by {used} item(s) of column \"{column_id}\""
                )));
            }
        }
    }
    Ok(settings)
}

/// Removes the column and its values from every item of the board.
pub fn remove_column(db: &Db, account_id: &str, board_id: &str, column_id: &str) -> Result<()> {
    db.write(|tx| {
        check_board(tx, account_id, board_id)?;
        let changed = tx.execute(
            "DELETE FROM board_columns WHERE board_id = ?1 AND id = ?2",
            [board_id, column_id],
        )?;
        if changed == 0 {
            return Err(not_found("column"));
        }
        let path = json_path(column_id);
        tx.execute(
            "UPDATE items SET vals = json_remove(vals, ?2)
             WHERE board_id = ?1 AND json_type(vals, ?2) IS NOT NULL",
            [board_id, path.as_str()],
        )?;
        touch_board(tx, board_id, &store::now_rfc3339())
    })
}

#[derive(Clone, Copy)]
enum Table {
    Columns,
    Groups,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Columns => "board_columns",
            Table::Groups => "board_groups",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Table::Columns => "column",
            Table::Groups => "group",
        }
    }
}

/// Puts the board's columns or groups in the given order, which must name
/// each of them exactly once.
fn reorder(
    db: &Db,
    account_id: &str,
    board_id: &str,
    table: Table,
    order: &[String],
) -> Result<()> {
    db.write(|tx| {
        check_board(tx, account_id, board_id)?;
        let existing = taken_ids(tx, table, board_id)?;
        let given: HashSet<&String> = order.iter().collect();
        if given.len() != order.len()
            || order.len() != existing.len()
            || !order.iter().all(|id| existing.contains(id))
        {
            return Err(invalid(format!(
                "the order must name each of the board's {} {}s exactly once",
                existing.len(),
                table.what()
            )));
        }
        let sql = format!(
            "UPDATE {} SET position = ?3 WHERE board_id = ?1 AND id = ?2",
            table.name()
        );
        let mut stmt = tx.prepare(&sql)?;
        for (position, id) in order.iter().enumerate() {
            stmt.execute(params![board_id, id, position as i64])?;
        }
        touch_board(tx, board_id, &store::now_rfc3339())
    })
}

pub fn reorder_columns(
    db: &Db,
    account_id: &str,
    board_id: &str,
    order: &[String],
) -> Result<Vec<Column>> {
    reorder(db, account_id, board_id, Table::Columns, order)?;
    db.read(|tx| load_columns(tx, board_id))
}

pub fn add_group(db: &Db, account_id: &str, board_id: &str, new: &NewGroup) -> Result<Group> {
    let (wanted, mut group) = group_from(new)?;
    db.write(|tx| {
        check_board(tx, account_id, board_id)?;
        group.id = claim_id(tx, Table::Groups, board_id, wanted.as_deref(), &group.title)?;
        let position = next_position(tx, Table::Groups, board_id)?;
        tx.execute(
            "INSERT INTO board_groups (board_id, id, position, title) VALUES (?1, ?2, ?3, ?4)",
            params![board_id, group.id, position, group.title],
        )?;
        touch_board(tx, board_id, &store::now_rfc3339())?;
        Ok(group)
    })
}

pub fn rename_group(
    db: &Db,
    account_id: &str,
    board_id: &str,
    group_id: &str,
    title: &str,
) -> Result<Group> {
    let title = check_name("group title", title)?;
    db.write(|tx| {
        check_board(tx, account_id, board_id)?;
        let changed = tx.execute(
            "UPDATE board_groups SET title = ?3 WHERE board_id = ?1 AND id = ?2",
            params![board_id, group_id, title],
        )?;
        if changed == 0 {
            return Err(not_found("group"));
        }
        touch_board(tx, board_id, &store::now_rfc3339())?;
        Ok(Group {
            id: group_id.to_owned(),
            title,
        })
    })
}

pub fn reorder_groups(
    db: &Db,
    account_id: &str,
    board_id: &str,
    order: &[String],
) -> Result<Vec<Group>> {
    reorder(db, account_id, board_id, Table::Groups, order)?;
    db.read(|tx| load_groups(tx, board_id))
}

/// Removes a group. Its items move to the end of `move_items_to` when given
/// (another group of the same board); otherwise they are deleted with it.
pub fn remove_group(
    db: &Db,
    account_id: &str,
    board_id: &str,
    group_id: &str,
    move_items_to: Option<&str>,
) -> Result<()> {
    db.write(|tx| {
        check_board(tx, account_id, board_id)?;
        let groups = taken_ids(tx, Table::Groups, board_id)?;
        if !groups.contains(group_id) {
            return Err(not_found("group"));
        }
        if let Some(target) = move_items_to {
            if target == group_id || !groups.contains(target) {
                return Err(invalid(format!(
                    "items can only move to another group of the board, not \"{target}\""
                )));
            }
            let offset: i64 = tx.query_row(
                "SELECT coalesce(max(position) + 1, 0) FROM items WHERE board_id = ?1 AND group_id = ?2",
                [board_id, target],
                |r| r.get(0),
            )?;
            tx.execute(
                "UPDATE items SET group_id = ?3, position = position + ?4
                 WHERE board_id = ?1 AND group_id = ?2",
                params![board_id, group_id, target, offset],
            )?;
        }
        tx.execute(
            "DELETE FROM board_groups WHERE board_id = ?1 AND id = ?2",
            [board_id, group_id],
        )?;
        touch_board(tx, board_id, &store::now_rfc3339())
    })
}
