//! `GET /runners`: where sessions can run (docs/runners.md).

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::User;
use crate::error::ApiResult;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/runners", get(list))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// Read `runners.toml` again and reach each host before answering
    /// (bounded by ssh's connect timeout, 10 s a host).
    #[serde(default)]
    refresh: bool,
}

/// Every runner: `local` first, then those of `runners.toml`.
///
/// Each with its state (`connected`, `connecting`, `unreachable` with
/// ssh's own message, `invalid` with the file's line and column), its
/// running sessions against `maxSessions`, the host's load and memory, the
/// engines and their versions there, how its kernel confines engines and the
/// helper's version. Runners are reached only while the setting
/// `cloudControlPlaneEnabled` is on. Not for agent tokens.
#[utoipa::path(
    get,
    path = "/runners",
    params(ListQuery),
    responses((status = 200, body = Vec<runners::RunnerInfo>))
)]
async fn list(
    _user: User,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Vec<runners::RunnerInfo>>> {
    Ok(Json(state.list_runners(query.refresh).await?))
}
