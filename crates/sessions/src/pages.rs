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

/// About how much entry text one page carries, whatever its `limit`: a
/// `command` engine that writes at full speed fills entries of 64 KiB, and
/// 200 of those would be a 13 MB page for a screenful. A page always holds
/// at least one entry.
pub const PAGE_BYTES: usize = 1 << 20;

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

/// Appends a batch in order, every row stored `at` (the clock's timestamp
/// when the batch was flushed); returns each stored entry with its `seq`.
pub(crate) fn append(
    tx: &Transaction<'_>,
    id: &str,
    turn: i64,
    at: &str,
    pieces: Vec<Piece>,
) -> Result<Vec<(i64, EntryBody)>> {
    let mut stored = Vec::new();
    for piece in pieces {
        if let Some(seq) = crate::db::append_output(tx, id, turn, piece.stream, &piece.text, at)?
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

/// The entry and the size of its stored text.
fn entry_from_row(row: &Row<'_>) -> store::rusqlite::Result<(Entry, usize)> {
    let stream: String = row.get(2)?;
    let text: String = row.get(3)?;
    let size = text.len();
    let body = match stream.as_str() {
        "err" => EntryBody::Stderr { text },
        "entry" => serde_json::from_str(&text).unwrap_or_else(|e| EntryBody::Error {
            // Only a bug writes an unreadable entry; showing that beats losing the place.
            message: format!("this entry could not be read back: {e}"),
        }),
        _ => EntryBody::Stdout { text },
    };
    let entry = Entry {
        seq: row.get(0)?,
        turn: row.get(1)?,
        at: row.get(4)?,
        body,
    };
    Ok((entry, size))
}

/// The query for a page (`?1` the session, `?2` the bound returned, `?3` the
/// row count): one range of `session_output_by_seq`, walked in the order the
/// page needs, so SQLite stops after `?3` rows and never sorts.
fn page_sql(from: PageFrom) -> (String, i64) {
    let (range, bound) = match from {
        PageFrom::After(seq) => ("id > ?2 ORDER BY id", seq),
        PageFrom::Before(seq) => ("id < ?2 ORDER BY id DESC", seq),
        PageFrom::Tail => ("id <= ?2 ORDER BY id DESC", i64::MAX),
    };
    let sql = format!(
        "SELECT id, turn, stream, text, at FROM session_output INDEXED BY session_output_by_seq
         WHERE session_id = ?1 AND stream <> 'reply' AND {range} LIMIT ?3"
    );
    (sql, bound)
}

/// One page of `id`'s entries, oldest first: at most `limit` of them, and no
/// more once [`PAGE_BYTES`] of text is reached. `more` says whether entries
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
    let (sql, bound) = page_sql(from);
    let mut stmt = tx.prepare_cached(&sql)?;
    let mut entries = Vec::new();
    let mut bytes = 0;
    let mut more = false;
    // Rows are stepped one at a time and decoded only once they belong to the
    // page, so the row that only says there is more is never decoded.
    let mut rows = stmt.query(params![id, bound, fetch])?;
    while let Some(row) = rows.next()? {
        if entries.len() == limit as usize || bytes >= PAGE_BYTES {
            more = true;
            break;
        }
        let (entry, size) = entry_from_row(row)?;
        bytes += size;
        entries.push(entry);
    }
    if !matches!(from, PageFrom::After(_)) {
        entries.reverse();
    }
    Ok(EntryPage { entries, more })
}

#[cfg(test)]
mod tests {
    use store::Db;

    use super::*;
    use crate::model::EntryBody;

    const STORED_AT: &str = "2026-01-05T09:00:00.000Z";

    /// Two sessions whose rows interleave: `a` has a row from before typed
    /// transcripts (a Claude reply stored as `out`), then a reply, entries and stderr.
    fn db_with_rows() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap_or_else(|e| panic!("{e}"));
        db.migrate(crate::schema::MIGRATIONS)
            .unwrap_or_else(|e| panic!("{e}"));
        let write = |sql: &str| {
            db.write(|tx| tx.execute_batch(sql))
                .unwrap_or_else(|e| panic!("{e}"))
        };
        for id in ["a", "b"] {
            write(&format!(
                "INSERT INTO sessions (id, account_id, engine, engine_kind, engine_spec, cwd,
                    prompt, status, agent_driven, max_dollars, max_turns, created_at, updated_at)
                 VALUES ('{id}', 'acc', 'e', 'claude', '{{}}', '/', 'p', 'finished', 0, 0, 0, 't', 't');
                 INSERT INTO session_turns (session_id, turn, kind, input, status, started_at)
                 VALUES ('{id}', 1, 'prompt', 'p', 'done', 't');"
            ));
        }
        write(
            "INSERT INTO session_output (session_id, turn, stream, text) VALUES
                ('a', 1, 'out', 'old reply'), ('b', 1, 'out', 'b1'), ('a', 1, 'err', 'warn\n')",
        );
        db.write(|tx| {
            append(
                tx,
                "a",
                1,
                STORED_AT,
                vec![
                    Piece {
                        stream: "reply",
                        text: " new reply".into(),
                        entry: None,
                    },
                    Piece::entry(EntryBody::Text {
                        text: "new reply".into(),
                    }),
                    Piece::entry(EntryBody::Final {
                        text: "new reply".into(),
                    }),
                ],
            )
        })
        .unwrap_or_else(|e| panic!("{e}"));
        write(
            "INSERT INTO session_output (session_id, turn, stream, text) VALUES ('b', 1, 'out', 'b2')",
        );
        (dir, db)
    }

    fn read(db: &Db, from: PageFrom, limit: u32) -> (Vec<(i64, EntryBody)>, bool) {
        let page = db
            .read(|tx| page(tx, "a", from, limit))
            .unwrap_or_else(|e| panic!("{e}"));
        let entries = page.entries.into_iter().map(|e| (e.seq, e.body)).collect();
        (entries, page.more)
    }

    #[test]
    fn old_and_new_rows_page_in_order_and_replies_are_left_out() {
        let (_dir, db) = db_with_rows();
        let (all, more) = read(&db, PageFrom::After(0), 10);
        assert!(!more);
        let bodies: Vec<&EntryBody> = all.iter().map(|(_, b)| b).collect();
        assert_eq!(
            bodies,
            [
                &EntryBody::Stdout {
                    text: "old reply".into()
                },
                &EntryBody::Stderr {
                    text: "warn\n".into()
                },
                &EntryBody::Text {
                    text: "new reply".into()
                },
                &EntryBody::Final {
                    text: "new reply".into()
                },
            ]
        );
        let seqs: Vec<i64> = all.iter().map(|(s, _)| *s).collect();
        assert_eq!(
            read(&db, PageFrom::After(seqs[0]), 2),
            (all[1..3].to_vec(), true)
        );
        assert_eq!(
            read(&db, PageFrom::After(seqs[2]), 2),
            (all[3..].to_vec(), false)
        );
        assert_eq!(
            read(&db, PageFrom::Before(seqs[3]), 2),
            (all[1..3].to_vec(), true)
        );
        assert_eq!(
            read(&db, PageFrom::Before(seqs[1]), 2),
            (all[..1].to_vec(), false)
        );
        assert_eq!(read(&db, PageFrom::Tail, 3), (all[1..].to_vec(), true));
        assert_eq!(read(&db, PageFrom::Tail, 4), (all.clone(), false));

        // The plain transcript keeps the replies, old and new, and no entry JSON.
        let turns = db
            .read(|tx| crate::db::turns(tx, "a"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(turns[0].output, "old reply new reply");
        assert_eq!(turns[0].stderr, "warn\n");
    }

    #[test]
    fn an_entry_reads_back_with_its_time_and_an_older_row_without_one() {
        let (_dir, db) = db_with_rows();
        let page = db
            .read(|tx| page(tx, "a", PageFrom::After(0), 10))
            .unwrap_or_else(|e| panic!("{e}"));
        let times: Vec<Option<&str>> = page.entries.iter().map(|e| e.at.as_deref()).collect();
        assert_eq!(times, [None, None, Some(STORED_AT), Some(STORED_AT)]);
        let json = serde_json::to_value(&page.entries[0]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(json["at"], serde_json::Value::Null);
        let json = serde_json::to_value(&page.entries[2]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(json["at"], STORED_AT);
        assert_eq!(json["kind"], "text");
    }

    #[test]
    fn a_page_is_an_index_range_with_a_limit() {
        let (_dir, db) = db_with_rows();
        for from in [PageFrom::After(1), PageFrom::Before(9), PageFrom::Tail] {
            let (sql, bound) = page_sql(from);
            let plan: Vec<String> = db
                .read(|tx| {
                    let mut stmt = tx.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
                    let rows =
                        stmt.query_map(params!["a", bound, 10], |r| r.get::<_, String>(3))?;
                    rows.collect::<store::rusqlite::Result<Vec<_>>>()
                })
                .unwrap_or_else(|e| panic!("{e}"));
            let plan = plan.join("; ");
            assert!(
                plan.contains("USING INDEX session_output_by_seq (session_id=? AND id"),
                "{from:?}: {plan}"
            );
            assert!(!plan.contains("TEMP B-TREE"), "{from:?}: no sort: {plan}");
        }
    }

    #[test]
    fn a_page_of_large_entries_stops_at_its_size() {
        let (_dir, db) = db_with_rows();
        let line = format!("{}\n", "x".repeat(PAGE_BYTES / 3));
        db.write(|tx| {
            for _ in 0..5 {
                crate::db::append_output(tx, "a", 1, "out", &line, STORED_AT)?;
            }
            Ok::<_, crate::error::SessionError>(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let (tail, more) = read(&db, PageFrom::Tail, 200);
        assert_eq!(tail.len(), 3, "three entries pass the page's size");
        assert!(more);
        let (before, _) = read(&db, PageFrom::Before(tail[0].0), 200);
        assert_eq!(
            before.len(),
            6,
            "the other two large ones and the four small ones before them"
        );
        let (first, more) = read(&db, PageFrom::After(0), 1);
        assert_eq!(first.len(), 1);
        assert!(more);
    }
}
