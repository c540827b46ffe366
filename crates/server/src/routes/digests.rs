//! `/summaries`: the weekly summaries and archive digests the utility model
//! wrote, kept after the setting that made them goes off.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/summaries", get(list))
}

#[derive(Serialize, ToSchema)]
struct Summaries {
    summaries: Vec<digests::Summary>,
}

/// The account's summaries, newest first.
///
/// Kinds: `weekly` (every Monday at `weeklySummaryScheduleHour` while
/// `weeklySummaryEnabled`), `archive_daily` and `archive_weekly`
/// (`archiveDigestCadence`), and `forensics_weekly` (Monday's deep analysis
/// of the friction scan's findings, while `sessionForensicsAutoWeeklyEnabled`).
#[utoipa::path(get, path = "/summaries", responses((status = 200, body = Summaries)))]
async fn list(user: User, State(state): State<AppState>) -> ApiResult<Json<Summaries>> {
    let db = state.db.clone();
    let account = user.account_id().to_owned();
    let summaries =
        blocking(move || digests::list(&db, &account).map_err(ApiError::internal)).await?;
    Ok(Json(Summaries { summaries }))
}
