//! The full-board read and its ETag.
//!
//! The body is written in chunks of about 64 KiB while the items are streamed
//! from a single query; each item's stored values JSON is spliced in as it is
//! (it was validated and serialised on the way in). There is no per-item query
//! and no list of items in memory; [`stream_full_board`] hands each chunk on as
//! soon as it is full, so a server can send a 100,000-item board without ever
//! holding the whole body. Everything is read from one snapshot, so the body
//! and the ETag always agree.

use store::Db;
use store::rusqlite::{self, OptionalExtension, Row, Transaction, types::Type};

use crate::error::{Result, not_found};
use crate::model::FullBoard;

fn etag(board_id: &str, version: i64) -> String {
    format!("\"{board_id}.{version}\"")
}

pub(crate) fn version(tx: &Transaction<'_>, account_id: &str, board_id: &str) -> Result<i64> {
    tx.prepare_cached("SELECT version FROM boards WHERE id = ?1 AND account_id = ?2")?
        .query_row([board_id, account_id], |r| r.get(0))
        .optional()?
        .ok_or(not_found("board"))
}

/// The board's current strong ETag (quotes included), from one indexed
/// lookup: enough to answer `If-None-Match` without building the body.
pub fn board_etag(db: &Db, account_id: &str, board_id: &str) -> Result<String> {
    db.read(|tx| version(tx, account_id, board_id).map(|v| etag(board_id, v)))
}

const COLUMNS_SQL: &str = "SELECT id, title, type, settings FROM board_columns
     WHERE board_id = ?1 ORDER BY position";
const GROUPS_SQL: &str = "SELECT id, title FROM board_groups WHERE board_id = ?1 ORDER BY position";
// CROSS JOIN fixes the loop order (groups outside, in position order; each
// group's items inside, in key order), so SQLite never sorts the items.
pub(crate) const ITEMS_SQL: &str =
    "SELECT i.id, i.group_id, i.name, i.vals, i.created_at, i.updated_at
     FROM board_groups g CROSS JOIN items i ON i.board_id = g.board_id AND i.group_id = g.id
     WHERE g.board_id = ?1
     ORDER BY g.position, g.id, i.position";

/// How much of the body is gathered before it is handed on.
const CHUNK_BYTES: usize = 64 * 1024;

/// Hands `out` on once it holds a chunk's worth; false when the receiver
/// wants no more (the client went away).
pub(crate) type Flush<'a> = dyn FnMut(&mut Vec<u8>) -> bool + 'a;

/// Where one field of a JSON object is in a row: a text column, written as a
/// JSON string, or a column of stored JSON, spliced in as it is (it was
/// validated and serialised on the way in).
#[derive(Clone, Copy)]
enum Field {
    Text(usize),
    Json(usize),
}

/// The fields of the objects one query gives: each field's opening (`{"id":`,
/// `,"title":`) and its place in the row, in the order they are written.
type Fields = [(&'static [u8], Field)];

const COLUMN_FIELDS: &Fields = &[
    (b"{\"id\":", Field::Text(0)),
    (b",\"title\":", Field::Text(1)),
    (b",\"type\":", Field::Text(2)),
    (b",\"settings\":", Field::Json(3)),
];
const GROUP_FIELDS: &Fields = &[
    (b"{\"id\":", Field::Text(0)),
    (b",\"title\":", Field::Text(1)),
];
const ITEM_FIELDS: &Fields = &[
    (b"{\"id\":", Field::Text(0)),
    (b",\"groupId\":", Field::Text(1)),
    (b",\"name\":", Field::Text(2)),
    (b",\"values\":", Field::Json(3)),
    (b",\"createdAt\":", Field::Text(4)),
    (b",\"updatedAt\":", Field::Text(5)),
];

/// Writes one row as a JSON object of `fields`.
fn write_object(out: &mut Vec<u8>, row: &Row<'_>, fields: &Fields) -> rusqlite::Result<()> {
    for &(opening, field) in fields {
        out.extend_from_slice(opening);
        match field {
            Field::Text(index) => push_str(out, text(row, index)?),
            Field::Json(index) => out.extend_from_slice(row.get_ref(index)?.as_bytes()?),
        }
    }
    out.push(b'}');
    Ok(())
}

/// Streams the rows of `sql` into `out` as comma-separated JSON objects of
/// `fields`. Returns false when `flush` said to stop.
fn write_rows(
    tx: &Transaction<'_>,
    out: &mut Vec<u8>,
    flush: &mut Flush<'_>,
    sql: &str,
    board_id: &str,
    fields: &Fields,
) -> Result<bool> {
    let mut stmt = tx.prepare_cached(sql)?;
    let mut rows = stmt.query([board_id])?;
    let mut first = true;
    while let Some(row) = rows.next()? {
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        write_object(out, row, fields)?;
        if out.len() >= CHUNK_BYTES && !flush(out) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A text column borrowed from the row, without copying it.
pub(crate) fn text<'r>(row: &'r Row<'_>, index: usize) -> rusqlite::Result<&'r str> {
    row.get_ref(index)?
        .as_str()
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(index, Type::Text, Box::new(e)))
}

/// Appends `s` as a JSON string literal.
pub(crate) fn push_str(out: &mut Vec<u8>, s: &str) {
    // Ids and timestamps, most of what is written, need no escaping.
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Writing to a Vec cannot fail, and a &str always serialises.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// `GET /boards/<id>/full` as one buffer (for callers that need it whole).
pub fn full_board(db: &Db, account_id: &str, board_id: &str) -> Result<FullBoard> {
    let mut etag = String::new();
    let mut body = Vec::new();
    stream_full_board(
        db,
        account_id,
        board_id,
        |tag| etag = tag,
        |chunk| {
            body.extend_from_slice(&chunk);
            true
        },
    )?;
    Ok(FullBoard { etag, body })
}

/// The board's own row, read first: a missing or foreign board is an error
/// before anything of the body is written.
pub(crate) struct BoardRow {
    pub(crate) workspace_id: String,
    pub(crate) name: String,
    pub(crate) version: i64,
}

pub(crate) fn board_row(
    tx: &Transaction<'_>,
    account_id: &str,
    board_id: &str,
) -> Result<BoardRow> {
    tx.prepare_cached(
        "SELECT workspace_id, name, version FROM boards WHERE id = ?1 AND account_id = ?2",
    )?
    .query_row([board_id, account_id], |r| {
        Ok(BoardRow {
            workspace_id: r.get(0)?,
            name: r.get(1)?,
            version: r.get(2)?,
        })
    })
    .optional()?
    .ok_or(not_found("board"))
}

/// Writes the board object every representation of the full read opens
/// with, `{"id", "workspaceId", "name", "columns", "groups"}`, so the two
/// cannot drift apart. Returns false when `flush` said to stop.
pub(crate) fn write_board(
    tx: &Transaction<'_>,
    out: &mut Vec<u8>,
    flush: &mut Flush<'_>,
    board_id: &str,
    board: &BoardRow,
) -> Result<bool> {
    out.extend_from_slice(b"{\"id\":");
    push_str(out, board_id);
    out.extend_from_slice(b",\"workspaceId\":");
    push_str(out, &board.workspace_id);
    out.extend_from_slice(b",\"name\":");
    push_str(out, &board.name);

    out.extend_from_slice(b",\"columns\":[");
    let more = write_rows(tx, out, flush, COLUMNS_SQL, board_id, COLUMN_FIELDS)?;
    if !more {
        return Ok(false);
    }
    out.extend_from_slice(b"],\"groups\":[");
    let more = write_rows(tx, out, flush, GROUPS_SQL, board_id, GROUP_FIELDS)?;
    if more {
        out.extend_from_slice(b"]}");
    }
    Ok(more)
}

/// `GET /boards/<id>/full`: `{"board": {"id", "workspaceId", "name", "columns",
/// "groups"}, "items": [{"id", "groupId", "name", "values", "createdAt", "updatedAt"}]}`.
/// Items come group by group (in group order), each group's in item order.
///
/// `start` receives the ETag once the board is known to exist (a missing or
/// foreign board is an error before anything is sent); `chunk` then receives
/// the body piece by piece and returns false to stop early.
pub fn stream_full_board(
    db: &Db,
    account_id: &str,
    board_id: &str,
    start: impl FnOnce(String),
    mut chunk: impl FnMut(Vec<u8>) -> bool,
) -> Result<()> {
    db.read(|tx| {
        let board = board_row(tx, account_id, board_id)?;
        start(etag(board_id, board.version));
        let fresh = || Vec::with_capacity(CHUNK_BYTES + 4 * 1024);
        let mut flush = |out: &mut Vec<u8>| chunk(std::mem::replace(out, fresh()));
        let mut out = fresh();
        out.extend_from_slice(b"{\"board\":");
        if !write_board(tx, &mut out, &mut flush, board_id, &board)? {
            return Ok(());
        }
        out.extend_from_slice(b",\"items\":[");
        let more = write_rows(tx, &mut out, &mut flush, ITEMS_SQL, board_id, ITEM_FIELDS)?;
        if more {
            out.extend_from_slice(b"]}");
            chunk(out);
        }
        Ok(())
    })
}

/// The plan of the items query, to check it walks the indexes instead of sorting.
#[cfg(test)]
pub(crate) fn items_query_plan(tx: &Transaction<'_>) -> Result<String> {
    let mut stmt = tx.prepare(&format!("EXPLAIN QUERY PLAN {ITEMS_SQL}"))?;
    let details: Vec<String> = stmt
        .query_map(["x"], |r| r.get(3))?
        .collect::<Result<_, _>>()?;
    Ok(details.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_items_query_walks_indexes_without_sorting() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        crate::schema::migrate(&db).unwrap();
        let plan = db.read(items_query_plan).unwrap();
        assert!(!plan.contains("TEMP B-TREE"), "{plan}");
    }
}
