//! Team chat writes: each route one of the spec's operations, through the
//! `teamchat` connector. `chatAppEnabled` turns them all on; an agent's
//! scoped token needs `allowAgentTokenTeamChat` too (Authentication rule 4),
//! and what it sends is labelled as the user's agent, naming its session.
//! The service's own refusals come back as 502 with its error code.

use axum::extract::{Path, State};
use axum::routing::{patch, post};
use axum::{Json, Router};
use serde::Deserialize;
use teamchat::{ChatError, Client, Config, Done, Operation};
use utoipa::ToSchema;

use crate::auth::{Caller, refuse_email_session};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/teamchat/direct-messages", post(direct_message))
        .route("/teamchat/messages", post(channel_message))
        .route(
            "/teamchat/messages/{channel}/{ts}",
            patch(edit).delete(delete_message),
        )
        .route("/teamchat/reactions", post(reaction))
        .route("/teamchat/pins", post(pin))
        .route(
            "/teamchat/scheduled-direct-messages",
            post(scheduled_direct_message),
        )
        .route("/teamchat/invites", post(invite))
}

/// Checks the caller and the switches, finds the service and its token, and
/// runs `operation` (its text labelled first when an agent sends it).
async fn send(
    state: &AppState,
    caller: &Caller,
    mut operation: Operation,
) -> ApiResult<Json<Done>> {
    if caller.is_agent() && !state.settings.allow_agent_token_team_chat() {
        return Err(ApiError::forbidden(
            "agent_token_team_chat_disabled",
            "An agent's token may not write to team chat (setting allowAgentTokenTeamChat).",
        ));
    }
    if !state.settings.chat_app_enabled() {
        return Err(ApiError::forbidden(
            "team_chat_disabled",
            "Team chat is turned off (setting chatAppEnabled).",
        ));
    }
    refuse_email_session(state, &caller.0).await?;
    operation.check().map_err(chat_error)?;
    if let (true, Some(session_id)) = (caller.is_agent(), &caller.0.session_id) {
        let session = state.sessions.get(caller.account_id(), session_id).await?;
        operation.label(&session.title.unwrap_or(session.id));
    }
    let secrets = state.secrets.clone();
    let account = caller.account_id().to_owned();
    let data_dir = state.data_dir.clone();
    let as_user = state.settings.chat_app_personal_enabled();
    let done = blocking(move || {
        let config = Config::load(&data_dir).map_err(chat_error)?;
        let key = config.sending_key(as_user).map_err(chat_error)?;
        let token = secrets
            .reveal(&account, key)
            .map_err(|error| match error {
                secrets::SecretsError::KeyNotFound(_) => chat_error(ChatError::NotConfigured(format!(
                    "the saved key {key} named in teamchat.toml does not exist; save the token with PUT /keys/{key}"
                ))),
                other => ApiError::from(other),
            })?;
        operation
            .run(&Client::new(&config.base_url, token))
            .map_err(chat_error)
    })
    .await?;
    Ok(Json(done))
}

fn chat_error(error: ChatError) -> ApiError {
    use axum::http::StatusCode;
    let message = error.to_string();
    match error {
        ChatError::NotConfigured(_) => {
            ApiError::new(StatusCode::CONFLICT, "team_chat_not_configured", message)
        }
        ChatError::BadConfig { .. } => {
            ApiError::new(StatusCode::CONFLICT, "team_chat_config_invalid", message)
        }
        ChatError::Service { code } => {
            ApiError::new(StatusCode::BAD_GATEWAY, service_code(&code), message)
        }
        ChatError::Unreachable(_) => {
            ApiError::new(StatusCode::BAD_GATEWAY, "team_chat_unreachable", message)
        }
        ChatError::BadReply(_) => {
            ApiError::new(StatusCode::BAD_GATEWAY, "team_chat_bad_reply", message)
        }
        ChatError::InvalidInput(_) => ApiError::bad_request("invalid_request", message),
    }
}

/// The service's error code as ours: it comes from outside, so only the
/// Web API's own alphabet (`channel_not_found`) passes, at most 64 characters.
fn service_code(code: &str) -> String {
    let clean: String = code
        .chars()
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
        .take(64)
        .collect();
    if clean.is_empty() {
        "team_chat_error".to_owned()
    } else {
        clean
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct DirectMessage {
    user: String,
    text: String,
}

/// Sends a direct message to a user.
#[utoipa::path(post, path = "/teamchat/direct-messages", request_body = DirectMessage, responses((status = 200, description = "What the service answered.", body = Done)))]
async fn direct_message(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<DirectMessage>,
) -> ApiResult<Json<Done>> {
    send(
        &state,
        &caller,
        Operation::DirectMessage {
            user: body.user,
            text: body.text,
        },
    )
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ChannelMessage {
    channel: String,
    text: String,
    thread_ts: Option<String>,
}

/// Posts a message to a channel (or a thread with `threadTs`).
#[utoipa::path(post, path = "/teamchat/messages", request_body = ChannelMessage, responses((status = 200, description = "What the service answered.", body = Done)))]
async fn channel_message(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<ChannelMessage>,
) -> ApiResult<Json<Done>> {
    send(
        &state,
        &caller,
        Operation::ChannelMessage {
            channel: body.channel,
            text: body.text,
            thread_ts: body.thread_ts,
        },
    )
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct Edit {
    text: String,
}

/// Edits a message.
#[utoipa::path(patch, path = "/teamchat/messages/{channel}/{ts}", params(("channel" = String, Path, description = "The channel."), ("ts" = String, Path, description = "The message's timestamp: its id.")), request_body = Edit, responses((status = 200, description = "What the service answered.", body = Done)))]
async fn edit(
    caller: Caller,
    State(state): State<AppState>,
    Path((channel, ts)): Path<(String, String)>,
    ApiJson(body): ApiJson<Edit>,
) -> ApiResult<Json<Done>> {
    send(
        &state,
        &caller,
        Operation::Edit {
            channel,
            ts,
            text: body.text,
        },
    )
    .await
}

/// Deletes a message.
#[utoipa::path(delete, path = "/teamchat/messages/{channel}/{ts}", params(("channel" = String, Path, description = "The channel."), ("ts" = String, Path, description = "The message's timestamp: its id.")), responses((status = 200, description = "What the service answered.", body = Done)))]
async fn delete_message(
    caller: Caller,
    State(state): State<AppState>,
    Path((channel, ts)): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    send(&state, &caller, Operation::Delete { channel, ts }).await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct Reaction {
    channel: String,
    ts: String,
    name: String,
}

/// Adds a reaction to a message.
#[utoipa::path(post, path = "/teamchat/reactions", request_body = Reaction, responses((status = 200, description = "What the service answered.", body = Done)))]
async fn reaction(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Reaction>,
) -> ApiResult<Json<Done>> {
    send(
        &state,
        &caller,
        Operation::Reaction {
            channel: body.channel,
            ts: body.ts,
            name: body.name,
        },
    )
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct Pin {
    channel: String,
    ts: String,
}

/// Pins a message.
#[utoipa::path(post, path = "/teamchat/pins", request_body = Pin, responses((status = 200, description = "What the service answered.", body = Done)))]
async fn pin(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Pin>,
) -> ApiResult<Json<Done>> {
    send(
        &state,
        &caller,
        Operation::Pin {
            channel: body.channel,
            ts: body.ts,
        },
    )
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ScheduledDirectMessage {
    user: String,
    text: String,
    /// Unix seconds.
    post_at: i64,
}

/// Schedules a direct message (`postAt`: Unix seconds).
#[utoipa::path(post, path = "/teamchat/scheduled-direct-messages", request_body = ScheduledDirectMessage, responses((status = 200, description = "What the service answered.", body = Done)))]
async fn scheduled_direct_message(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<ScheduledDirectMessage>,
) -> ApiResult<Json<Done>> {
    send(
        &state,
        &caller,
        Operation::ScheduledDirectMessage {
            user: body.user,
            text: body.text,
            post_at: body.post_at,
        },
    )
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct Invite {
    channel: String,
    users: Vec<String>,
}

/// Invites users to a channel.
#[utoipa::path(post, path = "/teamchat/invites", request_body = Invite, responses((status = 200, description = "What the service answered.", body = Done)))]
async fn invite(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Invite>,
) -> ApiResult<Json<Done>> {
    send(
        &state,
        &caller,
        Operation::Invite {
            channel: body.channel,
            users: body.users,
        },
    )
    .await
}
