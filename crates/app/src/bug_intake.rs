//! Bug Intake's application side: a report that arrives (from a bug-intake
//! webhook, the app's form, and later mail) is stored by the `bugintake`
//! crate, which deduplicates, routes and claims it in one write; a claimed
//! report starts a triage session in its project's folder, whose first
//! prompt is the global Bug Intake instructions, then
//! `bugIntakeAppendPrompt`, then the report fenced as data. With
//! `bugIntakeEnabled` off every report is listed and none starts a session.
//!
//! A report is `triaged` once its session's first turn ends (it waits for
//! the user, finished, failed or was stopped).
//!
//! Triage sessions are agent-driven (`trigger: bug_intake`): the spawn
//! rules hold, but for `requireSpawnSourceSession`, since a report has no
//! session to name. A start the rules refuse gives the claim back (the
//! report is `new`, reason `start_failed`) and says why in the inbox.

use bugintake::{Action, BugIntake, BugReport, Config, Policy, Received, Report};
use inbox::{Category, NewRow};
use sessions::{SessionUpdate, SpawnRequest, Status, Trigger};

use crate::error::{AppError, AppResult, blocking};
use crate::publish;
use crate::services::App;

/// What became of a report that arrived.
#[derive(Debug)]
pub struct Taken {
    pub report: BugReport,
    /// `started`, `listed` or `duplicate`.
    pub outcome: &'static str,
}

fn intake(state: &App) -> BugIntake {
    BugIntake::new(state.db.clone())
}

async fn config(state: &App) -> AppResult<Config> {
    let dir = state.data_dir.clone();
    blocking(move || Config::load(&dir)).await
}

/// Stores a report for `account` and, when intake is on and it is routed,
/// starts its triage session.
pub async fn receive(state: &App, account: &str, report: Report) -> AppResult<Taken> {
    let config = config(state).await?;
    let policy = Policy {
        enabled: state.settings.bug_intake_enabled(),
        hold_new: false,
    };
    let (bugs, owner, stored_config) = (intake(state), account.to_owned(), config.clone());
    let received = blocking(move || bugs.receive(&owner, &report, &stored_config, policy)).await?;
    settle(state, account, &config, received).await
}

/// Releases a held (or unrouted, or listed) report: routed again with the
/// configuration as it is now, and started when intake is on.
pub async fn release(state: &App, account: &str, id: &str) -> AppResult<Taken> {
    let config = config(state).await?;
    let enabled = state.settings.bug_intake_enabled();
    let (bugs, owner, report_id, stored_config) = (
        intake(state),
        account.to_owned(),
        id.to_owned(),
        config.clone(),
    );
    let received =
        blocking(move || bugs.release(&owner, &report_id, &stored_config, enabled)).await?;
    settle(state, account, &config, received).await
}

async fn settle(
    state: &App,
    account: &str,
    config: &Config,
    received: Received,
) -> AppResult<Taken> {
    let route = match received.action {
        Action::StartTriage(route) => route,
        Action::Listed(_) => {
            return Ok(Taken {
                report: received.report,
                outcome: "listed",
            });
        }
        Action::Duplicate { .. } => {
            return Ok(Taken {
                report: received.report,
                outcome: "duplicate",
            });
        }
    };
    let report = received.report;
    let prompt = bugintake::prompt(&report, config, &state.settings.bug_intake_append_prompt());
    let request = SpawnRequest {
        engine: route.engine.clone(),
        prompt,
        cwd: Some(route.folder.display().to_string()),
        title: Some(format!("Bug: {}", report.title)),
        trigger: Some(Trigger::BugIntake),
        ..SpawnRequest::default()
    };
    let spawned = state.spawn_from_outside(account, request).await;
    let (bugs, owner, id) = (intake(state), account.to_owned(), report.id.clone());
    match spawned {
        Ok(spawned) => {
            let session_id = spawned.session.id;
            let report = blocking(move || bugs.mark_triaging(&owner, &id, &session_id)).await?;
            Ok(Taken {
                report,
                outcome: "started",
            })
        }
        Err(error) => {
            let report = blocking(move || bugs.start_failed(&owner, &id)).await?;
            start_failed_row(state, account, &report, &error).await;
            Ok(Taken {
                report,
                outcome: "listed",
            })
        }
    }
}

async fn start_failed_row(
    state: &App,
    account: &str,
    report: &BugReport,
    error: &sessions::SessionError,
) {
    let mut row = NewRow::new(
        Category::Note,
        format!("Bug report not triaged: {}", report.title),
    );
    row.body = Some(format!(
        "Its triage session could not start: {error}. Release it from Bug Intake once that is fixed."
    ));
    row.dedup_key = Some(format!("bug-intake-start-failed:{}", report.id));
    let (inbox, owner) = (state.inbox.clone(), account.to_owned());
    match blocking(move || inbox.add(&owner, row).map_err(AppError::from)).await {
        Ok(added) => {
            publish::inbox_added(state, account, added);
        }
        Err(error) => tracing::warn!(%error, "cannot say a bug report was not triaged"),
    }
}

/// Starts the listener that marks a report triaged when its session's turn ends.
pub fn start(state: &App) {
    publish::on_session_updates(
        state,
        "bug intake",
        ends_a_turn,
        |state, update| async move {
            let bugs = intake(&state);
            let id = update.session_id.clone();
            if let Err(error) = blocking(move || bugs.triaged_by_session(&id)).await {
                tracing::warn!(%error, session_id = update.session_id, "cannot mark a bug report triaged");
            }
        },
    );
}

fn ends_a_turn(update: &SessionUpdate) -> bool {
    update.moved
        && matches!(
            update.status,
            Status::WaitingForInput | Status::Finished | Status::Failed | Status::Stopped
        )
}
