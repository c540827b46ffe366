//! `/sessions` and `/engines`: spawning, steering and reading agent sessions.
//! The spawn rules live in the sessions crate; this glue says who is asking
//! (which listener, which token, which source-session header) and hands over
//! the settings that govern it.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};
use sessions::{PromptSettings, SpawnPolicy, SpawnRequest, Via};

use crate::auth::{AuthMode, Caller};
use crate::error::ApiResult;
use crate::json::{ApiJson, OptionalJson};
use crate::state::AppState;
use crate::wire::{SessionMessage, StopSession, UsageRange};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sessions", get(list).post(spawn))
        .route("/sessions/{id}", get(read))
        .route("/sessions/{id}/transcript", get(transcript))
        .route("/sessions/{id}/messages", post(send))
        .route("/sessions/{id}/stop", post(stop))
        .route("/sessions/{id}/archive", post(archive))
        .route("/engines", get(engines))
        .route("/usage", get(usage))
}

const SOURCE_SESSION_HEADER: &str = "x-app-source-session-id";

fn session_caller(caller: &Caller, headers: &HeaderMap) -> sessions::Caller {
    let via = match (caller.1, &caller.0.session_id) {
        (AuthMode::Cookie, _) => Via::Ui,
        (AuthMode::Bearer, Some(session_id)) if caller.is_agent() => Via::ControlAgent {
            session_id: session_id.clone(),
        },
        (AuthMode::Bearer, _) => Via::ControlCli,
    };
    sessions::Caller {
        account_id: caller.0.account_id.clone(),
        via,
        source_session_header: headers
            .get(SOURCE_SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty()),
    }
}

fn spawn_policy(state: &AppState) -> SpawnPolicy {
    let s = &state.settings;
    SpawnPolicy {
        agent_driven_sessions_enabled: s.agent_driven_sessions_enabled(),
        allow_agent_token_spawn: s.allow_agent_token_spawn(),
        require_spawn_source_session: s.require_spawn_source_session(),
        agent_driven_max_concurrent: s.agent_driven_max_concurrent(),
        cli_spawn_spacing_seconds: s.cli_spawn_spacing_seconds(),
        max_dollars_per_session: s.agent_driven_max_dollars_per_session(),
        max_turns_per_session: s.agent_driven_max_turns_per_session(),
    }
}

fn prompt_settings(state: &AppState) -> PromptSettings {
    let s = &state.settings;
    PromptSettings {
        default_instructions_enabled: s.default_agent_instructions_enabled(),
        default_instructions_custom: s.default_agent_instructions_custom(),
        app_awareness: s.app_awareness_prompt_enabled(),
        audience_style: s.audience_style_prompt_enabled(),
        engineering_principles: s.engineering_principles_prompt_enabled(),
        execution_bias: s.execution_bias_prompt_enabled(),
        key_reminders: s.key_reminders_prompt_enabled(),
        persona: s.persona_prompt_enabled(),
    }
}

/// 201 with the session, or 202 with `"status": "queued"` and `startsAt`
/// while spawn spacing holds it back.
async fn spawn(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<SpawnRequest>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let who = session_caller(&caller, &headers);
    let spawned = state
        .sessions
        .spawn(
            &who,
            &spawn_policy(&state),
            &prompt_settings(&state),
            request,
        )
        .await?;
    let status = if spawned.queued.is_some() {
        StatusCode::ACCEPTED
    } else {
        StatusCode::CREATED
    };
    Ok((status, Json(json!(spawned.session))))
}

async fn list(caller: Caller, State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let sessions = state.sessions.list(caller.account_id()).await?;
    Ok(Json(json!(sessions)))
}

async fn read(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    Ok(Json(json!(
        state.sessions.get(caller.account_id(), &id).await?
    )))
}

async fn transcript(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    Ok(Json(json!(
        state.sessions.transcript(caller.account_id(), &id).await?
    )))
}

async fn send(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    ApiJson(message): ApiJson<SessionMessage>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let who = session_caller(&caller, &headers);
    let session = state
        .sessions
        .send(&who, &spawn_policy(&state), &id, &message.text)
        .await?;
    Ok((StatusCode::ACCEPTED, Json(json!(session))))
}

async fn stop(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    OptionalJson(body): OptionalJson<StopSession>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let who = session_caller(&caller, &headers);
    let session = if body.tree == Some(true) {
        state.sessions.stop_tree(&who, &id).await?
    } else {
        state.sessions.stop(&who, &id).await?
    };
    Ok((StatusCode::ACCEPTED, Json(json!(session))))
}

async fn archive(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let who = session_caller(&caller, &headers);
    Ok(Json(json!(state.sessions.archive(&who, &id).await?)))
}

async fn engines(_caller: Caller, State(state): State<AppState>) -> ApiResult<Json<Value>> {
    Ok(Json(json!(state.sessions.engines()?)))
}

/// Daily totals per engine of the caller's account (agent tokens read their own account's).
async fn usage(
    caller: Caller,
    State(state): State<AppState>,
    Query(range): Query<UsageRange>,
) -> ApiResult<Json<Value>> {
    let usage = state
        .sessions
        .usage(
            caller.account_id(),
            range.from.as_deref(),
            range.to.as_deref(),
        )
        .await?;
    Ok(Json(json!(usage)))
}
