//! `/accounts` and `/me`: who is calling, and the owner making more accounts.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::auth::{Caller, Owner};
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::routes::blocking;
use crate::state::AppState;
use crate::wire::{CreatedAccount, Me, NewAccount};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/accounts", post(create))
        .route("/me", get(me))
}

async fn create(
    _owner: Owner,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewAccount>,
) -> ApiResult<(StatusCode, Json<CreatedAccount>)> {
    let accounts = state.accounts.clone();
    let (account, token) = blocking(move || accounts.create_account(&body.name)).await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedAccount {
            id: account.id,
            name: account.name,
            token,
        }),
    ))
}

async fn me(caller: Caller) -> Json<Me> {
    let principal = caller.0;
    Json(Me {
        token_kind: principal.kind.as_str().to_owned(),
        account_id: principal.account_id,
        is_owner: principal.is_owner,
        session_id: principal.session_id,
    })
}
