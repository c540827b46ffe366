//! `/messenger`: the messenger bot's pairing requests, which the owner
//! approves or declines (the inbox row's buttons call these).

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/messenger/pairings", get(pending))
        .route("/messenger/pairings/{code}/approve", post(approve))
        .route("/messenger/pairings/{code}/reject", post(reject))
}

/// A messenger user's request to talk to the bot.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PairingView {
    code: String,
    /// The user's numeric id, as `messengerBotAllowedUserIds` holds it.
    user_id: String,
    name: String,
    username: Option<String>,
    /// `pending`, `approved` or `rejected`.
    state: String,
    created_at: String,
    expires_at: String,
}

impl From<messenger::Pairing> for PairingView {
    fn from(p: messenger::Pairing) -> Self {
        Self {
            code: p.code,
            user_id: p.user_id.to_string(),
            name: p.name,
            username: p.username,
            state: p.state.as_str().to_owned(),
            created_at: p.created_at,
            expires_at: p.expires_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
struct Pairings {
    pairings: Vec<PairingView>,
}

/// The bot belongs to the owner, like the settings it changes.
fn owner_only(user: &User) -> ApiResult<()> {
    if user.0.is_owner {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "owner_only",
            "The messenger bot belongs to the owner account.",
        ))
    }
}

/// The pairing requests still waiting (a code lives one hour).
///
/// The owner only (another account → 403 `owner_only`); agent tokens are refused.
#[utoipa::path(get, path = "/messenger/pairings", responses((status = 200, body = Pairings)))]
async fn pending(user: User, State(state): State<AppState>) -> ApiResult<Json<Pairings>> {
    owner_only(&user)?;
    let bot = messenger::BotState::new(state.db.clone());
    let now = state.clock.now();
    let pairings = blocking(move || bot.pending_pairings(now).map_err(ApiError::from)).await?;
    Ok(Json(Pairings {
        pairings: pairings.into_iter().map(PairingView::from).collect(),
    }))
}

/// Approves a pairing code.
///
/// The sender's id joins `messengerBotAllowedUserIds` and the bot tells
/// them. An unknown code → 404 `not_found`; one past its hour → 409
/// `pairing_expired`. The owner only; agent tokens are refused.
#[utoipa::path(post, path = "/messenger/pairings/{code}/approve", params(("code" = String, Path, description = "The code the bot gave the sender.")),
    responses((status = 200, body = PairingView)))]
async fn approve(
    user: User,
    State(state): State<AppState>,
    Path(code): Path<String>,
) -> ApiResult<Json<PairingView>> {
    decide(user, &state, &code, true).await
}

/// Declines a pairing code; the bot tells the sender.
///
/// An unknown code → 404 `not_found`; one past its hour → 409
/// `pairing_expired`. The owner only; agent tokens are refused.
#[utoipa::path(post, path = "/messenger/pairings/{code}/reject", params(("code" = String, Path, description = "The code the bot gave the sender.")),
    responses((status = 200, body = PairingView)))]
async fn reject(
    user: User,
    State(state): State<AppState>,
    Path(code): Path<String>,
) -> ApiResult<Json<PairingView>> {
    decide(user, &state, &code, false).await
}

async fn decide(
    user: User,
    state: &AppState,
    code: &str,
    approve: bool,
) -> ApiResult<Json<PairingView>> {
    owner_only(&user)?;
    let pairing = app::messenger_bot::decide_pairing(state, code, approve).await?;
    Ok(Json(pairing.into()))
}
