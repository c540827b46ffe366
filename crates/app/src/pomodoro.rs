//! Focus mode and pomodoro at work (docs/focus.md): one loop on the app
//! clock moves every run to its next phase when the phase is due and
//! starts the runs weekday rules make due, and every change is announced
//! on the event stream, so every open tab shows the same timer.
//!
//! - A `pomodoro` event carries the run's state after each start, phase
//!   change and end; with `pomodoroPhaseForeground` on, a phase change also
//!   asks the app's tab to come forward (a `foreground` event).
//! - A `focus` event carries focus mode after it moves; when it goes off,
//!   `released` counts what it held: the rows that need the user which
//!   arrived or came again while it was on and are still unread, so the web
//!   app tells them as one summary.
//!
//! The loop reads the settings at each look: `pomodoroScheduleEnabled`
//! lets rules start runs, `pomodoroAutoEnableFocusModeDefault` decides
//! whether a scheduled run manages focus mode, and with
//! `focusModeFeatureEnabled` off no run turns focus mode on.

use std::collections::BTreeMap;

use events::{Audience, Name};
use focus::{FocusChange, FocusState, TickSettings, Transition};
use inbox::{Category, ListQuery, StateFilter};
use serde::Serialize;
use serde_json::json;

use crate::error::blocking;
use crate::services::App;

/// The loop looks again at least this often, for the weekday rules.
const LONGEST_SLEEP: time::Duration = time::Duration::seconds(30);

/// The categories focus mode holds: the ones that notify (the web app's
/// `NEEDS_USER`).
const HELD: [Category; 5] = [
    Category::Session,
    Category::CliPending,
    Category::Alert,
    Category::Webhook,
    Category::Alarm,
];

/// What focus mode held, released when it went off.
#[derive(Debug, Clone, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Released {
    pub since: String,
    /// Unread rows that need the user, arrived while focus mode was on.
    pub count: usize,
    /// The same, by category (`session`, `alarm`, …).
    pub categories: BTreeMap<String, usize>,
}

/// The `focus` event, and `PUT /focus`'s reply.
#[derive(Debug, Clone, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FocusEvent {
    #[serde(flatten)]
    pub state: FocusState,
    /// Set when focus mode just went off.
    pub released: Option<Released>,
}

impl App {
    /// A run was started, stopped or skipped, or the rules or a setting
    /// changed: the loop looks again now.
    pub fn wake_pomodoro(&self) {
        self.pomodoro_wake.notify_one();
    }
}

/// Starts the loop.
pub(crate) fn start(app: &App) {
    crate::looking::spawn(app, app.pomodoro_wake.clone(), |app| async move {
        look(&app).await
    });
}

/// Moves the runs, announces what changed, and says until when to sleep:
/// the next phase's end, at most [`LONGEST_SLEEP`] after the look.
async fn look(app: &App) -> time::OffsetDateTime {
    let looked = app.clock.now();
    let focus_allowed = app.settings.focus_mode_feature_enabled();
    let settings = TickSettings {
        schedule: app.settings.pomodoro_schedule_enabled(),
        manages_focus: focus_allowed && app.settings.pomodoro_auto_enable_focus_mode_default(),
        focus_allowed,
    };
    let service = app.focus.clone();
    match blocking(move || service.tick(settings)).await {
        Ok(transitions) => {
            for transition in transitions {
                announce(app, transition).await;
            }
        }
        Err(error) => tracing::warn!(%error, "pomodoro runs were not moved on"),
    }
    let service = app.focus.clone();
    let next = blocking(move || service.next_phase_end())
        .await
        .ok()
        .flatten();
    let latest = looked + LONGEST_SLEEP;
    next.map_or(latest, |next| next.min(latest))
}

/// Announces a run's change, and focus mode's if it moved with it.
pub async fn announce(app: &App, transition: Transition) {
    let Transition {
        account_id,
        pomodoro,
        phase_changed,
        focus,
    } = transition;
    app.events.publish(
        Audience::Account(account_id.clone()),
        Name::Pomodoro,
        &json!(pomodoro),
    );
    if phase_changed && app.settings.pomodoro_phase_foreground() {
        let reason = match pomodoro.run.as_ref().map(|run| run.phase) {
            Some(focus::Phase::Focus) => "A focus block begins",
            Some(_) => "Time for a break",
            None => "The pomodoro run is over",
        };
        app.events.publish(
            Audience::Account(account_id.clone()),
            Name::Foreground,
            &json!({ "reason": reason, "from": "pomodoro", "sessionId": null }),
        );
    }
    if let Some(change) = focus {
        announce_focus(app, &account_id, change).await;
    }
}

/// Announces focus mode after a change, with what it held when it went
/// off; returns the event it sent.
pub async fn announce_focus(app: &App, account_id: &str, change: FocusChange) -> FocusEvent {
    let released = match change.released_since {
        Some(since) => Some(held_since(app, account_id, since).await),
        None => None,
    };
    let event = FocusEvent {
        state: change.state,
        released,
    };
    app.events.publish(
        Audience::Account(account_id.to_owned()),
        Name::Focus,
        &json!(event),
    );
    event
}

/// The unread rows that need the user and arrived (or came again) since
/// `since`.
async fn held_since(app: &App, account_id: &str, since: String) -> Released {
    let (inbox, owner, from) = (app.inbox.clone(), account_id.to_owned(), since.clone());
    let rows = blocking(move || {
        inbox.list(
            &owner,
            &ListQuery {
                state: StateFilter::Unread,
                limit: 500,
                ..ListQuery::default()
            },
        )
    })
    .await
    .unwrap_or_default();
    let mut categories = BTreeMap::new();
    let mut count = 0;
    for row in rows
        .iter()
        .filter(|row| row.updated_at >= from && HELD.contains(&row.category))
    {
        count += 1;
        *categories
            .entry(row.category.as_str().to_owned())
            .or_insert(0) += 1;
    }
    Released {
        since,
        count,
        categories,
    }
}
