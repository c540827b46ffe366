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
use serde::Deserialize;
use serde_json::{Value, json};
use sessions::SpawnRequest;

use crate::auth::{Caller, ControlSwitch};
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::routes::blocking;
use crate::routes::navigation::request_navigation;
use crate::routes::sessions::spawn_as;
use crate::state::AppState;
use settings::SettingsStore;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/bookmarks", get(list).post(create))
        .route("/bookmarks/reorder", post(reorder))
        .route("/bookmarks/{id}", patch(update).delete(remove))
        .route("/bookmarks/{id}/launch", post(launch))
}

/// Closes these routes on the control server while the setting is off.
pub const SWITCH: ControlSwitch = ControlSwitch {
    enabled: |settings: &SettingsStore| settings.bookmarks_cli_enabled(),
    code: "bookmarks_cli_disabled",
    message: "Bookmarks over the control server are turned off (setting bookmarksCliEnabled).",
};

async fn list(caller: Caller, State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let store = state.bookmarks.clone();
    let account = caller.account_id().to_owned();
    let bookmarks = blocking(move || store.list(&account)).await?;
    Ok(Json(json!({ "bookmarks": bookmarks })))
}

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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Order {
    ids: Vec<String>,
}

async fn reorder(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(order): ApiJson<Order>,
) -> ApiResult<Json<Value>> {
    let store = state.bookmarks.clone();
    let account = caller.account_id().to_owned();
    let bookmarks = blocking(move || store.reorder(&account, &order.ids)).await?;
    Ok(Json(json!({ "bookmarks": bookmarks })))
}

/// A link opens in the user's view through a navigation request (202 and
/// where it went); a recipe starts a session under the spawn rules (201,
/// or 202 while spawn spacing holds it).
async fn launch(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let store = state.bookmarks.clone();
    let account = caller.account_id().to_owned();
    let bookmark = blocking(move || store.get(&account, &id)).await?;
    match bookmark.kind {
        Kind::Url => {
            let url = bookmark.url.unwrap_or_default();
            let delivered = request_navigation(&state, &caller, &headers, url).await?;
            Ok((
                StatusCode::ACCEPTED,
                Json(json!({ "delivered": delivered })),
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
            Ok((status, Json(json!({ "session": session }))))
        }
    }
}
