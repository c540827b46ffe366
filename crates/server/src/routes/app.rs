//! Restarting Switchboard in place. `/app/restart` is the API's route, for
//! every caller alike (agents included) and only while the owner has
//! allowAgentAppRestart on; `/app/user-restart` is the web app's Restart
//! button, on the UI server only, for the browser session whatever the
//! setting says.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;

use crate::auth::{Caller, User};
use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, StopReason};

pub fn routes() -> Router<AppState> {
    Router::new().route("/app/restart", post(restart))
}

/// Mounted under `/api` on the UI server and nowhere else, so no token of
/// the control server can reach it.
pub fn ui_routes() -> Router<AppState> {
    Router::new().route("/app/user-restart", post(user_restart))
}

/// Restarts the server in place (same pid, `server.json` rewritten).
///
/// 403 `restart_disabled` for every caller, the cli token included, while
/// `allowAgentAppRestart` is off. Agent tokens are admitted.
#[utoipa::path(post, path = "/app/restart", responses((status = 202, description = "The restart has begun.")))]
async fn restart(_caller: Caller, State(state): State<AppState>) -> ApiResult<StatusCode> {
    if !state.settings.allow_agent_app_restart() {
        return Err(ApiError::forbidden(
            "restart_disabled",
            "The restart route is disabled (setting allowAgentAppRestart).",
        ));
    }
    Ok(request_restart(&state))
}

/// The web app's Restart button (UI server only, browser session only).
///
/// The same restart as `POST /app/restart`, whatever `allowAgentAppRestart`
/// says. The control server has no such path.
// The UI server admits only its cookie, so `User` here is the browser session.
#[utoipa::path(post, path = "/app/user-restart",
    extensions(("x-listener" = json!("ui"))),
    responses((status = 202, description = "The restart has begun.")))]
async fn user_restart(_user: User, State(state): State<AppState>) -> StatusCode {
    request_restart(&state)
}

/// The listeners drain, `serve` execs a fresh copy of itself, and the web app
/// polls `/api/me` until the new one answers.
fn request_restart(state: &AppState) -> StatusCode {
    state.request_stop(StopReason::Restart);
    StatusCode::ACCEPTED
}
