//! Starting, stopping and restarting an app for a session (`POST /apps`),
//! here through the registry, on a runner through its keeper.

use std::sync::Arc;

use apps::{AppsError, StartSpec};

use crate::running_apps::{RemoteApp, app_folder, port_key};
use crate::services::App;

pub struct StartRequest {
    pub launch: sessions::AppLaunch,
    /// The name the user gave (`web`); the app's is its place's (`web.fix-login`).
    pub name: String,
    pub command: String,
    pub declared: Option<apps::Declared>,
}

/// Starts the app and answers what the registry (or the runner) says of it.
pub async fn start_app(app: &App, request: StartRequest) -> Result<apps::App, AppsError> {
    let StartRequest {
        launch,
        name,
        command,
        declared,
    } = request;
    let session_id = launch.session_id().to_owned();
    let local = launch.runner == runners::LOCAL;
    let cwd = launch.cwd.to_string_lossy().into_owned();
    let mut place = app.apps.place(&session_id, &cwd);
    if place.runner != launch.runner {
        place.runner = launch.runner.clone();
    }
    let full_name = app.apps.name_for(&place, Some(&name));
    if let Some(existing) = app.apps.registry.get(&full_name)
        && existing.state == apps::State::Running
    {
        return Err(AppsError::NameTaken(full_name));
    }
    let port = app
        .apps
        .ports
        .take(&port_key(&session_id, Some(&name)), local)?;
    let folder = app_folder(
        &launch.cwd,
        declared.as_ref().and_then(|d| d.cwd.as_deref()),
    );
    let mut env: Vec<(String, String)> = declared
        .as_ref()
        .map(|d| d.env.clone().into_iter().collect())
        .unwrap_or_default();
    env.extend([
        ("PORT".to_owned(), port.to_string()),
        ("HOST".to_owned(), "127.0.0.1".to_owned()),
        ("APP_URL".to_owned(), app.apps.url_of(&full_name)),
    ]);
    let to_run = apps::frameworks::with_port_flags(&command, &folder, port);
    if !local {
        let runner = launch.runner.clone();
        let (confine, own_home) = launch.remote_confine();
        let pid = app
            .runners
            .start_app(
                &runner,
                runners::AppStart {
                    session_id: session_id.clone(),
                    name: full_name.clone(),
                    cwd: folder.to_string_lossy().into_owned(),
                    command: to_run,
                    env: env.into_iter().collect(),
                    confine,
                    own_home,
                },
            )
            .await
            .map_err(AppsError::Runner)?;
        let started_at = app.clock.timestamp();
        app.apps.remember_remote(
            &full_name,
            RemoteApp {
                session_id: session_id.clone(),
                runner: runner.clone(),
                command: command.clone(),
                port,
                started_at: started_at.clone(),
            },
        );
        // Listed as soon as the next look finds it listening; until then,
        // what the runner said.
        return Ok(apps::App {
            name: full_name,
            session_id,
            runner,
            command,
            port,
            pid: Some(pid),
            state: apps::State::Running,
            started_at,
            exit_status: None,
            origin: apps::Origin::Started,
        });
    }
    let launch = Arc::new(launch);
    app.apps
        .registry
        .start(StartSpec {
            name: full_name,
            session_id,
            runner: runners::LOCAL.to_owned(),
            command,
            port,
            launch: Box::new(move || launch.command(&to_run, &folder, &env)),
        })
        .await
}

/// Stops an app: the registry's process group, a found one's process, a
/// runner's through its keeper.
pub async fn stop_app(app: &App, running: apps::App) -> Result<apps::App, AppsError> {
    if let Some(remote) = app.apps.forget_remote(&running.name) {
        let ended = app
            .runners
            .stop_app(&remote.runner, &remote.session_id, &running.name)
            .await
            .map_err(AppsError::Runner)?;
        return Ok(apps::App {
            state: apps::State::Exited,
            exit_status: ended.exit_status,
            ..running
        });
    } else if running.runner == runners::LOCAL {
        app.apps.registry.stop(&running.name).await?;
    } else {
        return Err(AppsError::Runner(format!(
            "`{}` was not started by Switchboard on runner {}: stop it in its session",
            running.name, running.runner
        )));
    }
    app.apps
        .registry
        .get(&running.name)
        .ok_or(AppsError::NotFound(running.name))
}

pub async fn restart_app(app: &App, running: apps::App) -> Result<apps::App, AppsError> {
    if running.origin != apps::Origin::Started {
        return Err(AppsError::NotStarted(running.name));
    }
    app.apps.registry.restart(&running.name).await
}

/// The app's last lines: the registry's, or the runner's keeper's.
pub async fn output_of(app: &App, running: &apps::App) -> Vec<String> {
    if let Some(remote) = app.apps.remote(&running.name) {
        return app
            .runners
            .app_state(&remote.runner, &remote.session_id, &running.name)
            .await
            .map(|state| state.lines)
            .unwrap_or_default();
    }
    app.apps.registry.output(&running.name).unwrap_or_default()
}
