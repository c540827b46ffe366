//! The fleet's own cards' routes (docs/fleet-cards.md): the engine logins'
//! load, this week's agent-watching time, the model vendors' balances and
//! their forecasts, and alarms typed in words. The cards themselves are
//! made by `app::fleet_watch`'s loop; these show what it reads.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use fleet_cards::balance::SetBalance;
use fleet_cards::load::Login;
use fleet_cards::watching::Recap;
use fleet_cards::words::Typed;
use fleet_cards::{Balance, CardsError, Forecast, Vendor};

use app::alarm_words::AlarmWordsError;
use app::fleet_watch::{self, FleetCardsError};

use crate::auth::User;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/fleet/logins", get(logins))
        .route("/fleet/watching", get(watching))
        .route("/balances", get(balances))
        .route("/balances/{vendor}", put(set_balance).delete(clear_balance))
        .route("/alarms/words", post(alarm_from_words))
}

fn fleet_error(error: FleetCardsError) -> ApiError {
    match error {
        FleetCardsError::Cards(CardsError::InvalidBalance) => {
            ApiError::bad_request("invalid_request", CardsError::InvalidBalance.to_string())
        }
        FleetCardsError::Sessions(e) => e.into(),
        other => ApiError::internal(other),
    }
}

fn vendor(text: &str) -> ApiResult<Vendor> {
    Vendor::parse(text).ok_or_else(|| {
        ApiError::not_found("vendor_not_found", "vendor is a (Anthropic) or b (OpenAI)")
    })
}

/// Each engine login of engines.toml with its live sessions and limit.
///
/// A login is an `engines.toml` entry; `running` counts every account's
/// sessions queued, starting or running on it; `limit` is its
/// `max_sessions`, which the load-balancing card reads.
#[utoipa::path(get, path = "/fleet/logins", responses((status = 200, body = Vec<Login>)))]
async fn logins(_user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<Login>>> {
    Ok(Json(
        fleet_watch::logins(&state).await.map_err(fleet_error)?,
    ))
}

/// This week's agent-watching time so far.
///
/// Seconds with a session page in front, from the web app's presence
/// reports, per day of the week (Monday first) in the inbox's time zone.
#[utoipa::path(get, path = "/fleet/watching", responses((status = 200, body = Recap)))]
async fn watching(User(user): User, State(state): State<AppState>) -> ApiResult<Json<Recap>> {
    Ok(Json(
        fleet_watch::this_week(&state, &user.account_id)
            .await
            .map_err(fleet_error)?,
    ))
}

/// Each model vendor's balance forecast.
///
/// Vendor `a` is Anthropic (the claude engines), `b` OpenAI (the codex
/// engines): the balance entered, the spend the ledger recorded since, the
/// burn rate over seven days, the run-out and the vendor's billing page.
#[utoipa::path(get, path = "/balances", responses((status = 200, body = Vec<Forecast>)))]
async fn balances(
    User(user): User,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<Forecast>>> {
    Ok(Json(
        fleet_watch::forecasts(&state, &user.account_id)
            .await
            .map_err(fleet_error)?,
    ))
}

/// Enters a vendor's balance as its billing page shows it now.
///
/// The spend recorded from then on comes off it. 400 `invalid_request`
/// unless 0 to 1000000 dollars; 404 `vendor_not_found` for a vendor other
/// than `a` or `b`.
#[utoipa::path(put, path = "/balances/{vendor}", request_body = SetBalance,
    params(("vendor" = String, Path, description = "a or b")),
    responses((status = 200, body = Balance)))]
async fn set_balance(
    User(user): User,
    State(state): State<AppState>,
    Path(name): Path<String>,
    ApiJson(body): ApiJson<SetBalance>,
) -> ApiResult<Json<Balance>> {
    let vendor = vendor(&name)?;
    Ok(Json(
        fleet_watch::set_balance(&state, &user.account_id, vendor, body.balance_usd)
            .await
            .map_err(fleet_error)?,
    ))
}

/// Forgets a vendor's balance, which ends its watch.
#[utoipa::path(delete, path = "/balances/{vendor}",
    params(("vendor" = String, Path, description = "a or b")),
    responses((status = 204, description = "Forgotten.")))]
async fn clear_balance(
    User(user): User,
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    let vendor = vendor(&name)?;
    fleet_watch::clear_balance(&state, &user.account_id, vendor)
        .await
        .map_err(fleet_error)?;
    Ok(StatusCode::NO_CONTENT)
}

/// Sets an alarm typed in words, read by the utility model.
///
/// "every weekday at 9 remind me to check the nightly run" becomes the
/// fields of `POST /alarms`. 409 `alarm_words_capped` once today's spend
/// reached `alarmNlpDailyCostCap` (0 reads nothing), 409
/// `alarm_words_unavailable` with no primary engine, 422
/// `alarm_words_unreadable` when the reading makes no alarm (no label, a
/// time `POST /alarms` refuses): each means the
/// form asks for the fields. 400 `invalid_request` for empty text or over
/// 300 characters; 403 `alarms_disabled` while `alarmsEnabled` is off.
#[utoipa::path(post, path = "/alarms/words", request_body = Typed,
    responses((status = 201, body = alarms::Alarm)))]
async fn alarm_from_words(
    User(user): User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Typed>,
) -> ApiResult<(StatusCode, Json<alarms::Alarm>)> {
    if !state.settings.alarms_enabled() {
        return Err(ApiError::forbidden(
            "alarms_disabled",
            "Alarms are turned off (setting alarmsEnabled).",
        ));
    }
    let alarm = app::alarm_words::set(&state, &user.account_id, &body.text)
        .await
        .map_err(words_error)?;
    Ok((StatusCode::CREATED, Json(alarm)))
}

fn words_error(error: AlarmWordsError) -> ApiError {
    match error {
        AlarmWordsError::Words(fleet_cards::words::WordsError::BadText) => {
            ApiError::bad_request("invalid_request", error.to_string())
        }
        AlarmWordsError::Capped => ApiError::new(
            StatusCode::CONFLICT,
            "alarm_words_capped",
            error.to_string(),
        ),
        AlarmWordsError::NoEngine => ApiError::new(
            StatusCode::CONFLICT,
            "alarm_words_unavailable",
            error.to_string(),
        ),
        AlarmWordsError::Words(_)
        | AlarmWordsError::Failed(_)
        | AlarmWordsError::Alarm(
            alarms::AlarmError::InvalidLabel
            | alarms::AlarmError::InvalidTime
            | alarms::AlarmError::InPast,
        ) => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "alarm_words_unreadable",
            error.to_string(),
        ),
        AlarmWordsError::Alarm(e) => e.into(),
        AlarmWordsError::Cancelled => ApiError::internal(error),
    }
}
