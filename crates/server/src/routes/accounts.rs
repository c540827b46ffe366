//! `/accounts` and `/me`: who is calling, and the owner making more accounts;
//! on the UI server also `/session`, the web app's check whether the browser
//! is signed in.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use accounts::Principal;

use crate::auth::{Caller, Owner, Visitor};
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::routes::blocking;
use crate::state::AppState;
use crate::wire::{BrowserSession, CreatedAccount, Me, NewAccount};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/accounts", post(create))
        .route("/me", get(me))
}

/// Mounted under `/api` on the UI server only, where the cookie is the credential.
pub fn ui_routes() -> Router<AppState> {
    Router::new().route("/session", get(session))
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
    Json(me_of(caller.0))
}

async fn session(visitor: Visitor) -> Json<BrowserSession> {
    Json(BrowserSession {
        signed_in: visitor.0.is_some(),
        me: visitor.0.map(me_of),
    })
}

fn me_of(principal: Principal) -> Me {
    Me {
        token_kind: principal.kind.as_str().to_owned(),
        account_id: principal.account_id,
        is_owner: principal.is_owner,
        session_id: principal.session_id,
    }
}
