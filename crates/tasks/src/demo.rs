//! The tasks of `switchboard serve --demo`: a personal list with a task in
//! parts, one overdue (so the inbox has a reminder), one an agent session
//! wrote and one done, and a short list for the demo workspace.
//!
//! Made through [`Tasks::create`] and [`Tasks::update`], so they are stored,
//! ordered and reminded of like any other. Due dates are laid out around the
//! `today` the caller gives, the day its reminders count in.

use jiff::ToSpan;
use jiff::civil::Date;

use crate::model::{NewTask, Task, TaskError, TaskPatch, TaskState};
use crate::service::Tasks;

/// Where the demo's tasks go and what they refer to.
pub struct DemoTasks<'a> {
    pub account_id: &'a str,
    /// The demo workspace, whose list gets tasks of its own.
    pub workspace_id: Option<&'a str>,
    /// The agent session that wrote a follow-up into the personal list.
    pub from_session: Option<&'a str>,
    pub today: Date,
}

/// Writes the demo's tasks and returns them in the order made.
pub fn seed_demo(tasks: &Tasks, demo: &DemoTasks<'_>) -> Result<Vec<Task>, TaskError> {
    let day = |days: i64| Some(demo.today.saturating_add(days.days()).to_string());
    let new = |text: &str, due: Option<String>, notes: &str| NewTask {
        text: text.to_owned(),
        due,
        notes: (!notes.is_empty()).then(|| notes.to_owned()),
        ..NewTask::default()
    };
    let mut made = Vec::new();
    let mut add = |task: NewTask, source: Option<&str>| -> Result<Task, TaskError> {
        let task = tasks.create(demo.account_id, task, source)?;
        made.push(task.clone());
        Ok(task)
    };
    let review = add(
        new(
            "Prepare the sprint review",
            day(2),
            "Thirty minutes with the platform and mobile teams: what shipped, what slipped.",
        ),
        None,
    )?;
    for text in [
        "Export the velocity chart from the Sprint overview dashboard",
        "Ask Maya which pull requests make the demo",
        "Book the large meeting room",
    ] {
        add(
            NewTask {
                parent_id: Some(review.id.clone()),
                ..new(text, None, "")
            },
            None,
        )?;
    }
    add(
        new(
            "Renew the TLS certificate for status.acme.example",
            day(-1),
            "It expires at the end of the week; the renewal needs the DNS token.",
        ),
        None,
    )?;
    add(
        new(
            "Approve the new font's screenshots in the e2e suite",
            None,
            "From the CI triage: the e2e failure is a real screenshot change, left for design.",
        ),
        demo.from_session,
    )?;
    let done = add(new("Read the October error budget report", None, ""), None)?;
    if let Some(workspace) = demo.workspace_id {
        let here = |task: NewTask| NewTask {
            workspace_id: Some(workspace.to_owned()),
            ..task
        };
        add(
            here(new("Decide the annual pricing launch date", day(7), "")),
            None,
        )?;
        add(
            here(new(
                "Draft the Q3 reliability retro",
                day(12),
                "Checkout and notifications went over their error budgets.",
            )),
            None,
        )?;
    }
    let patch = TaskPatch {
        state: Some(TaskState::Done),
        ..TaskPatch::default()
    };
    let done = tasks.update(demo.account_id, &done.id, patch)?;
    if let Some(slot) = made.iter_mut().find(|t| t.id == done.id) {
        *slot = done;
    }
    Ok(made)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn the_demo_tasks_fill_both_lists_around_today() {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(crate::MIGRATIONS).unwrap();
        let clock = Arc::new(clock::ManualClock::new(
            time::macros::datetime!(2026-03-10 09:00 UTC),
        ));
        let tasks = Tasks::new(db, clock);
        let demo = DemoTasks {
            account_id: "a",
            workspace_id: Some("0198c0ffee0000000000000000000001"),
            from_session: Some("s-1"),
            today: jiff::civil::date(2026, 3, 10),
        };
        let made = seed_demo(&tasks, &demo).unwrap();
        let personal = tasks.list("a", None).unwrap();
        let shared = tasks.list("a", demo.workspace_id).unwrap();
        assert_eq!(personal.len() + shared.len(), made.len());
        assert_eq!(shared.len(), 2);
        assert!(personal.iter().any(|t| t.parent_id.is_some()));
        assert!(personal.iter().any(|t| t.state == TaskState::Done));
        assert!(
            personal
                .iter()
                .any(|t| t.due.as_deref() == Some("2026-03-09"))
        );
        assert_eq!(
            personal
                .iter()
                .filter(|t| t.source_session_id.as_deref() == Some("s-1"))
                .count(),
            1
        );
        let reminders = tasks.reminders("2026-03-10").unwrap();
        assert!(!reminders.is_empty(), "the overdue task reminds");
    }
}
