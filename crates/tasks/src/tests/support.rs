//! What the tests share: a store on a real database file with a manual
//! clock, and short ways to make and show tasks.

use std::sync::Arc;

use clock::ManualClock;
use time::macros::datetime;

use crate::{MIGRATIONS, NewTask, Task, Tasks};

pub struct Setup {
    pub dir: tempfile::TempDir,
    pub tasks: Tasks,
    pub clock: Arc<ManualClock>,
}

pub fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::new(datetime!(2026-03-02 09:00 UTC)));
    let tasks = Tasks::new(db, clock.clone());
    Setup { dir, tasks, clock }
}

pub fn new(text: &str) -> NewTask {
    NewTask {
        text: text.into(),
        ..NewTask::default()
    }
}

pub fn under(text: &str, parent: &Task) -> NewTask {
    NewTask {
        parent_id: Some(parent.id.clone()),
        workspace_id: parent.workspace_id.clone(),
        ..new(text)
    }
}

/// A list as an outline: two spaces per level, then the text.
pub fn outline(list: &[Task]) -> Vec<String> {
    let mut depth = std::collections::HashMap::new();
    list.iter()
        .map(|t| {
            let d = t
                .parent_id
                .as_ref()
                .map_or(0, |p| depth.get(p).copied().unwrap_or(0) + 1);
            depth.insert(t.id.clone(), d);
            format!("{}{}", "  ".repeat(d), t.text)
        })
        .collect()
}

/// Every parent's children have positions 0..n in list order.
pub fn assert_dense(list: &[Task]) {
    let mut next = std::collections::HashMap::new();
    for t in list {
        let slot = next.entry(t.parent_id.clone()).or_insert(0);
        assert_eq!(t.position, *slot, "position of {:?}", t.text);
        *slot += 1;
    }
}
