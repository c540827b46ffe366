//! Recipes and schedules at work (docs/automations.md): a run by hand
//! (`App::run_recipe`) and a schedule's tick (the scheduler loop) each
//! record a run in `automations` and start its session through the spawn
//! rules, as `POST /sessions` does; a follower of the sessions' updates ends
//! the run with its session. A run that failed, stalled or ended
//! incomplete makes one `recipes` inbox row; a schedule an agent made
//! makes one `cron` row that approves it.
//!
//! A run by hand is the caller's spawn (an agent token's is agent-driven);
//! a schedule's tick is its owner's own (user-driven) spawn, but for a
//! schedule an agent made, whose runs stay agent-driven.

use std::collections::BTreeMap;

use automations::{NewSchedule, RecipeRun, RunEnd, RunState, Schedule, Spec, Start};
use inbox::{Action, Category, NewRow, Source};
use sessions::{Caller, SessionUpdate, SpawnPolicy, SpawnRequest, Status, Via};

use crate::error::{AppError, AppResult, blocking};
use crate::services::App;
use crate::work_origins::follow_sessions;

/// The scheduler looks again at least this often, so a schedule made or
/// resumed while it sleeps is never long unseen.
const LONGEST_SLEEP: time::Duration = time::Duration::seconds(60);

/// A run started by hand: its record and its session.
#[derive(Debug, Clone)]
pub struct RecipeStarted {
    pub run_id: String,
    pub session_id: String,
}

impl App {
    /// Runs a recipe now on `caller`'s behalf: records the run, starts its
    /// session under the spawn rules (the recipe's engine, folder,
    /// isolation and runner; its name as the title; the filled prompt) and
    /// ties the two. A run that cannot start (its folder is gone, the spawn
    /// is refused) is recorded failed with the reason and told in the inbox.
    pub async fn run_recipe(
        &self,
        account: &str,
        caller: &Caller,
        recipe_id: &str,
        values: BTreeMap<String, String>,
    ) -> AppResult<RecipeStarted> {
        let automations = self.automations.clone();
        let (owner, id) = (account.to_owned(), recipe_id.to_owned());
        let start = blocking(move || automations.run_now(&owner, &id, &values)).await?;
        let run_id = start.run.id.clone();
        match self.launch(start, caller, &self.spawn_policy()).await {
            Some(session_id) => Ok(RecipeStarted { run_id, session_id }),
            None => {
                let automations = self.automations.clone();
                let (owner, id) = (account.to_owned(), run_id.clone());
                let run = blocking(move || automations.run(&owner, &id)).await?;
                Err(AppError::RecipeRunFailed {
                    run_id,
                    reason: run.reason.unwrap_or_else(|| "the run failed".to_owned()),
                })
            }
        }
    }

    /// Makes a schedule. One an agent made waits, `pending`, and puts one
    /// `cron` row in the owner's inbox that approves it.
    pub async fn create_schedule(
        &self,
        account: &str,
        fields: NewSchedule,
        by_agent: bool,
    ) -> AppResult<Schedule> {
        let automations = self.automations.clone();
        let owner = account.to_owned();
        let (schedule, recipe) = blocking(move || {
            let schedule = automations.create_schedule(&owner, &fields, by_agent)?;
            let recipe = automations.recipe(&owner, &schedule.recipe_id)?;
            Ok::<_, automations::AutomationError>((schedule, recipe))
        })
        .await?;
        if by_agent {
            let rule = match &schedule.spec {
                Spec::Cron(pattern) => format!("cron {pattern}"),
                Spec::Rrule(text) => text.replace('\n', " "),
            };
            let mut row = NewRow::new(
                Category::Cron,
                format!("An agent asks to schedule the recipe {}", recipe.name),
            );
            row.body = Some(format!(
                "It would run \"{}\" on {rule} ({}). It runs nothing until you approve it \
                 (POST /schedules/{}/approve).",
                recipe.name, schedule.time_zone, schedule.id
            ));
            row.reason = Some("schedule_approval".to_owned());
            row.actions = vec![Action::ApproveSchedule {
                schedule_id: schedule.id.clone(),
            }];
            row.dedup_key = Some(format!("schedule-approval:{}", schedule.id));
            self.tell(account, row).await;
        }
        Ok(schedule)
    }

    /// Starts the session of a run just recorded and ties it to the run,
    /// or ends the run failed (a spawn refused or failed) and tells the
    /// inbox. The session's id, when one started.
    async fn launch(&self, start: Start, caller: &Caller, policy: &SpawnPolicy) -> Option<String> {
        let Start {
            run,
            recipe,
            prompt,
            ..
        } = start;
        let Some(prompt) = prompt else {
            // Already failed (its folder is gone): its one inbox row.
            self.tell_run(&run, &recipe.name).await;
            return None;
        };
        let request = SpawnRequest {
            engine: Some(recipe.engine.clone()),
            prompt,
            cwd: Some(recipe.cwd.clone()),
            title: Some(recipe.name.clone()),
            isolation: recipe
                .isolation
                .map(|automations::Isolation::Worktree| sessions::Isolation::Worktree),
            runner: recipe.runner.clone(),
            ..SpawnRequest::default()
        };
        let spawned = self
            .sessions
            .spawn(caller, policy, &self.prompt_settings(), request)
            .await;
        let session = match spawned {
            Ok(spawned) => spawned.session,
            Err(error) => {
                let reason = format!("its session could not start: {error}");
                self.end_run(&run.id, RunEnd::Failed, reason, &recipe.name)
                    .await;
                return None;
            }
        };
        if session.awaiting_approval {
            self.ask_to_start(&session).await;
        }
        let automations = self.automations.clone();
        let (run_id, session_id) = (run.id.clone(), session.id.clone());
        let attached = blocking(move || automations.attach_session(&run_id, &session_id)).await;
        if let Err(error) = attached {
            tracing::warn!(%error, "a recipe run was not tied to its session");
        }
        // A quick session may have ended before the run knew it: its end
        // went by unseen, so it is read now (a run ends once either way).
        if let Ok(now) = self.sessions.get(&session.account_id, &session.id).await
            && let Some((end, reason)) = run_end(now.status)
        {
            self.end_run(&run.id, end, reason.to_owned(), &recipe.name)
                .await;
        }
        Some(session.id)
    }

    /// Ends a run and, when its end needs the user, tells the inbox once.
    async fn end_run(&self, run_id: &str, end: RunEnd, reason: String, recipe: &str) {
        let automations = self.automations.clone();
        let id = run_id.to_owned();
        let reason = (end != RunEnd::Finished).then_some(reason);
        let ended = blocking(move || automations.finish_run(&id, end, reason.as_deref())).await;
        match ended {
            Ok(Some(run)) => self.tell_run(&run, recipe).await,
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, "a recipe run's end was not recorded"),
        }
    }

    /// One `recipes` row for a run that failed, stalled or ended incomplete.
    async fn tell_run(&self, run: &RecipeRun, recipe: &str) {
        if !run.state.needs_attention() {
            return;
        }
        let mut row = NewRow::new(
            Category::Recipes,
            format!("A run of the recipe {recipe} did not finish"),
        );
        row.body = run.reason.clone();
        row.reason = Some(
            match run.state {
                RunState::Stalled => "stalled",
                RunState::Incomplete => "incomplete",
                _ => "failed",
            }
            .to_owned(),
        );
        if let Some(session_id) = &run.session_id {
            row.source = Source {
                session_id: Some(session_id.clone()),
                ..Source::default()
            };
            row.actions = vec![Action::OpenSession {
                session_id: session_id.clone(),
            }];
        }
        row.dedup_key = Some(format!("recipe-run:{}", run.id));
        self.tell(&run.account_id, row).await;
    }

    async fn tell(&self, account: &str, row: NewRow) {
        let (inbox, owner) = (self.inbox.clone(), account.to_owned());
        match blocking(move || inbox.add(&owner, row)).await {
            Ok(added) => {
                crate::publish::inbox_added(self, account, added);
            }
            Err(error) => tracing::warn!(%error, "cannot add a recipe's inbox row"),
        }
    }
}

/// How a session's status ends its run, if it does.
fn run_end(status: Status) -> Option<(RunEnd, &'static str)> {
    match status {
        Status::Finished => Some((RunEnd::Finished, "")),
        Status::Failed => Some((RunEnd::Failed, "its session failed")),
        Status::Stopped => Some((RunEnd::Incomplete, "its session was stopped")),
        Status::Interrupted => Some((RunEnd::Incomplete, "its session was interrupted")),
        _ => None,
    }
}

/// Starts the scheduler and the follower that ends runs with their
/// sessions; first ends the runs a stop left without a session.
pub(crate) fn start(app: &App) {
    follow_sessions(app, "recipe runs", |app, update| async move {
        end_with_session(&app, update).await;
    });
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        let automations = app.automations.clone();
        match blocking(move || automations.abandon_unlaunched()).await {
            Ok(runs) => {
                for run in runs {
                    let name = recipe_name(&app, &run).await;
                    app.tell_run(&run, &name).await;
                }
            }
            Err(error) => tracing::warn!(%error, "unlaunched recipe runs were not ended"),
        }
        loop {
            let wait = match tick(&app).await {
                Ok(wait) => wait,
                Err(error) => {
                    tracing::warn!(%error, "the recipe schedules were not looked at");
                    LONGEST_SLEEP
                }
            };
            tokio::select! {
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                () = app.clock.sleep(wait) => {}
            }
        }
    });
}

/// Starts every due schedule's run; how long to sleep until the next tick.
async fn tick(app: &App) -> AppResult<time::Duration> {
    let automations = app.automations.clone();
    let now = automations::to_jiff(app.clock.now());
    let starts = blocking(move || automations.due_schedules(now)).await?;
    for start in starts {
        let automations = app.automations.clone();
        let account = start.run.account_id.clone();
        let schedule_id = start.run.schedule_id.clone().unwrap_or_default();
        let schedule = blocking(move || automations.schedule(&account, &schedule_id)).await;
        let by_agent = schedule.is_ok_and(|s| s.created_by_agent);
        let (caller, policy) = scheduled_caller(app, &start.run.account_id, by_agent);
        app.launch(start, &caller, &policy).await;
    }
    let automations = app.automations.clone();
    let next = blocking(move || automations.next_wake()).await?;
    let now = app.clock.now();
    let wait = next
        .map(|at| automations::from_jiff(at) - now)
        .map_or(LONGEST_SLEEP, |left| {
            left.clamp(time::Duration::SECOND, LONGEST_SLEEP)
        });
    Ok(wait)
}

/// Who starts a schedule's session: its owner in person, or, for a
/// schedule an agent made, the owner's agent-driven spawn (with no source
/// session to name).
fn scheduled_caller(app: &App, account: &str, by_agent: bool) -> (Caller, SpawnPolicy) {
    let via = if by_agent { Via::ControlCli } else { Via::Ui };
    let caller = Caller {
        account_id: account.to_owned(),
        via,
        source_session_header: None,
    };
    let policy = SpawnPolicy {
        require_spawn_source_session: false,
        ..app.spawn_policy()
    };
    (caller, policy)
}

/// Ends the run of a session that just ended, if it belongs to one.
async fn end_with_session(app: &App, update: SessionUpdate) {
    let Some((end, reason)) = run_end(update.status).filter(|_| update.moved) else {
        return;
    };
    let automations = app.automations.clone();
    let session_id = update.session_id.clone();
    let run = match blocking(move || automations.run_for_session(&session_id)).await {
        Ok(Some(run)) => run,
        Ok(None) => return,
        Err(error) => {
            tracing::warn!(%error, "a session's recipe run was not looked up");
            return;
        }
    };
    let name = recipe_name(app, &run).await;
    app.end_run(&run.id, end, reason.to_owned(), &name).await;
}

async fn recipe_name(app: &App, run: &RecipeRun) -> String {
    let automations = app.automations.clone();
    let (account, id) = (run.account_id.clone(), run.recipe_id.clone());
    blocking(move || automations.recipe(&account, &id))
        .await
        .map_or_else(|_| run.recipe_id.clone(), |r| r.name)
}
