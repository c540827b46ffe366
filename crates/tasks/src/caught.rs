//! Caught follow-ups: what the utility model found in a session's replies,
//! staged until the user keeps one (a task in the personal list, tied to the
//! session) or dismisses it. Each session is scanned once: `claim_scan`
//! answers true to the first caller only, in one insert.

use store::rusqlite::{OptionalExtension, params};

use crate::model::{
    Caught, Fields, MAX_QUOTE_CHARS, MAX_TEXT_CHARS, Task, TaskError, clean_notes, clean_text,
    truncate_chars,
};
use crate::rows;
use crate::service::{Place, Tasks, create_in};

impl Tasks {
    /// True the first time a session is claimed for scanning, false ever
    /// after, even when two callers race.
    pub fn claim_scan(&self, session_id: &str) -> Result<bool, TaskError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let added = tx.execute(
                "INSERT OR IGNORE INTO tasks_scanned_sessions (session_id, scanned_at) VALUES (?1, ?2)",
                params![session_id, now],
            )?;
            Ok(added == 1)
        })
    }

    /// Gives a claim back when the scan could not ask the model at all (no
    /// engine, a CLI that failed), so a later end of the session scans it.
    pub fn release_scan(&self, session_id: &str) -> Result<(), TaskError> {
        self.db.write(|tx| {
            tx.execute(
                "DELETE FROM tasks_scanned_sessions WHERE session_id = ?1",
                params![session_id],
            )?;
            Ok(())
        })
    }

    /// Stages what a scan found, `(text, quote)` each. A model's output is
    /// made to fit rather than refused: the text becomes one line cut to
    /// 2,000 characters, the quote is cut too, and an empty text is skipped.
    pub fn stage(
        &self,
        account_id: &str,
        session_id: &str,
        session_title: Option<&str>,
        items: Vec<(String, String)>,
    ) -> Result<Vec<Caught>, TaskError> {
        let now = self.clock.timestamp();
        let staged: Vec<Caught> = items
            .into_iter()
            .filter_map(|(text, quote)| {
                let text = truncate_chars(&clean_text(&text), MAX_TEXT_CHARS);
                let text = text.trim_end().to_owned();
                (!text.is_empty()).then(|| Caught {
                    id: store::new_id(),
                    session_id: session_id.to_owned(),
                    session_title: session_title.map(str::to_owned),
                    text,
                    quote: truncate_chars(&clean_notes(quote.trim()), MAX_QUOTE_CHARS)
                        .trim_end()
                        .to_owned(),
                    created_at: now.clone(),
                })
            })
            .collect();
        self.db.write(|tx| {
            let mut insert = tx.prepare_cached(
                "INSERT INTO tasks_caught (id, account_id, session_id, session_title, text, quote, created_at, state)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'staged')",
            )?;
            for c in &staged {
                insert.execute(params![
                    c.id,
                    account_id,
                    c.session_id,
                    c.session_title,
                    c.text,
                    c.quote,
                    c.created_at
                ])?;
            }
            Ok::<_, TaskError>(())
        })?;
        Ok(staged)
    }

    /// The staged follow-ups, newest first (one scan's in the order found).
    pub fn list_caught(&self, account_id: &str) -> Result<Vec<Caught>, TaskError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT id, session_id, session_title, text, quote, created_at FROM tasks_caught
                 WHERE account_id = ?1 AND state = 'staged'
                 ORDER BY created_at DESC, rowid ASC",
            )?;
            let found = stmt.query_map([account_id], |row| {
                Ok(Caught {
                    id: row.get(0)?,
                    session_id: row.get(1)?,
                    session_title: row.get(2)?,
                    text: row.get(3)?,
                    quote: row.get(4)?,
                    created_at: row.get(5)?,
                })
            })?;
            Ok(found.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// Makes a staged follow-up a task at the end of the personal list, its
    /// quote as the notes and its session as the source. Keeping one twice
    /// gives the same task back (a double click adds nothing).
    pub fn keep(&self, account_id: &str, id: &str) -> Result<Task, TaskError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let row: Option<(String, String, String, String, Option<String>)> = tx
                .query_row(
                    "SELECT session_id, text, quote, state, task_id FROM tasks_caught
                     WHERE id = ?1 AND account_id = ?2",
                    params![id, account_id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
                )
                .optional()?;
            let Some((session_id, text, quote, state, task_id)) = row else {
                return Err(TaskError::NotFound);
            };
            match (state.as_str(), task_id) {
                ("staged", _) => {}
                ("kept", Some(task_id)) => return rows::find(tx, account_id, &task_id),
                _ => return Err(TaskError::NotFound),
            }
            let mut fields = Fields::text(&text);
            fields.notes = quote;
            let place = Place {
                workspace_id: None,
                parent_id: None,
                index: None,
            };
            let task = create_in(tx, account_id, &place, fields, Some(&session_id), &now)?;
            tx.execute(
                "UPDATE tasks_caught SET state = 'kept', task_id = ?2 WHERE id = ?1",
                params![id, task.id],
            )?;
            Ok(task)
        })
    }

    /// Dismisses a staged follow-up; dismissing it again is no error, but a
    /// kept one is no longer staged.
    pub fn dismiss(&self, account_id: &str, id: &str) -> Result<(), TaskError> {
        self.db.write(|tx| {
            let changed = tx.execute(
                "UPDATE tasks_caught SET state = 'dismissed'
                 WHERE id = ?1 AND account_id = ?2 AND state IN ('staged', 'dismissed')",
                params![id, account_id],
            )?;
            if changed == 0 {
                return Err(TaskError::NotFound);
            }
            Ok(())
        })
    }
}
