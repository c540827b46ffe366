//! Creating, listing, reading, updating and deleting dashboards.
//!
//! Input is checked before the transaction (so a 400 never depends on what
//! exists); ownership of the workspace, the dashboard and every connected
//! board is checked inside the transaction that writes, so nothing is created
//! or changed when one of them fails.

use store::Db;
use store::rusqlite::{self, OptionalExtension, Row, Transaction, params, types::Type};

use crate::config;
use crate::error::{DashboardsError, Result, invalid, not_found};
use crate::model::{Dashboard, DashboardPatch, NewDashboard};

const MAX_NAME_CHARS: usize = 200;

const SELECT: &str =
    "SELECT id, workspace_id, name, config, created_at, updated_at, version FROM dashboards";

fn check_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(invalid("name must not be empty"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(invalid(format!(
            "name must be at most {MAX_NAME_CHARS} characters"
        )));
    }
    Ok(name.to_owned())
}

/// The config as stored text, once it has passed the checks.
fn checked_config(config: &serde_json::Value) -> Result<(String, Vec<String>)> {
    let board_ids = config::check(config)?
        .into_iter()
        .map(str::to_owned)
        .collect();
    Ok((config.to_string(), board_ids))
}

fn check_boards(tx: &Transaction<'_>, account_id: &str, board_ids: &[String]) -> Result<()> {
    for board_id in board_ids {
        boards::check_board(tx, account_id, board_id)?;
    }
    Ok(())
}

fn from_row(row: &Row<'_>) -> rusqlite::Result<Dashboard> {
    let config: String = row.get(3)?;
    let config = serde_json::from_str(&config)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(3, Type::Text, Box::new(e)))?;
    Ok(Dashboard {
        id: row.get(0)?,
        workspace_id: row.get(1)?,
        name: row.get(2)?,
        config,
        created_at: row.get(4)?,
        updated_at: row.get(5)?,
        version: row.get(6)?,
    })
}

pub(crate) fn get_tx(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<Dashboard> {
    tx.prepare_cached(&format!("{SELECT} WHERE id = ?1 AND account_id = ?2"))?
        .query_row([id, account_id], from_row)
        .optional()?
        .ok_or(not_found("dashboard"))
}

/// `POST /dashboards`.
pub fn create(db: &Db, account_id: &str, new: &NewDashboard) -> Result<Dashboard> {
    let name = check_name(&new.name)?;
    let (config_text, board_ids) = checked_config(&new.config)?;
    db.write(|tx| {
        boards::check_workspace(tx, account_id, &new.workspace_id)?;
        check_boards(tx, account_id, &board_ids)?;
        let id = store::new_id();
        let now = store::now_rfc3339();
        tx.execute(
            "INSERT INTO dashboards (id, account_id, workspace_id, name, config, version, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?6)",
            params![id, account_id, new.workspace_id, name, config_text, now],
        )?;
        Ok(Dashboard {
            id,
            workspace_id: new.workspace_id.clone(),
            name,
            config: new.config.clone(),
            created_at: now.clone(),
            updated_at: now,
            version: 1,
        })
    })
}

/// `GET /dashboards?workspaceId=W`, oldest first.
pub fn list(db: &Db, account_id: &str, workspace_id: &str) -> Result<Vec<Dashboard>> {
    db.read(|tx| {
        boards::check_workspace(tx, account_id, workspace_id)?;
        let mut stmt = tx.prepare_cached(&format!(
            "{SELECT} WHERE workspace_id = ?1 AND account_id = ?2 ORDER BY created_at, id"
        ))?;
        let rows = stmt.query_map([workspace_id, account_id], from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    })
}

/// `GET /dashboards/<id>`.
pub fn get(db: &Db, account_id: &str, id: &str) -> Result<Dashboard> {
    db.read(|tx| get_tx(tx, account_id, id))
}

/// Whether an `If-Match` header value matches `etag`: `*`, or a
/// comma-separated list holding it. Weak tags never match (RFC 9110 asks for
/// the strong comparison here).
fn if_match_holds(header: &str, etag: &str) -> bool {
    let header = header.trim();
    header == "*" || header.split(',').any(|tag| tag.trim() == etag)
}

/// `PATCH /dashboards/<id>`: any of name and config, with the same checks as
/// on creation. With `if_match`, refuses with [`DashboardsError::Stale`]
/// unless it names the current version; without it the last write wins.
pub fn update(
    db: &Db,
    account_id: &str,
    id: &str,
    patch: &DashboardPatch,
    if_match: Option<&str>,
) -> Result<Dashboard> {
    let name = patch.name.as_deref().map(check_name).transpose()?;
    let config = patch.config.as_ref().map(checked_config).transpose()?;
    db.write(|tx| {
        let mut dashboard = get_tx(tx, account_id, id)?;
        if let Some(header) = if_match
            && !if_match_holds(header, &dashboard.etag())
        {
            return Err(DashboardsError::Stale);
        }
        if let Some(name) = name {
            dashboard.name = name;
        }
        if let Some((_, board_ids)) = &config {
            check_boards(tx, account_id, board_ids)?;
        }
        if let Some(value) = &patch.config {
            dashboard.config = value.clone();
        }
        dashboard.version += 1;
        dashboard.updated_at = store::now_rfc3339();
        tx.execute(
            "UPDATE dashboards SET name = ?2, config = coalesce(?3, config), version = ?4, updated_at = ?5
             WHERE id = ?1",
            params![
                dashboard.id,
                dashboard.name,
                config.map(|(text, _)| text),
                dashboard.version,
                dashboard.updated_at
            ],
        )?;
        Ok(dashboard)
    })
}

/// `DELETE /dashboards/<id>`; its publish-to-web links go with it.
pub fn delete(db: &Db, account_id: &str, id: &str) -> Result<()> {
    db.write(|tx| {
        let changed = tx.execute(
            "DELETE FROM dashboards WHERE id = ?1 AND account_id = ?2",
            [id, account_id],
        )?;
        if changed == 0 {
            return Err(not_found("dashboard"));
        }
        Ok(())
    })
}
