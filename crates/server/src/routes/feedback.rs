//! `/feedback`: what the user writes about Switchboard itself, kept here
//! and emailed to the `[reports]` address while `bugReportEmailEnabled` is
//! on (`app::report_mail`, docs/diagnostics.md).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use diagnostics::Report;

use crate::auth::User;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::NewFeedback;

pub fn routes() -> Router<AppState> {
    Router::new().route("/feedback", get(list).post(send))
}

/// Keeps feedback about Switchboard, to be emailed to the reports' address.
///
/// Sent at once while `bugReportEmailEnabled` is on and `email.toml`'s
/// `[reports]` names an address; otherwise kept here and sent once both
/// are. Agent tokens are refused: feedback is the user's.
#[utoipa::path(post, path = "/feedback", request_body = NewFeedback, responses((status = 201, body = Report), (status = 400, description = "empty, or over 10,000 characters")))]
async fn send(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewFeedback>,
) -> ApiResult<(StatusCode, Json<Report>)> {
    let report = state.feedback(user.account_id(), &body.text).await?;
    Ok((StatusCode::CREATED, Json(report)))
}

/// The user's feedback, newest first, each with when it was sent.
#[utoipa::path(get, path = "/feedback", responses((status = 200, body = Vec<Report>)))]
async fn list(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<Report>>> {
    Ok(Json(state.feedback_list(user.account_id()).await?))
}
