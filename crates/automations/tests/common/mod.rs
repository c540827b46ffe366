//! What the integration tests share: a database in a temporary folder, a
//! manual clock, and a recipe whose folder exists.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

use automations::{Automations, MIGRATIONS, NewRecipe, NewSchedule, Recipe, to_jiff};
use clock::{Clock, ManualClock};
use jiff::Timestamp;
use store::Db;

pub const ME: &str = "account-1";

pub fn ts(text: &str) -> Timestamp {
    text.parse().unwrap()
}

pub fn at(text: &str) -> time::OffsetDateTime {
    automations::from_jiff(ts(text))
}

/// A server's worth of automations over one database file.
pub struct Rig {
    pub dir: tempfile::TempDir,
    pub clock: Arc<ManualClock>,
    pub automations: Automations,
}

impl Rig {
    pub fn new(start: &str) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::new(at(start)));
        let automations = open(&dir.path().join("db.sqlite"), clock.clone());
        Rig {
            dir,
            clock,
            automations,
        }
    }

    /// The server stops, and starts again at `start` on the same database.
    pub fn restart_at(&mut self, start: &str) {
        self.clock.set(at(start));
        self.automations = open(&self.dir.path().join("db.sqlite"), self.clock.clone());
    }

    pub fn now(&self) -> Timestamp {
        to_jiff(self.clock.now())
    }

    /// A folder that exists, for recipes to run in.
    pub fn folder(&self, name: &str) -> PathBuf {
        let folder = self.dir.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    pub fn recipe(&self, name: &str) -> Recipe {
        let fields = NewRecipe {
            name: name.into(),
            engine: "claude".into(),
            prompt: "Look after {{project}}".into(),
            cwd: self.folder("project").to_string_lossy().into_owned(),
            ..NewRecipe::default()
        };
        self.automations.create_recipe(ME, &fields).unwrap()
    }

    pub fn schedule_fields(recipe: &Recipe, time_zone: &str) -> NewSchedule {
        NewSchedule {
            recipe_id: recipe.id.clone(),
            time_zone: time_zone.into(),
            values: [("project".to_owned(), "switchboard".to_owned())].into(),
            ..NewSchedule::default()
        }
    }

    /// Moves the clock to each next wake and collects the ticks the runs
    /// stand for, as a scheduler would, until `until`.
    pub fn run_scheduler_until(&self, until: &str) -> Vec<Timestamp> {
        let until = ts(until);
        let mut ticks = Vec::new();
        while let Some(wake) = self.automations.next_wake().unwrap() {
            if wake > until {
                break;
            }
            self.clock.set(automations::from_jiff(wake));
            for start in self.automations.due_schedules(self.now()).unwrap() {
                assert!(start.prompt.is_some(), "{:?}", start.run.reason);
                ticks.push(ts(start.run.scheduled_for.as_deref().unwrap()));
            }
        }
        ticks
    }
}

fn open(path: &std::path::Path, clock: Arc<ManualClock>) -> Automations {
    let db = Arc::new(Db::open(path).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    Automations::new(db, clock)
}
