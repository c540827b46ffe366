//! `/messenger`: the messenger bot's pairing requests, which the owner
//! approves or declines (the inbox row's buttons call these).

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{Value, json};
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

/// The UI server's: Telegram's webhook deliveries, at a secret path.
pub fn ui_routes() -> Router<AppState> {
    Router::new().route("/messenger/webhook/{secret}", post(deliver))
}

/// A Telegram webhook delivery (UI server only, no credential).
///
/// In the messenger bot's webhook mode the path's secret and the
/// `X-Telegram-Bot-Api-Secret-Token` header are the credential, both
/// derived from the bot token and compared in constant time; anything else
/// (polling mode, the bot off, a wrong secret) → 404 `not_found`, as any
/// unknown address. A body that is not an update → 400 `invalid_request`;
/// a full queue → 429 `rate_limited` (Telegram delivers it again).
#[utoipa::path(post, path = "/messenger/webhook/{secret}", security(()),
    extensions(("x-listener" = json!("ui"))),
    params(("secret" = String, Path, description = "The webhook's secret path segment."),
        ("X-Telegram-Bot-Api-Secret-Token" = Option<String>, Header, description = "The `secret_token` the bot gave `setWebhook`.")),
    request_body(content = Object, description = "A Telegram `Update`."),
    responses((status = 200, description = "Taken.")))]
async fn deliver(
    State(state): State<AppState>,
    Path(secret): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let token = headers
        .get(messenger::SECRET_TOKEN_HEADER)
        .and_then(|v| v.to_str().ok());
    app::messenger_bot::webhook_delivery(&state, &secret, token, &body).map_err(|refused| {
        use app::messenger_bot::DeliveryRefused as R;
        match refused {
            R::Unknown => ApiError::not_found("not_found", "Not found."),
            R::NotAnUpdate(_) => ApiError::bad_request("invalid_request", refused.to_string()),
            R::Busy => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                refused.to_string(),
            ),
        }
    })?;
    Ok(Json(json!({})))
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

/// The pairing requests still waiting (a code lives one hour).
///
/// The owner only (another account → 403 `owner_only`); agent tokens are refused.
#[utoipa::path(get, path = "/messenger/pairings", responses((status = 200, body = Pairings)))]
async fn pending(user: User, State(state): State<AppState>) -> ApiResult<Json<Pairings>> {
    user.owner_only("The messenger bot")?;
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
    user.owner_only("The messenger bot")?;
    let pairing = app::messenger_bot::decide_pairing(state, code, approve).await?;
    Ok(Json(pairing.into()))
}
