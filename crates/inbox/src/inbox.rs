//! The inbox's queries: adding a row (or bumping its unread twin), pages by
//! keyset, read and archive changes, and unread counts.
//!
//! Listings order by `seq`, which a bump moves to the top, so a repeated
//! alert surfaces again. Each state filter has its own index (see the
//! migrations), named with `INDEXED BY` so a page never depends on the
//! planner's guess: a page is one index range walk of `limit` rows.

use std::collections::BTreeMap;
use std::sync::Arc;

use clock::Clock;
use store::Db;
use store::rusqlite::{
    self, OptionalExtension, Transaction, params, params_from_iter, types::Value,
};

use crate::row::{
    Added, Category, InboxError, InboxRow, ListQuery, MAX_BODY_CHARS, MAX_PAGE, MAX_TITLE_CHARS,
    NewRow, RowChange, StateFilter,
};

const COLUMNS: &str = "id, category, title, body, created_at, updated_at, read_at, archived_at, \
                       count, source, actions, reason";

pub struct Inbox {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

impl Inbox {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    /// Adds a row, or bumps the account's unread row with the same dedup key
    /// (one transaction; the partial unique index keeps a second from ever
    /// being stored).
    pub fn add(&self, account_id: &str, row: NewRow) -> Result<Added, InboxError> {
        self.add_counted(account_id, row, 1, &|_| None)
    }

    /// [`Inbox::add`] of `count` occurrences at once: a new row starts at
    /// `count`, an unread twin grows by it. `title_for` names the row by its
    /// total (`None` keeps `row.title`), so a folded row says how many it
    /// stands for ("27 items overdue on Ops").
    pub fn add_counted(
        &self,
        account_id: &str,
        row: NewRow,
        count: u32,
        title_for: &dyn Fn(u32) -> Option<String>,
    ) -> Result<Added, InboxError> {
        let valid_title = |title: &str| {
            let title = title.trim();
            !title.is_empty() && title.chars().count() <= MAX_TITLE_CHARS
        };
        if !valid_title(&row.title) || count == 0 {
            return Err(InboxError::InvalidTitle);
        }
        if row
            .body
            .as_ref()
            .is_some_and(|b| b.chars().count() > MAX_BODY_CHARS)
        {
            return Err(InboxError::InvalidBody);
        }
        let now = self.clock.timestamp();
        let source = json(&row.source);
        let actions = json(&row.actions);
        self.db.write(|tx| {
            let existing: Option<(String, u32)> = match &row.dedup_key {
                Some(key) => tx
                    .query_row(
                        "SELECT id, count FROM inbox_rows INDEXED BY inbox_unread_dedup
                         WHERE account_id = ?1 AND dedup_key = ?2
                           AND read_at IS NULL AND archived_at IS NULL",
                        params![account_id, key],
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .optional()?,
                None => None,
            };
            let total = existing
                .as_ref()
                .map_or(count, |(_, had)| had.saturating_add(count));
            let title = title_for(total)
                .filter(|title| valid_title(title))
                .unwrap_or_else(|| row.title.trim().to_owned());
            let (id, repeated) = match existing {
                Some((id, _)) => {
                    // A new seq moves the row to the top of the newest-first list.
                    tx.execute(
                        "UPDATE inbox_rows SET count = ?8, updated_at = ?2, title = ?3,
                           body = ?4, source = ?5, actions = ?6, reason = ?7,
                           seq = (SELECT MAX(seq) FROM inbox_rows) + 1
                         WHERE id = ?1",
                        params![id, now, title, row.body, source, actions, row.reason, total],
                    )?;
                    (id, true)
                }
                None => {
                    let id = store::new_id();
                    tx.execute(
                        "INSERT INTO inbox_rows (id, account_id, category, title, body, created_at,
                           updated_at, count, source, actions, dedup_key, reason)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?11, ?7, ?8, ?9, ?10)",
                        params![
                            id,
                            account_id,
                            row.category.as_str(),
                            title,
                            row.body,
                            now,
                            source,
                            actions,
                            row.dedup_key,
                            row.reason,
                            total
                        ],
                    )?;
                    (id, false)
                }
            };
            let row = get_tx(tx, account_id, &id)?.ok_or(InboxError::NotFound)?;
            Ok(Added { row, repeated })
        })
    }

    /// Deletes read rows whose latest occurrence came before `before` (a
    /// time as the clock writes them), at most `limit` of them, oldest
    /// first; unread rows are never pruned. Returns how many went, so a
    /// caller prunes a backlog in short transactions.
    pub fn prune_read(&self, before: &str, limit: u32) -> Result<usize, InboxError> {
        self.db.write(|tx| {
            Ok(tx.execute(
                "DELETE FROM inbox_rows WHERE seq IN (
                   SELECT seq FROM inbox_rows
                   WHERE read_at IS NOT NULL AND updated_at < ?1
                   ORDER BY seq LIMIT ?2)",
                params![before, limit],
            )?)
        })
    }

    /// A page of the account's rows, newest first.
    pub fn list(&self, account_id: &str, query: &ListQuery) -> Result<Vec<InboxRow>, InboxError> {
        if query.limit == 0 || query.limit > MAX_PAGE {
            return Err(InboxError::InvalidLimit);
        }
        if query.category.is_some_and(|c| query.hidden.contains(&c)) {
            return Ok(Vec::new());
        }
        let (index, state) = match (query.category.is_some(), query.state) {
            (false, StateFilter::All) => ("inbox_by_account", ""),
            (false, StateFilter::Open) => ("inbox_open", " AND archived_at IS NULL"),
            (false, StateFilter::Unread) => ("inbox_by_state", " AND state = 0"),
            (false, StateFilter::Read) => ("inbox_by_state", " AND state = 1"),
            (false, StateFilter::Archived) => ("inbox_by_state", " AND state = 2"),
            (true, StateFilter::All) => ("inbox_by_category", ""),
            (true, StateFilter::Open) => ("inbox_open_by_category", " AND archived_at IS NULL"),
            (true, StateFilter::Unread) => ("inbox_by_category_state", " AND state = 0"),
            (true, StateFilter::Read) => ("inbox_by_category_state", " AND state = 1"),
            (true, StateFilter::Archived) => ("inbox_by_category_state", " AND state = 2"),
        };
        let mut sql = format!(
            "SELECT {COLUMNS} FROM inbox_rows INDEXED BY {index} WHERE account_id = ?{state}"
        );
        let mut values: Vec<Value> = vec![account_id.to_owned().into()];
        if let Some(category) = query.category {
            sql.push_str(" AND category = ?");
            values.push(category.as_str().to_owned().into());
        }
        for hidden in &query.hidden {
            sql.push_str(" AND category <> ?");
            values.push(hidden.as_str().to_owned().into());
        }
        self.db.read(|tx| {
            if let Some(before) = &query.before {
                let seq: i64 = tx
                    .query_row(
                        "SELECT seq FROM inbox_rows WHERE id = ?1 AND account_id = ?2",
                        params![before, account_id],
                        |r| r.get(0),
                    )
                    .optional()?
                    .ok_or(InboxError::UnknownCursor)?;
                sql.push_str(" AND seq < ?");
                values.push(seq.into());
            }
            sql.push_str(" ORDER BY seq DESC LIMIT ?");
            values.push(i64::try_from(query.limit).unwrap_or(1).into());
            let mut stmt = tx.prepare_cached(&sql)?;
            let rows = stmt.query_map(params_from_iter(values), read_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    pub fn get(&self, account_id: &str, id: &str) -> Result<InboxRow, InboxError> {
        self.db
            .read(|tx| get_tx(tx, account_id, id))?
            .ok_or(InboxError::NotFound)
    }

    /// Marks a row read or unread, archived or not. Reading or archiving a
    /// row ends its run of repeats: the next occurrence is a new row.
    pub fn change(
        &self,
        account_id: &str,
        id: &str,
        change: RowChange,
    ) -> Result<InboxRow, InboxError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let found = tx.execute(
                "UPDATE inbox_rows SET
                   read_at = CASE ?3 WHEN 1 THEN COALESCE(read_at, ?5) WHEN 0 THEN NULL ELSE read_at END,
                   archived_at = CASE ?4 WHEN 1 THEN COALESCE(archived_at, ?5) WHEN 0 THEN NULL ELSE archived_at END
                 WHERE id = ?1 AND account_id = ?2",
                params![id, account_id, change.read, change.archived, now],
            )?;
            if found == 0 {
                return Err(InboxError::NotFound);
            }
            tx.execute(
                "UPDATE inbox_rows SET dedup_key = NULL
                 WHERE id = ?1 AND (read_at IS NOT NULL OR archived_at IS NOT NULL)",
                params![id],
            )?;
            get_tx(tx, account_id, id)?.ok_or(InboxError::NotFound)
        })
    }

    /// Marks every unread, unarchived row read (of one category, or of all
    /// but the hidden ones) and says how many it marked.
    pub fn read_all(
        &self,
        account_id: &str,
        category: Option<Category>,
        hidden: &[Category],
    ) -> Result<usize, InboxError> {
        let now = self.clock.timestamp();
        let mut sql = String::from(
            "UPDATE inbox_rows SET read_at = ?, dedup_key = NULL
             WHERE account_id = ? AND state = 0",
        );
        let mut values: Vec<Value> = vec![now.into(), account_id.to_owned().into()];
        if let Some(category) = category {
            sql.push_str(" AND category = ?");
            values.push(category.as_str().to_owned().into());
        }
        for hidden in hidden {
            sql.push_str(" AND category <> ?");
            values.push(hidden.as_str().to_owned().into());
        }
        self.db
            .write(|tx| Ok(tx.execute(&sql, params_from_iter(values))?))
    }

    /// Marks the account's unread rows of `category` about one session read
    /// (the user opened the session) and gives them back as they now are.
    /// Like any read, it ends their run of repeats.
    pub fn read_about_session(
        &self,
        account_id: &str,
        category: Category,
        session_id: &str,
    ) -> Result<Vec<InboxRow>, InboxError> {
        self.read_about(account_id, category, "$.sessionId", session_id)
    }

    /// Marks the account's unread `cli_pending` row about an input request
    /// or a key proposal read (it was answered) and gives it back.
    pub fn read_about_request(
        &self,
        account_id: &str,
        request_id: &str,
    ) -> Result<Vec<InboxRow>, InboxError> {
        self.read_about(account_id, Category::CliPending, "$.requestId", request_id)
    }

    fn read_about(
        &self,
        account_id: &str,
        category: Category,
        source_field: &str,
        value: &str,
    ) -> Result<Vec<InboxRow>, InboxError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            // The index narrows to the account's unread rows of the category,
            // which are few; the source is matched among them.
            let ids = tx
                .prepare_cached(
                    "UPDATE inbox_rows INDEXED BY inbox_by_category_state
                     SET read_at = ?1, dedup_key = NULL
                     WHERE account_id = ?2 AND category = ?3 AND state = 0
                       AND json_extract(source, ?4) = ?5
                     RETURNING id",
                )?
                .query_map(
                    params![now, account_id, category.as_str(), source_field, value],
                    |r| r.get::<_, String>(0),
                )?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut rows = Vec::with_capacity(ids.len());
            for id in ids {
                rows.extend(get_tx(tx, account_id, &id)?);
            }
            Ok(rows)
        })
    }

    /// Unread rows per category, every category named (hidden ones left out).
    pub fn unread_counts(
        &self,
        account_id: &str,
        hidden: &[Category],
    ) -> Result<BTreeMap<Category, i64>, InboxError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT COUNT(*) FROM inbox_rows INDEXED BY inbox_by_category_state
                 WHERE account_id = ?1 AND category = ?2 AND state = 0",
            )?;
            let mut counts = BTreeMap::new();
            for category in Category::ALL.into_iter().filter(|c| !hidden.contains(c)) {
                let n: i64 =
                    stmt.query_row(params![account_id, category.as_str()], |r| r.get(0))?;
                counts.insert(category, n);
            }
            Ok(counts)
        })
    }
}

fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn get_tx(
    tx: &Transaction<'_>,
    account_id: &str,
    id: &str,
) -> Result<Option<InboxRow>, InboxError> {
    Ok(tx
        .query_row(
            &format!("SELECT {COLUMNS} FROM inbox_rows WHERE id = ?1 AND account_id = ?2"),
            params![id, account_id],
            read_row,
        )
        .optional()?)
}

fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<InboxRow> {
    let category: String = row.get(1)?;
    let source: String = row.get(9)?;
    let actions: String = row.get(10)?;
    Ok(InboxRow {
        id: row.get(0)?,
        // Written by this crate only; a value a later version added reads as a note.
        category: Category::parse(&category).unwrap_or(Category::Note),
        title: row.get(2)?,
        body: row.get(3)?,
        created_at: row.get(4)?,
        updated_at: row.get(5)?,
        read_at: row.get(6)?,
        archived_at: row.get(7)?,
        count: row.get(8)?,
        reason: row.get(11)?,
        source: serde_json::from_str(&source).unwrap_or_default(),
        actions: serde_json::from_str(&actions).unwrap_or_default(),
    })
}
