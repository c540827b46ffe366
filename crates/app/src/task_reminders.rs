//! Due and snoozed tasks in the inbox, under the project inbox's time rules:
//! a task due today, or whose snooze ended, is told once, held while quiet
//! hours last (`pmInboxQuietHours*`, in their zone); a task past its due
//! date is told at once, as an overdue board item is. Each due date and each
//! snooze end is told once (the `tasks` crate records which). Looked at
//! every minute of the clock.

use inbox::{Action, Category, NewRow};
use jiff::Timestamp;
use tasks::{Reminder, ReminderReason};

use crate::error::blocking;
use crate::services::App;
use crate::utility_model;

const EVERY: time::Duration = time::Duration::minutes(1);

pub fn start(state: &App) {
    let state = state.clone();
    let mut stop = state.stop.subscribe();
    tokio::spawn(async move {
        loop {
            remind(&state).await;
            let wake = state.clock.now() + EVERY;
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                () = state.clock.sleep_until(wake) => {}
            }
        }
    });
}

async fn remind(state: &App) {
    let prefs = crate::notifier::prefs(&state.settings);
    let now = Timestamp::from_nanosecond(state.clock.now().unix_timestamp_nanos())
        .unwrap_or(Timestamp::UNIX_EPOCH);
    let today = pm_inbox::window::local_day(&prefs.zone, now).to_string();
    let quiet = prefs.quiet.is_some_and(|q| q.contains(&prefs.zone, now));
    let found = {
        let tasks = state.tasks.clone();
        let today = today.clone();
        blocking(move || tasks.reminders(&today)).await
    };
    let reminders = match found {
        Ok(reminders) => reminders,
        Err(error) => {
            tracing::warn!(%error, "cannot read the tasks to remind");
            return;
        }
    };
    for reminder in reminders {
        let overdue = reminder.reason() == ReminderReason::Due
            && reminder
                .due
                .as_deref()
                .is_some_and(|due| due < today.as_str());
        if quiet && !overdue {
            continue;
        }
        let marked = {
            let tasks = state.tasks.clone();
            let told = reminder.clone();
            blocking(move || tasks.mark_reminded(&told)).await
        };
        if let Err(error) = marked {
            tracing::warn!(%error, "cannot record a task reminder");
            continue;
        }
        utility_model::note(state, &reminder.account_id, row(&reminder, overdue)).await;
    }
}

fn row(reminder: &Reminder, overdue: bool) -> NewRow {
    let text = &reminder.task.text;
    let title = match (reminder.reason(), overdue) {
        (ReminderReason::SnoozeEnded, _) => format!("Snooze over: {text}"),
        (ReminderReason::Due, true) => format!(
            "Task overdue: {text} (due {})",
            reminder.due.as_deref().unwrap_or_default()
        ),
        (ReminderReason::Due, false) => format!("Task due today: {text}"),
    };
    let mut row = NewRow::new(Category::Note, inbox::clip(&title, inbox::MAX_TITLE_CHARS));
    row.actions.push(Action::OpenPath {
        path: "/tasks".to_owned(),
    });
    row.dedup(&format!("task:{}", reminder.task.id))
}
