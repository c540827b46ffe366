//! SQL over the board tables that several modules share: where a column's
//! value sits in `items.vals`, and the version bump behind every board's ETag.

use store::rusqlite::Transaction;

use crate::error::Result;

/// A quoted SQLite JSON path to a top-level key; ids never hold `"` or `\`.
pub(crate) fn json_path(key: &str) -> String {
    format!("$.\"{key}\"")
}

/// Records that the board changed: the ETag follows `version`.
pub(crate) fn touch_board(tx: &Transaction<'_>, board_id: &str, now: &str) -> Result<()> {
    tx.prepare_cached("UPDATE boards SET version = version + 1, updated_at = ?2 WHERE id = ?1")?
        .execute([board_id, now])?;
    Ok(())
}
