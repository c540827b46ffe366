//! The Ask tutor (docs/ask.md): `POST /ask` starts a conversation in the
//! `ask` project, `GET /ask/sessions` lists them. The application lays out
//! the docs, checks the engine and gathers the fact sheet; this glue says
//! who asks and refuses while `askAppEnabled` is off.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{AskQuestion, AskStarted};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/ask", post(ask))
        .route("/ask/sessions", get(list))
}

fn enabled(state: &AppState) -> Result<(), ApiError> {
    if state.settings.ask_app_enabled() {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "ask_disabled",
            "The Ask tutor is off (askAppEnabled).",
        ))
    }
}

/// Asks the Ask tutor a question, in a new conversation.
///
/// The tutor is a session on the engine named `primary`, in the `ask`
/// project (not on the agent board; in costs and the ledger), at the
/// `read_only` level, in a worktree of the bundled docs, with a token that
/// may only read: any method but `GET` with it is refused 403 `forbidden`
/// (Switchboard's reading MCP tools work; its writing ones are refused).
/// Its first prompt carries a fact sheet made now; each follow-up
/// (`POST /sessions/{id}/messages`) a fresh one. `askAppEnabled` off → 403
/// `ask_disabled`; an agent token → 403 `agent_token_forbidden`; a blank
/// question or one over 8,000 characters → 400 `invalid_request`; no
/// `primary` engine → 409 `ask_engine_missing`, one that cannot start →
/// 503 `ask_engine_unavailable`, each in the doctor's words; the spawn
/// rules apply as to `POST /sessions`.
#[utoipa::path(post, path = "/ask", request_body = AskQuestion, responses(
    (status = 201, description = "The tutor's session, started.", body = AskStarted),
    (status = 202, description = "Held back by spawn spacing; it starts by itself.", body = AskStarted),
))]
async fn ask(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<AskQuestion>,
) -> ApiResult<(StatusCode, Json<AskStarted>)> {
    enabled(&state)?;
    if caller.is_agent() {
        return Err(ApiError::forbidden(
            "agent_token_forbidden",
            "An agent's scoped token may not use this route.",
        ));
    }
    let request = state
        .ask_request(caller.account_id(), &body.question)
        .await?;
    let (status, session) = super::sessions::spawn_as(&state, &caller, &headers, request).await?;
    Ok((
        status,
        Json(AskStarted {
            session_id: session.id,
        }),
    ))
}

/// The Ask conversations, newest first.
///
/// The account's sessions in the `ask` project, which `GET /sessions`
/// leaves out unless asked with `project=ask`. `askAppEnabled` off → 403
/// `ask_disabled`.
#[utoipa::path(get, path = "/ask/sessions", responses((status = 200, body = Vec<sessions::Session>)))]
async fn list(
    caller: Caller,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<sessions::Session>>> {
    enabled(&state)?;
    let mut listed = state.sessions.list(caller.account_id()).await?;
    listed.retain(|s| s.project.as_deref() == Some(sessions::ASK_PROJECT));
    Ok(Json(listed))
}
