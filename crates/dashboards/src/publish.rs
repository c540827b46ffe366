//! Publish-to-web: read-only links to a dashboard and the reduced public read behind them.
//!
//! A token is 32 bytes from the operating system's random source, URL-safe
//! base64 without padding (43 characters). Only its SHA-256 digest is stored
//! and a presented token is looked up by its digest, so neither a copy of the
//! database nor the timing of the lookup gives a usable token away.
//! Publishing again replaces the live link; withdrawing and deleting the
//! dashboard end it; every read after the commit sees that.
//!
//! The public read is `{"dashboard": {"id", "name", "config"}, "boards":
//! [{"board": {"id", "name", "columns", "groups"}, "items": [{"id", "groupId",
//! "name", "values", "createdAt", "updatedAt"}]}], "members": [{"id", "name"}]}`:
//! - `boards` follows `config.boardIds`, skipping boards deleted since;
//! - a column is kept only when its id is one of the strings of the config's
//!   widgets or filters ([`config::mentioned_strings`]); the others
//!   leave `columns` and every item's `values`;
//! - `members` names, without email, the members that a kept people value or
//!   the People filter mentions, so the page can show names;
//! - the workspace id is left out: the page has no use for it.

use std::collections::HashSet;

use boards::{BoardsError, ColumnType};
use serde_json::Value;
use store::Db;
use store::rusqlite::{self, OptionalExtension, Transaction, params, types::Type};

use crate::config;
use crate::error::{Result, not_found};
use crate::model::{
    PublicBoard, PublicBoardHeader, PublicDashboard, PublicDashboardBody, PublicMember,
    Publication, PublicationStatus,
};

fn check_owned(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<()> {
    tx.prepare_cached("SELECT 1 FROM dashboards WHERE id = ?1 AND account_id = ?2")?
        .query_row([id, account_id], |_| Ok(()))
        .optional()?
        .ok_or(not_found("dashboard"))
}

fn withdraw(tx: &Transaction<'_>, id: &str) -> Result<()> {
    tx.execute(
        "UPDATE dashboard_publications SET withdrawn_at = ?2
         WHERE dashboard_id = ?1 AND withdrawn_at IS NULL",
        params![id, store::now_rfc3339()],
    )?;
    Ok(())
}

/// `POST /dashboards/<id>/publish`: a new link; the previous one, if any,
/// stops working in the same transaction. The token cannot be read back later.
pub fn publish(db: &Db, account_id: &str, id: &str) -> Result<Publication> {
    let token = store::new_secret()?;
    db.write(|tx| -> Result<()> {
        check_owned(tx, account_id, id)?;
        withdraw(tx, id)?;
        tx.execute(
            "INSERT INTO dashboard_publications (token_sha256, dashboard_id, created_at)
             VALUES (?1, ?2, ?3)",
            params![store::secret_digest(&token), id, store::now_rfc3339()],
        )?;
        Ok(())
    })?;
    Ok(Publication {
        url_path: format!("/p/{token}"),
        token,
    })
}

/// `DELETE /dashboards/<id>/publish`: the live link stops working. Withdrawing
/// a dashboard that has none succeeds, so a retried request does too.
pub fn unpublish(db: &Db, account_id: &str, id: &str) -> Result<()> {
    db.write(|tx| {
        check_owned(tx, account_id, id)?;
        withdraw(tx, id)
    })
}

/// Whether the dashboard has a live link, and since when.
pub fn publication(db: &Db, account_id: &str, id: &str) -> Result<Option<PublicationStatus>> {
    db.read(|tx| {
        check_owned(tx, account_id, id)?;
        Ok(tx
            .prepare_cached(
                "SELECT created_at FROM dashboard_publications
                 WHERE dashboard_id = ?1 AND withdrawn_at IS NULL",
            )?
            .query_row([id], |r| {
                Ok(PublicationStatus {
                    published_at: r.get(0)?,
                })
            })
            .optional()?)
    })
}

/// Keeps the columns named in `keep`, in `columns` and in every item's
/// `values`, and adds the members that kept people values name to `people`.
fn reduce(board: &mut PublicBoard, keep: &HashSet<&str>, people: &mut HashSet<String>) {
    board.board.columns.retain(|c| keep.contains(c.id.as_str()));
    let people_columns: Vec<&str> = board
        .board
        .columns
        .iter()
        .filter(|c| c.kind == ColumnType::People)
        .map(|c| c.id.as_str())
        .collect();
    for item in &mut board.items {
        item.values
            .retain(|column, _| keep.contains(column.as_str()));
        for column in &people_columns {
            if let Some(Value::Array(ids)) = item.values.get(*column) {
                people.extend(ids.iter().filter_map(Value::as_str).map(str::to_owned));
            }
        }
    }
}

/// `GET /public/dashboards/<token>`: the reduced read as JSON bytes. No
/// account is needed: the token is the capability. An unknown or withdrawn
/// token is `NotFound`.
pub fn public_view(db: &Db, token: &str) -> Result<Vec<u8>> {
    let (id, account_id, name, config_text): (String, String, String, String) = db
        .read(|tx| {
            tx.prepare_cached(
                "SELECT d.id, d.account_id, d.name, d.config
                 FROM dashboard_publications p JOIN dashboards d ON d.id = p.dashboard_id
                 WHERE p.token_sha256 = ?1 AND p.withdrawn_at IS NULL",
            )?
            .query_row([store::secret_digest(token)], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .optional()
        })?
        .ok_or(not_found("published dashboard"))?;
    let config: Value = serde_json::from_str(&config_text).map_err(corrupt)?;
    let keep = config::mentioned_strings(&config);
    let mut people: HashSet<String> = config
        .pointer("/filters/people")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    let board_ids = config
        .get("boardIds")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    let mut boards = Vec::new();
    for board_id in board_ids {
        // Read as the dashboard's account: a board of any other account is
        // as absent as a deleted one.
        let full = match boards::full_board(db, &account_id, board_id) {
            Ok(full) => full,
            Err(BoardsError::NotFound { .. }) => continue,
            Err(e) => return Err(e.into()),
        };
        let read: boards::FullBoardBody = serde_json::from_slice(&full.body).map_err(corrupt)?;
        let mut board = PublicBoard {
            board: PublicBoardHeader {
                id: read.board.id,
                name: read.board.name,
                columns: read.board.columns,
                groups: read.board.groups,
            },
            items: read.items,
        };
        reduce(&mut board, &keep, &mut people);
        boards.push(board);
    }
    let members = boards::list_members(db, &account_id)?
        .into_iter()
        .filter(|m| people.contains(&m.id))
        .map(|m| PublicMember {
            id: m.id,
            name: m.name,
        })
        .collect();
    let view = PublicDashboardBody {
        dashboard: PublicDashboard { id, name, config },
        boards,
        members,
    };
    Ok(serde_json::to_vec(&view).map_err(corrupt)?)
}

/// Stored JSON that does not parse means a damaged database, not bad input
/// (and printing a `Value` cannot fail: its keys are strings).
fn corrupt(e: serde_json::Error) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(0, Type::Text, Box::new(e))
}
