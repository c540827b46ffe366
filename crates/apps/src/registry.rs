//! The live apps: started ones (the registry owns their processes) and
//! detected ones (found listening in a session's processes), listed by
//! name, routed to by the proxy, and forgotten a while after they end.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use time::OffsetDateTime;
use tokio::sync::{broadcast, oneshot};

use crate::error::AppsError;
use crate::model::{
    App, DetectedApp, KEPT_AFTER_END, LOCAL_RUNNER, Origin, Route, StartSpec, State,
};
use crate::output::Output;
use crate::supervise::{Watch, signal_group, signal_process, spawn, supervise};
use crate::table::{Entry, FailingCallback, Run, Table};

/// The live apps; cheap to clone, every clone the same registry.
#[derive(Clone)]
pub struct Registry {
    table: Arc<Table>,
}

impl Registry {
    pub fn new(clock: Arc<dyn clock::Clock>) -> Registry {
        Registry {
            table: Arc::new(Table::new(clock)),
        }
    }

    /// Called once for each app that turns `Failing`; replaces the callback
    /// given before.
    pub fn on_failing(&self, callback: FailingCallback) {
        self.table.set_on_failing(callback);
    }

    /// A tick on every change, for a live page.
    pub fn subscribe(&self) -> broadcast::Receiver<()> {
        self.table.subscribe()
    }

    /// Starts `spec`'s command and watches it (see [`StartSpec::launch`]).
    /// A name in use by a running app is `NameTaken`; an ended app of the
    /// same name is replaced.
    pub async fn start(&self, spec: StartSpec) -> Result<App, AppsError> {
        self.start_run(Arc::new(spec), Output::default())
    }

    fn start_run(&self, spec: Arc<StartSpec>, output: Output) -> Result<App, AppsError> {
        let name_taken = || AppsError::NameTaken(spec.name.clone());
        if self.table.read().get(&spec.name).is_some_and(Entry::busy) {
            return Err(name_taken());
        }
        let spawned = spawn(&spec, &output, self.table.clock.as_ref()).map_err(AppsError::Spawn)?;
        let mut apps = self.table.write();
        if apps.get(&spec.name).is_some_and(Entry::busy) {
            // Started by another caller meanwhile: this copy goes.
            signal_group(spawned.pid, libc::SIGKILL);
            return Err(name_taken());
        }
        let app = App {
            name: spec.name.clone(),
            session_id: spec.session_id.clone(),
            runner: spec.runner.clone(),
            command: spec.command.clone(),
            port: spec.port,
            pid: Some(spawned.pid),
            state: State::Running,
            started_at: clock::timestamp(spawned.started),
            exit_status: None,
            origin: Origin::Started,
        };
        let (stop, stopped) = oneshot::channel();
        let run_id = self.table.next_run_id();
        let watch = Watch {
            table: Arc::clone(&self.table),
            name: spec.name.clone(),
            run_id,
            spec: Arc::clone(&spec),
            output: output.clone(),
            stop: stopped,
        };
        // Spawned under the lock, so the task finds its entry in place.
        let task = tokio::spawn(supervise(watch, spawned));
        apps.insert(
            spec.name.clone(),
            Entry {
                app: app.clone(),
                ended_at: None,
                run: Some(Run {
                    id: run_id,
                    spec,
                    output,
                    stop: Some(stop),
                    task: Some(task),
                }),
            },
        );
        drop(apps);
        self.table.changed();
        Ok(app)
    }

    /// Stops app `name`: a started one's whole process group (SIGTERM, then
    /// SIGKILL after 3 s), not restarted; a detected one's process
    /// (SIGTERM), since the rest of its group may be the session's own work;
    /// one found on a runner is only marked `Exited` (its runner stops it).
    pub async fn stop(&self, name: &str) -> Result<App, AppsError> {
        let (stop, task) = {
            let mut apps = self.table.write();
            let entry = apps
                .get_mut(name)
                .ok_or_else(|| AppsError::NotFound(name.to_owned()))?;
            match entry.run.as_mut() {
                Some(run) => (run.stop.take(), run.task.take()),
                None => {
                    if entry.app.state == State::Running {
                        // A runner's pid names a process of another machine.
                        if let Some(pid) = entry.app.pid
                            && entry.app.runner == LOCAL_RUNNER
                        {
                            signal_process(pid, libc::SIGTERM);
                        }
                        entry.app.state = State::Exited;
                        entry.app.pid = None;
                        entry.ended_at = Some(self.table.clock.now());
                    }
                    let app = entry.app.clone();
                    drop(apps);
                    self.table.changed();
                    return Ok(app);
                }
            }
        };
        if let Some(stop) = stop {
            let _ = stop.send(());
        }
        if let Some(task) = task {
            let _ = task.await;
        }
        self.get(name)
            .ok_or_else(|| AppsError::NotFound(name.to_owned()))
    }

    /// Stops app `name` and starts it again from its spec, its crash count
    /// back at zero and its output kept.
    pub async fn restart(&self, name: &str) -> Result<App, AppsError> {
        let (spec, output) = {
            let apps = self.table.read();
            let entry = apps
                .get(name)
                .ok_or_else(|| AppsError::NotFound(name.to_owned()))?;
            let run = entry
                .run
                .as_ref()
                .ok_or_else(|| AppsError::NotStarted(name.to_owned()))?;
            (Arc::clone(&run.spec), run.output.clone())
        };
        self.stop(name).await?;
        self.start_run(spec, output)
    }

    /// Stops every app of `session_id` and forgets its detected ones.
    pub async fn stop_session(&self, session_id: &str) {
        self.table
            .write()
            .retain(|_, entry| entry.run.is_some() || entry.app.session_id != session_id);
        self.table.changed();
        self.stop_runs(|app| app.session_id == session_id).await;
    }

    /// Stops every started app, at shutdown; found ones are the sessions'.
    pub async fn stop_all(&self) {
        self.stop_runs(|_| true).await;
    }

    /// Stops the started apps `which` picks, all at once, and waits until
    /// each has ended.
    async fn stop_runs(&self, which: impl Fn(&App) -> bool) {
        let stopping: Vec<_> = self
            .table
            .write()
            .values_mut()
            .filter(|entry| which(&entry.app))
            .filter_map(|entry| entry.run.as_mut())
            .map(|run| (run.stop.take(), run.task.take()))
            .collect();
        let mut tasks = Vec::new();
        for (stop, task) in stopping {
            if let Some(stop) = stop {
                let _ = stop.send(());
            }
            tasks.extend(task);
        }
        for task in tasks {
            let _ = task.await;
        }
    }

    /// Marks an app the registry does not own (found, or started on a
    /// runner) as ended with `exit_status`; a started app ends only through
    /// its own process.
    pub fn mark_exited(&self, name: &str, exit_status: Option<i32>) -> Option<App> {
        let now = self.table.clock.now();
        let mut apps = self.table.write();
        let entry = apps.get_mut(name).filter(|entry| entry.run.is_none())?;
        let running = entry.app.state == State::Running;
        if running {
            entry.app.state = State::Exited;
            entry.app.pid = None;
            entry.app.exit_status = exit_status;
            entry.ended_at = Some(now);
        }
        let app = entry.app.clone();
        drop(apps);
        if running {
            self.table.changed();
        }
        Some(app)
    }

    /// The last 200 lines app `name` printed (none for a detected app).
    pub fn output(&self, name: &str) -> Option<Vec<String>> {
        let apps = self.table.read();
        let entry = apps.get(name)?;
        Some(
            entry
                .run
                .as_ref()
                .map(|run| run.output.lines())
                .unwrap_or_default(),
        )
    }

    /// Every app, by name.
    pub fn list(&self) -> Vec<App> {
        self.table.read().values().map(|e| e.app.clone()).collect()
    }

    pub fn get(&self, name: &str) -> Option<App> {
        self.table.read().get(name).map(|e| e.app.clone())
    }

    /// Where a request for `host_name` (`web.fix-login`) goes: only a
    /// running app has a route.
    pub fn route(&self, host_name: &str) -> Option<Route> {
        let apps = self.table.read();
        let app = &apps.get(host_name)?.app;
        (app.state == State::Running).then(|| Route {
            port: app.port,
            runner: app.runner.clone(),
            session_id: app.session_id.clone(),
            name: app.name.clone(),
        })
    }

    /// Replaces what was found listening on `runner`: new ones are listed,
    /// ones gone are `Exited`. A port a started app of the same session
    /// serves, or a name a started app holds, is not listed twice.
    pub fn set_detected(&self, runner: &str, found: Vec<DetectedApp>) {
        let now = self.table.clock.now();
        let mut apps = self.table.write();
        let mut seen = HashSet::new();
        let mut changed = false;
        for detected in found {
            let name = detected.name.clone();
            match put_detected(&mut apps, runner, detected, now) {
                Put::Skipped => {}
                Put::Same => {
                    seen.insert(name);
                }
                Put::Changed => {
                    seen.insert(name);
                    changed = true;
                }
            }
        }
        for (name, entry) in apps.iter_mut() {
            if entry.run.is_none()
                && entry.app.runner == runner
                && entry.app.state == State::Running
                && !seen.contains(name)
            {
                entry.app.state = State::Exited;
                entry.app.pid = None;
                entry.ended_at = Some(now);
                changed = true;
            }
        }
        drop(apps);
        if changed {
            self.table.changed();
        }
    }

    /// Lists one app found on `runner`, leaving the others found there as
    /// they are (an app a runner started, known before its next report).
    pub fn add_detected(&self, runner: &str, found: DetectedApp) {
        let now = self.table.clock.now();
        let put = put_detected(&mut self.table.write(), runner, found, now);
        if matches!(put, Put::Changed) {
            self.table.changed();
        }
    }

    /// Forgets the apps that ended more than 10 minutes ago (on the clock).
    pub fn sweep(&self) {
        let now = self.table.clock.now();
        let mut apps = self.table.write();
        let before = apps.len();
        apps.retain(|_, entry| {
            entry.busy()
                || entry
                    .ended_at
                    .is_none_or(|ended| now - ended < KEPT_AFTER_END)
        });
        let removed = apps.len() != before;
        drop(apps);
        if removed {
            self.table.changed();
        }
    }
}

/// What listing one found app did.
enum Put {
    /// A started app serves its port or holds its name.
    Skipped,
    Same,
    Changed,
}

fn put_detected(
    apps: &mut BTreeMap<String, Entry>,
    runner: &str,
    detected: DetectedApp,
    now: OffsetDateTime,
) -> Put {
    let started_serves = apps.values().any(|entry| {
        entry.run.is_some()
            && entry.busy()
            && entry.app.session_id == detected.session_id
            && entry.app.port == detected.port
    });
    let current = apps.get_mut(&detected.name);
    if started_serves
        || current
            .as_ref()
            .is_some_and(|e| e.run.is_some() && e.busy())
    {
        return Put::Skipped;
    }
    if let Some(entry) = current
        && entry.run.is_none()
        && entry.app.state == State::Running
        && entry.app.runner == runner
    {
        let app = &mut entry.app;
        if (&app.session_id, &app.command, app.port, app.pid)
            == (
                &detected.session_id,
                &detected.command,
                detected.port,
                detected.pid,
            )
        {
            return Put::Same;
        }
        app.session_id = detected.session_id;
        app.command = detected.command;
        app.port = detected.port;
        app.pid = detected.pid;
        return Put::Changed;
    }
    let app = App {
        name: detected.name.clone(),
        session_id: detected.session_id,
        runner: runner.to_owned(),
        command: detected.command,
        port: detected.port,
        pid: detected.pid,
        state: State::Running,
        started_at: clock::timestamp(now),
        exit_status: None,
        origin: Origin::Detected,
    };
    apps.insert(
        detected.name,
        Entry {
            app,
            ended_at: None,
            run: None,
        },
    );
    Put::Changed
}
