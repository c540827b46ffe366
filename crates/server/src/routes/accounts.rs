//! `/accounts` and `/me`: who is calling, and the owner making more accounts.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::{Caller, Owner};
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/accounts", post(create))
        .route("/me", get(me))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewAccount {
    name: String,
}

async fn create(
    _owner: Owner,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewAccount>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let accounts = state.accounts.clone();
    let (account, token) = tokio::task::spawn_blocking(move || accounts.create_account(&body.name))
        .await
        .map_err(crate::error::ApiError::internal)??;
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": account.id, "name": account.name, "token": token})),
    ))
}

async fn me(caller: Caller) -> Json<Value> {
    Json(json!({
        "accountId": caller.0.account_id,
        "isOwner": caller.0.is_owner,
        "tokenKind": caller.0.kind,
        "sessionId": caller.0.session_id,
    }))
}
