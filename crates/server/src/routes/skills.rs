//! The composer's `/` menu (docs/skills.md): `GET /skills`, what the
//! session's engine offers in its folder. An engine that cannot list
//! answers a list with the reason in it, never an error; while
//! `skillSlashAutocomplete` is off the route answers 403 `skills_disabled`.

use std::path::Path;

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::wire::Skill;

pub fn routes() -> Router<AppState> {
    Router::new().route("/skills", get(list))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SkillsQuery {
    /// The engine's name in engines.toml; the primary engine when absent.
    pub engine: Option<String>,
    /// The session's folder, an absolute path; the home folder when absent.
    /// On a runner, a path on its host (`~/…` is under the runner user's
    /// home).
    pub cwd: Option<String>,
    /// The runner the session runs on; this machine when absent or `local`.
    pub runner: Option<String>,
}

/// The skills and commands an engine offers on `/` in a folder.
///
/// `insert` is what the composer puts in: `/name` for Claude Code, `$name`
/// for Codex. A skill file with broken front matter is listed with `error`.
/// When the engine cannot list, the list holds its skill files and one
/// entry with an empty `name` and `insert` whose `error` says why.
#[utoipa::path(get, path = "/skills", params(SkillsQuery), responses(
    (status = 200, body = [Skill]),
    (status = 400, description = "`unknown_engine` or `invalid_cwd`"),
    (status = 403, description = "`skills_disabled`: skillSlashAutocomplete is off"),
))]
async fn list(
    _caller: Caller,
    State(state): State<AppState>,
    Query(query): Query<SkillsQuery>,
) -> ApiResult<Json<Vec<Skill>>> {
    if !state.settings.skill_slash_autocomplete() {
        return Err(ApiError::forbidden(
            "skills_disabled",
            "The / menu of skills is turned off (setting skillSlashAutocomplete).",
        ));
    }
    let on_runner = query
        .runner
        .as_deref()
        .is_some_and(|runner| !runner.is_empty() && runner != runners::LOCAL);
    let cwd = query.cwd.filter(|cwd| !cwd.trim().is_empty());
    let cwd = match cwd {
        // A runner's folder is on its host: the runner checks it.
        Some(cwd) if on_runner => cwd,
        None if on_runner => "~".to_owned(),
        Some(cwd) => cwd,
        None => std::env::var("HOME").map_err(|_| {
            ApiError::bad_request("invalid_cwd", "Name the folder: `cwd` is required here.")
        })?,
    };
    if !on_runner && (!Path::new(&cwd).is_absolute() || !Path::new(&cwd).is_dir()) {
        return Err(ApiError::bad_request(
            "invalid_cwd",
            format!("`cwd` must be an existing folder's absolute path; {cwd} is not."),
        ));
    }
    let listed = state
        .app
        .skills(query.engine.as_deref(), &cwd, query.runner.as_deref())
        .await?;
    Ok(Json(listed))
}
