//! The messenger (docs/phone.md "Messenger"): the owner's own Matrix
//! rooms, `GET /messenger/rooms`, a room's messages, and
//! `POST /messenger/rooms/{id}/messages` to reply. Not the agents'
//! Telegram bot (`messenger_bot.rs`). Every route answers 403
//! `messenger_disabled` while `messengerEnabled` is off; agent tokens are
//! refused.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use matrix::{MatrixMessage, MatrixRoom, NewMatrixMessage};

use crate::auth::User;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/messenger/rooms", get(rooms))
        .route("/messenger/rooms/{id}/messages", get(messages).post(send))
}

fn messenger_on(state: &AppState) -> ApiResult<()> {
    if state.settings.messenger_enabled() {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "messenger_disabled",
        "The messenger is turned off (setting messengerEnabled).",
    ))
}

/// The owner's joined Matrix rooms, the latest first, each with its name.
///
/// Rooms are known from the messenger's sync (`/sync` with the stored since
/// token). The owner only; agent tokens are refused.
#[utoipa::path(get, path = "/messenger/rooms", responses((status = 200, body = Vec<MatrixRoom>), (status = 403, description = "`messenger_disabled`")))]
async fn rooms(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<MatrixRoom>>> {
    user.owner_only("The messenger")?;
    messenger_on(&state)?;
    Ok(Json(state.messenger_rooms().await?))
}

/// A room's messages as synced, oldest first.
///
/// Unknown room → 404. The owner only; agent tokens are refused.
#[utoipa::path(get, path = "/messenger/rooms/{id}/messages",
    params(("id" = String, Path, description = "The room id (`!…:server`).")),
    responses((status = 200, body = Vec<MatrixMessage>), (status = 403, description = "`messenger_disabled`")))]
async fn messages(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<MatrixMessage>>> {
    user.owner_only("The messenger")?;
    messenger_on(&state)?;
    Ok(Json(state.messenger_messages(&id).await?))
}

/// Sends a text message to a room as the owner.
///
/// `{text}`, at most 16,000 characters. Sent under a transaction id stored
/// first, so a retry is one message; a 429 from the homeserver is waited
/// out as it says. Unknown room → 404; token revoked or engine switched →
/// 409 `messenger_signed_out`; still rate limited → 429; homeserver away →
/// 502 `homeserver_failed`.
#[utoipa::path(post, path = "/messenger/rooms/{id}/messages",
    params(("id" = String, Path, description = "The room id (`!…:server`).")),
    request_body = NewMatrixMessage,
    responses((status = 201, body = MatrixMessage), (status = 403, description = "`messenger_disabled`"), (status = 409, description = "`messenger_signed_out`")))]
async fn send(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NewMatrixMessage>,
) -> ApiResult<(StatusCode, Json<MatrixMessage>)> {
    user.owner_only("The messenger")?;
    messenger_on(&state)?;
    let message = state.messenger_send(&id, &body.text).await?;
    Ok((StatusCode::CREATED, Json(message)))
}
