//! Starting, stopping and restarting an app for a session (`POST /apps`),
//! here through the registry, on a runner through its keeper.

use std::sync::Arc;

use apps::{AppsError, StartSpec};

use crate::running_apps::{RemoteApp, app_folder, port_key};
use crate::services::App;

/// How many ports a start on a runner tries past those its host turns
/// down as taken by something of its own.
const RUNNER_PORT_TRIES: usize = 20;

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
    let key = port_key(&session_id, Some(&name));
    let folder = app_folder(
        &launch.cwd,
        declared.as_ref().and_then(|d| d.cwd.as_deref()),
    );
    let declared_env: Vec<(String, String)> = declared
        .as_ref()
        .map(|d| d.env.clone().into_iter().collect())
        .unwrap_or_default();
    let env_with = |port: u16| {
        let mut env = declared_env.clone();
        env.extend([
            ("PORT".to_owned(), port.to_string()),
            ("HOST".to_owned(), "127.0.0.1".to_owned()),
            ("APP_URL".to_owned(), app.apps.url_of(&full_name)),
        ]);
        env
    };
    if !local {
        let runner = launch.runner.clone();
        app.apps.set_runner(&session_id, &runner);
        let (confine, own_home) = launch.remote_confine();
        let folder_text = folder.to_string_lossy().into_owned();
        let make = |port: u16| runners::AppStart {
            session_id: session_id.clone(),
            name: full_name.clone(),
            cwd: folder_text.clone(),
            command: apps::frameworks::with_port_flags(&command, &folder, port),
            env: env_with(port).into_iter().collect(),
            confine: confine.clone(),
            own_home,
        };
        let (launch, port, pid) = start_on_runner(app, &runner, &key, make).await?;
        let remote = RemoteApp {
            session_id,
            runner,
            command,
            port,
            started_at: app.clock.timestamp(),
            launch,
        };
        return list_remote(app, &full_name, remote, pid);
    }
    let port = app.apps.ports.take(&key, true)?;
    let env = env_with(port);
    let to_run = apps::frameworks::with_port_flags(&command, &folder, port);
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

/// Starts an app on a runner on the first port of the range its host has
/// free: a port something of the host's own listens on is set aside until
/// the session ends, and the next one tried.
async fn start_on_runner(
    app: &App,
    runner: &str,
    key: &str,
    make: impl Fn(u16) -> runners::AppStart,
) -> Result<(runners::AppStart, u16, u32), AppsError> {
    let mut refused_ports = 0;
    loop {
        let port = app.apps.ports.take(key, false)?;
        let launch = make(port);
        match app.runners.start_app(runner, launch.clone()).await {
            Ok(pid) => return Ok((launch, port, pid)),
            Err(error)
                if error.starts_with(runners::wire::PORT_TAKEN)
                    && refused_ports < RUNNER_PORT_TRIES =>
            {
                refused_ports += 1;
                app.apps.ports.set_aside(key);
            }
            Err(error) => return Err(AppsError::Runner(error)),
        }
    }
}

/// Lists an app just started on a runner at once (the looks at the
/// runner's listeners keep it listed while it listens), as started.
fn list_remote(app: &App, name: &str, remote: RemoteApp, pid: u32) -> Result<apps::App, AppsError> {
    let found = apps::DetectedApp {
        name: name.to_owned(),
        session_id: remote.session_id.clone(),
        command: remote.command.clone(),
        port: remote.port,
        pid: Some(pid),
    };
    app.apps.registry.add_detected(&remote.runner, found);
    app.apps.remember_remote(name, remote);
    let listed = app
        .apps
        .registry
        .get(name)
        .ok_or_else(|| AppsError::NotFound(name.to_owned()))?;
    Ok(apps::App {
        origin: apps::Origin::Started,
        ..listed
    })
}

/// Stops an app: the registry's process group, a found one's process, a
/// runner's through its keeper.
pub async fn stop_app(app: &App, running: apps::App) -> Result<apps::App, AppsError> {
    if let Some(remote) = app.apps.remote(&running.name) {
        let ended = app
            .runners
            .stop_app(&remote.runner, &remote.session_id, &running.name)
            .await
            .map_err(AppsError::Runner)?;
        // Ended now for the list and the proxy, not at the next look at
        // the runner's listeners.
        let exited = app
            .apps
            .registry
            .mark_exited(&running.name, ended.exit_status);
        return Ok(exited.unwrap_or(apps::App {
            state: apps::State::Exited,
            exit_status: ended.exit_status,
            ..running
        }));
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
    if let Some(remote) = app.apps.remote(&running.name) {
        if let Err(error) = app
            .runners
            .stop_app(&remote.runner, &remote.session_id, &running.name)
            .await
        {
            tracing::debug!(name = running.name, "stopping before a restart: {error}");
        }
        app.apps.registry.mark_exited(&running.name, None);
        let pid = app
            .runners
            .start_app(&remote.runner, remote.launch.clone())
            .await
            .map_err(AppsError::Runner)?;
        let remote = RemoteApp {
            started_at: app.clock.timestamp(),
            ..remote
        };
        return list_remote(app, &running.name, remote, pid);
    }
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
