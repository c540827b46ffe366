//! Feeds the inbox's Stats (`crates/inbox_stats`) while `inboxAnalyticsEnabled`
//! is on, and forgets them the moment it goes off.
//!
//! Every change of the inbox already passes through
//! [`crate::publish::inbox_changed`], which hands it here: a row's first
//! action (read, archived, or answered, which reads it) adds its wait, and
//! any change samples the unread counts for the day's pile-up. The page's
//! own view reports come through [`record_views`]. With the switch off
//! nothing is written, and the watch started by [`start`] clears what was.

use inbox::InboxRow;
use inbox_stats::{StatsError, StatsWeek, ViewReport};
use serde::Serialize;
use settings::SettingsStore;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::{AppError, AppResult, blocking};
use crate::services::App;
use crate::setting_watch::Watched;
use crate::stream_events::InboxEvent;

/// An action older than this is not the one that just happened: a restored
/// row keeps its old read time, and restoring is not a first action.
const FRESH_SECONDS: i64 = 60;

/// `GET /inbox/stats`: whether recording is on, and the week recorded.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InboxStatsPage {
    pub enabled: bool,
    pub week: StatsWeek,
}

/// `POST /inbox/stats/views`: whether the reports were kept (not while off).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
pub struct ViewsRecorded {
    pub recorded: bool,
}

/// Clears the Stats at start when the switch is off (it may have gone off
/// while a restore or an older build ran) and whenever it turns off.
pub fn start(state: &App) {
    let state = state.clone();
    let mut stop = state.stop.subscribe();
    let mut changes = Watched::new(&state, SettingsStore::inbox_analytics_enabled);
    tokio::spawn(async move {
        loop {
            if !state.settings.inbox_analytics_enabled() {
                let stats = state.inbox_stats.clone();
                if let Err(e) = blocking(move || stats.clear().map_err(app_error)).await {
                    tracing::warn!(error = %e, "could not clear the inbox stats");
                }
            }
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                () = changes.changed(&state.settings) => {}
            }
        }
    });
}

/// Forgets the Stats before a settings change that leaves the switch off is
/// answered (`publish::setting_changed`). The watch [`start`] began reads
/// the switch when it wakes, so an off and an on a few milliseconds apart
/// could pass without a clear, and what was recorded before the off would
/// stay.
pub(crate) async fn settings_changed(state: &App) {
    if state.settings.inbox_analytics_enabled() {
        return;
    }
    let stats = state.inbox_stats.clone();
    if let Err(e) = blocking(move || stats.clear_if_any().map_err(app_error)).await {
        tracing::warn!(error = %e, "could not clear the inbox stats");
    }
}

/// Records what an inbox change says, when recording is on. Never fails
/// the change: a sample that cannot be written is logged.
pub(crate) fn inbox_changed(state: &App, account_id: &str, change: &InboxEvent) {
    if !state.settings.inbox_analytics_enabled() {
        return;
    }
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let acted = match change {
        InboxEvent::Updated(row) => first_action(state, row),
        _ => None,
    };
    let (stats, inbox) = (state.inbox_stats.clone(), state.inbox.clone());
    let hidden = state.hidden_inbox_categories();
    let account = account_id.to_owned();
    runtime.spawn_blocking(move || {
        let recorded = acted
            .map_or(Ok(()), |(category, created)| {
                stats.record_action(&account, category, &created)
            })
            .map_err(app_error)
            .and_then(|()| Ok(inbox.unread_counts(&account, &hidden)?))
            .and_then(|counts| stats.record_unread(&account, &counts).map_err(app_error));
        if let Err(e) = recorded {
            tracing::warn!(error = %e, "could not record the inbox stats");
        }
    });
}

/// The row's category and arrival when this update is its first action:
/// read or archived (not both at different times, which makes this the
/// second), and just now.
fn first_action(state: &App, row: &InboxRow) -> Option<(inbox::Category, String)> {
    let at = match (&row.read_at, &row.archived_at) {
        (Some(read), Some(archived)) if read != archived => return None,
        (Some(at), _) | (None, Some(at)) => at,
        (None, None) => return None,
    };
    let at =
        time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).ok()?;
    let age = state.clock.now() - at;
    (age.whole_seconds().abs() <= FRESH_SECONDS).then(|| (row.category, row.created_at.clone()))
}

/// The page's view reports; `false` when the switch is off and nothing
/// was kept.
pub async fn record_views(
    state: &App,
    account_id: &str,
    reports: Vec<ViewReport>,
) -> AppResult<bool> {
    if !state.settings.inbox_analytics_enabled() {
        return Ok(false);
    }
    let (stats, account) = (state.inbox_stats.clone(), account_id.to_owned());
    blocking(move || stats.record_views(&account, &reports).map_err(app_error)).await?;
    Ok(true)
}

/// The account's week, empty while the switch is off (it was cleared).
pub async fn page(state: &App, account_id: &str) -> AppResult<InboxStatsPage> {
    let enabled = state.settings.inbox_analytics_enabled();
    let (stats, account) = (state.inbox_stats.clone(), account_id.to_owned());
    let mut week = blocking(move || stats.week(&account).map_err(app_error)).await?;
    if !enabled {
        week.rows.clear();
    }
    Ok(InboxStatsPage { enabled, week })
}

/// The Stats' errors as the application's: a refused report is the
/// caller's, a store failure is the database's like the inbox's own.
fn app_error(e: StatsError) -> AppError {
    match e {
        StatsError::InvalidReport => AppError::Invalid(e.to_string()),
        StatsError::Store(e) => AppError::Inbox(inbox::InboxError::Store(e)),
    }
}
