//! Text messages (docs/phone.md "Text messages"): `POST /sms/send`,
//! `GET /sms/threads` and a thread's texts, the owner's alone (agent tokens
//! are refused: an agent cannot text), and `POST /sms/incoming`, the
//! gateway's webhook, whose credential is its signature. Every route but
//! the webhook answers 403 `sms_disabled` while `smsEnabled` is off; the
//! webhook answers 404 then, as any unknown address.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use sms::{SendSms, SmsContact, SmsMessage, SmsThread};
use utoipa::{IntoParams, ToSchema};

use crate::auth::User;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sms/send", post(send))
        .route("/sms/incoming", post(incoming))
        .route("/sms/threads", get(threads))
        .route("/sms/threads/{number}/messages", get(messages))
        .route("/sms/contacts/{number}", put(save_contact))
        .route("/sms/threads/{number}/not-spam", post(not_spam))
}

fn sms_on(state: &AppState) -> ApiResult<()> {
    if state.settings.sms_enabled() {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "sms_disabled",
        "Text messages are turned off (setting smsEnabled).",
    ))
}

/// `GET /sms/threads`: which list.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SmsThreadsQuery {
    /// The threads held in Spam instead of the others.
    pub spam: Option<bool>,
}

/// Sends a text message from the owner's phone (or relay).
///
/// `{to, text}`: `to` is a phone number (digits, optionally starting with
/// `+`; spaces, dashes and brackets are dropped), `text` at most 1,600
/// characters. The text is stored before the gateway is asked, so the
/// answer is 201 either way: `state` is `pending` once the gateway took it
/// (`sent`, `delivered` follow), `failed` with `failure` when it did not
/// (refused credentials, the phone away). Bad input → 400; no `sms.toml`
/// or no saved key → 409 `sms_not_configured`. The owner only; agent
/// tokens are refused.
#[utoipa::path(post, path = "/sms/send", request_body = SendSms, responses((status = 201, body = SmsMessage), (status = 403, description = "`sms_disabled`"), (status = 409, description = "`sms_not_configured`")))]
async fn send(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<SendSms>,
) -> ApiResult<(StatusCode, Json<SmsMessage>)> {
    user.owner_only("Text messages")?;
    sms_on(&state)?;
    let message = state.sms_send(&body.to, &body.text).await?;
    Ok((StatusCode::CREATED, Json(message)))
}

/// What a webhook delivery became.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct SmsDelivered {
    /// A text was stored now (false: a repeat, or another event).
    stored: bool,
}

/// The gateway's webhook: an incoming text message (no credential but its signature).
///
/// The body is the SMS Gateway for Android app's `sms:received` delivery
/// (`{event, payload: {messageId, message, phoneNumber, receivedAt}}`;
/// other events are taken and dropped) or the relay's `{id, from, text,
/// receivedAt}`. `X-Signature` must be the hex HMAC-SHA256, under the
/// saved key `sms.toml`'s `webhook_secret_key` names, of the body followed
/// by `X-Timestamp` (Unix seconds, within five minutes of now); else 401
/// `bad_signature`. A text is stored once per message id; a new one not
/// held in Spam becomes an inbox row of category `sms`. 404 while
/// `smsEnabled` is off.
#[utoipa::path(post, path = "/sms/incoming", security(()),
    params(("X-Signature" = String, Header, description = "Hex HMAC-SHA256 of the body followed by X-Timestamp."),
        ("X-Timestamp" = String, Header, description = "Unix seconds of the delivery.")),
    request_body(content = Object, description = "An `sms:received` delivery, or the relay's shape."),
    responses((status = 200, body = SmsDelivered), (status = 401, description = "`bad_signature`")))]
async fn incoming(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<SmsDelivered>> {
    if !state.settings.sms_enabled() {
        return Err(ApiError::not_found("not_found", "Not found."));
    }
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let outcome = state
        .sms_incoming(
            &body,
            header(sms::webhook::TIMESTAMP_HEADER),
            header(sms::webhook::SIGNATURE_HEADER),
        )
        .await?;
    let stored = matches!(
        outcome,
        app::phone_texts::Incoming::Stored { new: true, .. }
    );
    Ok(Json(SmsDelivered { stored }))
}

/// The owner's text conversations, one per number, the latest first.
///
/// `spam=true` lists the threads held in Spam (`spamFilterSmsEnabled`:
/// numbers neither saved as contacts nor ever texted; short codes never).
/// The owner only; agent tokens are refused.
#[utoipa::path(get, path = "/sms/threads", params(SmsThreadsQuery), responses((status = 200, body = Vec<SmsThread>), (status = 403, description = "`sms_disabled`")))]
async fn threads(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<SmsThreadsQuery>,
) -> ApiResult<Json<Vec<SmsThread>>> {
    user.owner_only("Text messages")?;
    sms_on(&state)?;
    let threads = state.sms_threads(query.spam.unwrap_or(false)).await?;
    Ok(Json(threads))
}

/// One conversation's texts, oldest first; reading them marks them read.
///
/// The owner only; agent tokens are refused.
#[utoipa::path(get, path = "/sms/threads/{number}/messages",
    params(("number" = String, Path, description = "The other side's number.")),
    responses((status = 200, body = Vec<SmsMessage>), (status = 403, description = "`sms_disabled`")))]
async fn messages(
    user: User,
    State(state): State<AppState>,
    Path(number): Path<String>,
) -> ApiResult<Json<Vec<SmsMessage>>> {
    user.owner_only("Text messages")?;
    sms_on(&state)?;
    let messages = state.sms_messages(&number).await?;
    Ok(Json(messages))
}

/// Saves a number as a contact, with its name.
///
/// `{name}`: the name its thread shows. A contact's texts are never held in
/// Spam. The owner only; agent tokens are refused.
#[utoipa::path(put, path = "/sms/contacts/{number}",
    params(("number" = String, Path, description = "The contact's number.")),
    request_body = SmsContact,
    responses((status = 204, description = "Saved."), (status = 403, description = "`sms_disabled`")))]
async fn save_contact(
    user: User,
    State(state): State<AppState>,
    Path(number): Path<String>,
    ApiJson(body): ApiJson<SmsContact>,
) -> ApiResult<StatusCode> {
    user.owner_only("Text messages")?;
    sms_on(&state)?;
    state.sms_save_contact(&number, &body.name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Lets a thread held in Spam out.
///
/// Its texts so far leave Spam and later ones arrive as any other's. 404
/// for a number with no thread. The owner only; agent tokens are refused.
#[utoipa::path(post, path = "/sms/threads/{number}/not-spam",
    params(("number" = String, Path, description = "The other side's number.")),
    responses((status = 204, description = "Out of Spam."), (status = 403, description = "`sms_disabled`"),
        (status = 404, description = "No thread with that number.")))]
async fn not_spam(
    user: User,
    State(state): State<AppState>,
    Path(number): Path<String>,
) -> ApiResult<StatusCode> {
    user.owner_only("Text messages")?;
    sms_on(&state)?;
    state.sms_not_spam(&number).await?;
    Ok(StatusCode::NO_CONTENT)
}
