//! The permission broker's routes: the hook's check (and its re-poll while
//! the user decides), the user's approvals, and a session's decisions.

use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use permissions::Remember;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::{Caller, User};
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::permission_check::{self, CheckAnswer};
use crate::routes::blocking;
use crate::state::AppState;

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

/// Claude Code's `PreToolUse` input, as the hook forwards it.
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

async fn decisions(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    // Another account's session answers like a missing one.
    state.sessions.get(caller.account_id(), &id).await?;
    let broker = state.permissions.clone();
    let account = caller.account_id().to_owned();
    let records = blocking(move || broker.decisions(&account, &id)).await?;
    Ok(Json(json!({ "permissions": records })))
}

#[derive(Debug, Default, Deserialize)]
struct ListQuery {
    state: Option<String>,
}

async fn list(
    User(user): User,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Value>> {
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
    Ok(Json(json!({ "approvals": approvals })))
}

async fn read(
    User(user): User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let broker = state.permissions.clone();
    let approval = blocking(move || broker.get(&user.account_id, &id)).await?;
    Ok(Json(json!(approval)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Decide {
    decision: String,
    #[serde(default)]
    remember: Option<Remember>,
}

/// The user's answer; agent tokens are refused by `User`, so no engine
/// approves its own calls.
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
