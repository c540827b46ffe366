//! `/alert` and `/inbox`: agents drop persistent rows, people read them.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::publish;
use crate::routes::blocking;
use crate::state::AppState;
use crate::wire::NewAlert;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/alert", post(alert))
        .route("/inbox", get(list))
}

async fn alert(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(alert): ApiJson<NewAlert>,
) -> ApiResult<(StatusCode, Json<inbox::InboxRow>)> {
    if !state.settings.agent_alerts_enabled() {
        return Err(ApiError::forbidden(
            "agent_alerts_disabled",
            "Agent alerts are turned off (setting agentAlertsEnabled).",
        ));
    }
    let inbox = state.inbox.clone();
    let account = caller.account_id().to_owned();
    let row = blocking(move || {
        inbox.create(
            &caller.0.account_id,
            inbox::NewRow {
                category: inbox::Category::Alert,
                title: &alert.title,
                body: alert.body.as_deref(),
                source_session_id: caller.0.session_id.as_deref(),
            },
        )
    })
    .await?;
    publish::inbox_changed(&state, &account, &row);
    Ok((StatusCode::CREATED, Json(row)))
}

async fn list(
    caller: Caller,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<inbox::InboxRow>>> {
    let inbox = state.inbox.clone();
    let rows = blocking(move || inbox.list(caller.account_id(), 500)).await?;
    Ok(Json(rows))
}
