//! What happened on an account's boards in a period: the facts a weekly
//! summary is written from. Counted from the items' own times, which stay
//! when the event feed is pruned.

use serde::Serialize;
use store::Db;
use store::rusqlite::params;

use crate::error::Result;

/// One board's work in a period; only boards with some are listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardActivity {
    pub board_id: String,
    pub board_name: String,
    /// Items made in the period.
    pub items_added: u32,
    /// Items made before the period and changed in it.
    pub items_changed: u32,
    /// Status changes recorded in the period (while the feed keeps them).
    pub status_changes: u32,
}

/// The account's boards with items added, changed or moved on in
/// `[start, end)` (times as the boards write them), busiest first.
pub fn activity_between(
    db: &Db,
    account_id: &str,
    start: &str,
    end: &str,
) -> Result<Vec<BoardActivity>> {
    db.read(|tx| {
        let mut stmt = tx.prepare_cached(
            "SELECT b.id, b.name,
                    (SELECT count(*) FROM items i WHERE i.board_id = b.id
                       AND i.created_at >= ?2 AND i.created_at < ?3),
                    (SELECT count(*) FROM items i WHERE i.board_id = b.id
                       AND i.created_at < ?2 AND i.updated_at >= ?2 AND i.updated_at < ?3),
                    (SELECT count(*) FROM item_events e WHERE e.board_id = b.id
                       AND e.kind = 'status_changed'
                       AND e.created_at >= ?2 AND e.created_at < ?3)
             FROM boards b WHERE b.account_id = ?1",
        )?;
        let rows = stmt.query_map(params![account_id, start, end], |r| {
            Ok(BoardActivity {
                board_id: r.get(0)?,
                board_name: r.get(1)?,
                items_added: r.get(2)?,
                items_changed: r.get(3)?,
                status_changes: r.get(4)?,
            })
        })?;
        let mut boards: Vec<BoardActivity> = rows
            .filter(|row| {
                row.as_ref().map_or(true, |b| {
                    b.items_added + b.items_changed + b.status_changes > 0
                })
            })
            .collect::<std::result::Result<_, _>>()?;
        boards.sort_by(|a, b| {
            let busy = |x: &BoardActivity| x.items_added + x.items_changed + x.status_changes;
            busy(b)
                .cmp(&busy(a))
                .then_with(|| a.board_name.cmp(&b.board_name))
        });
        Ok(boards)
    })
}
