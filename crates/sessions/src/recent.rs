//! What a scan of recent work reads: each session whose row changed since a
//! moment, with its whole typed transcript, straight from the database (no
//! supervisor needed), a page at a time through the transcript's index.

use store::Db;
use store::rusqlite::params;

use crate::db;
use crate::error::Result;
use crate::model::{Entry, Session};
use crate::pages::{self, MAX_PAGE, PageFrom};

/// One session and its entries, oldest first.
#[derive(Debug, Clone)]
pub struct RecentTranscript {
    pub session: Session,
    pub entries: Vec<Entry>,
}

/// The sessions of every account updated at or after `since` (a stored
/// timestamp), each with its transcript; at most `limit` sessions, the most
/// recently updated first.
pub fn recent_transcripts(db: &Db, since: &str, limit: usize) -> Result<Vec<RecentTranscript>> {
    db.read(|tx| {
        let ids: Vec<String> = {
            let mut statement = tx.prepare_cached(
                "SELECT id FROM sessions WHERE updated_at >= ?1 ORDER BY updated_at DESC LIMIT ?2",
            )?;
            let rows = statement.query_map(
                params![since, i64::try_from(limit).unwrap_or(i64::MAX)],
                |row| row.get(0),
            )?;
            rows.collect::<std::result::Result<_, _>>()?
        };
        let mut found = Vec::with_capacity(ids.len());
        for id in ids {
            let Some(session) = db::get_session_any(tx, &id)? else {
                continue;
            };
            let mut entries = Vec::new();
            loop {
                let after = entries.last().map_or(0, |e: &Entry| e.seq);
                let page = pages::page(tx, &id, PageFrom::After(after), MAX_PAGE)?;
                let more = page.more && !page.entries.is_empty();
                entries.extend(page.entries);
                if !more {
                    break;
                }
            }
            found.push(RecentTranscript { session, entries });
        }
        Ok(found)
    })
}
