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
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
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

/// That workspace's dashboards.
///
/// 400 `invalid_request` without `workspaceId`; another account's workspace
/// → 404. Agent tokens are admitted.
#[utoipa::path(get, path = "/dashboards",
    params(("workspaceId" = String, Query, description = "The workspace.")),
    responses((status = 200, body = Vec<dashboards::Dashboard>)))]
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

/// Makes a dashboard.
///
/// `config` is `{"boardIds", "widgets", "filters"}`: every widget has an
/// `id`, a `type` (`numbers`, `chart`, `velocity`, `plannedVsUnplanned`,
/// `burndown`, `battery`, `table`, `apps`) and `"layout": {"x", "y", "w",
/// "h"}`, four non-negative integers with `w` and `h` at least 1; filter
/// rules use the ops `is`, `is_not`, `contains`, `gt`, `gte`, `lt`, `lte`,
/// `is_empty`, `is_not_empty`. The rest of the config is the client's and is
/// stored as given. A `workspaceId` or any of `boardIds` that is missing or
/// another account's → 404 and nothing is created. Agent tokens are
/// admitted.
#[utoipa::path(post, path = "/dashboards", request_body = NewDashboard,
    responses((status = 201, body = dashboards::Dashboard, headers(("ETag" = String)))))]
async fn create(
    caller: Caller,
    State(s): State<AppState>,
    ApiJson(body): ApiJson<NewDashboard>,
) -> ApiResult<Response> {
    let dashboard = blocking(move || dashboards::create(&s.db, caller.account_id(), &body)).await?;
    Ok(with_etag(dashboard, StatusCode::CREATED))
}

/// One dashboard, with its `ETag`. Agent tokens are admitted.
#[utoipa::path(get, path = "/dashboards/{id}", params(("id" = String, Path, description = "The dashboard's id.")),
    responses((status = 200, body = dashboards::Dashboard, headers(("ETag" = String)))))]
async fn read(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let dashboard = blocking(move || dashboards::get(&s.db, caller.account_id(), &id)).await?;
    Ok(with_etag(dashboard, StatusCode::OK))
}

/// Changes a dashboard's name or config (the same checks as creating one).
///
/// With `If-Match: <ETag>`, 412 `stale_dashboard` when it names an older
/// version; without it the last write wins. Agent tokens are admitted.
// With `If-Match`, a save based on a stale copy is refused instead of
// silently overwriting another tab's work.
#[utoipa::path(patch, path = "/dashboards/{id}", params(("id" = String, Path, description = "The dashboard's id."),
        ("If-Match" = Option<String>, Header, description = "The ETag of the copy this change is based on.")),
    request_body = DashboardPatch,
    responses((status = 200, body = dashboards::Dashboard, headers(("ETag" = String)))))]
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

/// Deletes a dashboard. Agent tokens are admitted.
#[utoipa::path(delete, path = "/dashboards/{id}", params(("id" = String, Path, description = "The dashboard's id.")), responses((status = 204, description = "Deleted.")))]
async fn remove(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    blocking(move || dashboards::delete(&s.db, caller.account_id(), &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Publishes the dashboard to the web: a read-only link, shown once.
///
/// Only the link's digest is kept; publishing again makes a new link. Not
/// for agent tokens.
#[utoipa::path(post, path = "/dashboards/{id}/publish", params(("id" = String, Path, description = "The dashboard's id.")), responses((status = 200, body = PublishedLink)))]
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

/// Whether the dashboard is published, and since when.
#[utoipa::path(get, path = "/dashboards/{id}/publish", params(("id" = String, Path, description = "The dashboard's id.")), responses((status = 200, body = PublicationState)))]
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

/// Withdraws the link; the old token stops working at once. Not for agent tokens.
#[utoipa::path(delete, path = "/dashboards/{id}/publish", params(("id" = String, Path, description = "The dashboard's id.")), responses((status = 204, description = "Withdrawn.")))]
async fn unpublish(
    user: User,
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    blocking(move || dashboards::unpublish(&s.db, user.account_id(), &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A published dashboard, for anyone with the link: no credential.
///
/// The dashboard and its boards' items, read-only, reduced to the columns
/// its widgets and filters use, and without member emails. An unknown or
/// withdrawn token → 404. On the UI server `/p/<token>` renders it.
#[utoipa::path(get, path = "/public/dashboards/{token}", security(()),
    params(("token" = String, Path, description = "The published link's token.")),
    responses((status = 200, body = dashboards::PublicDashboardBody)))]
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
