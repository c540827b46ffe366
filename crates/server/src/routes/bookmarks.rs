//! Bookmarks: an account's links and session recipes, in its order, and
//! launching one (a link becomes a navigation request, a recipe a spawn
//! under the spawn rules). With `bookmarksCliEnabled` off, every bookmark
//! route of the control server answers 403 `bookmarks_cli_disabled`,
//! whatever the token; the web app's own use is unaffected.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use bookmarks::{Bookmark, Fields, Kind};
use serde::Serialize;
use sessions::SpawnRequest;
use utoipa::ToSchema;

use crate::auth::{Caller, ControlSwitch};
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::routes::navigation::{Delivered, request_navigation};
use crate::routes::sessions::{Spawned, spawn_as};
use crate::state::AppState;
use crate::wire::Order;
use settings::SettingsStore;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/bookmarks", get(list).post(create))
        .route("/bookmarks/reorder", post(reorder))
        .route("/bookmarks/{id}", patch(update).delete(remove))
        .route("/bookmarks/{id}/launch", post(launch))
}

#[derive(Serialize, ToSchema)]
struct Bookmarks {
    bookmarks: Vec<Bookmark>,
}

/// Closes these routes on the control server while the setting is off.
pub const SWITCH: ControlSwitch = ControlSwitch {
    enabled: SettingsStore::bookmarks_cli_enabled,
    code: "bookmarks_cli_disabled",
    message: "Bookmarks over the control server are turned off (setting bookmarksCliEnabled).",
};

/// The account's bookmarks, in the user's order.
///
/// Every bookmark route of the control server answers 403
/// `bookmarks_cli_disabled` while `bookmarksCliEnabled` is off, whatever the
/// token and before the body is read; the UI server's are unaffected.
#[utoipa::path(get, path = "/bookmarks", responses((status = 200, body = Bookmarks)))]
async fn list(caller: Caller, State(state): State<AppState>) -> ApiResult<Json<Bookmarks>> {
    let store = state.bookmarks.clone();
    let account = caller.account_id().to_owned();
    let bookmarks = blocking(move || store.list(&account)).await?;
    Ok(Json(Bookmarks { bookmarks }))
}

/// Adds a bookmark: a link or a session recipe.
///
/// A link is `{"title", "kind": "url", "url"}`, a recipe `{"title", "kind":
/// "session", "prompt", "engine"?, "cwd"?}`.
#[utoipa::path(post, path = "/bookmarks", request_body = Fields, responses((status = 201, body = Bookmark)))]
async fn create(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(fields): ApiJson<Fields>,
) -> ApiResult<(StatusCode, Json<Bookmark>)> {
    let store = state.bookmarks.clone();
    let account = caller.account_id().to_owned();
    let bookmark = blocking(move || store.create(&account, fields)).await?;
    Ok((StatusCode::CREATED, Json(bookmark)))
}

/// Changes any of a bookmark's fields.
#[utoipa::path(patch, path = "/bookmarks/{id}", params(("id" = String, Path, description = "The bookmark's id.")), request_body = Fields,
    responses((status = 200, body = Bookmark)))]
async fn update(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(fields): ApiJson<Fields>,
) -> ApiResult<Json<Bookmark>> {
    let store = state.bookmarks.clone();
    let account = caller.account_id().to_owned();
    Ok(Json(
        blocking(move || store.update(&account, &id, fields)).await?,
    ))
}

/// Deletes a bookmark.
#[utoipa::path(delete, path = "/bookmarks/{id}", params(("id" = String, Path, description = "The bookmark's id.")), responses((status = 204, description = "Deleted.")))]
async fn remove(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let store = state.bookmarks.clone();
    let account = caller.account_id().to_owned();
    blocking(move || store.delete(&account, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Puts the bookmarks in a new order: each bookmark once.
#[utoipa::path(post, path = "/bookmarks/reorder", request_body = Order, responses((status = 200, body = Bookmarks)))]
async fn reorder(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(order): ApiJson<Order>,
) -> ApiResult<Json<Bookmarks>> {
    let store = state.bookmarks.clone();
    let account = caller.account_id().to_owned();
    let bookmarks = blocking(move || store.reorder(&account, &order.ids)).await?;
    Ok(Json(Bookmarks { bookmarks }))
}

/// Launches a bookmark.
///
/// A link opens in the user's view through a navigation request (202 and
/// where it went, as `POST /ui/navigate`); a recipe starts a session under
/// the spawn rules of `POST /sessions` (201, or 202 while spawn spacing
/// holds it).
#[utoipa::path(post, path = "/bookmarks/{id}/launch", params(("id" = String, Path, description = "The bookmark's id."), ("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")), responses(
    (status = 201, description = "A recipe's session.", body = Spawned),
    (status = 202, description = "Where a link went, or a recipe's session held by spawn spacing.", body = Launched),
))]
async fn launch(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Launched>)> {
    let store = state.bookmarks.clone();
    let account = caller.account_id().to_owned();
    let bookmark = blocking(move || store.get(&account, &id)).await?;
    match bookmark.kind {
        Kind::Url => {
            let url = bookmark.url.unwrap_or_default();
            let delivered = request_navigation(&state, &caller, &headers, url).await?;
            Ok((
                StatusCode::ACCEPTED,
                Json(Launched::Link(Delivered { delivered })),
            ))
        }
        Kind::Session => {
            let request = SpawnRequest {
                engine: bookmark.engine,
                prompt: bookmark.prompt.unwrap_or_default(),
                cwd: bookmark.cwd,
                title: Some(bookmark.title),
                ..SpawnRequest::default()
            };
            let (status, session) = spawn_as(&state, &caller, &headers, request).await?;
            Ok((
                status,
                Json(Launched::Recipe(Box::new(Spawned { session }))),
            ))
        }
    }
}

/// What a launch did: a link's navigation request, or a recipe's session.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
enum Launched {
    Link(Delivered),
    Recipe(Box<Spawned>),
}
