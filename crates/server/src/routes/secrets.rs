//! Secrets the model never sees: a session's input requests (answered by the
//! user into the session's dotenv file), the keys sessions propose, and the
//! user's saved keys. No reply here ever holds a typed value; only the user
//! reviewing a proposal sees the value the session offered.

use std::path::Path as FsPath;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use inbox::{Action, Category, NewRow};
use secrets::{
    Answer, InputRequest, KeyProposal, NewInputRequest, NewProposal, ProposalDecision,
    RequestState, Reviewed,
};
use serde::{Deserialize, Serialize};
use sessions::Session;
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Caller, User, refuse_email_session};
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use app::poll_wait;
use app::publish;

use crate::blocking::blocking;
use crate::state::AppState;
use crate::wire::{self, InboxEvent, KeyDecisionKind};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/input-requests", post(open_request).get(list_requests))
        .route("/input-requests/{id}", get(read_request).post(answer))
        .route("/key-proposals", post(propose).get(list_proposals))
        .route("/key-proposals/{id}", get(review).post(decide))
        .route("/keys", get(list_keys))
        .route("/keys/{name}", put(save_key).delete(delete_key))
}

/// The session a request or proposal comes from: an agent token's own, or
/// the one a cli token names.
async fn asking_session(
    state: &AppState,
    caller: &Caller,
    named: Option<&str>,
) -> ApiResult<Session> {
    let id = match (&caller.0.session_id, named) {
        (Some(own), Some(named)) if caller.is_agent() && own != named => {
            return Err(ApiError::forbidden(
                "not_this_session",
                "An agent token may only ask for its own session.",
            ));
        }
        (Some(own), _) if caller.is_agent() => own.clone(),
        (_, Some(named)) => named.to_owned(),
        (_, None) => {
            return Err(ApiError::bad_request(
                "invalid_request",
                "sessionId is required: the session whose folder gets the value",
            ));
        }
    };
    // A session writing a file is more than read-only allows.
    refuse_email_session(state, &caller.0).await?;
    Ok(state.sessions.get(caller.account_id(), &id).await?)
}

fn session_name(session: &Session) -> &str {
    session.title.as_deref().unwrap_or("A session")
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// `pending` (the default) or `all`.
    state: Option<String>,
}

fn pending_only(query: &ListQuery) -> ApiResult<bool> {
    match query.state.as_deref() {
        None | Some("pending") => Ok(true),
        Some("all") => Ok(false),
        Some(_) => Err(ApiError::bad_request(
            "invalid_request",
            "state must be pending or all",
        )),
    }
}

/// The row that asks the user; reading it is how the user gets to answer.
async fn add_row(state: &AppState, session: &Session, request_id: &str, row: NewRow) {
    let mut row = row;
    row.source.session_id = Some(session.id.clone());
    row.source.request_id = Some(request_id.to_owned());
    row.actions.push(Action::OpenSession {
        session_id: session.id.clone(),
    });
    let inbox = state.inbox.clone();
    let owner = session.account_id.clone();
    match blocking(move || inbox.add(&owner, row)).await {
        Ok(added) => {
            publish::inbox_added(state, &session.account_id, added);
        }
        Err(error) => tracing::warn!(error = error.message, "cannot add a request's inbox row"),
    }
}

/// Marks the row about an answered request read, live.
async fn read_row(state: &AppState, account_id: &str, request_id: &str) {
    let inbox = state.inbox.clone();
    let (owner, id) = (account_id.to_owned(), request_id.to_owned());
    match blocking(move || inbox.read_about_request(&owner, &id)).await {
        Ok(rows) => {
            for row in rows {
                publish::inbox_changed(state, account_id, &InboxEvent::Updated(row));
            }
        }
        Err(error) => tracing::warn!(error = error.message, "cannot mark a request's row read"),
    }
}

/// A session asks the user for a value, written into its dotenv file.
///
/// The session's agent token, or a cli token naming `sessionId`. `file` is
/// relative to the session's folder (`.env` when absent); outside it → 400
/// `file_outside_folder`. 403 `input_requests_disabled` while the setting is
/// off; 403 `email_session_locked` for an email-triggered session. Rules:
/// docs/security.md, "Secrets the model never sees".
#[utoipa::path(post, path = "/input-requests", request_body = wire::NewInputRequest,
    responses((status = 201, body = InputRequest)))]
async fn open_request(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<wire::NewInputRequest>,
) -> ApiResult<(StatusCode, Json<InputRequest>)> {
    if !state.settings.agent_input_requests_enabled() {
        return Err(ApiError::forbidden(
            "input_requests_disabled",
            "Sessions may not ask for input (setting agentInputRequestsEnabled).",
        ));
    }
    let session = asking_session(&state, &caller, body.session_id.as_deref()).await?;
    let secrets = state.secrets.clone();
    let (account, sid, folder) = (
        session.account_id.clone(),
        session.id.clone(),
        session.cwd.clone(),
    );
    let request = blocking(move || {
        secrets.open_request(&NewInputRequest {
            account_id: &account,
            session_id: &sid,
            folder: FsPath::new(&folder),
            name: &body.name,
            prompt: &body.prompt,
            file: body.file.as_deref(),
        })
    })
    .await?;
    let mut row = NewRow::new(
        Category::CliPending,
        inbox::clip(
            &format!("{} asks for {}", session_name(&session), request.name),
            inbox::MAX_TITLE_CHARS,
        ),
    );
    row.body = Some(format!(
        "{}\n\nSaved as {}=… in {}",
        request.prompt, request.name, request.file
    ));
    row.reason = Some("input_request".into());
    add_row(&state, &session, &request.id, row).await;
    Ok((StatusCode::CREATED, Json(request)))
}

/// The account's input requests. The user only.
#[utoipa::path(get, path = "/input-requests", params(ListQuery), responses((status = 200, body = InputRequests)))]
async fn list_requests(
    User(user): User,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<InputRequests>> {
    let pending_only = pending_only(&query)?;
    let secrets = state.secrets.clone();
    let requests = blocking(move || secrets.requests(&user.account_id, pending_only)).await?;
    Ok(Json(InputRequests {
        input_requests: requests,
    }))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ReadQuery {
    /// Hold the reply while the request is pending, up to 20 s.
    #[serde(default)]
    wait: bool,
}

/// One input request; with `wait=true`, held while it is pending.
///
/// Held until it is answered, expires, or 20 s pass. The user, or the asking
/// session's own token.
// It expires on the server's clock; the wait is [`app::POLL_WAIT`].
#[utoipa::path(get, path = "/input-requests/{id}", params(("id" = String, Path, description = "The input request's id."), ReadQuery),
    responses((status = 200, body = InputRequest)))]
async fn read_request(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<ReadQuery>,
) -> ApiResult<Json<InputRequest>> {
    let read = || {
        let secrets = state.secrets.clone();
        let (account, id) = (caller.account_id().to_owned(), id.clone());
        blocking(move || secrets.request(&account, &id))
    };
    // Registered before the first read, so an answer between the read and
    // the wait still wakes it.
    let answered = state.secrets_answered.notified();
    tokio::pin!(answered);
    answered.as_mut().enable();
    let mut request = read().await?;
    if caller.is_agent() && caller.0.session_id.as_deref() != Some(request.session_id.as_str()) {
        return Err(ApiError::not_found("not_found", "no such input request"));
    }
    if query.wait && request.state == RequestState::Pending {
        let expires = time::OffsetDateTime::parse(
            &request.expires_at,
            &time::format_description::well_known::Rfc3339,
        )
        .map_err(ApiError::internal)?;
        tokio::select! {
            () = answered => {}
            () = state.clock.sleep_until(expires) => {}
            () = poll_wait(state.clock.as_ref()) => {}
        }
        request = read().await?;
    }
    Ok(Json(request))
}

/// The user's answer: a typed value, a saved key's name, or a refusal.
///
/// Exactly one of `{"value", "remember"?}`, `{"key"}` or `{"decline": true}`.
/// 409 `already_answered`, 404 `key_not_found`, 409 `file_not_written`. The
/// user only (agent tokens are refused).
#[utoipa::path(post, path = "/input-requests/{id}", params(("id" = String, Path, description = "The input request's id.")), request_body = wire::InputAnswer,
    responses((status = 200, description = "The request with its new state.", body = InputRequest)))]
async fn answer(
    User(user): User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<wire::InputAnswer>,
) -> ApiResult<Json<InputRequest>> {
    let remember = body.remember.unwrap_or(false);
    let decline = body.decline.unwrap_or(false);
    let answer = match (body.value, body.key, decline) {
        (Some(value), None, false) => Answer::Value { value, remember },
        (None, Some(key), false) if !remember => Answer::SavedKey(key),
        (None, None, true) if !remember => Answer::Decline,
        _ => {
            return Err(ApiError::bad_request(
                "invalid_request",
                "answer with exactly one of value (and remember), key, or decline: true",
            ));
        }
    };
    let secrets = state.secrets.clone();
    let (account, request_id) = (user.account_id.clone(), id.clone());
    let request = blocking(move || secrets.answer(&account, &request_id, answer)).await?;
    state.secrets_answered.notify_waiters();
    read_row(&state, &user.account_id, &id).await;
    Ok(Json(request))
}

/// A session offers a key to save.
///
/// As for input requests: the session's agent token, or a cli token naming
/// `sessionId`. 403 `key_proposals_disabled` while the setting is off.
#[utoipa::path(post, path = "/key-proposals", request_body = wire::NewKeyProposal,
    responses((status = 201, body = KeyProposal)))]
async fn propose(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<wire::NewKeyProposal>,
) -> ApiResult<(StatusCode, Json<KeyProposal>)> {
    if !state.settings.agent_key_proposals_enabled() {
        return Err(ApiError::forbidden(
            "key_proposals_disabled",
            "Sessions may not propose keys (setting agentKeyProposalsEnabled).",
        ));
    }
    let session = asking_session(&state, &caller, body.session_id.as_deref()).await?;
    let secrets = state.secrets.clone();
    let (account, sid) = (session.account_id.clone(), session.id.clone());
    let proposal = blocking(move || {
        secrets.propose(&NewProposal {
            account_id: &account,
            session_id: &sid,
            name: &body.name,
            value: &body.value,
        })
    })
    .await?;
    let mut row = NewRow::new(
        Category::CliPending,
        inbox::clip(
            &format!("{} offers a key: {}", session_name(&session), proposal.name),
            inbox::MAX_TITLE_CHARS,
        ),
    );
    row.body = Some("Review it, edit it if you like, and press Save to keep it as a saved key. Nothing is saved until then.".into());
    row.reason = Some("key_proposal".into());
    add_row(&state, &session, &proposal.id, row).await;
    Ok((StatusCode::CREATED, Json(proposal)))
}

/// The account's key proposals. The user only.
#[utoipa::path(get, path = "/key-proposals", params(ListQuery), responses((status = 200, body = KeyProposals)))]
async fn list_proposals(
    User(user): User,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<KeyProposals>> {
    let pending_only = pending_only(&query)?;
    let secrets = state.secrets.clone();
    let proposals = blocking(move || secrets.proposals(&user.account_id, pending_only)).await?;
    Ok(Json(KeyProposals {
        key_proposals: proposals,
    }))
}

/// A proposal with its value while pending, for the user to review.
///
/// Never for an agent token.
#[utoipa::path(get, path = "/key-proposals/{id}", params(("id" = String, Path, description = "The key proposal's id.")), responses((status = 200, body = Reviewed)))]
async fn review(
    User(user): User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Reviewed>> {
    let secrets = state.secrets.clone();
    let reviewed = blocking(move || secrets.review(&user.account_id, &id)).await?;
    Ok(Json(reviewed))
}

/// Saves a proposed key (with the user's edits) or discards it.
///
/// 409 `already_answered`. The user only.
#[utoipa::path(post, path = "/key-proposals/{id}", params(("id" = String, Path, description = "The key proposal's id.")), request_body = wire::KeyDecision,
    responses((status = 200, body = KeyProposal)))]
async fn decide(
    User(user): User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<wire::KeyDecision>,
) -> ApiResult<Json<KeyProposal>> {
    let secrets = state.secrets.clone();
    let (account, proposal_id) = (user.account_id.clone(), id.clone());
    let proposal = blocking(move || {
        let decision = match (body.decision, body.name, body.value) {
            (KeyDecisionKind::Discard, None, None) => ProposalDecision::Discard,
            (KeyDecisionKind::Save, name, value) => {
                // Unedited parts keep what the session proposed.
                let proposed = secrets.review(&account, &proposal_id)?;
                ProposalDecision::Save {
                    name: name.unwrap_or(proposed.proposal.name),
                    value: value.or(proposed.value).unwrap_or_default(),
                }
            }
            _ => {
                return Err(ApiError::bad_request(
                    "invalid_request",
                    "discard takes no name or value",
                ));
            }
        };
        Ok(secrets.decide_proposal(&account, &proposal_id, decision)?)
    })
    .await?;
    read_row(&state, &user.account_id, &id).await;
    Ok(Json(proposal))
}

/// The account's saved keys, never their values. The user only.
#[utoipa::path(get, path = "/keys", responses((status = 200, body = SavedKeys)))]
async fn list_keys(User(user): User, State(state): State<AppState>) -> ApiResult<Json<SavedKeys>> {
    let secrets = state.secrets.clone();
    let keys = blocking(move || secrets.keys(&user.account_id)).await?;
    Ok(Json(SavedKeys { keys }))
}

/// Saves a key the user types (a connector's token): never for an agent.
#[utoipa::path(put, path = "/keys/{name}", params(("name" = String, Path, description = "The saved key's name.")), request_body = wire::KeyValue,
    responses((status = 200, body = secrets::SavedKey)))]
async fn save_key(
    User(user): User,
    State(state): State<AppState>,
    Path(name): Path<String>,
    ApiJson(body): ApiJson<wire::KeyValue>,
) -> ApiResult<Json<secrets::SavedKey>> {
    let secrets = state.secrets.clone();
    let saved = blocking(move || secrets.save_key(&user.account_id, &name, &body.value)).await?;
    Ok(Json(saved))
}

/// Deletes a saved key. The user only.
#[utoipa::path(delete, path = "/keys/{name}", params(("name" = String, Path, description = "The saved key's name.")), responses((status = 204, description = "Deleted.")))]
async fn delete_key(
    User(user): User,
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    let secrets = state.secrets.clone();
    blocking(move || secrets.delete_key(&user.account_id, &name)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct InputRequests {
    input_requests: Vec<InputRequest>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct KeyProposals {
    key_proposals: Vec<KeyProposal>,
}

#[derive(Serialize, ToSchema)]
struct SavedKeys {
    keys: Vec<secrets::SavedKey>,
}
