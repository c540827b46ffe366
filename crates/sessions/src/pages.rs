//! The typed transcript in SQLite: storing a flushed batch of entries and
//! reading them back a page at a time.
//!
//! Entries live in `session_output` beside the plain text, one row each, so
//! nothing is stored twice: a `command` engine's `out` and `err` rows are its
//! whole lines and read as `stdout`/`stderr` entries as they are (and a
//! session recorded before typed transcripts existed reads the same way);
//! Claude's and Codex's entries are `entry` rows holding the entry's JSON,
//! and their reply text, which only the plain transcript shows, is a `reply`
//! row that pages skip. An entry's `seq` is its row id: it grows within a
//! session, and `session_output_by_seq` serves every page with an index range
//! and a `LIMIT`, so a page costs the same at the start of a 50 MB transcript
//! as at its end.

use store::rusqlite::{Row, Transaction, params};

use crate::error::Result;
use crate::model::{Activity, Entry, EntryBody, EntryPage};

/// Where a page of entries starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageFrom {
    /// The entries just after this `seq`, oldest first (`0`: from the start).
    After(i64),
    /// The entries just before this `seq`.
    Before(i64),
    /// The last entries of the transcript.
    Tail,
}

/// The most entries one page holds.
pub const MAX_PAGE: u32 = 1000;

/// One row to append: what the plain transcript and the page reader make of it.
pub(crate) struct Piece {
    pub(crate) stream: &'static str,
    pub(crate) text: String,
    /// The entry the row is, `None` for a `reply` row.
    pub(crate) entry: Option<EntryBody>,
}

impl Piece {
    /// A typed entry of Claude or Codex.
    pub(crate) fn entry(entry: EntryBody) -> Piece {
        // Serialising our own enum to a string has no failure case.
        let text = serde_json::to_string(&entry).unwrap_or_default();
        Piece {
            stream: "entry",
            text,
            entry: Some(entry),
        }
    }
}

/// Appends a batch in order; returns each stored entry with its `seq`.
pub(crate) fn append(
    tx: &Transaction<'_>,
    id: &str,
    turn: i64,
    pieces: Vec<Piece>,
) -> Result<Vec<(i64, EntryBody)>> {
    let mut stored = Vec::new();
    for piece in pieces {
        if let Some(seq) = crate::db::append_output(tx, id, turn, piece.stream, &piece.text)?
            && let Some(entry) = piece.entry
        {
            stored.push((seq, entry));
        }
    }
    Ok(stored)
}

pub(crate) fn set_activity(tx: &Transaction<'_>, id: &str, activity: &Activity) -> Result<()> {
    let json = serde_json::to_string(activity).unwrap_or_default();
    tx.execute(
        "UPDATE sessions SET activity = ?2 WHERE id = ?1",
        params![id, json],
    )?;
    Ok(())
}

fn entry_from_row(row: &Row<'_>) -> store::rusqlite::Result<Entry> {
    let stream: String = row.get(2)?;
    let text: String = row.get(3)?;
    let body = match stream.as_str() {
        "err" => EntryBody::Stderr { text },
        "entry" => serde_json::from_str(&text).unwrap_or_else(|e| EntryBody::Error {
            // Only a bug writes an unreadable entry; showing that beats losing the place.
            message: format!("this entry could not be read back: {e}"),
        }),
        _ => EntryBody::Stdout { text },
    };
    Ok(Entry {
        seq: row.get(0)?,
        turn: row.get(1)?,
        body,
    })
}

/// One page of `id`'s entries, oldest first. `more` says whether entries
/// exist beyond the page in the direction read: after it for `After`, before
/// it for `Before` and `Tail`.
pub(crate) fn page(
    tx: &Transaction<'_>,
    id: &str,
    from: PageFrom,
    limit: u32,
) -> Result<EntryPage> {
    let limit = limit.clamp(1, MAX_PAGE);
    // One row more than asked tells whether there is more.
    let fetch = i64::from(limit) + 1;
    let (sql, bound) = match from {
        PageFrom::After(seq) => ("id > ?2 ORDER BY id", seq),
        PageFrom::Before(seq) => ("id < ?2 ORDER BY id DESC", seq),
        PageFrom::Tail => ("id <= ?2 ORDER BY id DESC", i64::MAX),
    };
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT id, turn, stream, text FROM session_output INDEXED BY session_output_by_seq
         WHERE session_id = ?1 AND stream <> 'reply' AND {sql} LIMIT ?3"
    ))?;
    let mut entries = stmt
        .query_map(params![id, bound, fetch], entry_from_row)?
        .collect::<store::rusqlite::Result<Vec<_>>>()?;
    let more = entries.len() > limit as usize;
    entries.truncate(limit as usize);
    if !matches!(from, PageFrom::After(_)) {
        entries.reverse();
    }
    Ok(EntryPage { entries, more })
}
