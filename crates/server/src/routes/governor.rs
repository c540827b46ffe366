//! The fleet governor's routes: its last checks, and a check run now.

use std::collections::HashMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use app::governor_loop;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/governor", get(checks))
        .route("/governor/check", post(check_now))
}

/// The governor's last checks, newest first.
///
/// Fleet-wide counts, and among the sessions only the caller's account's
/// own; `revivesToday` counts the account's revives today. The rules are in
/// docs/governor.md. Not for agent tokens.
#[utoipa::path(get, path = "/governor", responses((status = 200, body = Checks)))]
async fn checks(User(user): User, State(state): State<AppState>) -> ApiResult<Json<Checks>> {
    let checks = state.governor.checks_for(&user.account_id);
    let governor = state.governor.clone();
    let account = user.account_id.clone();
    let revives_today = blocking(move || governor.revives_today(&account)).await?;
    Ok(Json(Checks {
        checks,
        revives_today,
    }))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Checks {
    checks: Vec<governor::Check>,
    /// Revives today per session of the account.
    revives_today: HashMap<String, u32>,
}

/// Runs one governor check now (the owner only).
///
/// 409 `check_running` while one runs.
// The owner only (its cli token, or the web app signed in as the owner),
// since it revives any account's sessions.
#[utoipa::path(post, path = "/governor/check", responses((status = 200, body = governor::Check)))]
async fn check_now(
    User(user): User,
    State(state): State<AppState>,
) -> ApiResult<(StatusCode, Json<governor::Check>)> {
    if !user.is_owner {
        return Err(ApiError::forbidden(
            "owner_only",
            "Only the owner may run a governor check.",
        ));
    }
    match governor_loop::check(&state).await? {
        Some(check) => Ok((StatusCode::OK, Json(check))),
        None => Err(ApiError::new(
            StatusCode::CONFLICT,
            "check_running",
            "A governor check is already running; its result will be in GET /governor.",
        )),
    }
}
