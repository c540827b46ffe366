//! `/accounts` and `/me`: who is calling, and the owner making more accounts;
//! on the UI server also `/session`, the web app's check whether the browser
//! is signed in.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use accounts::Principal;

use crate::auth::{Caller, Owner, Visitor};
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::ApiJson;
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

/// Makes an account (the owner's cli token only).
///
/// An empty or over-long name → 400 `invalid_request`; any caller but the
/// owner's cli token → 403 `owner_only`. The reply's `token` is the new
/// account's cli token, shown only here.
#[utoipa::path(post, path = "/accounts", request_body = NewAccount, responses(
    (status = 201, description = "The account and its cli token.", body = CreatedAccount),
))]
async fn create(
    _owner: Owner,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewAccount>,
) -> ApiResult<(StatusCode, Json<CreatedAccount>)> {
    let (accounts, db) = (state.accounts.clone(), state.db.clone());
    let (account, token) = blocking(move || accounts.create_account(&body.name)).await?;
    // Its own member, which "assigned to me" and `GET /me`'s memberId name.
    let (id, name) = (account.id.clone(), account.name.clone());
    blocking(move || boards::ensure_self_member(&db, &id, &name)).await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedAccount {
            id: account.id,
            name: account.name,
            token,
        }),
    ))
}

/// Who the credential speaks for.
///
/// `sessionId` is set for agent tokens; `memberId` is the account's own
/// member (`"self": true` in `GET /members`). Agent tokens are admitted.
#[utoipa::path(get, path = "/me", responses((status = 200, body = Me)))]
async fn me(caller: Caller, State(state): State<AppState>) -> ApiResult<Json<Me>> {
    Ok(Json(me_of(&state, caller.0).await?))
}

/// Whether the browser is signed in (UI server only, no credential needed).
///
/// `{"signedIn": false, "me": null}`, or `{"signedIn": true, "me": {…as
/// /me…}}` with a valid cookie: the web app's session check, which must not
/// log a failed request for a visitor. The control server has no such path.
#[utoipa::path(get, path = "/session", security((), ("cookie" = [])),
    extensions(("x-listener" = json!("ui"))),
    responses((status = 200, body = BrowserSession)))]
async fn session(
    visitor: Visitor,
    State(state): State<AppState>,
) -> ApiResult<Json<BrowserSession>> {
    let me = match visitor.0 {
        Some(principal) => Some(me_of(&state, principal).await?),
        None => None,
    };
    Ok(Json(BrowserSession {
        signed_in: me.is_some(),
        me,
    }))
}

async fn me_of(state: &AppState, principal: Principal) -> ApiResult<Me> {
    let (db, account) = (state.db.clone(), principal.account_id.clone());
    let member_id = blocking(move || boards::self_member_id(&db, &account)).await?;
    Ok(Me {
        token_kind: principal.kind.as_str().to_owned(),
        account_id: principal.account_id,
        is_owner: principal.is_owner,
        session_id: principal.session_id,
        member_id,
    })
}
