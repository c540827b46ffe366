//! What the inbox has been told about work, so each thing is said once:
//! work stranded for a day ([`STRANDED_FOR`]) makes one row per
//! repository, folded as more of it strands, and never again for the same
//! piece, even after the row is read; so does a pull request merged or
//! closed.

use std::collections::{BTreeMap, HashSet};

use store::Db;
use store::rusqlite::{Transaction, params};

use crate::index::Entry;
use crate::state::State;

/// How long work stays stranded before the inbox hears of it.
pub const STRANDED_FOR: i64 = 24 * 60 * 60;
pub const STRANDED: &str = "stranded";
/// Its pull request was merged, or closed unmerged (said once each).
pub const MERGED: &str = "merged";
pub const CLOSED: &str = "closed";

/// The pieces of `entries` stranded for a day at `now` (Unix seconds) that
/// the inbox was not told of, by repository. `since` is RFC 3339.
pub fn newly_stranded<'a>(
    entries: &'a [Entry],
    told: &HashSet<String>,
    now: i64,
) -> BTreeMap<String, Vec<&'a Entry>> {
    let mut found: BTreeMap<String, Vec<&Entry>> = BTreeMap::new();
    for entry in entries {
        let ended = entry
            .since
            .as_deref()
            .and_then(|at| {
                time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).ok()
            })
            .map(|at| at.unix_timestamp());
        if entry.state == State::Stranded
            && ended.is_some_and(|at| now - at >= STRANDED_FOR)
            && !told.contains(&entry.id)
        {
            found
                .entry(entry.repository.clone())
                .or_default()
                .push(entry);
        }
    }
    found
}

/// The pieces the inbox was told of as `kind`.
pub fn told(db: &Db, kind: &str) -> store::Result<HashSet<String>> {
    db.read(|tx: &Transaction<'_>| {
        let mut statement = tx.prepare("SELECT work_id FROM work_notices WHERE kind = ?1")?;
        let rows = statement.query_map([kind], |row| row.get::<_, String>(0))?;
        Ok(rows.collect::<store::rusqlite::Result<_>>()?)
    })
}

pub fn tell(db: &Db, kind: &str, ids: &[String], now: i64) -> store::Result<()> {
    db.write(|tx: &Transaction<'_>| {
        for id in ids {
            tx.execute(
                "INSERT OR IGNORE INTO work_notices (work_id, kind, noticed_at) VALUES (?1, ?2, ?3)",
                params![id, kind, now],
            )?;
        }
        Ok(())
    })
}
