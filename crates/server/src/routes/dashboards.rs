//! `/dashboards` and publish-to-web. The dashboards crate checks every board
//! and workspace against the caller's account and the widget layouts; this
//! glue adds the ETag / If-Match headers and the public, unauthenticated read.
//! Agents may write their account's dashboards (the contract's JSON model is
//! for people, scripts and agents alike); publishing stays with people.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use dashboards::{DashboardPatch, NewDashboard};
use serde::Deserialize;
use serde_json::json;

use crate::auth::{Caller, User};
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::routes::blocking;
use crate::state::AppState;
use crate::wire::{PublicationState, PublishedLink};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/dashboards", get(list).post(create))
        .route("/dashboards/{id}", get(read).patch(update).delete(remove))
        .route(
            "/dashboards/{id}/publish",
            post(publish).get(publication).delete(unpublish),
        )
        .route("/public/dashboards/{token}", get(public_view))
}

fn with_etag(dashboard: dashboards::Dashboard, status: StatusCode) -> Response {
    let etag = dashboard.etag();
    (status, [(header::ETAG, etag)], Json(json!(dashboard))).into_response()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListQuery {
    workspace_id: Option<String>,
}

async fn list(
    caller: Caller,
    State(s): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Response> {
    let workspace = query.workspace_id.ok_or_else(|| {
        ApiError::bad_request("invalid_request", "Name the workspace: ?workspaceId=<id>.")
    })?;
    let list = blocking(move || dashboards::list(&s.db, caller.account_id(), &workspace)).await?;
    Ok(Json(json!(list)).into_response())
}

async fn create(
    caller: Caller,
    State(s): State<AppState>,
    ApiJson(body): ApiJson<NewDashboard>,
) -> ApiResult<Response> {
    let dashboard = blocking(move || dashboards::create(&s.db, caller.account_id(), &body)).await?;
    Ok(with_etag(dashboard, StatusCode::CREATED))
}

async fn read(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let dashboard = blocking(move || dashboards::get(&s.db, caller.account_id(), &id)).await?;
    Ok(with_etag(dashboard, StatusCode::OK))
}

/// With `If-Match`, a save based on a stale copy is refused (412) instead of
/// silently overwriting another tab's work; without it the last write wins.
async fn update(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<DashboardPatch>,
) -> ApiResult<Response> {
    let if_match = headers
        .get(header::IF_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let dashboard = blocking(move || {
        dashboards::update(&s.db, caller.account_id(), &id, &body, if_match.as_deref())
    })
    .await?;
    Ok(with_etag(dashboard, StatusCode::OK))
}

async fn remove(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    blocking(move || dashboards::delete(&s.db, caller.account_id(), &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn publish(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<PublishedLink>> {
    let ui_url = s.ui_url.clone();
    let publication = blocking(move || dashboards::publish(&s.db, user.account_id(), &id)).await?;
    Ok(Json(PublishedLink {
        url: publication.url(&ui_url),
        token: publication.token,
    }))
}

async fn publication(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<PublicationState>> {
    let status = blocking(move || dashboards::publication(&s.db, caller.account_id(), &id)).await?;
    Ok(Json(PublicationState {
        published: status.is_some(),
        published_at: status.map(|s| s.published_at),
    }))
}

async fn unpublish(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    blocking(move || dashboards::unpublish(&s.db, user.account_id(), &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Anyone with the link: no credential, read-only, reduced to what the
/// dashboard's widgets and filters use.
async fn public_view(State(s): State<AppState>, Path(token): Path<String>) -> ApiResult<Response> {
    let body = blocking(move || dashboards::public_view(&s.db, &token)).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        body,
    )
        .into_response())
}
