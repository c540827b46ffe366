//! The SQL the store, the caught follow-ups and the mirror share: reading a
//! list in depth-first order, one task, and writing rows and sibling
//! positions inside the caller's transaction.

use std::collections::{HashMap, HashSet};

use store::rusqlite::{OptionalExtension, Row, Transaction, params};

use crate::model::{Task, TaskError, TaskState, list_key, workspace_of};

const COLUMNS: &str = "id, workspace_id, parent_id, position, text, notes, state, due, \
     snoozed_until, source_session_id, conflict, created_at, updated_at, done_at";

pub(crate) fn from_row(row: &Row<'_>) -> store::rusqlite::Result<Task> {
    Ok(Task {
        id: row.get(0)?,
        workspace_id: workspace_of(row.get(1)?),
        parent_id: row.get(2)?,
        position: row.get(3)?,
        text: row.get(4)?,
        notes: row.get(5)?,
        state: TaskState::from_stored(&row.get::<_, String>(6)?),
        due: row.get(7)?,
        snoozed_until: row.get(8)?,
        source_session_id: row.get(9)?,
        conflict: row.get::<_, i64>(10)? != 0,
        created_at: row.get(11)?,
        updated_at: row.get(12)?,
        done_at: row.get(13)?,
    })
}

/// The columns of a task row, for queries that add their own.
pub(crate) fn columns() -> &'static str {
    COLUMNS
}

/// A list in depth-first order: each task, then its subtasks in position order.
pub(crate) fn list(
    tx: &Transaction<'_>,
    account_id: &str,
    workspace_id: Option<&str>,
) -> Result<Vec<Task>, TaskError> {
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM tasks WHERE account_id = ?1 AND workspace_id = ?2
         ORDER BY position, id"
    ))?;
    let rows = stmt.query_map(params![account_id, list_key(workspace_id)], from_row)?;
    let flat = rows.collect::<Result<Vec<_>, _>>()?;
    Ok(depth_first(flat))
}

/// Orders `tasks` (already in position order) as a tree walk. A task whose
/// parent is missing from the list is treated as top-level, and a loop
/// (which the writes never make) cannot hide a task: whatever the walk did
/// not reach comes last.
pub(crate) fn depth_first(tasks: Vec<Task>) -> Vec<Task> {
    let ids: HashSet<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
    let mut children: HashMap<Option<&str>, Vec<usize>> = HashMap::new();
    for (i, task) in tasks.iter().enumerate() {
        let parent = task.parent_id.as_deref().filter(|p| ids.contains(p));
        children.entry(parent).or_default().push(i);
    }
    let mut order = Vec::with_capacity(tasks.len());
    let mut seen = vec![false; tasks.len()];
    let mut stack: Vec<usize> = children
        .get(&None)
        .into_iter()
        .flatten()
        .rev()
        .copied()
        .collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        order.push(i);
        if let Some(kids) = children.get(&Some(tasks[i].id.as_str())) {
            stack.extend(kids.iter().rev().copied());
        }
    }
    order.extend((0..tasks.len()).filter(|&i| !seen[i]));
    let mut slots: Vec<Option<Task>> = tasks.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

pub(crate) fn find(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<Task, TaskError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM tasks WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        from_row,
    )
    .optional()?
    .ok_or(TaskError::NotFound)
}

pub(crate) fn insert(tx: &Transaction<'_>, account_id: &str, t: &Task) -> Result<(), TaskError> {
    tx.prepare_cached(
        "INSERT INTO tasks (id, account_id, workspace_id, parent_id, position, text, notes, state,
           due, snoozed_until, source_session_id, conflict, created_at, updated_at, done_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?
    .execute(params![
        t.id,
        account_id,
        list_key(t.workspace_id.as_deref()),
        t.parent_id,
        t.position,
        t.text,
        t.notes,
        t.state.as_str(),
        t.due,
        t.snoozed_until,
        t.source_session_id,
        i64::from(t.conflict),
        t.created_at,
        t.updated_at,
        t.done_at,
    ])?;
    Ok(())
}

/// Writes every field a task can change, its place included.
pub(crate) fn update(tx: &Transaction<'_>, t: &Task) -> Result<(), TaskError> {
    tx.prepare_cached(
        "UPDATE tasks SET parent_id = ?2, position = ?3, text = ?4, notes = ?5, state = ?6,
           due = ?7, snoozed_until = ?8, conflict = ?9, updated_at = ?10, done_at = ?11
         WHERE id = ?1",
    )?
    .execute(params![
        t.id,
        t.parent_id,
        t.position,
        t.text,
        t.notes,
        t.state.as_str(),
        t.due,
        t.snoozed_until,
        i64::from(t.conflict),
        t.updated_at,
        t.done_at,
    ])?;
    Ok(())
}

/// How many children `parent` has in the list (the top level for none).
pub(crate) fn sibling_count(
    tx: &Transaction<'_>,
    account_id: &str,
    workspace_id: Option<&str>,
    parent_id: Option<&str>,
) -> Result<i64, TaskError> {
    Ok(tx
        .prepare_cached(
            "SELECT count(*) FROM tasks
             WHERE account_id = ?1 AND workspace_id = ?2 AND parent_id IS ?3",
        )?
        .query_row(
            params![account_id, list_key(workspace_id), parent_id],
            |r| r.get(0),
        )?)
}

/// Moves the siblings at `from` and after by `delta`: +1 opens a slot, -1
/// closes one, which keeps positions dense.
pub(crate) fn shift(
    tx: &Transaction<'_>,
    account_id: &str,
    workspace_id: Option<&str>,
    parent_id: Option<&str>,
    from: i64,
    delta: i64,
) -> Result<(), TaskError> {
    tx.prepare_cached(
        "UPDATE tasks SET position = position + ?5
         WHERE account_id = ?1 AND workspace_id = ?2 AND parent_id IS ?3 AND position >= ?4",
    )?
    .execute(params![
        account_id,
        list_key(workspace_id),
        parent_id,
        from,
        delta
    ])?;
    Ok(())
}

/// An index from a request as a position, refused past the end.
pub(crate) fn position_at(index: Option<usize>, count: i64) -> Result<i64, TaskError> {
    match index {
        None => Ok(count),
        Some(i) => match i64::try_from(i) {
            Ok(p) if p <= count => Ok(p),
            _ => Err(crate::model::invalid(format!(
                "index {i} is past the end: there are {count} tasks at that level"
            ))),
        },
    }
}
