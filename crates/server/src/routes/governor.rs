//! The fleet governor's routes: its last checks, and a check run now.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::auth::{Owner, User};
use crate::error::{ApiError, ApiResult};
use crate::governor_loop;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/governor", get(checks))
        .route("/governor/check", post(check_now))
}

/// The last checks, newest first: fleet-wide counts, and among the sessions
/// only the caller's account's own.
async fn checks(User(user): User, State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let checks: Vec<governor::Check> = state
        .governor
        .checks()
        .iter()
        .map(|check| check.for_account(&user.account_id))
        .collect();
    Ok(Json(json!({ "checks": checks })))
}

/// Runs one check now (the owner only: it revives any account's sessions).
async fn check_now(
    Owner(_): Owner,
    State(state): State<AppState>,
) -> ApiResult<(StatusCode, Json<governor::Check>)> {
    match governor_loop::check(&state).await? {
        Some(check) => Ok((StatusCode::OK, Json(check))),
        None => Err(ApiError::new(
            StatusCode::CONFLICT,
            "check_running",
            "A governor check is already running; its result will be in GET /governor.",
        )),
    }
}
