//! `/forensics`: the friction scan's findings for the account, and triage
//! sessions started from them inside `frictionTriageCostCapUsd`.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use sessions::SpawnRequest;

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/forensics", get(report))
        .route("/forensics/findings/{id}/triage", post(triage))
}

/// The friction scan's findings, the most recently seen first.
///
/// The scan is free and deterministic: every `sessionForensicsScanIntervalHours`
/// it reads the transcripts of recently active sessions for failing
/// commands repeated (3 or more), loops and stalls the watchdog broke,
/// denied tool calls, approvals that waited over 5 minutes, and sessions
/// that ended without a final message. `lastScanAt` is null before the
/// first scan.
#[utoipa::path(get, path = "/forensics", responses((status = 200, body = friction::Report)))]
async fn report(user: User, State(state): State<AppState>) -> ApiResult<Json<friction::Report>> {
    let db = state.db.clone();
    let account = user.account_id().to_owned();
    let report =
        blocking(move || friction::report(&db, &account).map_err(ApiError::internal)).await?;
    Ok(Json(report))
}

/// Starts a triage session on a finding.
///
/// The triage agent reads the session's transcript and fixes the cause.
/// It runs on the primary engine in the finding's session's folder, under
/// the spawn rules like any session the caller starts. While the account's triage
/// sessions of the last 24 hours (with their helpers) have spent
/// `frictionTriageCostCapUsd` or more, none starts: 429
/// `triage_cap_reached` (a cap of 0 is no limit; sessions already started
/// are not stopped). Agent tokens are refused.
#[utoipa::path(post, path = "/forensics/findings/{id}/triage", params(("id" = String, Path, description = "The finding's id.")),
    responses((status = 201, body = sessions::Session)))]
async fn triage(
    _user: User,
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<sessions::Session>)> {
    let account = caller.account_id().to_owned();
    let db = state.db.clone();
    let (owner, finding_id) = (account.clone(), id.clone());
    let finding = blocking(move || {
        friction::finding(&db, &owner, &finding_id).map_err(|error| match error {
            friction::FrictionError::NotFound => {
                ApiError::not_found("not_found", "No such finding.")
            }
            other => ApiError::internal(other),
        })
    })
    .await?;
    let (spent, cap) = app::forensics::triage_spend(&state, &account).await?;
    if cap > 0.0 && spent >= cap {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "triage_cap_reached",
            format!(
                "Triage sessions spent ${spent:.2} in the last 24 hours, at the cap of ${cap:.2} \
                 (setting frictionTriageCostCapUsd); no new triage starts until that falls."
            ),
        ));
    }
    let source = state.sessions.get(&account, &finding.session_id).await?;
    let request = SpawnRequest {
        engine: None,
        prompt: app::forensics::triage_prompt(&finding),
        cwd: Some(source.cwd.clone()),
        title: None,
        ..SpawnRequest::default()
    };
    let (status, session) =
        crate::routes::sessions::spawn_as(&state, &caller, &headers, request).await?;
    let db = state.db.clone();
    let (owner, session_id, at) = (account, session.id.clone(), state.clock.timestamp());
    blocking(move || {
        friction::record_triage(&db, &owner, &finding.id, &session_id, &at)
            .map_err(ApiError::internal)
    })
    .await?;
    Ok((status, Json(session)))
}
