//! The task store: a list per account and workspace (or the personal list),
//! kept as a tree with dense sibling positions, and the query the inbox's
//! reminders read. Every write is one transaction; times come from the
//! injected clock.

use std::sync::{Arc, Mutex};

use clock::Clock;
use store::Db;
use store::rusqlite::{Transaction, params};

use crate::model::{
    Fields, ListRef, NewTask, Reminder, Task, TaskError, TaskMove, TaskPatch, TaskState, check_due,
    check_notes, check_snooze, check_text, check_workspace_id, clean_notes, clean_text, invalid,
    list_key, workspace_of,
};
use crate::rows;

pub struct Tasks {
    pub(crate) db: Arc<Db>,
    pub(crate) clock: Arc<dyn Clock>,
    /// One sync at a time: two syncs of one file would each write what the
    /// other had not seen. API writes need not wait for it (a sync checks
    /// that the list did not change under it before it writes).
    pub(crate) sync_lock: Mutex<()>,
}

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks").field("db", &self.db).finish()
    }
}

/// Where a new task goes: the list, under which parent, at which index.
pub(crate) struct Place<'a> {
    pub workspace_id: Option<&'a str>,
    pub parent_id: Option<&'a str>,
    pub index: Option<usize>,
}

impl Tasks {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self {
            db,
            clock,
            sync_lock: Mutex::new(()),
        }
    }

    /// The list in depth-first order: each task, then its subtasks.
    pub fn list(
        &self,
        account_id: &str,
        workspace_id: Option<&str>,
    ) -> Result<Vec<Task>, TaskError> {
        self.db.read(|tx| rows::list(tx, account_id, workspace_id))
    }

    pub fn get(&self, account_id: &str, id: &str) -> Result<Task, TaskError> {
        self.db.read(|tx| rows::find(tx, account_id, id))
    }

    /// Adds a task at `index` among its siblings (last when absent).
    /// `source_session_id` is the agent session writing, never the body's.
    pub fn create(
        &self,
        account_id: &str,
        new: NewTask,
        source_session_id: Option<&str>,
    ) -> Result<Task, TaskError> {
        if let Some(ws) = &new.workspace_id {
            check_workspace_id(ws)?;
        }
        let mut fields = Fields::text(&clean_text(&new.text));
        check_text(&fields.text)?;
        fields.notes = clean_notes(new.notes.as_deref().unwrap_or_default());
        check_notes(&fields.notes)?;
        fields.due = new.due.as_deref().map(check_due).transpose()?;
        let now = self.clock.timestamp();
        let place = Place {
            workspace_id: new.workspace_id.as_deref(),
            parent_id: new.parent_id.as_deref(),
            index: new.index,
        };
        self.db
            .write(|tx| create_in(tx, account_id, &place, fields, source_session_id, &now))
    }

    /// Changes the fields given. Marking done stamps `doneAt`, any other
    /// state clears it. Any change to a conflict copy clears its `conflict`
    /// flag: the user has looked at it.
    pub fn update(&self, account_id: &str, id: &str, patch: TaskPatch) -> Result<Task, TaskError> {
        let now = self.clock.timestamp();
        let text = patch.text.as_deref().map(clean_text);
        if let Some(text) = &text {
            check_text(text)?;
        }
        let notes = patch.notes.as_deref().map(clean_notes);
        if let Some(notes) = &notes {
            check_notes(notes)?;
        }
        let due = match patch.due {
            Some(Some(due)) => Some(Some(check_due(&due)?)),
            other => other,
        };
        let snoozed_until = match patch.snoozed_until {
            Some(Some(at)) => Some(Some(check_snooze(&at)?)),
            other => other,
        };
        self.db.write(|tx| {
            let mut task = rows::find(tx, account_id, id)?;
            let mut fields = task.fields();
            if let Some(text) = text {
                fields.text = text;
            }
            if let Some(notes) = notes {
                fields.notes = notes;
            }
            if let Some(state) = patch.state {
                fields.state = state;
            }
            if let Some(due) = due {
                fields.due = due;
            }
            if let Some(at) = snoozed_until {
                fields.snoozed_until = at;
            }
            fields.conflict = false;
            set_fields(&mut task, fields, &now);
            rows::update(tx, &task)?;
            Ok(task)
        })
    }

    /// Removes a task and its subtasks; its later siblings close the gap.
    pub fn delete(&self, account_id: &str, id: &str) -> Result<(), TaskError> {
        self.db.write(|tx| {
            let task = rows::find(tx, account_id, id)?;
            tx.execute("DELETE FROM tasks WHERE id = ?1", [id])?;
            rows::shift(
                tx,
                account_id,
                task.workspace_id.as_deref(),
                task.parent_id.as_deref(),
                task.position + 1,
                -1,
            )?;
            Ok(())
        })
    }

    /// Moves a task (with its subtasks) under `parentId` (the top level for
    /// none) at `index`, within its own list; returns the whole list after.
    pub fn reorder(&self, account_id: &str, mv: &TaskMove) -> Result<Vec<Task>, TaskError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let mut task = rows::find(tx, account_id, &mv.id)?;
            let ws = task.workspace_id.clone();
            if let Some(parent_id) = &mv.parent_id {
                let parent = parent_in_list(tx, account_id, parent_id, ws.as_deref())?;
                if is_within(tx, account_id, &parent, &task.id)? {
                    return Err(invalid("a task cannot move under itself or its subtasks"));
                }
            }
            let same_parent = mv.parent_id == task.parent_id;
            // Out of the way first, so the two shifts never touch it.
            tx.execute("UPDATE tasks SET position = -1 WHERE id = ?1", [&task.id])?;
            let old_parent = task.parent_id.as_deref();
            rows::shift(
                tx,
                account_id,
                ws.as_deref(),
                old_parent,
                task.position + 1,
                -1,
            )?;
            let mut count =
                rows::sibling_count(tx, account_id, ws.as_deref(), mv.parent_id.as_deref())?;
            if same_parent {
                count -= 1;
            }
            let position = rows::position_at(Some(mv.index), count)?;
            rows::shift(
                tx,
                account_id,
                ws.as_deref(),
                mv.parent_id.as_deref(),
                position,
                1,
            )?;
            task.parent_id = mv.parent_id.clone();
            task.position = position;
            task.updated_at = now;
            rows::update(tx, &task)?;
            rows::list(tx, account_id, ws.as_deref())
        })
    }

    /// Every account's open tasks the inbox has not been told about: due
    /// on or before `today` (`YYYY-MM-DD`, the caller's local day), or whose
    /// snooze ended by now. A task snoozed into the future waits for its
    /// snooze to end, however overdue.
    pub fn reminders(&self, today: &str) -> Result<Vec<Reminder>, TaskError> {
        let today = check_due(today)?;
        let now = self.clock.timestamp();
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {}, account_id, reminded_due, reminded_snooze FROM tasks
                 WHERE state = 'open'
                   AND (snoozed_until IS NULL OR snoozed_until <= ?2)
                   AND ((due IS NOT NULL AND due <= ?1 AND reminded_due IS NOT due)
                        OR (snoozed_until IS NOT NULL AND reminded_snooze IS NOT snoozed_until))
                 ORDER BY account_id, due, id",
                rows::columns()
            ))?;
            let found = stmt.query_map(params![today, now], |row| {
                let task = rows::from_row(row)?;
                let account_id: String = row.get(14)?;
                let told_due: Option<String> = row.get(15)?;
                let told_snooze: Option<String> = row.get(16)?;
                let due = task
                    .due
                    .clone()
                    .filter(|d| *d <= today && told_due.as_ref() != Some(d));
                let snoozed_until = task
                    .snoozed_until
                    .clone()
                    .filter(|s| told_snooze.as_ref() != Some(s));
                Ok(Reminder {
                    account_id,
                    task,
                    due,
                    snoozed_until,
                })
            })?;
            Ok(found.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// Records that `reminder` was told, so `reminders` leaves it out until
    /// the task gets another due date or snooze.
    pub fn mark_reminded(&self, reminder: &Reminder) -> Result<(), TaskError> {
        self.db.write(|tx| {
            let changed = tx.execute(
                "UPDATE tasks SET reminded_due = COALESCE(?3, reminded_due),
                   reminded_snooze = COALESCE(?4, reminded_snooze)
                 WHERE id = ?1 AND account_id = ?2",
                params![
                    reminder.task.id,
                    reminder.account_id,
                    reminder.due,
                    reminder.snoozed_until
                ],
            )?;
            if changed == 0 {
                return Err(TaskError::NotFound);
            }
            Ok(())
        })
    }

    /// Every list that has tasks, a project folder or a mirror file: what a
    /// timer syncs.
    pub fn lists(&self) -> Result<Vec<ListRef>, TaskError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT account_id, workspace_id FROM tasks
                 UNION SELECT account_id, workspace_id FROM tasks_mirrors
                 UNION SELECT account_id, workspace_id FROM tasks_mirror_state
                 ORDER BY 1, 2",
            )?;
            let found = stmt.query_map([], |row| {
                Ok(ListRef {
                    account_id: row.get(0)?,
                    workspace_id: workspace_of(row.get(1)?),
                })
            })?;
            Ok(found.collect::<Result<Vec<_>, _>>()?)
        })
    }
}

/// Applies `fields` to `task`, stamping `updatedAt` and `doneAt` as the state says.
pub(crate) fn set_fields(task: &mut Task, fields: Fields, now: &str) {
    if fields.state == TaskState::Done {
        if task.state != TaskState::Done || task.done_at.is_none() {
            task.done_at = Some(now.to_owned());
        }
    } else {
        task.done_at = None;
    }
    task.text = fields.text;
    task.notes = fields.notes;
    task.state = fields.state;
    task.due = fields.due;
    task.snoozed_until = fields.snoozed_until;
    task.conflict = fields.conflict;
    task.updated_at = now.to_owned();
}

/// Inserts a task whose fields are already clean and checked.
pub(crate) fn create_in(
    tx: &Transaction<'_>,
    account_id: &str,
    place: &Place<'_>,
    fields: Fields,
    source_session_id: Option<&str>,
    now: &str,
) -> Result<Task, TaskError> {
    if let Some(parent_id) = place.parent_id {
        parent_in_list(tx, account_id, parent_id, place.workspace_id)?;
    }
    let count = rows::sibling_count(tx, account_id, place.workspace_id, place.parent_id)?;
    let position = rows::position_at(place.index, count)?;
    rows::shift(
        tx,
        account_id,
        place.workspace_id,
        place.parent_id,
        position,
        1,
    )?;
    let mut task = Task {
        id: store::new_id(),
        workspace_id: place.workspace_id.map(str::to_owned),
        parent_id: place.parent_id.map(str::to_owned),
        position,
        text: String::new(),
        notes: String::new(),
        state: TaskState::Open,
        due: None,
        snoozed_until: None,
        source_session_id: source_session_id.map(str::to_owned),
        conflict: false,
        created_at: now.to_owned(),
        updated_at: now.to_owned(),
        done_at: None,
    };
    set_fields(&mut task, fields, now);
    rows::insert(tx, account_id, &task)?;
    Ok(task)
}

/// The parent a request names, which must be the account's and in `workspace_id`'s list.
fn parent_in_list(
    tx: &Transaction<'_>,
    account_id: &str,
    parent_id: &str,
    workspace_id: Option<&str>,
) -> Result<Task, TaskError> {
    let parent = match rows::find(tx, account_id, parent_id) {
        Err(TaskError::NotFound) => {
            return Err(invalid(format!(
                "parentId {parent_id:?} names no task of yours"
            )));
        }
        other => other?,
    };
    if list_key(parent.workspace_id.as_deref()) != list_key(workspace_id) {
        return Err(invalid("the parent task is in another list"));
    }
    Ok(parent)
}

/// Whether `task` is `ancestor` or lies below it, walking up the parents.
/// The walk is bounded, so rows that loop (which no write makes) cannot hang it.
fn is_within(
    tx: &Transaction<'_>,
    account_id: &str,
    task: &Task,
    ancestor: &str,
) -> Result<bool, TaskError> {
    let mut at = task.clone();
    for _ in 0..100_000 {
        if at.id == ancestor {
            return Ok(true);
        }
        match at.parent_id.as_deref() {
            None => return Ok(false),
            Some(parent) => at = rows::find(tx, account_id, parent)?,
        }
    }
    Ok(true)
}
