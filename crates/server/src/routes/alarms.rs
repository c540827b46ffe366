//! `/alarms`: set, list, snooze, dismiss and delete alarms (the scheduler
//! that rings them is started in `publish::ring_alarms`).
//!
//! Alarms are the user's, but any token may set them (`Caller`): an agent
//! asked to "remind me at 15:00" sets one for its account's person, and an
//! alarm can do nothing but ring. Every route answers 403 `alarms_disabled`
//! while `alarmsEnabled` is off, and the scheduler rings nothing then (what
//! falls due meanwhile is missed once it is on again).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::auth::Caller;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::NewAlarm;
use app::publish;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/alarms", post(create).get(list))
        .route("/alarms/{id}", get(read).delete(remove))
        .route("/alarms/{id}/snooze", post(snooze))
        .route("/alarms/{id}/dismiss", post(dismiss))
}

fn enabled(state: &AppState) -> ApiResult<()> {
    if state.settings.alarms_enabled() {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "alarms_disabled",
            "Alarms are turned off (setting alarmsEnabled).",
        ))
    }
}

/// Sets an alarm.
///
/// `at` is RFC 3339 with an offset, or `HH:MM` for the next such local time
/// (the server's time zone). `repeat` is `daily` or `weekdays`; a repeating
/// alarm keeps its local time of day across daylight-saving changes, and a
/// first ring already past moves to the next occurrence. 400
/// `invalid_alarm_time`, `alarm_in_past` (a one-time alarm) or
/// `invalid_request` (label not 1 to 200 characters). Every alarm route
/// answers 403 `alarms_disabled` while `alarmsEnabled` is off. Agent tokens
/// are admitted.
#[utoipa::path(post, path = "/alarms", request_body = NewAlarm, responses(
    (status = 201, body = alarms::Alarm),
))]
async fn create(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(new): ApiJson<NewAlarm>,
) -> ApiResult<(StatusCode, Json<alarms::Alarm>)> {
    enabled(&state)?;
    let alarms = state.alarms.clone();
    let alarm =
        blocking(move || alarms.create(caller.account_id(), &new.label, &new.at, new.repeat))
            .await?;
    publish::alarm_changed(&state, &alarm);
    Ok((StatusCode::CREATED, Json(alarm)))
}

/// The account's alarms, soonest `at` first.
#[utoipa::path(get, path = "/alarms", responses((status = 200, body = Vec<alarms::Alarm>)))]
async fn list(
    caller: Caller,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<alarms::Alarm>>> {
    enabled(&state)?;
    let alarms = state.alarms.clone();
    Ok(Json(
        blocking(move || alarms.list(caller.account_id())).await?,
    ))
}

/// One alarm.
#[utoipa::path(get, path = "/alarms/{id}", params(("id" = String, Path, description = "The alarm's id.")), responses((status = 200, body = alarms::Alarm)))]
async fn read(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<alarms::Alarm>> {
    enabled(&state)?;
    let alarms = state.alarms.clone();
    Ok(Json(
        blocking(move || alarms.get(caller.account_id(), &id)).await?,
    ))
}

/// Snoozes a ringing alarm for `alarmsDefaultSnoozeMinutes`.
///
/// 409 `alarm_not_ringing` unless it is ringing; 409 `snooze_limit` once it
/// was snoozed `alarmsDefaultMaxSnoozes` times (-1: no limit).
#[utoipa::path(post, path = "/alarms/{id}/snooze", params(("id" = String, Path, description = "The alarm's id.")), responses(
    (status = 200, description = "The alarm, `snoozed`.", body = alarms::Alarm),
))]
async fn snooze(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<alarms::Alarm>> {
    enabled(&state)?;
    // -1 means no limit.
    let rule = alarms::SnoozeRule {
        minutes: state.settings.alarms_default_snooze_minutes(),
        max_snoozes: u32::try_from(state.settings.alarms_default_max_snoozes()).ok(),
    };
    let alarms = state.alarms.clone();
    let alarm = blocking(move || alarms.snooze(caller.account_id(), &id, rule)).await?;
    publish::alarm_changed(&state, &alarm);
    Ok(Json(alarm))
}

/// Dismisses an alarm.
///
/// A one-time alarm becomes `dismissed`, a repeating one `scheduled` at its
/// next occurrence; one already dismissed or missed is answered as it is.
#[utoipa::path(post, path = "/alarms/{id}/dismiss", params(("id" = String, Path, description = "The alarm's id.")), responses((status = 200, body = alarms::Alarm)))]
async fn dismiss(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<alarms::Alarm>> {
    enabled(&state)?;
    let alarms = state.alarms.clone();
    let alarm = blocking(move || alarms.dismiss(caller.account_id(), &id)).await?;
    publish::alarm_changed(&state, &alarm);
    Ok(Json(alarm))
}

/// Deletes an alarm.
#[utoipa::path(delete, path = "/alarms/{id}", params(("id" = String, Path, description = "The alarm's id.")), responses((status = 204, description = "Deleted.")))]
async fn remove(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    enabled(&state)?;
    let alarms = state.alarms.clone();
    let account = caller.account_id().to_owned();
    let gone = id.clone();
    blocking(move || alarms.delete(caller.account_id(), &gone)).await?;
    publish::alarm_deleted(&state, &account, &id);
    Ok(StatusCode::NO_CONTENT)
}
