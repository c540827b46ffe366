//! The live apps by name, shared by the registry and the tasks that watch
//! started apps; every change ticks the subscribers.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use time::OffsetDateTime;
use tokio::sync::{broadcast, oneshot};
use tokio::task::JoinHandle;

use crate::model::{App, StartSpec, State};
use crate::output::Output;

/// Called once when an app turns `Failing`.
pub type FailingCallback = Box<dyn Fn(&App) + Send + Sync>;

pub struct Table {
    pub clock: Arc<dyn clock::Clock>,
    apps: RwLock<BTreeMap<String, Entry>>,
    changes: broadcast::Sender<()>,
    on_failing: RwLock<Option<FailingCallback>>,
    runs: AtomicU64,
}

pub struct Entry {
    pub app: App,
    /// When it ended for good; it is forgotten [`crate::model::KEPT_AFTER_END`]
    /// later.
    pub ended_at: Option<OffsetDateTime>,
    /// A started app's; `None` for a detected one.
    pub run: Option<Run>,
}

impl Entry {
    /// Whether its name is in use: running, or a started app waiting to be
    /// restarted.
    pub fn busy(&self) -> bool {
        self.app.state == State::Running || self.run.as_ref().is_some_and(|run| run.stop.is_some())
    }
}

/// A started app's run: one watching task, across its crash restarts.
pub struct Run {
    /// Tells a watching task's updates from a later run's of the same name.
    pub id: u64,
    pub spec: Arc<StartSpec>,
    pub output: Output,
    /// Ends the run; taken by whoever stops it, dropped when it ends.
    pub stop: Option<oneshot::Sender<()>>,
    pub task: Option<JoinHandle<()>>,
}

/// How a run's state changes, applied by [`Table::update_run`].
pub enum RunChange {
    /// Running (again) as this process.
    Running { pid: u32 },
    /// Exited, to be started again after a backoff.
    Waiting { exit_status: Option<i32> },
    /// Ended for good.
    Ended {
        state: State,
        exit_status: Option<i32>,
    },
}

fn unpoisoned<T>(result: Result<T, std::sync::PoisonError<T>>) -> T {
    result.unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Table {
    pub fn new(clock: Arc<dyn clock::Clock>) -> Table {
        Table {
            clock,
            apps: RwLock::default(),
            changes: broadcast::Sender::new(64),
            on_failing: RwLock::default(),
            runs: AtomicU64::new(0),
        }
    }

    pub fn read(&self) -> RwLockReadGuard<'_, BTreeMap<String, Entry>> {
        unpoisoned(self.apps.read())
    }

    pub fn write(&self) -> RwLockWriteGuard<'_, BTreeMap<String, Entry>> {
        unpoisoned(self.apps.write())
    }

    pub fn next_run_id(&self) -> u64 {
        self.runs.fetch_add(1, Ordering::Relaxed)
    }

    pub fn subscribe(&self) -> broadcast::Receiver<()> {
        self.changes.subscribe()
    }

    /// Ticks every subscriber; having none is fine.
    pub fn changed(&self) {
        let _ = self.changes.send(());
    }

    pub fn set_on_failing(&self, callback: FailingCallback) {
        *unpoisoned(self.on_failing.write()) = Some(callback);
    }

    /// Applies `change` to run `run_id` of app `name`, unless a later run
    /// has taken the name; the app as it is now.
    pub fn update_run(&self, name: &str, run_id: u64, change: RunChange) -> Option<App> {
        let now = self.clock.now();
        let mut apps = self.write();
        let entry = apps.get_mut(name)?;
        let run = entry.run.as_mut().filter(|run| run.id == run_id)?;
        match change {
            RunChange::Running { pid } => {
                entry.app.state = State::Running;
                entry.app.pid = Some(pid);
                entry.app.started_at = clock::timestamp(now);
                entry.app.exit_status = None;
            }
            RunChange::Waiting { exit_status } => {
                entry.app.state = State::Exited;
                entry.app.pid = None;
                entry.app.exit_status = exit_status;
            }
            RunChange::Ended { state, exit_status } => {
                run.stop = None;
                entry.app.state = state;
                entry.app.pid = None;
                entry.app.exit_status = exit_status;
                entry.ended_at = Some(now);
            }
        }
        let app = entry.app.clone();
        drop(apps);
        self.changed();
        Some(app)
    }

    pub fn report_failing(&self, app: &App) {
        if let Some(callback) = unpoisoned(self.on_failing.read()).as_ref() {
            callback(app);
        }
    }
}
