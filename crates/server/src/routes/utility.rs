//! `/utility`: the utility model's record. Every call it made or refused,
//! newest first, and each feature's spend today against its cap, for the
//! settings page.

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use utility::{Feature, UtilityCall};
use utoipa::{IntoParams, ToSchema};

use crate::auth::User;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::wire::{UtilityFeatureSpend, UtilitySpend};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/utility/calls", get(calls))
        .route("/utility/spend", get(spend))
}

/// The most calls one read returns.
const MAX_CALLS: usize = 1_000;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct CallsQuery {
    /// `title`, `catches`, `weekly_summary`, `archive_digest` or `forensics_deep`.
    feature: Option<String>,
    /// An RFC 3339 time: calls at or after it.
    from: Option<String>,
}

#[derive(Serialize, ToSchema)]
struct Calls {
    calls: Vec<UtilityCall>,
}

/// The utility model's calls, newest first (at most 1,000).
///
/// Each is a run of the primary engine's CLI, or a refusal: `capped` (the
/// feature's cap for the day was reached, so no call was made) or
/// `no_engine`. An unknown `feature` or a `from` that is not RFC 3339 → 400
/// `invalid_request`; an account other than the owner's → 403 `owner_only`.
#[utoipa::path(get, path = "/utility/calls", params(CallsQuery), responses((status = 200, body = Calls)))]
async fn calls(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<CallsQuery>,
) -> ApiResult<Json<Calls>> {
    // It runs on the owner's engine, login and billing, and holds what
    // other accounts' sessions were asked about.
    user.owner_only("The utility model's record")?;
    let feature = match query.feature.as_deref().filter(|f| !f.is_empty()) {
        Some(name) => Some(Feature::parse(name).ok_or_else(|| {
            ApiError::bad_request(
                "invalid_request",
                format!(
                    "Unknown feature `{name}`: use title, catches, weekly_summary, archive_digest or forensics_deep."
                ),
            )
        })?),
        None => None,
    };
    let from = match query.from.as_deref().filter(|f| !f.is_empty()) {
        Some(text) => Some(OffsetDateTime::parse(text, &Rfc3339).map_err(|_| {
            ApiError::bad_request(
                "invalid_request",
                format!(
                    "`from` must be an RFC 3339 time, like 2026-11-23T00:00:00Z, not `{text}`."
                ),
            )
        })?),
        None => None,
    };
    let calls = state
        .utility
        .calls(feature, from, MAX_CALLS)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(Calls { calls }))
}

/// Each utility-model feature's spend today against its daily cap.
///
/// Today is the calendar day in the inbox's time zone. An account other
/// than the owner's → 403 `owner_only`.
#[utoipa::path(get, path = "/utility/spend", responses((status = 200, body = UtilitySpend)))]
async fn spend(user: User, State(state): State<AppState>) -> ApiResult<Json<UtilitySpend>> {
    // It runs on the owner's engine, login and billing, and holds what
    // other accounts' sessions were asked about.
    user.owner_only("The utility model's record")?;
    let since = app::utility_model::day_start(&state);
    let spends = state
        .utility
        .spend(since)
        .await
        .map_err(ApiError::internal)?;
    let features = spends
        .into_iter()
        .map(|spend| UtilityFeatureSpend {
            feature: spend.feature,
            cap_usd: app::utility_model::cap(&state, spend.feature),
            spent_today_usd: spend.spent_usd,
            calls_today: spend.calls,
        })
        .collect();
    Ok(Json(UtilitySpend { features }))
}
