//! `GET /metrics` (control server only) for Prometheus and the autoscalers
//! that read it, and `/metrics/tokens`, where the owner makes the tokens a
//! scraper holds: each reads `/metrics` and opens nothing else. The figures
//! and their text are the `metrics` crate's; the scrape-time reading is
//! `app`'s.

use ::metrics::CONTENT_TYPE;
use accounts::scoped::{Scope, ScopedToken};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{delete, get};
use axum::{Json, Router};

use crate::auth::{MetricsReader, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{CreatedMetricsToken, MetricsToken, Named};

/// Served on the control server only: scrapers are scripts, and the UI
/// server's cookie is no credential for them.
pub fn scrape_routes() -> Router<AppState> {
    Router::new().route("/metrics", get(scrape))
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/metrics/tokens", get(list).post(create))
        .route("/metrics/tokens/{id}", delete(remove))
}

/// The server's metrics in the Prometheus text format (control server only).
///
/// Version 0.0.4 of the exposition format, which every Prometheus and the
/// Prometheus adapter behind an autoscaler read: sessions by state and
/// runner, the queue (`switchboard_sessions_queued`,
/// `switchboard_sessions_queued_oldest_wait_seconds`), turns started,
/// finished and failed and their durations, today's spend, runners, unread
/// inbox rows, request durations by route template, refused runner
/// connections; docs/api.md lists them. The owner's cli token, or a token
/// from `POST /metrics/tokens`; any other token → 401 or 403.
#[utoipa::path(get, path = "/metrics", security(("bearer" = [])),
    extensions(("x-listener" = json!("control"))),
    responses((status = 200, description = "The metrics.",
        content_type = "text/plain; version=0.0.4; charset=utf-8", body = String)))]
async fn scrape(
    _reader: MetricsReader,
    State(state): State<AppState>,
) -> ApiResult<impl IntoResponse> {
    let snapshot = state.metrics_snapshot().await?;
    let text = state
        .metrics
        .render(&snapshot)
        .map_err(ApiError::internal)?;
    Ok(([(header::CONTENT_TYPE, CONTENT_TYPE)], text))
}

fn listed_token(token: ScopedToken) -> MetricsToken {
    MetricsToken {
        id: token.id,
        name: token.name,
        created_at: token.created_at,
    }
}

/// Makes a token that reads `GET /metrics` and nothing else.
///
/// `name` (1 to 100 characters) tells tokens apart. The token is in this
/// answer only: only its digest is kept. The owner only; not for agent
/// tokens.
#[utoipa::path(post, path = "/metrics/tokens", request_body = Named,
    responses((status = 201, body = CreatedMetricsToken)))]
async fn create(
    user: User,
    State(state): State<AppState>,
    ApiJson(request): ApiJson<Named>,
) -> ApiResult<(StatusCode, Json<CreatedMetricsToken>)> {
    user.owner_only("Metrics scraping")?;
    let tokens = state.scoped_tokens.clone();
    let (made, token) = blocking(move || tokens.mint(Scope::Metrics, &request.name)).await?;
    let made = listed_token(made);
    Ok((
        StatusCode::CREATED,
        Json(CreatedMetricsToken {
            id: made.id,
            token,
            name: made.name,
            created_at: made.created_at,
        }),
    ))
}

/// The metrics tokens, oldest first, without the tokens themselves.
///
/// The owner only; not for agent tokens.
#[utoipa::path(get, path = "/metrics/tokens",
    responses((status = 200, body = Vec<MetricsToken>)))]
async fn list(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<MetricsToken>>> {
    user.owner_only("Metrics scraping")?;
    let tokens = state.scoped_tokens.clone();
    let listed = blocking(move || tokens.list(Scope::Metrics)).await?;
    Ok(Json(listed.into_iter().map(listed_token).collect()))
}

/// Revokes a metrics token; a scrape with it is refused from now on.
///
/// 404 `not_found` when no metrics token has the id. The owner only; not
/// for agent tokens.
#[utoipa::path(delete, path = "/metrics/tokens/{id}",
    params(("id" = String, Path, description = "The token's id.")),
    responses((status = 204, description = "Revoked.")))]
async fn remove(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    user.owner_only("Metrics scraping")?;
    let tokens = state.scoped_tokens.clone();
    if blocking(move || tokens.revoke(Scope::Metrics, &id)).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found(
            "not_found",
            "There is no metrics token with this id.",
        ))
    }
}
