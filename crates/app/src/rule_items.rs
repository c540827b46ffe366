//! How a rule writes a board item: as `rule:<id>` (so the events it causes
//! carry their rule), into the columns it names or the board's defaults,
//! a status by its label letter case aside; then the readers of the
//! boards' events wake and open boards refetch.

use boards::{Board, ColumnType, ItemPatch};
use serde_json::{Map, Value};

use crate::error::blocking;
use crate::services::App;

/// Writes an item as `rule:<rule_id>`: values, or a move to another group.
pub(crate) async fn write_item(
    app: &App,
    account: &str,
    rule_id: &str,
    item_id: &str,
    values: Map<String, Value>,
    group_id: Option<String>,
) -> Result<(), String> {
    let (db, owner, actor, item) = (
        app.db.clone(),
        account.to_owned(),
        format!("rule:{rule_id}"),
        item_id.to_owned(),
    );
    let written = blocking(move || {
        let patch = ItemPatch {
            name: None,
            group_id,
            values: Some(values),
        };
        boards::update_item(&db, &owner, &actor, &item, &patch)
    })
    .await;
    let item = written.map_err(|error| format!("the item was not changed: {error}"))?;
    // The write has committed: the rules and the notifier read its events,
    // and open boards refetch.
    app.rules_wake.notify_one();
    app.pm_wake.notify_one();
    let (db, owner, board_id) = (app.db.clone(), account.to_owned(), item.board_id.clone());
    let etag = blocking(move || boards::board_etag(&db, &owner, &board_id))
        .await
        .ok();
    crate::publish::board_changed(
        app,
        account,
        &crate::stream_events::BoardChanged {
            board_id: item.board_id,
            etag,
        },
    );
    Ok(())
}

/// The account's board.
pub(crate) async fn board(app: &App, account: &str, board_id: &str) -> Result<Board, String> {
    let (db, owner, id) = (app.db.clone(), account.to_owned(), board_id.to_owned());
    blocking(move || boards::get_board(&db, &owner, &id))
        .await
        .map_err(|e| format!("its board: {e}"))
}

/// The text column an item's session or summary goes to: the one named,
/// else the board's column of the default id, when it is a text column.
pub(crate) fn text_column(board: &Board, named: Option<&str>, default: &str) -> Option<String> {
    let id = named.unwrap_or(default);
    board
        .columns
        .iter()
        .find(|c| c.id == id && c.kind == ColumnType::Text)
        .map(|c| c.id.clone())
}

/// The status column (the one named, else `status`, else the first) and
/// its label spelled as the column spells it.
pub(crate) fn status_label(
    board: &Board,
    named: Option<&str>,
    status: &str,
) -> Result<(String, String), String> {
    let statuses: Vec<_> = board
        .columns
        .iter()
        .filter(|c| c.kind == ColumnType::Status)
        .collect();
    let column = match named {
        Some(id) => statuses.iter().find(|c| c.id == id),
        None => statuses
            .iter()
            .find(|c| c.id == "status")
            .or(statuses.first()),
    }
    .ok_or_else(|| format!("the board has no status column {}", named.unwrap_or("")))?;
    let labels = column
        .settings
        .get("labels")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|l| l.get("name").and_then(Value::as_str));
    labels
        .into_iter()
        .find(|l| l.trim().eq_ignore_ascii_case(status.trim()))
        .map(|l| (column.id.clone(), l.to_owned()))
        .ok_or_else(|| format!("the column {} has no status {status:?}", column.id))
}
