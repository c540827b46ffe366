//! Domain events the inbox builds on: assignments, status changes and due dates,
//! recorded in the same transaction as the item change that caused them.

use std::collections::HashSet;

use serde_json::{Map, Value};
use store::Db;
use store::rusqlite::{Transaction, params};

use crate::columns::ColumnType;
use crate::error::Result;
use crate::model::{EventKind, ItemEvent};
use crate::rules::BoardRules;

/// Records events for one write: who changed which board, and when.
pub(crate) struct Recorder<'a> {
    pub tx: &'a Transaction<'a>,
    pub board_id: &'a str,
    pub actor: &'a str,
    pub now: &'a str,
}

/// One item's values before and after a change.
pub(crate) struct Change<'a> {
    pub item_id: &'a str,
    pub before: &'a Map<String, Value>,
    pub after: &'a Map<String, Value>,
    /// A new item's first status is not a status change.
    pub created: bool,
}

impl Recorder<'_> {
    /// Records the events a change causes; `keys` are the columns it touched.
    pub(crate) fn record<'k>(
        &self,
        rules: &BoardRules,
        change: &Change<'_>,
        keys: impl Iterator<Item = &'k String>,
    ) -> Result<()> {
        for key in keys {
            let Some(kind) = rules.kind_of(key) else {
                continue;
            };
            let old = change.before.get(key).unwrap_or(&Value::Null);
            let new = change.after.get(key).unwrap_or(&Value::Null);
            if old == new {
                continue;
            }
            let event = |kind, member| self.insert(change.item_id, kind, key, member, old, new);
            match kind {
                ColumnType::People => {
                    let had: HashSet<&str> = member_ids(old).collect();
                    let mut gained: Vec<&str> = Vec::new();
                    for m in member_ids(new) {
                        if !had.contains(m) && !gained.contains(&m) {
                            gained.push(m);
                        }
                    }
                    for member in gained {
                        event(EventKind::Assigned, Some(member))?;
                    }
                }
                ColumnType::Status if !change.created => event(EventKind::StatusChanged, None)?,
                ColumnType::Date if old.is_null() => event(EventKind::DueDateSet, None)?,
                ColumnType::Date if !new.is_null() => event(EventKind::DueDateChanged, None)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The item moved from one group to another.
    pub(crate) fn group_changed(&self, item_id: &str, from: &str, to: &str) -> Result<()> {
        if from == to {
            return Ok(());
        }
        self.insert(
            item_id,
            EventKind::GroupChanged,
            "",
            None,
            &Value::from(from),
            &Value::from(to),
        )
    }

    fn insert(
        &self,
        item_id: &str,
        kind: EventKind,
        column_id: &str,
        member_id: Option<&str>,
        before: &Value,
        after: &Value,
    ) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO item_events (board_id, item_id, actor, kind, column_id,
                     member_id, before, after, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?
            .execute(params![
                self.board_id,
                item_id,
                self.actor,
                kind.as_str(),
                column_id,
                member_id,
                before.to_string(),
                after.to_string(),
                self.now
            ])?;
        Ok(())
    }
}

fn member_ids(value: &Value) -> impl Iterator<Item = &str> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// The account's events with a sequence number above `after_seq`, oldest first,
/// at most `limit` (capped at 1,000) of them.
pub fn events_since(
    db: &Db,
    account_id: &str,
    after_seq: i64,
    limit: u32,
) -> Result<Vec<ItemEvent>> {
    db.read(|tx| {
        let mut stmt = tx.prepare_cached(
            "SELECT e.seq, e.board_id, e.item_id, e.actor, e.kind, e.column_id, e.member_id,
                    e.before, e.after, e.created_at, b.account_id
             FROM item_events e JOIN boards b ON b.id = e.board_id
             WHERE b.account_id = ?1 AND e.seq > ?2 ORDER BY e.seq LIMIT ?3",
        )?;
        let rows = stmt.query_map(params![account_id, after_seq, limit.min(1000)], read_event)?;
        collect_events(rows).map(|events| events.into_iter().map(|e| e.event).collect())
    })
}

/// An event with the account it belongs to, for a reader of every account's
/// events (the inbox's notifier).
#[derive(Debug, Clone)]
pub struct AccountEvent {
    pub account_id: String,
    pub event: ItemEvent,
}

/// Every account's events above `after_seq`, oldest first, at most `limit`.
pub fn events_after(db: &Db, after_seq: i64, limit: u32) -> Result<Vec<AccountEvent>> {
    db.read(|tx| {
        let mut stmt = tx.prepare_cached(
            "SELECT e.seq, e.board_id, e.item_id, e.actor, e.kind, e.column_id, e.member_id,
                    e.before, e.after, e.created_at, b.account_id
             FROM item_events e JOIN boards b ON b.id = e.board_id
             WHERE e.seq > ?1 ORDER BY e.seq LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![after_seq, limit], read_event)?;
        collect_events(rows)
    })
}

/// The newest event's sequence number (0 when there is none): where a reader
/// that should not replay history starts.
pub fn last_event_seq(db: &Db) -> Result<i64> {
    db.read(|tx| {
        Ok(tx
            .prepare_cached("SELECT coalesce(max(seq), 0) FROM item_events")?
            .query_row([], |r| r.get(0))?)
    })
}

/// Deletes events at or below `upto_seq` recorded before `before` (a time
/// as the clock writes them), at most `limit`, oldest first, and says how
/// many went: the feed keeps what is recent, and what a reader has not yet
/// read is never pruned.
pub fn prune_events(db: &Db, upto_seq: i64, before: &str, limit: u32) -> Result<usize> {
    db.write(|tx| {
        Ok(tx.execute(
            "DELETE FROM item_events WHERE seq IN (
               SELECT seq FROM item_events WHERE seq <= ?1 AND created_at < ?2
               ORDER BY seq LIMIT ?3)",
            params![upto_seq, before, limit],
        )?)
    })
}

type RawEvent = (String, String, String, AccountEvent);

fn read_event(r: &store::rusqlite::Row<'_>) -> store::rusqlite::Result<RawEvent> {
    Ok((
        r.get(4)?,
        r.get(7)?,
        r.get(8)?,
        AccountEvent {
            account_id: r.get(10)?,
            event: ItemEvent {
                seq: r.get(0)?,
                board_id: r.get(1)?,
                item_id: r.get(2)?,
                actor: r.get(3)?,
                kind: EventKind::Assigned,
                column_id: r.get(5)?,
                member_id: r.get(6)?,
                before: Value::Null,
                after: Value::Null,
                created_at: r.get(9)?,
            },
        },
    ))
}

fn collect_events(
    rows: impl Iterator<Item = store::rusqlite::Result<RawEvent>>,
) -> Result<Vec<AccountEvent>> {
    let mut events = Vec::new();
    for row in rows {
        let (kind, before, after, mut event) = row?;
        // A kind a later version wrote is skipped, not misread.
        let Some(kind) = EventKind::parse(&kind) else {
            continue;
        };
        event.event.kind = kind;
        event.event.before = serde_json::from_str(&before).unwrap_or(Value::Null);
        event.event.after = serde_json::from_str(&after).unwrap_or(Value::Null);
        events.push(event);
    }
    Ok(events)
}
