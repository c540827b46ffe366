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
//!
//! The engines' flushes are stored together ([`Flushes`]): every flush that
//! waits while one transaction commits goes into the next, so a thousand busy
//! sessions cost a few commits a second, not one each (a commit writes each
//! page it touched to the WAL: the table's last page and the indexes' are
//! the same pages for all of them). A quiet session's flush finds no writer
//! busy and is written at once, alone, as before.

use std::sync::{Arc, Mutex, MutexGuard};

use store::Db;
use store::rusqlite::{Row, Transaction, params};
use tokio::sync::oneshot;

use crate::adapters::TurnMeta;
use crate::error::{Result, SessionError};
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

/// Inserts a flush's rows as [`crate::db::append_output`] does one (the
/// engines' flushes come here, the rest there); each one's `seq`, `None` for
/// an empty one (not stored).
fn insert(
    tx: &Transaction<'_>,
    id: &str,
    turn: i64,
    at: &str,
    pieces: &[Piece],
) -> Result<Vec<Option<i64>>> {
    // Cached: every flush runs it, and parsing it anew cost more than the insert.
    let mut stmt = tx.prepare_cached(
        "INSERT INTO session_output (session_id, turn, stream, text, at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    let mut seqs = Vec::with_capacity(pieces.len());
    for piece in pieces {
        if piece.text.is_empty() {
            seqs.push(None);
            continue;
        }
        stmt.execute(params![id, turn, piece.stream, piece.text, at])?;
        seqs.push(Some(tx.last_insert_rowid()));
    }
    Ok(seqs)
}

/// The stored entries of `pieces`, inserted as `seqs` say.
fn entries(pieces: Vec<Piece>, seqs: Vec<Option<i64>>) -> Vec<(i64, EntryBody)> {
    pieces
        .into_iter()
        .zip(seqs)
        .filter_map(|(piece, seq)| Some((seq?, piece.entry?)))
        .collect()
}

pub(crate) fn set_activity(tx: &Transaction<'_>, id: &str, activity: &Activity) -> Result<()> {
    let json = serde_json::to_string(activity).unwrap_or_default();
    tx.prepare_cached("UPDATE sessions SET activity = ?2 WHERE id = ?1")?
        .execute(params![id, json])?;
    Ok(())
}

/// One flush of a turn's output, to store with [`Flushes::store`].
pub(crate) struct Flush {
    pub(crate) session_id: String,
    pub(crate) turn: i64,
    /// The clock's timestamp of the flush, every row's `at`.
    pub(crate) at: String,
    pub(crate) pieces: Vec<Piece>,
    /// What the engine said of itself, when it changed since the last flush stored.
    pub(crate) meta: Option<TurnMeta>,
    /// The session's new activity, when it changes.
    pub(crate) activity: Option<Activity>,
}

impl Flush {
    fn write(&self, tx: &Transaction<'_>) -> Result<Vec<Option<i64>>> {
        let seqs = insert(tx, &self.session_id, self.turn, &self.at, &self.pieces)?;
        if let Some(meta) = &self.meta {
            crate::db::save_meta(tx, &self.session_id, self.turn, meta)?;
        }
        if let Some(activity) = &self.activity {
            set_activity(tx, &self.session_id, activity)?;
        }
        Ok(seqs)
    }

    /// About what the flush writes, to bound one transaction.
    fn bytes(&self) -> usize {
        self.pieces.iter().map(|p| p.text.len()).sum()
    }
}

/// What one transaction stores at most, beyond its first flush: when every
/// session floods 64 KiB flushes, a commit (and the pumps waiting on it)
/// still takes milliseconds, not a second.
const GROUP_BYTES: usize = 4 << 20;

type Reply = oneshot::Sender<Result<Vec<(i64, EntryBody)>>>;

#[derive(Default)]
struct Queue {
    waiting: Vec<(Flush, Reply)>,
    /// A writer is on the blocking pool and takes what waits before it stops.
    writing: bool,
}

/// The engines' flushes, stored many to a transaction (see the module's doc).
#[derive(Default)]
pub(crate) struct Flushes {
    queue: Mutex<Queue>,
}

impl Flushes {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        // The queue stays consistent between statements.
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores `flush` in `db` (with whatever other flushes wait, in one
    /// transaction) and returns its stored entries with their `seq`s. A
    /// flush that fails loses only itself: when a transaction of several
    /// fails, each is tried again alone.
    pub(crate) async fn store(
        self: &Arc<Self>,
        db: &Arc<Db>,
        flush: Flush,
    ) -> Result<Vec<(i64, EntryBody)>> {
        let (reply, answer) = oneshot::channel();
        let start = {
            let mut queue = self.queue();
            queue.waiting.push((flush, reply));
            !std::mem::replace(&mut queue.writing, true)
        };
        if start {
            let (flushes, db) = (Arc::clone(self), Arc::clone(db));
            tokio::task::spawn_blocking(move || flushes.write_all(&db));
        }
        answer.await.map_err(|_| SessionError::ShuttingDown)?
    }

    /// The writer: commits what waits, a group at a time, until nothing does.
    fn write_all(&self, db: &Db) {
        let _guard = Writing(self);
        loop {
            let group = {
                let mut queue = self.queue();
                if queue.waiting.is_empty() {
                    queue.writing = false;
                    return;
                }
                let mut bytes = 0;
                let take = queue
                    .waiting
                    .iter()
                    .take_while(|(flush, _)| {
                        let first = bytes == 0;
                        bytes += flush.bytes().max(1);
                        first || bytes <= GROUP_BYTES
                    })
                    .count();
                queue.waiting.drain(..take).collect::<Vec<_>>()
            };
            let written = db.write(|tx| {
                group
                    .iter()
                    .map(|(flush, _)| flush.write(tx))
                    .collect::<Result<Vec<_>>>()
            });
            match written {
                Ok(all) => {
                    for ((flush, reply), seqs) in group.into_iter().zip(all) {
                        // A pump that went away no longer wants its answer.
                        let _ = reply.send(Ok(entries(flush.pieces, seqs)));
                    }
                }
                Err(error) if group.len() == 1 => {
                    if let Some((_, reply)) = group.into_iter().next() {
                        let _ = reply.send(Err(error));
                    }
                }
                // A failing database fails the whole group at once; anything
                // else may be one flush's fault, and the others are stored.
                Err(error) => match database_failure(&error) {
                    Some((failure, message)) => {
                        for (_, reply) in group {
                            let again =
                                store::rusqlite::Error::SqliteFailure(failure, message.clone());
                            let _ = reply.send(Err(again.into()));
                        }
                    }
                    None => {
                        for (flush, reply) in group {
                            let written = db.write(|tx| flush.write(tx));
                            let _ = reply.send(written.map(|seqs| entries(flush.pieces, seqs)));
                        }
                    }
                },
            }
        }
    }
}

/// The database's own failure behind a group's error, when it is not one
/// a single flush can cause (a constraint, as a session deleted meanwhile):
/// busy, full or failing, each flush would fail again, a timeout apiece.
fn database_failure(error: &SessionError) -> Option<(store::rusqlite::ffi::Error, Option<String>)> {
    match error {
        SessionError::Store(store::StoreError::Sqlite(store::rusqlite::Error::SqliteFailure(
            failure,
            message,
        ))) if failure.code != store::rusqlite::ErrorCode::ConstraintViolation => {
            Some((*failure, message.clone()))
        }
        _ => None,
    }
}

/// Held by the writer: if it panics, the flushes waiting fail (their pumps
/// go on) and the next flush starts a writer again.
struct Writing<'a>(&'a Flushes);

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut queue = self.0.queue();
            queue.writing = false;
            queue.waiting.clear();
        }
    }
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

    fn flush(session: &str, turn: i64, text: &str) -> Flush {
        Flush {
            session_id: session.into(),
            turn,
            at: STORED_AT.into(),
            pieces: vec![Piece {
                stream: "out",
                entry: Some(EntryBody::Stdout { text: text.into() }),
                text: text.into(),
            }],
            meta: None,
            activity: None,
        }
    }

    #[test]
    fn flushes_waiting_together_are_one_group_and_a_bad_one_fails_alone() {
        let (_dir, db) = db_with_rows();
        let db = Arc::new(db);
        let flushes = Flushes::default();
        let mut answers = Vec::new();
        {
            let mut queue = flushes.queue();
            queue.writing = true;
            // Turn 9 does not exist: its rows break the foreign key.
            for (session, turn, text) in [("a", 1, "a1"), ("b", 9, "bad"), ("b", 1, "b1")] {
                let (reply, answer) = oneshot::channel();
                queue.waiting.push((flush(session, turn, text), reply));
                answers.push(answer);
            }
        }
        flushes.write_all(&db);
        assert!(
            !flushes.queue().writing,
            "the writer stopped once nothing waited"
        );
        let mut got: Vec<Option<Vec<(i64, EntryBody)>>> = answers
            .into_iter()
            .map(|mut answer| answer.try_recv().ok().and_then(|stored| stored.ok()))
            .collect();
        assert!(got[1].is_none(), "the bad flush failed");
        let b = got[2].take().unwrap_or_default();
        let a = got[0].take().unwrap_or_default();
        assert_eq!(a.len(), 1);
        assert_eq!(b.len(), 1);
        assert!(a[0].0 < b[0].0, "stored in the order they waited");
        let (tail, _) = read(&db, PageFrom::Tail, 1);
        assert_eq!(tail, a, "a's flush is in its transcript");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn many_pumps_storing_at_once_keep_each_sessions_order() {
        let (_dir, db) = db_with_rows();
        let db = Arc::new(db);
        let flushes = Arc::new(Flushes::default());
        let pumps: Vec<_> = ["a", "b"]
            .into_iter()
            .map(|session| {
                let (flushes, db) = (Arc::clone(&flushes), Arc::clone(&db));
                tokio::spawn(async move {
                    let mut seqs = Vec::new();
                    for n in 0..200 {
                        let stored = flushes
                            .store(&db, flush(session, 1, &format!("{session}{n}\n")))
                            .await
                            .unwrap_or_else(|e| panic!("{e}"));
                        seqs.extend(stored.into_iter().map(|(seq, _)| seq));
                    }
                    seqs
                })
            })
            .collect();
        for pump in pumps {
            let seqs = pump.await.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(seqs.len(), 200);
            assert!(seqs.windows(2).all(|w| w[0] < w[1]));
        }
        let (all, _) = read(&db, PageFrom::Tail, MAX_PAGE);
        let texts: Vec<String> = all
            .into_iter()
            .filter_map(|(_, body)| match body {
                EntryBody::Stdout { text } if text.starts_with('a') && text.len() > 2 => Some(text),
                _ => None,
            })
            .collect();
        let wanted: Vec<String> = (0..200).map(|n| format!("a{n}\n")).collect();
        assert_eq!(texts, wanted);
    }
}
