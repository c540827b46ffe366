//! Session forensics on the clock: the free friction scan every
//! `sessionForensicsScanIntervalHours` (at start when one is due) over the
//! sessions active since the last scan (a week back the first time), with
//! each session's approval waits from the permission broker; new findings
//! become one inbox row per account. With
//! `sessionForensicsAutoWeeklyEnabled`, Monday from 08:00 local the utility
//! model writes a deep analysis of the account's findings, inside
//! `sessionForensicsDailyCostCapUsd`, kept as a summary and posted as a
//! `digest` row once per week.

use std::collections::HashMap;

use friction::{ApprovalWait, Finding};
use inbox::{Category, NewRow};
use jiff::Timestamp;
use time::{Duration, OffsetDateTime};
use utility::{Ask, Feature};

use crate::error::blocking;
use crate::services::App;
use crate::utility_model;

/// The phrase that opens the deep analysis prompt.
pub const DEEP_PHRASE: &str = "Analyse the friction found";

/// How far back the first scan looks.
const FIRST_LOOK: Duration = Duration::days(7);
/// How often the loop looks again (a changed interval, Monday's hour).
const RECHECK: Duration = Duration::minutes(15);
/// The local hour of Monday's deep analysis.
const DEEP_HOUR: i8 = 8;

pub fn start(state: &App) {
    let state = state.clone();
    let mut stop = state.stop.subscribe();
    tokio::spawn(async move {
        loop {
            let next = match tick(&state).await {
                Ok(next) => next,
                Err(error) => {
                    tracing::warn!(%error, "the friction scan failed");
                    state.clock.now() + RECHECK
                }
            };
            let wake = next.min(state.clock.now() + RECHECK);
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                () = state.clock.sleep_until(wake) => {}
            }
        }
    });
}

/// Scans when due and runs Monday's analysis; returns when to look next.
async fn tick(state: &App) -> Result<OffsetDateTime, crate::AppError> {
    let now = state.clock.now();
    let interval = Duration::hours(i64::from(
        state.settings.session_forensics_scan_interval_hours(),
    ));
    let db = state.db.clone();
    let last = blocking(move || friction::last_scan_at(&db)).await?;
    let last = last.and_then(|at| {
        OffsetDateTime::parse(&at, &time::format_description::well_known::Rfc3339).ok()
    });
    let due = last.is_none_or(|last| now >= last + interval);
    let next = if due {
        scan(state, last.unwrap_or(now - FIRST_LOOK)).await?;
        now + interval
    } else {
        last.map_or(now, |last| last + interval)
    };
    if state.settings.session_forensics_auto_weekly_enabled() {
        deep_analysis(state).await;
    }
    Ok(next)
}

/// Runs one scan now over what changed since `since`; new findings are
/// told in the inbox.
pub async fn scan(state: &App, since: OffsetDateTime) -> Result<(), crate::AppError> {
    let accounts = {
        let accounts = state.accounts.clone();
        blocking(move || accounts.list()).await?
    };
    let mut waits: HashMap<String, Vec<ApprovalWait>> = HashMap::new();
    for account in &accounts {
        let broker = state.permissions.clone();
        let id = account.id.clone();
        let now = state.clock.now();
        let approvals = blocking(move || broker.list(&id, false)).await?;
        for approval in approvals {
            let created = parse(&approval.created_at);
            let decided = approval.decided_at.as_deref().and_then(parse);
            let Some(created) = created else { continue };
            let until = decided.unwrap_or(now);
            waits
                .entry(approval.session_id.clone())
                .or_default()
                .push(ApprovalWait {
                    tool: approval.tool.clone(),
                    waited_secs: (until - created).whole_seconds(),
                    pending: decided.is_none(),
                });
        }
    }
    let db = state.db.clone();
    let (since, now) = (clock::timestamp(since), state.clock.timestamp());
    let scanned = blocking(move || friction::scan(&db, &since, &now, &waits)).await?;
    for (account, found) in scanned.new {
        tell(state, &account, &found).await;
    }
    Ok(())
}

async fn tell(state: &App, account_id: &str, found: &[Finding]) {
    let title = format!(
        "Friction scan: {} new finding{}",
        found.len(),
        if found.len() == 1 { "" } else { "s" }
    );
    let mut row = NewRow::new(Category::Note, title);
    let lines: Vec<String> = found
        .iter()
        .take(20)
        .map(|f| {
            let session = f
                .session_title
                .clone()
                .unwrap_or_else(|| format!("Session {}", short(&f.session_id)));
            format!("- {session}: {}", f.detail)
        })
        .collect();
    row.body = Some(inbox::clip(&lines.join("\n"), inbox::MAX_BODY_CHARS));
    utility_model::note(state, account_id, row).await;
}

/// Monday from [`DEEP_HOUR`] (or the day the server returns when it was
/// down then): each account's findings of the past week, analysed once.
async fn deep_analysis(state: &App) {
    let zone = pm_inbox::window::zone(&state.settings.pm_inbox_quiet_hours_time_zone());
    let now = Timestamp::from_nanosecond(state.clock.now().unix_timestamp_nanos())
        .unwrap_or(Timestamp::UNIX_EPOCH);
    let previous_look = crate::summaries::previous_look(state, "forensics_weekly", now).await;
    let Some(period) = digests::weekly_due(&zone, DEEP_HOUR, now, previous_look) else {
        return;
    };
    let Ok(accounts) = state.accounts.list() else {
        return;
    };
    for account in accounts {
        let db = state.db.clone();
        let id = account.id.clone();
        let exists =
            blocking(move || digests::exists(&db, &id, digests::Kind::ForensicsWeekly, &period))
                .await;
        if !matches!(exists, Ok(false)) {
            continue;
        }
        let db = state.db.clone();
        let id = account.id.clone();
        let Ok(report) = blocking(move || friction::report(&db, &id)).await else {
            continue;
        };
        let start = digests::stamp(period.start);
        let recent: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.last_seen_at >= start)
            .collect();
        if recent.is_empty() {
            continue;
        }
        let facts: Vec<String> = recent
            .iter()
            .take(60)
            .map(|f| {
                format!(
                    "- {} in \"{}\": {}",
                    f.kind.as_str(),
                    f.session_title.clone().unwrap_or_default(),
                    f.detail
                )
            })
            .collect();
        let prompt = format!(
            "{DEEP_PHRASE} in a week of coding agent sessions. In at most 200 words of Markdown: \
             the patterns behind these findings, their likely causes, and the two or three changes \
             (to instructions, permissions or habits) that would remove the most friction.\n\n{}",
            facts.join("\n")
        );
        let ask = Ask {
            feature: Feature::ForensicsDeep,
            model: None,
            prompt: &prompt,
            budget: utility_model::budget(state, Feature::ForensicsDeep),
        };
        let answer = match state.utility.text(&ask).await {
            Ok(answer) => answer,
            Err(error) => {
                utility_model::report(state, &account.id, Feature::ForensicsDeep, &error).await;
                continue;
            }
        };
        let db = state.db.clone();
        let (id, text) = (account.id.clone(), answer.text.trim().to_owned());
        let kept = blocking(move || {
            digests::keep(
                &db,
                &id,
                digests::Kind::ForensicsWeekly,
                &period,
                &text,
                now,
            )
        })
        .await;
        if let Ok(Some(summary)) = kept {
            let mut row = NewRow::new(Category::Digest, "Friction analysis of the week");
            row.body = Some(inbox::clip(&summary.text, inbox::MAX_BODY_CHARS));
            utility_model::note(state, &account.id, row).await;
        }
    }
}

/// What the account's triage sessions of the last 24 hours spent (each
/// with its helpers), and the cap (`frictionTriageCostCapUsd`; 0 is no
/// limit): at the cap no triage session starts.
pub async fn triage_spend(state: &App, account_id: &str) -> Result<(f64, f64), crate::AppError> {
    let since = clock::timestamp(state.clock.now() - Duration::hours(24));
    let db = state.db.clone();
    let account = account_id.to_owned();
    let ids = blocking(move || friction::triage_sessions(&db, &account, &since)).await?;
    let mut spent = 0.0;
    for id in ids {
        if let Ok(session) = state.sessions.get(account_id, &id).await {
            spent += session.tree_cost_usd.unwrap_or(0.0);
        }
    }
    Ok((spent, state.settings.friction_triage_cost_cap_usd()))
}

/// The prompt of a triage session: what was found, and where to look.
pub fn triage_prompt(finding: &Finding) -> String {
    let session = finding
        .session_title
        .clone()
        .unwrap_or_else(|| format!("Session {}", short(&finding.session_id)));
    format!(
        "Switchboard's friction scan found this in the session \"{session}\" ({id}): {} ({}). \
         Read that session's transcript from Switchboard's API (`curl -H \"Authorization: Bearer \
         $APP_CLI_TOKEN\" $APP_CONTROL_URL/sessions/{id}/transcript`), find the cause, and fix it \
         where it lives: the project's instructions, its scripts or its tests. Say what you \
         changed and why.",
        finding.detail,
        finding.kind.as_str(),
        id = finding.session_id,
    )
}

fn parse(at: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).ok()
}

fn short(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}
