//! The permission broker's routes: the hook's check (and its re-poll while
//! the user decides), the user's approvals, and a session's decisions.

use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use permissions::Remember;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use app::permission_check::{self, CheckAnswer};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sessions/{id}/permission-check", post(check))
        .route("/sessions/{id}/permission-check/{approval}", post(poll))
        .route("/sessions/{id}/permissions", get(decisions))
        .route("/approvals", get(list))
        .route("/approvals/{id}", get(read).post(decide))
}

/// An agent token speaks for its own session only.
fn own_session(caller: &Caller, id: &str) -> ApiResult<()> {
    match &caller.0.session_id {
        Some(own) if caller.is_agent() && own != id => Err(ApiError::forbidden(
            "not_this_session",
            "An agent token may only ask about its own session.",
        )),
        _ => Ok(()),
    }
}

/// Asks whether a session's tool call may run (`switchboard hook pre-tool-use`).
///
/// The body is Claude Code's hook input. The session's own agent token
/// (another session's → 403 `not_this_session`), the user or a cli token.
/// An ask waits up to 20 s for the user's answer, then says `pending`.
#[utoipa::path(post, path = "/sessions/{id}/permission-check", params(("id" = String, Path, description = "The session's id.")),
    request_body(content = Object, description = "Claude Code's `PreToolUse` hook input."),
    responses((status = 200, body = CheckAnswer)))]
async fn check(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(hook): ApiJson<Value>,
) -> ApiResult<Json<CheckAnswer>> {
    own_session(&caller, &id)?;
    let answer = permission_check::check(&state, caller.account_id(), &id, &hook).await?;
    Ok(Json(answer))
}

/// Asks again about a pending call, waiting up to 20 s for the answer.
///
/// No body. The hook repeats this until the answer is not `pending`; the
/// 20 s are on the server's clock.
#[utoipa::path(post, path = "/sessions/{id}/permission-check/{approval}", params(("id" = String, Path, description = "The session's id."),
        ("approval" = String, Path, description = "The approval's id.")),
    responses((status = 200, body = CheckAnswer)))]
async fn poll(
    caller: Caller,
    State(state): State<AppState>,
    Path((id, approval)): Path<(String, String)>,
) -> ApiResult<Json<CheckAnswer>> {
    own_session(&caller, &id)?;
    let broker = state.permissions.clone();
    let (account, approval_id) = (caller.account_id().to_owned(), approval.clone());
    let found = blocking(move || broker.get(&account, &approval_id)).await?;
    if found.session_id != id {
        return Err(ApiError::not_found("not_found", "approval not found"));
    }
    let answer = permission_check::poll(&state, caller.account_id(), &approval).await?;
    Ok(Json(answer))
}

/// Every permission decision of a session, oldest first.
///
/// Any token of the account.
#[utoipa::path(get, path = "/sessions/{id}/permissions", params(("id" = String, Path, description = "The session's id.")),
    responses((status = 200, body = Permissions)))]
async fn decisions(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Permissions>> {
    // Another account's session answers like a missing one.
    state.sessions.get(caller.account_id(), &id).await?;
    let broker = state.permissions.clone();
    let account = caller.account_id().to_owned();
    let records = blocking(move || broker.decisions(&account, &id)).await?;
    Ok(Json(Permissions {
        permissions: records,
    }))
}

#[derive(Serialize, ToSchema)]
struct Permissions {
    permissions: Vec<permissions::PermissionRecord>,
}

#[derive(Serialize, ToSchema)]
struct Approvals {
    approvals: Vec<permissions::Approval>,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// `pending` (the default) or `all`.
    state: Option<String>,
}

/// The account's approvals, newest first.
///
/// `state` is `pending` (the default) or `all`. The user or a cli token
/// (agent tokens → 403 `agent_token_forbidden`).
#[utoipa::path(get, path = "/approvals", params(ListQuery), responses((status = 200, body = Approvals)))]
async fn list(
    User(user): User,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Approvals>> {
    let pending_only = match query.state.as_deref() {
        None | Some("pending") => true,
        Some("all") => false,
        Some(_) => {
            return Err(ApiError::bad_request(
                "invalid_request",
                "state must be pending or all",
            ));
        }
    };
    let broker = state.permissions.clone();
    let approvals = blocking(move || broker.list(&user.account_id, pending_only)).await?;
    Ok(Json(Approvals { approvals }))
}

/// One approval. Not for agent tokens.
#[utoipa::path(get, path = "/approvals/{id}", params(("id" = String, Path, description = "The approval's id.")),
    responses((status = 200, body = permissions::Approval)))]
async fn read(
    User(user): User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let broker = state.permissions.clone();
    let approval = blocking(move || broker.get(&user.account_id, &id)).await?;
    Ok(Json(json!(approval)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct Decide {
    /// `allow` or `deny`.
    decision: String,
    #[serde(default)]
    remember: Option<Remember>,
}

/// The user's answer to an approval.
///
/// `"remember": "session"` on an allow also allows the rest of the
/// session's calls of the same tool and target class. 409
/// `approval_decided` once answered or expired. Not for agent tokens.
// Agent tokens are refused by `User`, so no engine approves its own calls.
#[utoipa::path(post, path = "/approvals/{id}", params(("id" = String, Path, description = "The approval's id.")),
    request_body = Decide, responses((status = 200, body = permissions::Approval)))]
async fn decide(
    User(user): User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Decide>,
) -> ApiResult<Json<Value>> {
    let allow = match body.decision.as_str() {
        "allow" => true,
        "deny" => false,
        _ => {
            return Err(ApiError::bad_request(
                "invalid_request",
                "decision must be allow or deny",
            ));
        }
    };
    let remember = body.remember.unwrap_or_default();
    let broker = state.permissions.clone();
    let approval = blocking(move || broker.decide(&user.account_id, &id, allow, remember)).await?;
    Ok(Json(json!(approval)))
}
