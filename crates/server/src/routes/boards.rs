//! The project-board module's routes: workspaces, the member directory,
//! boards with their columns and groups, items (the full-board reads are in
//! `board_reads.rs`).
//! Reads are open to agent tokens, and so are creating items and changing
//! them; every other write (workspaces, members, boards, columns, groups,
//! moving and deleting items) is for people and scripts. A write that
//! changes a board (the board, its columns, groups or items) is announced on
//! the event stream with the board's new ETag.

use axum::extract::{MatchedPath, Path, Query, RawPathParams, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use boards::{ItemPatch, MemberPatch, NewBoard, NewColumn, NewGroup, NewItem, NewMember};
use serde::Deserialize;
use serde_json::{Value, json};

use super::board_reads;
use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{
    BatchCreated, BoardChanged, BoardQuery, ColumnChange, ItemBatch, ItemMove, Named, Order, Titled,
};
use app::publish;

pub fn routes(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/workspaces", get(list_workspaces).post(create_workspace))
        .route(
            "/workspaces/{id}",
            axum::routing::patch(rename_workspace).delete(delete_workspace),
        )
        .route("/members", get(list_members).post(create_member))
        .route(
            "/members/{id}",
            axum::routing::patch(update_member).delete(delete_member),
        )
        .route("/boards", get(list_boards).post(create_board))
        .route(
            "/boards/{id}",
            get(get_board).patch(rename_board).delete(delete_board),
        )
        .route("/boards/full", get(board_reads::full_boards))
        .route("/boards/{id}/full", get(board_reads::full_board))
        .route("/boards/{id}/columns", post(add_column))
        .route("/boards/{id}/columns/reorder", post(reorder_columns))
        .route(
            "/boards/{id}/columns/{column}",
            axum::routing::patch(change_column).delete(remove_column),
        )
        .route("/boards/{id}/groups", post(add_group))
        .route("/boards/{id}/groups/reorder", post(reorder_groups))
        .route(
            "/boards/{id}/groups/{group}",
            axum::routing::patch(rename_group).delete(remove_group),
        )
        .route("/boards/{id}/items", post(create_item))
        .route("/boards/{id}/items/batch", post(create_items))
        .route(
            "/items/{id}",
            get(get_item).patch(update_item).delete(delete_item),
        )
        .route("/items/{id}/move", post(move_item))
        .route("/events", get(events))
        .route_layer(from_fn_with_state(state.clone(), announce_board_change))
}

/// After a successful write under `/boards/{id}` or `/items/{id}`, sends the
/// board's new ETag (`null` once it is gone) to the caller's account. The
/// board of an item is looked up before the write, so a deleted item's board
/// is still known.
async fn announce_board_change(
    State(s): State<AppState>,
    matched: MatchedPath,
    params: RawPathParams,
    caller: Result<Caller, ApiError>,
    request: Request,
    next: Next,
) -> Response {
    let id = params
        .iter()
        .find(|(name, _)| *name == "id")
        .map(|(_, value)| value.to_owned());
    let (Ok(caller), Some(id)) = (caller, id) else {
        return next.run(request).await;
    };
    if request.method() == Method::GET {
        return next.run(request).await;
    }
    let account = caller.account_id().to_owned();
    let board_id = if matched.as_str().contains("/boards/{id}") {
        Some(id)
    } else if matched.as_str().contains("/items/{id}") {
        let (db, account) = (s.db.clone(), account.clone());
        // An unknown item is the handler's 404 to give; nothing to announce.
        tokio::task::spawn_blocking(move || boards::get_item(&db, &account, &id).ok())
            .await
            .ok()
            .flatten()
            .map(|item| item.board_id)
    } else {
        None
    };
    let response = next.run(request).await;
    if response.status().is_success() {
        // The write has committed: the notifier reads its events now.
        s.pm_wake.notify_one();
        s.rules_wake.notify_one();
    }
    if let Some(board_id) = board_id
        && response.status().is_success()
    {
        let (db, owner, board) = (s.db.clone(), account.clone(), board_id.clone());
        let etag =
            tokio::task::spawn_blocking(move || boards::board_etag(&db, &owner, &board).ok())
                .await
                .ok()
                .flatten();
        publish::board_changed(&s, &account, &BoardChanged { board_id, etag });
    }
    response
}

/// Who made a change, as recorded in item events: an agent's session
/// (`session:<id>`, so the inbox can name and link it), else the token kind
/// and account (`cli:<account>`, `ui:<account>`).
fn actor(caller: &Caller) -> String {
    match (&caller.0.session_id, caller.is_agent()) {
        (Some(session), true) => format!("session:{session}"),
        _ => format!("{}:{}", caller.0.kind.as_str(), caller.0.account_id),
    }
}

/// The caller's workspaces. Agent tokens are admitted.
#[utoipa::path(get, path = "/workspaces", responses((status = 200, body = Vec<boards::Workspace>)))]
async fn list_workspaces(caller: Caller, State(s): State<AppState>) -> ApiResult<Json<Value>> {
    let workspaces = blocking(move || boards::list_workspaces(&s.db, caller.account_id())).await?;
    Ok(Json(json!(workspaces)))
}

/// Makes a workspace. Not for agent tokens (403 `agent_token_forbidden`).
#[utoipa::path(post, path = "/workspaces", request_body = Named, responses((status = 201, body = boards::Workspace)))]
async fn create_workspace(
    user: User,
    State(s): State<AppState>,
    ApiJson(body): ApiJson<Named>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let workspace =
        blocking(move || boards::create_workspace(&s.db, user.account_id(), &body.name)).await?;
    Ok((StatusCode::CREATED, Json(json!(workspace))))
}

/// Renames a workspace. Not for agent tokens.
#[utoipa::path(patch, path = "/workspaces/{id}", params(("id" = String, Path, description = "The workspace's id.")),
    request_body = Named, responses((status = 200, body = boards::Workspace)))]
async fn rename_workspace(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Named>,
) -> ApiResult<Json<Value>> {
    let workspace =
        blocking(move || boards::rename_workspace(&s.db, user.account_id(), &id, &body.name))
            .await?;
    Ok(Json(json!(workspace)))
}

/// Deletes a workspace; its boards and dashboards go with it. Not for agent tokens.
#[utoipa::path(delete, path = "/workspaces/{id}", params(("id" = String, Path, description = "The workspace's id.")),
    responses((status = 204, description = "Deleted.")))]
async fn delete_workspace(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    blocking(move || boards::delete_workspace(&s.db, user.account_id(), &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The account's member directory.
///
/// Exactly one member has `"self": true`: the account's own, made with the
/// account (the owner's is named "Me"). `people` values, the People filter
/// and Invite use these. Agent tokens are admitted.
#[utoipa::path(get, path = "/members", responses((status = 200, body = Vec<boards::Member>)))]
async fn list_members(caller: Caller, State(s): State<AppState>) -> ApiResult<Json<Value>> {
    let members = blocking(move || boards::list_members(&s.db, caller.account_id())).await?;
    Ok(Json(json!(members)))
}

/// Adds a member to the directory. Not for agent tokens.
#[utoipa::path(post, path = "/members", request_body = NewMember, responses((status = 201, body = boards::Member)))]
async fn create_member(
    user: User,
    State(s): State<AppState>,
    ApiJson(body): ApiJson<NewMember>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let member = blocking(move || boards::create_member(&s.db, user.account_id(), &body)).await?;
    Ok((StatusCode::CREATED, Json(json!(member))))
}

/// Changes a member's name or email (`"email": null` removes it). Not for agent tokens.
#[utoipa::path(patch, path = "/members/{id}", params(("id" = String, Path, description = "The member's id.")),
    request_body = MemberPatch, responses((status = 200, body = boards::Member)))]
async fn update_member(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<MemberPatch>,
) -> ApiResult<Json<Value>> {
    let member =
        blocking(move || boards::update_member(&s.db, user.account_id(), &id, &body)).await?;
    Ok(Json(json!(member)))
}

/// Removes a member, and it from every `people` value.
///
/// 409 `conflict` for the account's own member. Not for agent tokens.
#[utoipa::path(delete, path = "/members/{id}", params(("id" = String, Path, description = "The member's id.")),
    responses((status = 204, description = "Removed.")))]
async fn delete_member(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    blocking(move || boards::delete_member(&s.db, user.account_id(), &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Boards of one workspace, or of every workspace of the account.
///
/// Agent tokens are admitted.
#[utoipa::path(get, path = "/boards",
    params(BoardQuery),
    responses((status = 200, body = Vec<boards::Board>)))]
async fn list_boards(
    caller: Caller,
    State(s): State<AppState>,
    Query(query): Query<BoardQuery>,
) -> ApiResult<Json<Value>> {
    let list = blocking(move || match query.workspace_id {
        Some(workspace) => boards::list_boards(&s.db, caller.account_id(), &workspace),
        None => {
            let mut all = Vec::new();
            for workspace in boards::list_workspaces(&s.db, caller.account_id())? {
                all.extend(boards::list_boards(
                    &s.db,
                    caller.account_id(),
                    &workspace.id,
                )?);
            }
            Ok(all)
        }
    })
    .await?;
    Ok(Json(json!(list)))
}

/// Makes a board.
///
/// Ids given by the client are kept (unique within the board, else 409
/// `conflict`); missing ones are generated. `preset` names a setup preset
/// (`tasks`, `projects`, `operations`, `first-agent-board`, `trello`, `jira`,
/// `asana`, `linear`, `notion`, `clickup`, `airtable`, `engineering-linear`,
/// `engineering-jira`) whose columns, groups and views come first. A board
/// without groups gets one, "Items". Not for agent tokens.
// Without columns and without a preset, a board is built from the setup
// preset chosen in the setting `pmSetupPreset`.
#[utoipa::path(post, path = "/boards", request_body = NewBoard, responses((status = 201, body = boards::Board)))]
async fn create_board(
    user: User,
    State(s): State<AppState>,
    ApiJson(mut body): ApiJson<NewBoard>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    if body.columns.is_empty() && body.preset.is_none() {
        body.preset = Some(s.settings.pm_setup_preset().as_str().to_owned());
    }
    let board = blocking(move || boards::create_board(&s.db, user.account_id(), &body)).await?;
    Ok((StatusCode::CREATED, Json(json!(board))))
}

/// One board with its columns, groups and views. Agent tokens are admitted.
#[utoipa::path(get, path = "/boards/{id}", params(("id" = String, Path, description = "The board's id.")), responses((status = 200, body = boards::Board)))]
async fn get_board(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let board = blocking(move || boards::get_board(&s.db, caller.account_id(), &id)).await?;
    Ok(Json(json!(board)))
}

/// Renames a board. Not for agent tokens.
#[utoipa::path(patch, path = "/boards/{id}", params(("id" = String, Path, description = "The board's id.")), request_body = Named,
    responses((status = 200, body = boards::Board)))]
async fn rename_board(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Named>,
) -> ApiResult<Json<Value>> {
    let board =
        blocking(move || boards::rename_board(&s.db, user.account_id(), &id, &body.name)).await?;
    Ok(Json(json!(board)))
}

/// Deletes a board with its items. Not for agent tokens.
#[utoipa::path(delete, path = "/boards/{id}", params(("id" = String, Path, description = "The board's id.")), responses((status = 204, description = "Deleted.")))]
async fn delete_board(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    blocking(move || boards::delete_board(&s.db, user.account_id(), &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Adds a column. Not for agent tokens.
///
/// Types: `text`, `number` (settings `{"unit", "unitPosition": "left"|"right"}`),
/// `status` (settings `{"labels": [{"name", "done"?}]}`), `people`, `date`,
/// `timeline`, `checkbox`, `dropdown`.
#[utoipa::path(post, path = "/boards/{id}/columns", params(("id" = String, Path, description = "The board's id.")), request_body = NewColumn,
    responses((status = 201, body = boards::Column)))]
async fn add_column(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NewColumn>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let column = blocking(move || boards::add_column(&s.db, user.account_id(), &id, &body)).await?;
    Ok((StatusCode::CREATED, Json(json!(column))))
}

/// Changes a column's title or settings. Not for agent tokens.
#[utoipa::path(patch, path = "/boards/{id}/columns/{column}", params(("id" = String, Path, description = "The board's id."), ("column" = String, Path, description = "The column's id.")), request_body = ColumnChange,
    responses((status = 200, body = boards::Column)))]
async fn change_column(
    user: User,
    State(s): State<AppState>,
    Path((id, column)): Path<(String, String)>,
    ApiJson(body): ApiJson<ColumnChange>,
) -> ApiResult<Json<Value>> {
    let changed = blocking(move || {
        boards::change_column(
            &s.db,
            user.account_id(),
            &id,
            &column,
            body.title.as_deref(),
            body.settings.as_ref(),
        )
    })
    .await?;
    Ok(Json(json!(changed)))
}

/// Removes a column; its values go with it. Not for agent tokens.
#[utoipa::path(delete, path = "/boards/{id}/columns/{column}", params(("id" = String, Path, description = "The board's id."), ("column" = String, Path, description = "The column's id.")),
    responses((status = 204, description = "Removed.")))]
async fn remove_column(
    user: User,
    State(s): State<AppState>,
    Path((id, column)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    blocking(move || boards::remove_column(&s.db, user.account_id(), &id, &column)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Puts the columns in a new order: every column id once. Not for agent tokens.
#[utoipa::path(post, path = "/boards/{id}/columns/reorder", params(("id" = String, Path, description = "The board's id.")), request_body = Order,
    responses((status = 200, description = "The columns in the new order.", body = Vec<boards::Column>)))]
async fn reorder_columns(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Order>,
) -> ApiResult<Json<Value>> {
    let columns =
        blocking(move || boards::reorder_columns(&s.db, user.account_id(), &id, &body.ids)).await?;
    Ok(Json(json!(columns)))
}

/// Adds a group. Not for agent tokens.
#[utoipa::path(post, path = "/boards/{id}/groups", params(("id" = String, Path, description = "The board's id.")), request_body = NewGroup,
    responses((status = 201, body = boards::Group)))]
async fn add_group(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NewGroup>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let group = blocking(move || boards::add_group(&s.db, user.account_id(), &id, &body)).await?;
    Ok((StatusCode::CREATED, Json(json!(group))))
}

/// Renames a group. Not for agent tokens.
#[utoipa::path(patch, path = "/boards/{id}/groups/{group}", params(("id" = String, Path, description = "The board's id."), ("group" = String, Path, description = "The group's id.")), request_body = Titled,
    responses((status = 200, body = boards::Group)))]
async fn rename_group(
    user: User,
    State(s): State<AppState>,
    Path((id, group)): Path<(String, String)>,
    ApiJson(body): ApiJson<Titled>,
) -> ApiResult<Json<Value>> {
    let group =
        blocking(move || boards::rename_group(&s.db, user.account_id(), &id, &group, &body.title))
            .await?;
    Ok(Json(json!(group)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RemoveGroupQuery {
    move_to: Option<String>,
}

/// Removes a group: its items move to `moveTo`, or are deleted without it.
///
/// Not for agent tokens.
#[utoipa::path(delete, path = "/boards/{id}/groups/{group}", params(("id" = String, Path, description = "The board's id."), ("group" = String, Path, description = "The group's id."),
        ("moveTo" = Option<String>, Query, description = "The group to move the items to.")),
    responses((status = 204, description = "Removed.")))]
async fn remove_group(
    user: User,
    State(s): State<AppState>,
    Path((id, group)): Path<(String, String)>,
    Query(query): Query<RemoveGroupQuery>,
) -> ApiResult<StatusCode> {
    blocking(move || {
        boards::remove_group(
            &s.db,
            user.account_id(),
            &id,
            &group,
            query.move_to.as_deref(),
        )
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Puts the groups in a new order: every group id once. Not for agent tokens.
#[utoipa::path(post, path = "/boards/{id}/groups/reorder", params(("id" = String, Path, description = "The board's id.")), request_body = Order,
    responses((status = 200, description = "The groups in the new order.", body = Vec<boards::Group>)))]
async fn reorder_groups(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Order>,
) -> ApiResult<Json<Value>> {
    let groups =
        blocking(move || boards::reorder_groups(&s.db, user.account_id(), &id, &body.ids)).await?;
    Ok(Json(json!(groups)))
}

/// Creates an item (without `groupId`, in the first group).
///
/// A value of the wrong shape, an unknown status label or member, or an
/// unknown column id → 400 `invalid_request` and nothing is stored; `null`
/// clears a value. Agent tokens are admitted (their item events name their
/// session as the actor, `session:<id>`).
#[utoipa::path(post, path = "/boards/{id}/items", params(("id" = String, Path, description = "The board's id.")), request_body = NewItem,
    responses((status = 201, body = boards::Item)))]
async fn create_item(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NewItem>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let item = blocking(move || {
        boards::create_item(&s.db, caller.account_id(), &actor(&caller), &id, &body)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(json!(item))))
}

/// Creates up to 10,000 items at once, all or nothing.
///
/// The message of a 400 names the item (`items[3]`). With `"import": true`
/// no item events are recorded (what `switchboard boards import` sends).
/// Agent tokens are admitted.
#[utoipa::path(post, path = "/boards/{id}/items/batch", params(("id" = String, Path, description = "The board's id.")), request_body = ItemBatch,
    responses((status = 201, description = "The new items' ids, in order.", body = BatchCreated)))]
async fn create_items(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ItemBatch>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let ids = blocking(move || {
        if body.import == Some(true) {
            boards::import_items(&s.db, caller.account_id(), &id, &body.items)
        } else {
            boards::create_items(
                &s.db,
                caller.account_id(),
                &actor(&caller),
                &id,
                &body.items,
            )
        }
    })
    .await?;
    Ok((StatusCode::CREATED, Json(json!(BatchCreated { ids }))))
}

/// One item. Agent tokens are admitted.
#[utoipa::path(get, path = "/items/{id}", params(("id" = String, Path, description = "The item's id.")), responses((status = 200, body = boards::Item)))]
async fn get_item(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let item = blocking(move || boards::get_item(&s.db, caller.account_id(), &id)).await?;
    Ok(Json(json!(item)))
}

/// Changes an item: a partial update of its name, group or values.
///
/// Columns not named in `values` stay. Agent tokens are admitted.
#[utoipa::path(patch, path = "/items/{id}", params(("id" = String, Path, description = "The item's id.")), request_body = ItemPatch,
    responses((status = 200, body = boards::Item)))]
async fn update_item(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ItemPatch>,
) -> ApiResult<Json<Value>> {
    let item = blocking(move || {
        boards::update_item(&s.db, caller.account_id(), &actor(&caller), &id, &body)
    })
    .await?;
    Ok(Json(json!(item)))
}

/// Deletes an item. Not for agent tokens.
#[utoipa::path(delete, path = "/items/{id}", params(("id" = String, Path, description = "The item's id.")), responses((status = 204, description = "Deleted.")))]
async fn delete_item(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    blocking(move || boards::delete_item(&s.db, user.account_id(), &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Moves an item to a group, at `index` or at its end. Not for agent tokens.
#[utoipa::path(post, path = "/items/{id}/move", params(("id" = String, Path, description = "The item's id.")), request_body = ItemMove,
    responses((status = 200, body = boards::Item)))]
async fn move_item(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ItemMove>,
) -> ApiResult<Json<Value>> {
    let actor = format!("{}:{}", user.0.kind.as_str(), user.0.account_id);
    let item = blocking(move || {
        boards::move_item(
            &s.db,
            user.account_id(),
            &actor,
            &id,
            &body.group_id,
            body.index,
        )
    })
    .await?;
    Ok(Json(json!(item)))
}

#[derive(Deserialize)]
struct EventsQuery {
    after: Option<i64>,
    limit: Option<u32>,
}

/// The item events (assignments, status and due-date changes), oldest first.
///
/// Those after sequence number `after` (default 0), at most `limit`
/// (default 200, at most 1,000). Kinds: `assigned`, `status_changed`,
/// `due_date_set`, `due_date_changed`. Events are kept 30 days. Agent
/// tokens are admitted.
#[utoipa::path(get, path = "/events", params(
        ("after" = Option<i64>, Query, description = "A sequence number: the events after it."),
        ("limit" = Option<u32>, Query, description = "At most this many (1 to 1,000).")),
    responses((status = 200, body = Vec<boards::ItemEvent>)))]
async fn events(
    caller: Caller,
    State(s): State<AppState>,
    Query(query): Query<EventsQuery>,
) -> ApiResult<Json<Value>> {
    let events = blocking(move || {
        boards::events_since(
            &s.db,
            caller.account_id(),
            query.after.unwrap_or(0),
            query.limit.unwrap_or(200),
        )
    })
    .await?;
    Ok(Json(json!(events)))
}
