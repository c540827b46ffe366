//! `/announcements`: the maker's announcements for the running version,
//! read by the web app and dismissed once read. People only.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};

use announcements::Announcement;
use app::developer_messages;

use crate::auth::User;
use crate::error::ApiResult;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/announcements", get(list))
        .route("/announcements/dismiss", post(dismiss))
}

/// This version's announcements from the maker, until dismissed.
///
/// Shipped with the release notes of the running version and shown once per
/// version and account: empty once dismissed, and while
/// `developerMessagesEnabled` is off. Not for agent tokens.
#[utoipa::path(get, path = "/announcements", responses(
    (status = 200, description = "The running version's announcements not yet dismissed.", body = Vec<Announcement>),
))]
async fn list(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<Announcement>>> {
    Ok(Json(
        developer_messages::pending(&state, user.account_id()).await?,
    ))
}

/// Marks the running version's announcements read for this account.
///
/// They do not come back for this version. Not for agent tokens.
#[utoipa::path(post, path = "/announcements/dismiss", responses(
    (status = 204, description = "Dismissed."),
))]
async fn dismiss(user: User, State(state): State<AppState>) -> ApiResult<StatusCode> {
    developer_messages::dismiss(&state, user.account_id()).await?;
    Ok(StatusCode::NO_CONTENT)
}
