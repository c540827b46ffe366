//! `POST /test/clock`: moves the server's manual clock, for integration
//! tests of time rules (the webhook rate limit's minute, quiet hours and
//! digests): `{"advanceMs"}` forward, `{"at"}` to a moment. `POST
//! /test/panic` makes a task panic, for the tests of crash reports. The
//! routes exist only when `serve --manual-clock` (a hidden flag) started
//! the server on one; otherwise the paths are unknown like any other.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use clock::Clock;

use crate::auth::Owner;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::ClockAdvance;

pub fn routes(state: &AppState) -> Router<AppState> {
    match state.manual_clock {
        Some(_) => Router::new()
            .route("/test/clock", post(advance))
            .route("/test/panic", post(panic_in_a_task)),
        None => Router::new(),
    }
}

/// Moves the manual clock (only with `serve --manual-clock`, for tests).
///
/// `{"advanceMs"}` forward, `{"at"}` (RFC 3339) to a moment first. The owner
/// only. Without the flag the path is unknown like any other (404).
#[utoipa::path(post, path = "/test/clock", request_body = ClockAdvance,
    responses((status = 204, description = "Moved.")))]
async fn advance(
    _owner: Owner,
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ClockAdvance>,
) -> ApiResult<StatusCode> {
    if let Some(clock) = &state.manual_clock {
        let from = match &request.at {
            Some(at) => {
                time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339)
                    .map_err(|_| {
                        ApiError::bad_request("invalid_request", "at must be an RFC 3339 time")
                    })?
            }
            None => clock.now(),
        };
        let by = i64::try_from(request.advance_ms).unwrap_or(i64::MAX);
        // Checked here: the clock's own `advance` would panic past year 9999.
        let to = from
            .checked_add(time::Duration::milliseconds(by))
            .ok_or_else(|| {
                ApiError::bad_request("invalid_request", "advanceMs moves the clock out of range")
            })?;
        clock.set(to);
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Makes a background task panic (only with `serve --manual-clock`, for tests).
///
/// What a crash report records; the message names a file under the home
/// folder, which the report must not.
#[utoipa::path(post, path = "/test/panic", responses((status = 202, description = "The task was started.")))]
async fn panic_in_a_task(_owner: Owner, State(state): State<AppState>) -> StatusCode {
    state.panic_in_a_task();
    StatusCode::ACCEPTED
}
