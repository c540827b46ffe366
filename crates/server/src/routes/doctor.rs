//! `GET /doctor`: what a session needs on this machine, as `switchboard
//! doctor --json` reports it, for the web app's New session dialog.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};

use crate::auth::User;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/doctor", get(report))
}

/// What a session needs here, and whether one could start.
///
/// Each engine in force (`engines.toml`, else `claude` and `codex` on the
/// server's PATH): its program found and executable, its version (run with
/// `--version` in the sandbox its sessions get, once per binary, as
/// `engineVersion` is read) and whether the conformance suite covers it;
/// whether the sandbox can run and how; this server's ports; the data
/// directory's permissions. `canStart` is false when no engine can start a
/// session, `blockers` say why. The same facts as `switchboard doctor
/// --json`. Not for agent tokens.
#[utoipa::path(get, path = "/doctor", responses((status = 200, body = doctor::Report)))]
async fn report(_user: User, State(state): State<AppState>) -> ApiResult<Json<doctor::Report>> {
    // It probes the sandbox and waits for the engines' `--version` (each
    // binary's read once by the supervisor, then kept): blocking work.
    let runtime = tokio::runtime::Handle::current();
    let report = tokio::task::spawn_blocking(move || {
        doctor::examine(
            &state.data_dir,
            doctor::Listeners::Serving {
                control_url: state.control_url.as_deref(),
                ui_url: &state.ui_url,
            },
            doctor::Versions::Kept {
                supervisor: &state.sessions,
                runtime,
            },
        )
    })
    .await
    .map_err(ApiError::internal)?;
    Ok(Json(report))
}
