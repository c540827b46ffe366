//! Focus mode and pomodoro (docs/focus.md): `GET/PUT /focus` and
//! `GET/PUT /pomodoro`. Any token reads them; only the user (the cli
//! token or the browser) changes them, since they decide what reaches the
//! user. The state lives on the server, so two open tabs agree, and every
//! change is announced on the event stream (`focus`, `pomodoro`).
//!
//! While `focusModeFeatureEnabled` is off, turning focus mode on answers
//! 403 `focus_mode_disabled`; turning it off always works.

use app::pomodoro::{Cause, FocusEvent, announce, announce_focus};
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use focus::{FocusState, PomodoroState, Transition};

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{FocusChangeBody, PomodoroAction, PomodoroChange};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/focus", get(read_focus).put(set_focus))
        .route("/pomodoro", get(read_pomodoro).put(change_pomodoro))
}

/// Focus mode now.
#[utoipa::path(get, path = "/focus", responses((status = 200, body = FocusState)))]
async fn read_focus(caller: Caller, State(state): State<AppState>) -> ApiResult<Json<FocusState>> {
    let (service, account) = (state.focus.clone(), caller.account_id().to_owned());
    Ok(Json(blocking(move || service.focus(&account)).await?))
}

/// Turns focus mode on or off.
///
/// While it is on the web app holds chimes, toasts and system
/// notifications (overdue items, failed sessions and, with
/// `alarmsPierceFocusMode`, alarms still come through). Turning it off
/// answers, and announces in a `focus` event, what it held (`released`).
/// During a pomodoro run that manages focus mode, a change by hand hands
/// it back to the user for the rest of the run.
#[utoipa::path(put, path = "/focus", request_body = FocusChangeBody, responses((status = 200, body = FocusEvent), (status = 403, description = "`focus_mode_disabled`: focusModeFeatureEnabled is off")))]
async fn set_focus(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<FocusChangeBody>,
) -> ApiResult<Json<FocusEvent>> {
    if body.on && !state.settings.focus_mode_feature_enabled() {
        return Err(ApiError::forbidden(
            "focus_mode_disabled",
            "Focus mode is turned off (setting focusModeFeatureEnabled).",
        ));
    }
    let (service, account) = (state.focus.clone(), user.account_id().to_owned());
    let change = blocking(move || service.set_focus(&account, body.on)).await?;
    state.wake_pomodoro();
    Ok(Json(
        announce_focus(&state, user.account_id(), change).await,
    ))
}

/// The pomodoro run under way, if any, and the weekday rules.
#[utoipa::path(get, path = "/pomodoro", responses((status = 200, body = PomodoroState)))]
async fn read_pomodoro(
    caller: Caller,
    State(state): State<AppState>,
) -> ApiResult<Json<PomodoroState>> {
    let (service, account) = (state.focus.clone(), caller.account_id().to_owned());
    Ok(Json(blocking(move || service.pomodoro(&account)).await?))
}

/// Starts, stops or skips a phase of the pomodoro run, or replaces its rules.
///
/// A bad plan or rule → 400 naming the field, and nothing changes;
/// `start` while a run is under way and `skip` without one → 409.
#[utoipa::path(put, path = "/pomodoro", request_body = PomodoroChange, responses((status = 200, body = PomodoroState)))]
async fn change_pomodoro(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<PomodoroChange>,
) -> ApiResult<Json<PomodoroState>> {
    if body.action.is_none() && body.rules.is_none() {
        return Err(ApiError::bad_request(
            "invalid_request",
            "name an `action` (start, stop, skip) or `rules`",
        ));
    }
    let (service, account) = (state.focus.clone(), user.account_id().to_owned());
    let manages = state.settings.focus_mode_feature_enabled()
        && body
            .manages_focus
            .unwrap_or_else(|| state.settings.pomodoro_auto_enable_focus_mode_default());
    let plan = body.plan.unwrap_or_default();
    if let Some(rules) = &body.rules {
        for rule in rules {
            rule.validate()?;
        }
    }
    if matches!(body.action, Some(PomodoroAction::Start)) {
        plan.validate()?;
    }
    let (rules, action) = (body.rules, body.action);
    let owner = account.clone();
    let (after, transition) = blocking(move || {
        let transition = match action {
            Some(PomodoroAction::Start) => Some(service.start(&account, plan, manages)?),
            Some(PomodoroAction::Stop) => Some(service.stop(&account)?),
            Some(PomodoroAction::Skip) => Some(service.skip(&account)?),
            None => None,
        };
        let after = match rules {
            Some(rules) => service.set_rules(&account, rules)?,
            None => service.pomodoro(&account)?,
        };
        Ok::<_, focus::FocusError>((after, transition))
    })
    .await?;
    // Rules alone change no phase, but the other tabs show them too.
    let transition = transition.unwrap_or_else(|| Transition {
        account_id: owner,
        pomodoro: after.clone(),
        phase_changed: false,
        focus: None,
    });
    announce(&state, transition, Cause::User).await;
    state.wake_pomodoro();
    Ok(Json(after))
}
