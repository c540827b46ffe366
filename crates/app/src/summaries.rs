//! The scheduled summaries: the weekly summary (`weeklySummaryEnabled`, every
//! Monday at `weeklySummaryScheduleHour`) and the archive digest
//! (`archiveDigestCadence`), each written by the utility model from the
//! period's facts, kept as an artifact (`GET /summaries`) and posted as a
//! `digest` inbox row. When each falls due is the `digests` crate's rule, in
//! the inbox's time zone, on the application's clock; a period is written
//! once per account, so the loop may look as often as it likes. It looks at
//! start (a Monday the server missed is caught up on the day it returns),
//! at each scheduled hour, when a setting changes (a cadence turned on
//! writes what is due at once), and every quarter of an hour. The weekly summary's facts are the week's sessions, the boards
//! worked on and the tasks done, added and overdue.
//!
//! A feature at its cap for the day pauses until the next day: asking again
//! every quarter hour would only add `capped` records.

use std::collections::HashMap;

use digests::{Kind, Period};
use inbox::{Category, NewRow};
use jiff::Timestamp;
use jiff::civil::Date;
use settings::{ArchiveDigestCadence, SettingsStore};
use time::OffsetDateTime;
use utility::{Ask, Feature, UtilityError};

use crate::error::blocking;
use crate::services::App;
use crate::setting_watch::Watched;
use crate::utility_model;

/// The phrases that open the two prompts (the stand-in API in tests tells
/// the questions apart by them).
pub const WEEKLY_PHRASE: &str = "Write the weekly summary";
pub const ARCHIVE_PHRASE: &str = "Write the archive digest";

/// How often the loop looks again for changed settings.
const RECHECK: time::Duration = time::Duration::minutes(15);

/// The most sessions a prompt lists one by one.
const LISTED: usize = 40;

pub fn start(state: &App) {
    let state = state.clone();
    let mut stop = state.stop.subscribe();
    // What decides whether a summary is due and when the next one is.
    let reads = |s: &SettingsStore| {
        (
            s.weekly_summary_enabled(),
            s.archive_digest_cadence(),
            s.pm_inbox_quiet_hours_time_zone(),
            s.weekly_summary_schedule_hour(),
        )
    };
    let mut changes = Watched::new(&state, reads);
    tokio::spawn(async move {
        let mut paused: HashMap<(String, Kind), Date> = HashMap::new();
        loop {
            // The next wake is counted from the moment this look saw: a clock
            // that moved on during the look (the hour struck meanwhile) then
            // wakes the loop at once instead of a whole recheck later.
            let now = state.clock.now();
            look(&state, jiff_of(now), &mut paused).await;
            let next = digests::next_moment(&zone(&state), hour(&state), jiff_of(now));
            let wake = offset_of(next).unwrap_or(now + RECHECK).min(now + RECHECK);
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                () = state.clock.sleep_until(wake) => {}
                () = changes.changed(&state.settings) => {}
            }
        }
    });
}

async fn look(state: &App, now: Timestamp, paused: &mut HashMap<(String, Kind), Date>) {
    let zone = zone(state);
    let today = pm_inbox::window::local_day(&zone, now);
    let previous_look = previous_look(state, "weekly_summary", now).await;
    let mut due = Vec::new();
    if state.settings.weekly_summary_enabled()
        && let Some(period) = digests::weekly_due(&zone, hour(state), now, previous_look)
    {
        due.push((Kind::Weekly, period));
    }
    let archive = match state.settings.archive_digest_cadence() {
        ArchiveDigestCadence::Daily => Some(Kind::ArchiveDaily),
        ArchiveDigestCadence::Weekly => Some(Kind::ArchiveWeekly),
        ArchiveDigestCadence::Off => None,
    };
    if let Some(kind) = archive
        && let Some(period) = digests::archive_due(&zone, kind == Kind::ArchiveWeekly, now)
    {
        due.push((kind, period));
    }
    if due.is_empty() {
        return;
    }
    let accounts = match state.accounts.list() {
        Ok(accounts) => accounts,
        Err(error) => {
            tracing::warn!(%error, "cannot list the accounts for their summaries");
            return;
        }
    };
    for account in accounts {
        for (kind, period) in &due {
            let key = (account.id.clone(), *kind);
            if paused.get(&key) == Some(&today) {
                continue;
            }
            match write(state, &account.id, *kind, period).await {
                Err(UtilityError::Capped { .. }) => {
                    paused.insert(key, today);
                }
                Err(error) => {
                    let feature = feature_of(*kind);
                    utility_model::report(state, &account.id, feature, &error).await;
                    // Said once; asked again tomorrow.
                    paused.insert(key, today);
                }
                Ok(()) => {}
            }
        }
    }
}

/// Records this look of `scheduler` and returns its previous one, kept
/// across restarts; one that cannot be read counts as none (nothing missed).
pub(crate) async fn previous_look(
    state: &App,
    scheduler: &'static str,
    now: Timestamp,
) -> Option<Timestamp> {
    let db = state.db.clone();
    match blocking(move || digests::look(&db, scheduler, now)).await {
        Ok(previous) => previous,
        Err(error) => {
            tracing::warn!(%error, scheduler, "cannot keep the scheduler's last look");
            None
        }
    }
}

fn feature_of(kind: Kind) -> Feature {
    match kind {
        Kind::Weekly => Feature::WeeklySummary,
        Kind::ArchiveDaily | Kind::ArchiveWeekly => Feature::ArchiveDigest,
        Kind::ForensicsWeekly => Feature::ForensicsDeep,
    }
}

/// Writes one account's summary of the period unless it exists.
async fn write(
    state: &App,
    account_id: &str,
    kind: Kind,
    period: &Period,
) -> Result<(), UtilityError> {
    let db = state.db.clone();
    let (account, period_copy) = (account_id.to_owned(), *period);
    let exists = blocking(move || digests::exists(&db, &account, kind, &period_copy))
        .await
        .unwrap_or(true);
    if exists {
        return Ok(());
    }
    let sessions = state.sessions.list(account_id).await.unwrap_or_default();
    let (start, end) = (digests::stamp(period.start), digests::stamp(period.end));
    let in_period = |at: &str| at >= start.as_str() && at < end.as_str();
    let facts = match kind {
        Kind::Weekly => {
            let touched: Vec<&sessions::Session> = sessions
                .iter()
                .filter(|s| in_period(&s.created_at) || in_period(&s.updated_at))
                .collect();
            let mut facts = session_facts(&touched);
            facts.push_str(&work_facts(state, account_id, &start, &end).await);
            facts
        }
        Kind::ArchiveDaily | Kind::ArchiveWeekly => {
            let archived: Vec<&sessions::Session> = sessions
                .iter()
                .filter(|s| s.archived_at.as_deref().is_some_and(in_period))
                .collect();
            if archived.is_empty() {
                return keep(state, account_id, kind, period, None).await;
            }
            session_facts(&archived)
        }
        // Written by the forensics loop from the scan's findings.
        Kind::ForensicsWeekly => return Ok(()),
    };
    let prompt = match kind {
        Kind::Weekly => format!(
            "{WEEKLY_PHRASE} for a person who runs coding agents with Switchboard, covering {} to {}. \
             In at most 200 words of Markdown bullets: what got done, what failed or waits for them, \
             and what it cost. Use only these facts:\n\n{facts}",
            start, end
        ),
        _ => format!(
            "{ARCHIVE_PHRASE}: insights from the coding agent sessions archived between {} and {}. \
             In at most 150 words of Markdown bullets: outcomes, recurring problems, and anything \
             left unfinished. Use only these facts:\n\n{facts}",
            start, end
        ),
    };
    let feature = feature_of(kind);
    let ask = Ask {
        feature,
        model: None,
        prompt: &prompt,
        budget: utility_model::budget(state, feature),
    };
    let answer = state.utility.text(&ask).await?;
    keep(state, account_id, kind, period, Some(answer.text.trim())).await
}

/// Keeps the summary and posts it; with no text (nothing was archived), the
/// period is kept as empty so it is not asked again, and nothing is posted.
async fn keep(
    state: &App,
    account_id: &str,
    kind: Kind,
    period: &Period,
    text: Option<&str>,
) -> Result<(), UtilityError> {
    let db = state.db.clone();
    let (account, period_copy) = (account_id.to_owned(), *period);
    let stored = text
        .unwrap_or("No sessions were archived in this period.")
        .to_owned();
    let now = jiff_of(state.clock.now());
    let kept =
        blocking(move || digests::keep(&db, &account, kind, &period_copy, &stored, now)).await;
    let summary = match kept {
        Ok(Some(summary)) => summary,
        Ok(None) => return Ok(()),
        Err(error) => {
            tracing::warn!(%error, "cannot keep a summary");
            return Ok(());
        }
    };
    if text.is_none() {
        return Ok(());
    }
    let zone = zone(state);
    let day = |at: Timestamp| {
        pm_inbox::window::local_day(&zone, at)
            .strftime("%b %-d")
            .to_string()
    };
    let label = match kind {
        Kind::Weekly => "Weekly summary",
        Kind::ArchiveDaily => "Archive digest",
        Kind::ArchiveWeekly => "Weekly archive digest",
        Kind::ForensicsWeekly => "Friction analysis",
    };
    let last_day = period
        .end
        .checked_sub(jiff::SignedDuration::from_secs(1))
        .unwrap_or(period.end);
    let mut row = NewRow::new(
        Category::Digest,
        format!("{label}: {} \u{2013} {}", day(period.start), day(last_day)),
    );
    row.body = Some(inbox::clip(&summary.text, inbox::MAX_BODY_CHARS));
    utility_model::note(state, account_id, row).await;
    Ok(())
}

fn session_facts(sessions: &[&sessions::Session]) -> String {
    let count = |status: sessions::Status| sessions.iter().filter(|s| s.status == status).count();
    let spent: f64 = sessions.iter().filter_map(|s| s.cost_usd).sum();
    let mut facts = format!(
        "- Sessions: {} (finished {}, failed {}, waiting for input {}, stopped {}, running {})\n\
         - Reported cost: ${spent:.2}\n",
        sessions.len(),
        count(sessions::Status::Finished),
        count(sessions::Status::Failed),
        count(sessions::Status::WaitingForInput),
        count(sessions::Status::Stopped),
        count(sessions::Status::Running),
    );
    for session in sessions.iter().take(LISTED) {
        let title = session
            .title
            .clone()
            .unwrap_or_else(|| session.prompt.chars().take(80).collect());
        let cost = session
            .cost_usd
            .map(|c| format!(", ${c:.2}"))
            .unwrap_or_default();
        facts.push_str(&format!(
            "- \"{title}\": {}, {} turns{cost}\n",
            session.status.as_str(),
            session.turns
        ));
    }
    if sessions.len() > LISTED {
        facts.push_str(&format!("- and {} more\n", sessions.len() - LISTED));
    }
    facts
}

/// The most boards and tasks a prompt names one by one.
const NAMED: usize = 15;

/// The boards worked on and the tasks done, added and overdue in
/// `[start, end)`, every list of the account's (personal and per
/// workspace). What cannot be read is left out, never the whole summary.
async fn work_facts(state: &App, account_id: &str, start: &str, end: &str) -> String {
    let (db, tasks) = (state.db.clone(), state.tasks.clone());
    let (account, start, end) = (account_id.to_owned(), start.to_owned(), end.to_owned());
    let read = tokio::task::spawn_blocking(move || {
        let mut facts = String::new();
        match boards::activity_between(&db, &account, &start, &end) {
            Ok(active) => {
                facts.push_str(&format!("- Boards worked on: {}\n", active.len()));
                for board in active.iter().take(NAMED) {
                    facts.push_str(&format!(
                        "- Board \"{}\": {} items added, {} changed, {} status changes\n",
                        board.board_name,
                        board.items_added,
                        board.items_changed,
                        board.status_changes
                    ));
                }
            }
            Err(error) => tracing::warn!(%error, "cannot read the week's board activity"),
        }
        let mut lists = vec![None];
        match boards::list_workspaces(&db, &account) {
            Ok(workspaces) => lists.extend(workspaces.into_iter().map(|w| Some(w.id))),
            Err(error) => tracing::warn!(%error, "cannot list the workspaces' task lists"),
        }
        let mut all = Vec::new();
        for list in &lists {
            match tasks.list(&account, list.as_deref()) {
                Ok(found) => all.extend(found),
                Err(error) => tracing::warn!(%error, "cannot read a task list"),
            }
        }
        let in_period = |at: &str| at >= start.as_str() && at < end.as_str();
        let done: Vec<&tasks::Task> = all
            .iter()
            .filter(|t| t.state == tasks::TaskState::Done)
            .filter(|t| t.done_at.as_deref().is_some_and(in_period))
            .collect();
        let added = all.iter().filter(|t| in_period(&t.created_at)).count();
        let last_day = &end[..end.len().min(10)];
        let overdue = all
            .iter()
            .filter(|t| t.state == tasks::TaskState::Open)
            .filter(|t| t.due.as_deref().is_some_and(|due| due < last_day))
            .count();
        facts.push_str(&format!(
            "- Tasks: {} done, {added} added, {overdue} open past their due date\n",
            done.len()
        ));
        for task in done.iter().take(NAMED) {
            facts.push_str(&format!("- Done: \"{}\"\n", task.text));
        }
        facts
    })
    .await;
    read.unwrap_or_default()
}

fn zone(state: &App) -> jiff::tz::TimeZone {
    pm_inbox::window::zone(&state.settings.pm_inbox_quiet_hours_time_zone())
}

fn hour(state: &App) -> i8 {
    i8::try_from(state.settings.weekly_summary_schedule_hour()).unwrap_or(8)
}

fn jiff_of(at: OffsetDateTime) -> Timestamp {
    Timestamp::from_nanosecond(at.unix_timestamp_nanos()).unwrap_or(Timestamp::UNIX_EPOCH)
}

fn offset_of(at: Timestamp) -> Option<OffsetDateTime> {
    OffsetDateTime::from_unix_timestamp_nanos(at.as_nanosecond()).ok()
}
