//! Running apps (docs/apps.md): `GET /apps`, `POST /apps` (start a declared
//! or given command for a session), `POST /apps/{name}/stop|restart`,
//! `GET /apps/{name}/output`, `GET /apps/declared` and `GET /apps/proxy`.
//!
//! An agent token sees and steers only its own session's apps; the user
//! sees their sessions'. While `runningAppsEnabled` is off every route but
//! `GET /apps/proxy` answers 403 `apps_disabled`.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::apps_wire::{
    AppOutput, AppsProxy, AppsQuery, DeclaredApp, RunningApp, RunningAppOrigin, RunningAppState,
    StartApp,
};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/apps", get(list).post(start))
        .route("/apps/proxy", get(proxy))
        .route("/apps/declared", get(declared))
        .route("/apps/{name}/stop", post(stop))
        .route("/apps/{name}/restart", post(restart))
        .route("/apps/{name}/output", get(output))
}

fn ensure_enabled(state: &AppState) -> ApiResult<()> {
    if state.apps.enabled() {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "apps_disabled",
            "Running apps are turned off (setting runningAppsEnabled).",
        ))
    }
}

fn unknown_app(name: &str) -> ApiError {
    ApiError::not_found("not_found", format!("No app is named `{name}`."))
}

/// The sessions the caller may see apps of, answered once per session.
struct Visibility<'a> {
    state: &'a AppState,
    caller: &'a Caller,
    seen: HashMap<String, Option<sessions::Session>>,
}

impl<'a> Visibility<'a> {
    fn new(state: &'a AppState, caller: &'a Caller) -> Self {
        Self {
            state,
            caller,
            seen: HashMap::new(),
        }
    }

    /// The session, when the caller may see it: an agent its own only.
    async fn session(&mut self, id: &str) -> Option<sessions::Session> {
        if let Some(seen) = self.seen.get(id) {
            return seen.clone();
        }
        let own = !self.caller.is_agent() || self.caller.0.session_id.as_deref() == Some(id);
        let session = if own {
            self.state
                .sessions
                .get(self.caller.account_id(), id)
                .await
                .ok()
        } else {
            None
        };
        self.seen.insert(id.to_owned(), session.clone());
        session
    }
}

fn wire(state: &AppState, app: apps::App, session: Option<&sessions::Session>) -> RunningApp {
    let place = state.apps.known_place(&app.session_id);
    RunningApp {
        url: state.apps.url_of(&app.name),
        state: match app.state {
            apps::State::Running => RunningAppState::Running,
            apps::State::Exited => RunningAppState::Exited,
            apps::State::Failing => RunningAppState::Failing,
        },
        // A runner's app Switchboard started is listed by the runner's looks.
        origin: match app.origin {
            apps::Origin::Detected if state.apps.remote(&app.name).is_none() => {
                RunningAppOrigin::Detected
            }
            _ => RunningAppOrigin::Started,
        },
        // As the board names an untitled session: its prompt's first line.
        session_title: session.and_then(|s| {
            s.title.clone().or_else(|| {
                s.prompt
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .map(|l| l.chars().take(80).collect())
            })
        }),
        worktree: session.map(|s| s.cwd.clone()),
        branch: place.and_then(|p| p.branch),
        name: app.name,
        session_id: app.session_id,
        runner: app.runner,
        command: app.command,
        port: app.port,
        pid: app.pid,
        started_at: app.started_at,
        exit_status: app.exit_status,
    }
}

/// The running apps (and those that ended in the last ten minutes).
///
/// An agent token lists its own session's only, whatever `sessionId` says.
#[utoipa::path(get, path = "/apps", params(AppsQuery), responses((status = 200, body = [RunningApp]), (status = 403, description = "`apps_disabled`: runningAppsEnabled is off")))]
async fn list(
    caller: Caller,
    State(state): State<AppState>,
    Query(query): Query<AppsQuery>,
) -> ApiResult<Json<Vec<RunningApp>>> {
    ensure_enabled(&state)?;
    let mut visible = Visibility::new(&state, &caller);
    let mut listed = Vec::new();
    for app in state.apps.registry.list() {
        if query
            .session_id
            .as_deref()
            .is_some_and(|id| id != app.session_id)
        {
            continue;
        }
        if let Some(session) = visible.session(&app.session_id).await {
            listed.push(wire(&state, app, Some(&session)));
        }
    }
    Ok(Json(listed))
}

/// Where the apps proxy listens.
#[utoipa::path(get, path = "/apps/proxy", responses((status = 200, body = AppsProxy)))]
async fn proxy(_caller: Caller, State(state): State<AppState>) -> Json<AppsProxy> {
    Json(AppsProxy {
        port: state.apps.proxy_port,
        url: state.apps.proxy_url(),
    })
}

/// The apps `apps.toml` declares for a session's folder.
///
/// The repository's `.switchboard/apps.toml` wins over the data directory's.
#[utoipa::path(get, path = "/apps/declared", params(AppsQuery), responses((status = 200, body = [DeclaredApp]), (status = 400, description = "an apps.toml that cannot be read"), (status = 404, description = "no such session")))]
async fn declared(
    caller: Caller,
    State(state): State<AppState>,
    Query(query): Query<AppsQuery>,
) -> ApiResult<Json<Vec<DeclaredApp>>> {
    ensure_enabled(&state)?;
    let Some(session_id) = query.session_id else {
        return Err(
            ApiError::bad_request("invalid_request", "Name the session: `sessionId`.")
                .on_field(Some("sessionId")),
        );
    };
    let launch = launch_for(&state, &caller, &session_id).await?;
    let declared = read_declared(&state, &launch).await?;
    Ok(Json(
        declared
            .into_iter()
            .map(|d| DeclaredApp {
                name: d.name,
                command: d.command,
            })
            .collect(),
    ))
}

async fn launch_for(
    state: &AppState,
    caller: &Caller,
    session_id: &str,
) -> ApiResult<sessions::AppLaunch> {
    if caller.is_agent() && caller.0.session_id.as_deref() != Some(session_id) {
        return Err(ApiError::from(sessions::SessionError::NotFound));
    }
    Ok(state
        .sessions
        .app_launch(caller.account_id(), session_id)
        .await?)
}

async fn read_declared(
    state: &AppState,
    launch: &sessions::AppLaunch,
) -> ApiResult<Vec<apps::Declared>> {
    let (data_dir, folder) = (state.data_dir.clone(), launch.cwd.clone());
    let read = tokio::task::spawn_blocking(move || apps::read_declared(&data_dir, &folder))
        .await
        .map_err(ApiError::internal)?;
    Ok(read?)
}

/// Starts an app for a session: the command given, or the one declared.
///
/// Without `command`, `apps.toml` declares it under that name.
/// It runs in the session's folder (a declared `cwd` inside it) and sandbox,
/// with a port of its own from the range in `PORT` (and `--port` for the
/// frameworks that ignore `PORT`, docs/apps.md), outside the session's
/// turns, until it is stopped or its session is stopped or archived. One
/// that exits within seconds of each start is started again with a growing
/// pause, and after five is `failing`. A name in use → 409 `app_running`;
/// every port of the range taken → 409 `port_range_exhausted`.
#[utoipa::path(post, path = "/apps", request_body = StartApp, responses((status = 201, body = RunningApp), (status = 400, description = "an invalid name, no command, or an apps.toml that cannot be read"), (status = 403, description = "`apps_disabled`"), (status = 404, description = "no such session"), (status = 409, description = "`app_running` or `port_range_exhausted`")))]
async fn start(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<StartApp>,
) -> ApiResult<(StatusCode, Json<RunningApp>)> {
    ensure_enabled(&state)?;
    if !apps::names::app_name_valid(&body.name) {
        return Err(ApiError::bad_request(
            "invalid_value",
            format!(
                "`{}` cannot name an app: use 1 to 40 lowercase letters, digits and dashes, not starting or ending with a dash.",
                body.name
            ),
        )
        .on_field(Some("name")));
    }
    let launch = launch_for(&state, &caller, &body.session_id).await?;
    let declared = read_declared(&state, &launch).await?;
    let declared = declared.into_iter().find(|d| d.name == body.name);
    let command = match (body.command.as_deref().map(str::trim), &declared) {
        (Some(command), _) if !command.is_empty() => command.to_owned(),
        (_, Some(declared)) => declared.command.clone(),
        _ => {
            return Err(ApiError::bad_request(
                "invalid_value",
                format!(
                    "Give a `command`, or declare `[apps.{}]` with one in the repository's .switchboard/apps.toml.",
                    body.name
                ),
            )
            .on_field(Some("command")));
        }
    };
    let started = app::app_starts::start_app(
        &state,
        app::app_starts::StartRequest {
            launch,
            name: body.name,
            command,
            declared,
        },
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(answer(&state, &caller, started).await),
    ))
}

/// The app as the reply gives it, with its session's title.
async fn answer(state: &AppState, caller: &Caller, app: apps::App) -> RunningApp {
    let session = state
        .sessions
        .get(caller.account_id(), &app.session_id)
        .await
        .ok();
    wire(state, app, session.as_ref())
}

/// The app by name, when the caller may see it.
async fn visible_app(state: &AppState, caller: &Caller, name: &str) -> ApiResult<apps::App> {
    let app = state
        .apps
        .registry
        .get(name)
        .ok_or_else(|| unknown_app(name))?;
    let mut visible = Visibility::new(state, caller);
    match visible.session(&app.session_id).await {
        Some(_) => Ok(app),
        None => Err(unknown_app(name)),
    }
}

/// Stops an app.
///
/// One Switchboard started: its whole process group; one found listening:
/// that process; on a runner, through the runner's connection.
#[utoipa::path(post, path = "/apps/{name}/stop", params(("name" = String, Path)), responses((status = 200, body = RunningApp), (status = 404, description = "no such app")))]
async fn stop(
    caller: Caller,
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<RunningApp>> {
    ensure_enabled(&state)?;
    let app = visible_app(&state, &caller, &name).await?;
    let stopped = app::app_starts::stop_app(&state, app).await?;
    Ok(Json(answer(&state, &caller, stopped).await))
}

/// Stops and starts again an app Switchboard started.
///
/// One it only found listening → 409 `not_started`.
#[utoipa::path(post, path = "/apps/{name}/restart", params(("name" = String, Path)), responses((status = 200, body = RunningApp), (status = 404, description = "no such app"), (status = 409, description = "`not_started`")))]
async fn restart(
    caller: Caller,
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<RunningApp>> {
    ensure_enabled(&state)?;
    let app = visible_app(&state, &caller, &name).await?;
    let restarted = app::app_starts::restart_app(&state, app).await?;
    Ok(Json(answer(&state, &caller, restarted).await))
}

/// An app's last 200 lines of output, oldest first.
///
/// None for one found listening: Switchboard does not hold its output.
#[utoipa::path(get, path = "/apps/{name}/output", params(("name" = String, Path)), responses((status = 200, body = AppOutput), (status = 404, description = "no such app")))]
async fn output(
    caller: Caller,
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<AppOutput>> {
    ensure_enabled(&state)?;
    let app = visible_app(&state, &caller, &name).await?;
    let lines = app::app_starts::output_of(&state, &app).await;
    Ok(Json(AppOutput {
        name: app.name,
        lines,
    }))
}
