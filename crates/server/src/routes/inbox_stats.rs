//! `/inbox/stats`: the inbox's Stats tab reads its week and reports what
//! the page saw. People only: an agent has no business reading how its
//! user spends attention.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use inbox_stats::ViewReport;

use app::inbox_stats_watch::{self, InboxStatsPage, ViewsRecorded};

use crate::auth::User;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/inbox/stats", get(stats))
        .route("/inbox/stats/views", post(views))
}

/// The inbox's last seven days per category, for the Stats tab.
///
/// Per UTC day and category: rows first acted on and their summed wait,
/// rows looked at, looked at without action, visible time, and the day's
/// last unread count. `enabled` is `inboxAnalyticsEnabled`; while it is off
/// nothing is recorded and `rows` is empty. Not for agent tokens.
#[utoipa::path(get, path = "/inbox/stats", responses(
    (status = 200, description = "Whether recording is on, and the week.", body = InboxStatsPage),
))]
async fn stats(user: User, State(state): State<AppState>) -> ApiResult<Json<InboxStatsPage>> {
    Ok(Json(
        inbox_stats_watch::page(&state, user.account_id()).await?,
    ))
}

/// Adds the Stats tab's view reports to today.
///
/// A JSON array, one report per category: `looks` (rows on screen long
/// enough to read), `idleLooks` (of those, left without action) and
/// `visibleMs`. A report with `idleLooks` over `looks`, or beyond one day's
/// worth, refuses the batch with 400 `invalid_request`. While
/// `inboxAnalyticsEnabled` is off nothing is kept (`recorded: false`).
/// Not for agent tokens.
#[utoipa::path(post, path = "/inbox/stats/views", request_body = Vec<ViewReport>, responses(
    (status = 200, description = "Whether the reports were kept.", body = ViewsRecorded),
))]
async fn views(
    user: User,
    State(state): State<AppState>,
    ApiJson(reports): ApiJson<Vec<ViewReport>>,
) -> ApiResult<Json<ViewsRecorded>> {
    let recorded = inbox_stats_watch::record_views(&state, user.account_id(), reports).await?;
    Ok(Json(ViewsRecorded { recorded }))
}
