//! Running apps (docs/apps.md): the dev servers sessions run, each on a
//! port handed out from the range and a name under `.localhost` that the
//! proxy serves.
//!
//! Three ways an app appears. A session's turn gets `PORT`, `HOST` and
//! `APP_URL` ([`RunningApps`] is the sessions' [`sessions::AppEnv`]), and
//! what its processes listen on is found every two seconds
//! (`app_loops.rs`: here by `/proc`, on a runner by its helper) and listed
//! as `detected`. A user or
//! the session itself starts a declared or ad hoc command (`POST /apps`),
//! which the registry runs in the session's sandbox outside its turn, so
//! the server outlives the turn: `started`. On a runner, that command runs
//! under the runner's keeper and is listed once it listens. Stopping or
//! archiving a session stops its apps.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use settings::SettingsStore;

use crate::app_places::place_of;

pub use crate::app_places::Place;

/// The session's own key in the port range; a started app's is
/// `<session>/<name>`.
pub(crate) fn port_key(session_id: &str, app: Option<&str>) -> String {
    match app {
        Some(name) => format!("{session_id}/{name}"),
        None => session_id.to_owned(),
    }
}

/// What the application knows of the running apps beside the registry:
/// each session's place (its name under `.localhost`), whose session it
/// is, and the commands started on runners.
pub struct RunningApps {
    pub registry: apps::Registry,
    pub ports: apps::Ports,
    settings: Arc<SettingsStore>,
    /// The proxy's port, once it is bound.
    pub proxy_port: u16,
    known: Mutex<Known>,
}

#[derive(Default)]
pub(crate) struct Known {
    places: HashMap<String, Place>,
    /// Started on a runner: by app name.
    pub(crate) remote: BTreeMap<String, RemoteApp>,
}

#[derive(Clone)]
pub struct RemoteApp {
    pub session_id: String,
    pub runner: String,
    pub command: String,
    pub port: u16,
    pub started_at: String,
    /// What was asked of the runner, asked again by a restart.
    pub launch: runners::AppStart,
}

impl RunningApps {
    pub fn new(
        settings: Arc<SettingsStore>,
        clock: Arc<dyn clock::Clock>,
        proxy_port: u16,
    ) -> RunningApps {
        RunningApps {
            registry: apps::Registry::new(clock),
            ports: apps::Ports::new(apps::PortRange::default()),
            settings,
            proxy_port,
            known: Mutex::default(),
        }
    }

    pub(crate) fn known(&self) -> MutexGuard<'_, Known> {
        self.known.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `runningAppsEnabled`: off, no session gets a port and the proxy
    /// serves nothing.
    pub fn enabled(&self) -> bool {
        self.settings.running_apps_enabled()
    }

    /// The proxy's own address, as `server.json` gives it.
    pub fn proxy_url(&self) -> String {
        format!("http://localhost:{}", self.proxy_port)
    }

    /// The address of an app named `name` (`web.fix-login`).
    pub fn url_of(&self, name: &str) -> String {
        format!("http://{name}.localhost:{}/", self.proxy_port)
    }

    /// Session `id`'s place, made on first ask from its folder and kept.
    pub fn place(&self, session_id: &str, cwd: &str) -> Place {
        let mut known = self.known();
        if let Some(place) = known.places.get(session_id) {
            return place.clone();
        }
        let taken: HashSet<String> = known.places.values().map(|p| p.host.clone()).collect();
        let place = place_of(session_id, Path::new(cwd), &taken);
        known.places.insert(session_id.to_owned(), place.clone());
        place
    }

    pub fn known_place(&self, session_id: &str) -> Option<Place> {
        self.known().places.get(session_id).cloned()
    }

    /// The name an app of the session gets: its place with the app's own
    /// name in front for a declared one (`api.fix-login`).
    pub fn name_for(&self, place: &Place, app: Option<&str>) -> String {
        match app {
            Some(app) => match &place.suffix {
                Some(suffix) => format!("{app}.{suffix}"),
                None => app.to_owned(),
            },
            None => place.host.clone(),
        }
    }

    /// Session `id` runs on `runner` (an app started before its first turn).
    pub fn set_runner(&self, session_id: &str, runner: &str) {
        if let Some(place) = self.known().places.get_mut(session_id) {
            runner.clone_into(&mut place.runner);
        }
    }

    pub fn remember_remote(&self, name: &str, app: RemoteApp) {
        self.known().remote.insert(name.to_owned(), app);
    }

    pub fn remote(&self, name: &str) -> Option<RemoteApp> {
        self.known().remote.get(name).cloned()
    }

    /// The sessions with a place, by where they run.
    pub(crate) fn sessions_by_runner(&self) -> BTreeMap<String, HashSet<String>> {
        let mut by_runner: BTreeMap<String, HashSet<String>> = BTreeMap::new();
        for (id, place) in &self.known().places {
            by_runner
                .entry(place.runner.clone())
                .or_default()
                .insert(id.clone());
        }
        by_runner
    }

    /// What was found listening, named: the session's own port gets the
    /// session's name, another port `<app>-<port>`, a runner's started app
    /// its own name.
    pub(crate) fn name_found(
        &self,
        runner: &str,
        found: Vec<apps::Listener>,
    ) -> Vec<apps::DetectedApp> {
        let known = self.known();
        found
            .into_iter()
            .filter_map(|listener| {
                let place = known.places.get(&listener.session_id)?;
                let started = known.remote.iter().find(|(_, app)| {
                    app.runner == runner
                        && app.session_id == listener.session_id
                        && app.port == listener.port
                });
                let (name, command) = match started {
                    Some((name, app)) => (name.clone(), app.command.clone()),
                    None if self.ports.held(&listener.session_id) == Some(listener.port) => {
                        (place.host.clone(), listener.command.clone())
                    }
                    None => (place.with_port(listener.port), listener.command.clone()),
                };
                Some(apps::DetectedApp {
                    name,
                    session_id: listener.session_id,
                    command,
                    port: listener.port,
                    pid: Some(listener.pid),
                })
            })
            .collect()
    }

    /// Forgets a session that ended for good: its place and its ports.
    pub(crate) fn forget_session(&self, session_id: &str) {
        let mut known = self.known();
        known.places.remove(session_id);
        known.remote.retain(|_, app| app.session_id != session_id);
        drop(known);
        self.ports.release_session(session_id);
    }
}

impl sessions::AppEnv for RunningApps {
    fn app_env(&self, session_id: &str, cwd: &str, runner: &str) -> Vec<(String, String)> {
        if !self.enabled() {
            return Vec::new();
        }
        let port = match self
            .ports
            .take(&port_key(session_id, None), runner == runners::LOCAL)
        {
            Ok(port) => port,
            Err(error) => {
                tracing::warn!(
                    session = session_id,
                    "no port for the session's dev server: {error}"
                );
                return Vec::new();
            }
        };
        let mut place = self.place(session_id, cwd);
        if place.runner != runner {
            place.runner = runner.to_owned();
            self.known()
                .places
                .insert(session_id.to_owned(), place.clone());
        }
        vec![
            ("PORT".to_owned(), port.to_string()),
            ("HOST".to_owned(), "127.0.0.1".to_owned()),
            ("APP_URL".to_owned(), self.url_of(&place.host)),
        ]
    }
}

/// A declared app's folder: its `cwd` inside the session's folder.
pub fn app_folder(session_folder: &Path, declared: Option<&Path>) -> PathBuf {
    match declared {
        Some(cwd) if cwd.is_relative() => session_folder.join(cwd),
        Some(cwd) => cwd.to_owned(),
        None => session_folder.to_owned(),
    }
}
