//! The scheduler that drives the project-event notifier (`pm_inbox`) on the
//! server's clock: it reads the pm-inbox settings into the notifier's plain
//! preferences, takes new item events when a board write wakes it (after the
//! write has committed and answered, so an item write never waits for the
//! inbox), does the time-driven work when the notifier's next moment comes
//! on the injected clock (so tests move a manual clock instead of waiting),
//! has the daily briefing (`briefing.rs`) posted when a new day begins,
//! and announces every row it adds on the event stream.

use std::collections::HashMap;
use std::sync::Arc;

use pm_inbox::{BoardPreference, DayRange, Delivered, Notifier, Prefs, QuietHours, window};
use serde_json::Value;
use settings::SettingsStore;

use crate::publish;
use crate::services::App;

/// The notifier's preferences as the settings say now.
pub fn prefs(settings: &SettingsStore) -> Prefs {
    let boards = match settings.pm_inbox_board_preferences() {
        Value::Object(map) => map
            .iter()
            .filter_map(|(board, pref)| {
                Some((board.clone(), BoardPreference::parse(pref.as_str()?)?))
            })
            .collect(),
        _ => HashMap::new(),
    };
    let quiet = settings
        .pm_inbox_quiet_hours_enabled()
        .then(|| {
            QuietHours::parse(
                &settings.pm_inbox_quiet_hours_start(),
                &settings.pm_inbox_quiet_hours_end(),
            )
        })
        .flatten();
    Prefs {
        enabled: settings.pm_inbox_enabled(),
        boards,
        digest: settings.pm_inbox_digest_mode(),
        quiet,
        zone: window::zone(&settings.pm_inbox_quiet_hours_time_zone()),
        daily: settings.daily_digest_enabled(),
    }
}

/// Starts the scheduler task; it ends when the server is asked to stop.
///
/// A board write's wake-up only takes the new item events; the time-driven
/// work (`tick`) runs when its moment comes, at the start, and when a
/// settings change moved the preferences it works by (any other change
/// leaves it asleep), so an item write costs the notifier no more than
/// reading its events.
pub fn start(state: &App) {
    let notifier = Arc::new(Notifier::new(state.db.clone(), state.inbox.clone()));
    let state = state.clone();
    let mut stop = state.stop.subscribe();
    let mut settings = state.settings_changed.subscribe();
    tokio::spawn(async move {
        // Where reading starts: the newest event at the first start ever.
        take_events(&state, &notifier).await;
        // The preferences the last tick ran with (`None`: none has run yet),
        // and the moment it ran at (the first pass always ticks).
        let mut ticked_with: Option<Prefs> = None;
        let mut ticked_at = now(&state);
        let mut moment_came = true;
        loop {
            let current = prefs(&state.settings);
            let mut failed = false;
            if moment_came || ticked_with.as_ref() != Some(&current) {
                ticked_at = now(&state);
                let tick = run(
                    &state,
                    &notifier,
                    current.clone(),
                    ticked_at,
                    |n, p, now| {
                        n.tick(p, now)
                            .map(|tick| (tick.daily_digest, tick.delivered))
                    },
                )
                .await;
                failed = tick.is_none();
                if let Some(Some(range)) = tick {
                    // Counting sessions awaits the supervisor: off this loop.
                    let (state, notifier) = (state.clone(), notifier.clone());
                    tokio::spawn(async move { daily_digest(&state, &notifier, range).await });
                }
                ticked_with = Some(current.clone());
            }
            // The next moment after the last tick, not after now: a clock that
            // moved past a moment while the tick ran (a day that began, read
            // rows that came of age) must still find that moment passed, and
            // the sleep below then ends at once.
            let wake = if failed {
                None
            } else {
                run(&state, &notifier, current, ticked_at, |n, p, since| {
                    Ok((n.next_wake(p, since)?, Vec::new()))
                })
                .await
            };
            let wake =
                wake.map(|at| time::OffsetDateTime::from_unix_timestamp_nanos(at.as_nanosecond()));
            let sleep = async {
                match wake {
                    Some(Ok(at)) => state.clock.sleep_until(at).await,
                    // A failed tick or unreadable state: try again in a
                    // minute rather than spin.
                    _ => state.clock.sleep(time::Duration::minutes(1)).await,
                }
            };
            tokio::pin!(sleep);
            loop {
                tokio::select! {
                    // The watch's guard is not Send: drop it before any await below.
                    () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                    () = state.pm_wake.notified() => {
                        take_events(&state, &notifier).await;
                        moment_came = false;
                        break;
                    }
                    // Only a change of the preferences themselves: waking for
                    // every other setting ran two blocking steps at each of a
                    // burst of `PATCH /settings`, on the cores the requests needed.
                    Ok(()) = settings.changed() => {
                        if ticked_with.as_ref() != Some(&prefs(&state.settings)) {
                            moment_came = false;
                            break;
                        }
                    }
                    () = &mut sleep => {
                        moment_came = true;
                        break;
                    }
                }
            }
        }
    });
}

/// The application clock's now, as the notifier counts time.
fn now(state: &App) -> jiff::Timestamp {
    window::instant(state.clock.now())
}

async fn take_events(state: &App, notifier: &Arc<Notifier>) {
    run(
        state,
        notifier,
        prefs(&state.settings),
        now(state),
        |n, p, now| Ok(((), n.take_events(p, now)?)),
    )
    .await;
}

/// Runs one notifier step off the async threads at `now`, with the given
/// preferences, announces the rows it delivered, and logs a failure (the
/// next wake-up tries again).
async fn run<T: Send + 'static>(
    state: &App,
    notifier: &Arc<Notifier>,
    prefs: Prefs,
    now: jiff::Timestamp,
    step: impl FnOnce(
        &Notifier,
        &Prefs,
        jiff::Timestamp,
    ) -> Result<(T, Vec<Delivered>), pm_inbox::NotifierError>
    + Send
    + 'static,
) -> Option<T> {
    let notifier = notifier.clone();
    let outcome = tokio::task::spawn_blocking(move || step(&notifier, &prefs, now)).await;
    match outcome {
        Ok(Ok((value, delivered))) => {
            for row in delivered {
                publish::inbox_added(state, &row.account_id, row.added);
            }
            Some(value)
        }
        Ok(Err(error)) => {
            tracing::warn!(error = %error_chain(&error), "project events: a step failed");
            None
        }
        Err(error) => {
            tracing::warn!(%error, "project events: a step panicked");
            None
        }
    }
}

fn error_chain(error: &dyn std::error::Error) -> String {
    let mut out = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        out.push_str(": ");
        out.push_str(&cause.to_string());
        source = cause.source();
    }
    out
}

/// Posts each account's daily briefing for the day that ended.
async fn daily_digest(state: &App, notifier: &Arc<Notifier>, range: DayRange) {
    let accounts = match state.accounts.list() {
        Ok(accounts) => accounts,
        Err(error) => {
            tracing::warn!(%error, "daily briefing: cannot list accounts");
            return;
        }
    };
    for account in accounts {
        crate::briefing::post(state, notifier, &account.id, &range).await;
    }
}
