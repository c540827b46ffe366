//! `GET /runners`: where sessions can run; the runner tokens pool runners
//! connect with, and the listener they connect to (docs/runners.md).

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{delete, get};
use axum::{Json, Router};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::{Owner, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{CreatedRunnerToken, NewAccount, RunnerListener, RunnerToken};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/runners", get(list))
        .route("/runners/listener", get(listener))
        .route("/runners/tokens", get(tokens).post(mint))
        .route("/runners/tokens/{id}", delete(revoke))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// Read `runners.toml` again and reach each host before answering
    /// (bounded by ssh's connect timeout, 10 s a host).
    #[serde(default)]
    refresh: bool,
}

/// Every runner: `local` first, then those of `runners.toml`, then pool runners.
///
/// Each with its kind (`local`, `ssh`, `pool`), its state (`connected`,
/// `connecting`, `unreachable` with ssh's own message or why a pool
/// runner's connection ended, `invalid` with the file's line and column),
/// its running sessions against `maxSessions`, the host's load and memory,
/// the engines and their versions there, how it confines engines
/// (`namespaces`, `landlock`, or `pod` for a pool runner whose pod is the
/// boundary) and the helper's version. Runners are reached only while the
/// setting `cloudControlPlaneEnabled` is on. Not for agent tokens.
#[utoipa::path(
    get,
    path = "/runners",
    params(ListQuery),
    responses((status = 200, body = Vec<runners::RunnerInfo>))
)]
async fn list(
    _user: User,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Vec<runners::RunnerInfo>>> {
    Ok(Json(state.list_runners(query.refresh).await?))
}

fn listener_of(state: &AppState) -> RunnerListener {
    let bound = state.runner_listener_state();
    RunnerListener {
        configured: bound.configured,
        address: bound.address,
        fingerprint: bound.fingerprint,
        error: bound.error,
    }
}

/// The runner listener: where pool runners connect and the fingerprint they pin.
///
/// It listens while `runners.toml` has a usable `[listener]` and
/// `cloudControlPlaneEnabled` is on; otherwise `address` is null and
/// `error` says why. Not for agent tokens.
#[utoipa::path(get, path = "/runners/listener", responses((status = 200, body = RunnerListener)))]
async fn listener(_user: User, State(state): State<AppState>) -> Json<RunnerListener> {
    Json(listener_of(&state))
}

/// The runner tokens, oldest first (never the tokens themselves).
///
/// The owner's cli token only (403 `owner_only`).
#[utoipa::path(get, path = "/runners/tokens", responses((status = 200, body = Vec<RunnerToken>)))]
async fn tokens(_owner: Owner, State(state): State<AppState>) -> ApiResult<Json<Vec<RunnerToken>>> {
    let tokens = state.scoped_tokens.clone();
    let list = blocking(move || tokens.list(accounts::scoped::Scope::Runner)).await?;
    Ok(Json(
        list.into_iter()
            .map(|t| RunnerToken {
                id: t.id,
                name: t.name,
                created_at: t.created_at,
            })
            .collect(),
    ))
}

/// Mints a runner token: it lets a pool runner connect, and opens no API route.
///
/// Body `{"name"}` (1 to 100 characters, else 400 `invalid_request`). The
/// token is in this reply only; only its digest is kept. The owner's cli
/// token only (403 `owner_only`). The reply names the listener a runner
/// connects to and the fingerprint it pins.
#[utoipa::path(post, path = "/runners/tokens", request_body = NewAccount, responses(
    (status = 201, description = "The token, shown only here.", body = CreatedRunnerToken),
))]
async fn mint(
    _owner: Owner,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewAccount>,
) -> ApiResult<(StatusCode, Json<CreatedRunnerToken>)> {
    let app = state.app.clone();
    let (record, token) = blocking(move || app.mint_runner_token(&body.name)).await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedRunnerToken {
            id: record.id,
            name: record.name,
            created_at: record.created_at,
            token,
            listener: listener_of(&state),
        }),
    ))
}

/// Revokes a runner token: its runners' connections close at once.
///
/// A turn running on such a runner waits for it as for an SSH host that
/// dropped (a runner given a new token picks it up). 404 `not_found` when
/// there is no such token; the owner's cli token only (403 `owner_only`).
#[utoipa::path(delete, path = "/runners/tokens/{id}", params(("id" = String, Path, description = "The runner token's id.")), responses((status = 204)))]
async fn revoke(
    _owner: Owner,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let app = state.app.clone();
    if blocking(move || app.revoke_runner_token(&id)).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found(
            "not_found",
            "There is no runner token with this id.",
        ))
    }
}
