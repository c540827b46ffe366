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
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::publish;
use crate::routes::blocking;
use crate::state::AppState;
use crate::wire::NewAlarm;

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
