//! Focus mode and pomodoro at work (docs/focus.md): one loop on the app
//! clock moves every run to its next phase when the phase is due and
//! starts the runs weekday rules make due, and every change is announced
//! on the event stream, so every open tab shows the same timer.
//!
//! - A `pomodoro` event carries the run's state after each start, phase
//!   change and end; with `pomodoroPhaseForeground` on, a phase change the
//!   clock made also asks the app's tab, when it is behind other windows,
//!   to come forward (a `foreground` event).
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
use settings::SettingsStore;

use crate::error::blocking;
use crate::services::App;
use crate::stream_events::ForegroundEvent;

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
    // What a tick reads; the rest is read when a phase changes, which the
    // clock and the requests wake the loop for.
    let reads = |s: &SettingsStore| {
        (
            s.focus_mode_feature_enabled(),
            s.pomodoro_schedule_enabled(),
            s.pomodoro_auto_enable_focus_mode_default(),
        )
    };
    crate::looking::spawn_reading(app, app.pomodoro_wake.clone(), reads, |app| async move {
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
    let next = match blocking(move || service.tick(settings)).await {
        Ok(ticked) => {
            for transition in ticked.transitions {
                announce(app, transition, Cause::Clock).await;
            }
            ticked.next_phase_end
        }
        Err(error) => {
            tracing::warn!(%error, "pomodoro runs were not moved on");
            None
        }
    };
    let latest = looked + LONGEST_SLEEP;
    next.map_or(latest, |next| next.min(latest))
}

/// Who moved a run: the clock (a phase ran out, a rule started one) or
/// the user (start, stop, skip, new rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    Clock,
    User,
}

/// Announces a run's change, and focus mode's if it moved with it. A
/// change the clock made asks the app's tab to come forward while
/// `pomodoroPhaseForeground` is on and the app is open but behind other
/// windows; the user's own clicks never do.
pub async fn announce(app: &App, transition: Transition, cause: Cause) {
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
    if phase_changed
        && cause == Cause::Clock
        && app.settings.pomodoro_phase_foreground()
        && app.presence.front(&account_id) == navigation::Front::Hidden
    {
        let reason = match pomodoro.run.as_ref().map(|run| run.phase) {
            Some(focus::Phase::Focus) => "A focus block begins",
            Some(_) => "Time for a break",
            None => "The pomodoro run is over",
        };
        app.events.publish(
            Audience::Account(account_id.clone()),
            Name::Foreground,
            &json!(ForegroundEvent {
                reason: reason.to_owned(),
                from: "pomodoro".to_owned(),
                session_id: None,
            }),
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

/// The unread rows focus mode held since `since`: those that need the user
/// and arrived (or came again) meanwhile, calendar reminders among them
/// (not the morning agenda), leaving out what came through
/// anyway (a failed session; an alarm while `alarmsPierceFocusMode` is on)
/// and the categories the `inboxShow*` settings hide, as the web app's
/// `heldByFocus` does.
async fn held_since(app: &App, account_id: &str, since: String) -> Released {
    let pierce = app.settings.alarms_pierce_focus_mode();
    let query = ListQuery {
        state: StateFilter::Unread,
        limit: 500,
        hidden: app.hidden_inbox_categories(),
        ..ListQuery::default()
    };
    let (inbox, owner) = (app.inbox.clone(), account_id.to_owned());
    let rows = blocking(move || inbox.list(&owner, &query))
        .await
        .unwrap_or_else(|error| {
            tracing::warn!(%error, "what focus mode held was not read");
            Vec::new()
        });
    let held = rows.iter().filter(|row| {
        row.updated_at >= since
            && (HELD.contains(&row.category)
                || (row.category == Category::Calendar
                    && row.reason.as_deref() == Some("reminder")))
            && !(row.category == Category::Session && row.reason.as_deref() == Some("failed"))
            && !(row.category == Category::Alarm && pierce)
    });
    let mut categories = BTreeMap::new();
    let mut count = 0;
    for row in held {
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
