//! `/app/restart`: the control route that restarts Switchboard in place,
//! disabled for every caller unless the owner turned allowAgentAppRestart on.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, StopReason};

pub fn routes() -> Router<AppState> {
    Router::new().route("/app/restart", post(restart))
}

async fn restart(caller: Caller, State(state): State<AppState>) -> ApiResult<StatusCode> {
    if !state.settings.allow_agent_app_restart() {
        return Err(ApiError::forbidden(
            "restart_disabled",
            "The restart route is disabled (setting allowAgentAppRestart).",
        ));
    }
    if caller.is_agent() {
        return Err(ApiError::forbidden(
            "agent_token_forbidden",
            "An agent's scoped token may not restart the application.",
        ));
    }
    state.stop.send_replace(Some(StopReason::Restart));
    Ok(StatusCode::ACCEPTED)
}
