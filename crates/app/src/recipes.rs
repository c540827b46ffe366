//! Recipes and schedules at work (docs/automations.md): a run by hand
//! (`App::run_recipe`) and a schedule's tick (the scheduler loop) each
//! record a run in `automations` and start its session through the spawn
//! rules, as `POST /sessions` does, at the recipe's permission level and
//! under its spend cap; a follower of the sessions' updates ends the run
//! with its session, or when its session's cost reaches that cap, and a
//! watch on the app clock marks a run stalled once its session has waited
//! for the user [`STALL_AFTER`]. A run that failed, stalled or ended
//! incomplete makes one `recipes` inbox row; a schedule an agent made
//! makes one `cron` row that approves it.
//!
//! A run by hand is the caller's spawn (an agent token's is agent-driven);
//! a schedule's tick is its owner's own automation (`Via::Automation`),
//! spaced and counted like an agent-driven spawn but never refused by
//! `agentDrivenSessionsEnabled`. A schedule an agent made still pins its
//! runs' level at most the agents' setting.

use std::collections::BTreeMap;

use automations::{NewSchedule, RecipeRun, RunEnd, RunState, Schedule, Spec, Start};
use inbox::{Action, Category, NewRow, Source};
use sessions::{Caller, Session, SessionUpdate, SpawnPolicy, SpawnRequest, Status, Via};

use crate::error::{AppError, AppResult, blocking};
use crate::permission_check;
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

/// Why a run's session did not start: in words, with the setting that
/// refused it when a setting did (the inbox row offers to open it).
#[derive(Debug, Clone)]
pub(crate) struct NotStarted {
    pub reason: String,
    pub setting: Option<&'static str>,
}

impl From<&sessions::SessionError> for NotStarted {
    fn from(error: &sessions::SessionError) -> NotStarted {
        let mut words = error.to_string();
        let setting = refusing_setting(&words);
        // The API's words name the key, for scripts; a person reads its label.
        if let Some(def) = setting {
            words = words.replace(
                &format!("(setting {})", def.key),
                &format!("(the setting “{}”)", def.label()),
            );
        }
        NotStarted {
            reason: format!("its session could not start: {words}"),
            setting: setting.map(|def| def.key),
        }
    }
}

/// The setting a spawn refusal names: the spawn rules' refusals end by
/// naming theirs as "(setting <key>)", the one place the key is written.
fn refusing_setting(words: &str) -> Option<&'static settings::SettingDef> {
    let (_, after) = words.rsplit_once("(setting ")?;
    let (key, _) = after.split_once(')')?;
    settings::lookup(key)
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
        match self
            .launch(start, caller, &self.spawn_policy(), false)
            .await
        {
            Ok(session_id) => Ok(RecipeStarted { run_id, session_id }),
            Err(not_started) => Err(AppError::RecipeRunFailed {
                run_id,
                reason: not_started.reason,
            }),
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
            crate::publish::add_row(self, account, row).await;
        }
        Ok(schedule)
    }

    /// Starts the session of a run just recorded and ties it to the run,
    /// or ends the run failed (a spawn refused or failed) and tells the
    /// inbox. The session's id, or why none started. `agents_hand`: an agent
    /// had a hand in the run beyond what `caller` and the recipe say (a
    /// tick of a schedule an agent made, a rule's run).
    pub(crate) async fn launch(
        &self,
        start: Start,
        caller: &Caller,
        policy: &SpawnPolicy,
        agents_hand: bool,
    ) -> Result<String, NotStarted> {
        // Named for what the run is about and when, so a recipe's runs differ in a list.
        let title = start.title(&pm_inbox::window::zone(
            &self.settings.pm_inbox_quiet_hours_time_zone(),
        ));
        let Start {
            run,
            recipe,
            prompt,
            ..
        } = start;
        let Some(prompt) = prompt else {
            // Already failed (its folder is gone): its one inbox row.
            self.tell_run(&run, Some(&recipe.name), None).await;
            return Err(NotStarted {
                reason: run.reason.unwrap_or_else(|| "the run failed".to_owned()),
                setting: None,
            });
        };
        // An agent's hand in the run (its token starts it, it made the recipe
        // or the schedule, or a rule starts it) keeps the level at most the
        // setting's.
        let by_agent = matches!(caller.via, Via::ControlAgent { .. })
            || recipe.created_by_agent
            || agents_hand;
        let level = permission_check::pinned_level(
            recipe
                .permission_level
                .as_deref()
                .and_then(permissions::Level::from_name),
            permission_check::setting_level(&self.settings),
            by_agent,
        );
        let spend_cap = spend_cap(policy.max_dollars_per_session, recipe.spend_cap_usd);
        let policy = SpawnPolicy {
            max_dollars_per_session: spend_cap.unwrap_or(policy.max_dollars_per_session),
            ..policy.clone()
        };
        let request = SpawnRequest {
            engine: Some(recipe.engine.clone()),
            prompt,
            cwd: Some(recipe.cwd.clone()),
            title: Some(title),
            isolation: recipe
                .isolation
                .map(|automations::Isolation::Worktree| sessions::Isolation::Worktree),
            runner: recipe.runner.clone(),
            permission_level: level,
            ..SpawnRequest::default()
        };
        let spawned = self
            .sessions
            .spawn(caller, &policy, &self.prompt_settings(), request)
            .await;
        let session = match spawned {
            Ok(spawned) => spawned.session,
            Err(error) => {
                let not_started = NotStarted::from(&error);
                self.end_run(
                    &run.id,
                    RunEnd::Failed,
                    not_started.reason.clone(),
                    Some(&recipe.name),
                    not_started.setting,
                )
                .await;
                return Err(not_started);
            }
        };
        if session.awaiting_approval {
            self.ask_to_start(&session).await;
        }
        let automations = self.automations.clone();
        let (run_id, session_id) = (run.id.clone(), session.id.clone());
        let attached =
            blocking(move || automations.attach_session(&run_id, &session_id, spend_cap)).await;
        match attached {
            // A quick session may have ended (or spent its cap) before the
            // run knew it: that went by unseen, so it is read now (a run
            // ends once either way).
            Ok(run) => {
                if let Ok(now) = self.sessions.get(&session.account_id, &session.id).await {
                    settle(self, &run, &now, Some(&recipe.name)).await;
                }
            }
            Err(error) => tracing::warn!(%error, "a recipe run was not tied to its session"),
        }
        Ok(session.id)
    }

    /// Ends a run and, when its end needs the user, tells the inbox once
    /// (`recipe`: its name, when the caller has it; `setting`: the setting
    /// that refused its session, which the row offers to open).
    async fn end_run(
        &self,
        run_id: &str,
        end: RunEnd,
        reason: String,
        recipe: Option<&str>,
        setting: Option<&'static str>,
    ) {
        let automations = self.automations.clone();
        let id = run_id.to_owned();
        let reason = (end != RunEnd::Finished).then_some(reason);
        let ended = blocking(move || automations.finish_run(&id, end, reason.as_deref())).await;
        match ended {
            Ok(Some(run)) => self.tell_run(&run, recipe, setting).await,
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, "a recipe run's end was not recorded"),
        }
    }

    /// One `recipes` row for a run that failed, stalled or ended incomplete
    /// (`recipe`: its name, read here when the caller does not have it). It
    /// opens the run's session, else the recipe's run history, and offers
    /// the setting that refused the run (`setting`) by its label.
    async fn tell_run(&self, run: &RecipeRun, recipe: Option<&str>, setting: Option<&'static str>) {
        if !run.state.needs_attention() {
            return;
        }
        let recipe = match recipe {
            Some(name) => name.to_owned(),
            None => recipe_name(self, run).await,
        };
        let mut row = NewRow::new(
            Category::Recipes,
            format!("A run of the recipe {recipe} did not finish"),
        );
        // A run's reason reads on in its history's Reason column ("its session
        // failed"); on its own in a row it is a sentence.
        row.body = run.reason.as_deref().map(sentence);
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
            row.actions.push(Action::OpenSession {
                session_id: session_id.clone(),
            });
        } else {
            row.actions.push(Action::OpenPath {
                path: format!("/automations#runs={}", run.recipe_id),
            });
        }
        if let Some(def) = setting.and_then(settings::lookup) {
            row.actions.push(Action::OpenSetting {
                key: def.key.to_owned(),
                label: def.label().to_owned(),
            });
        }
        row.dedup_key = Some(format!("recipe-run:{}", run.id));
        crate::publish::add_row(self, &run.account_id, row).await;
    }
}

/// How a session ends its run, if it does by its status or cost alone: its
/// own end, else its cost reaching the run's cap (`over_cap`: the session
/// is still going and is to be stopped).
fn run_end(session: &Session, cap: Option<f64>) -> Option<(RunEnd, String, bool)> {
    let ended = |end, reason: &str| Some((end, reason.to_owned(), false));
    match session.status {
        Status::Finished => return ended(RunEnd::Finished, ""),
        Status::Failed => return ended(RunEnd::Failed, "its session failed"),
        Status::Stopped => return ended(RunEnd::Incomplete, "its session was stopped"),
        Status::Interrupted => return ended(RunEnd::Incomplete, "its session was interrupted"),
        _ => {}
    }
    // Engines report dollars at a turn's end, so this is read between
    // turns; a session that reports none (Codex, `command`) never reaches it.
    let spent = session.cost_usd.unwrap_or_default();
    if let Some(cap) = cap
        && spent >= cap
    {
        let reason = format!("its session reached its spend cap of ${cap:.2} (spent ${spent:.2})");
        return Some((RunEnd::Incomplete, reason, true));
    }
    None
}

/// The run's dollar cap: the recipe's, or the spawn rules' ceiling when
/// that is set (above 0) and smaller. `None` when the recipe has none: the
/// rules' ceiling alone stays as they document it, stored and not applied.
fn spend_cap(policy_cap: f64, recipe_cap: Option<f64>) -> Option<f64> {
    let recipe_cap = recipe_cap?;
    Some(if policy_cap > 0.0 {
        recipe_cap.min(policy_cap)
    } else {
        recipe_cap
    })
}

/// Ends `run` as its session says, if it does (once: an ended run is left
/// as it is); a session over the run's cap ends it `incomplete` and is
/// stopped, with everything it started. `recipe`: its name, when the
/// caller has it.
async fn settle(app: &App, run: &RecipeRun, session: &Session, recipe: Option<&str>) {
    if !matches!(run.state, RunState::Started | RunState::Stalled) {
        return;
    }
    let (end, reason, over_cap) = match run_end(session, run.spend_cap_usd) {
        Some(ending) => ending,
        // A turn that ended asking nothing has done the run's work; one that
        // asks keeps the run going (and stalls it when nobody answers). Only
        // this case reads the transcript.
        None if session.status == Status::WaitingForInput
            && matches!(
                crate::rule_events::work_outcome(app, session).await,
                Some((automations::SessionOutcome::Finished, _))
            ) =>
        {
            (RunEnd::Finished, String::new(), false)
        }
        None => return,
    };
    // The run ends first, so the stop's own end adds no second row.
    app.end_run(&run.id, end, reason, recipe, None).await;
    if over_cap {
        let app = app.clone();
        let caller = Caller {
            account_id: session.account_id.clone(),
            via: Via::Ui,
            source_session_header: None,
        };
        let id = session.id.clone();
        // Stopping waits for the processes to end: not in the way of the
        // other sessions' updates.
        tokio::spawn(async move {
            if let Err(error) = app.sessions.stop_tree(&caller, &id).await {
                tracing::warn!(%error, session_id = id, "a session over its recipe's spend cap was not stopped");
            }
        });
    }
}

/// Starts the scheduler and the follower that ends runs with their
/// sessions; first ends the runs a stop left without a session.
pub(crate) fn start(app: &App) {
    follow_sessions(app, "recipe runs", |app, update| async move {
        end_with_session(&app, update).await;
    });
    watch_stalls(app);
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        let automations = app.automations.clone();
        match blocking(move || automations.abandon_unlaunched()).await {
            Ok(runs) => {
                for run in runs {
                    app.tell_run(&run, None, None).await;
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
        let (caller, policy) = scheduled_caller(app, &start.run.account_id);
        let ticked = automations::Event::Schedule {
            schedule_id: start.run.schedule_id.clone().unwrap_or_default(),
            recipe_id: start.run.recipe_id.clone(),
        };
        let account = start.run.account_id.clone();
        // A tick that cannot start has recorded its run failed and told the inbox.
        let _ = app.launch(start, &caller, &policy, by_agent).await;
        app.fire_rules(&account, ticked).await;
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

/// Who starts a schedule's session: the owner's own automation (a schedule
/// an agent made runs only once the owner approved it), held by the spawn
/// rules' spacing and concurrency but not by `agentDrivenSessionsEnabled`,
/// which is about external scripts.
fn scheduled_caller(app: &App, account: &str) -> (Caller, SpawnPolicy) {
    let caller = Caller {
        account_id: account.to_owned(),
        via: Via::Automation,
        source_session_header: None,
    };
    let policy = SpawnPolicy {
        require_spawn_source_session: false,
        ..app.spawn_policy()
    };
    (caller, policy)
}

/// Ends the run of a session that just ended, or that ended a turn (its
/// cost is then known) over the run's spend cap, if it belongs to a run.
async fn end_with_session(app: &App, update: SessionUpdate) {
    // A turn's end shows as the move to waiting, or straight to the next
    // turn's start; the other moves can only end the session.
    let may_end = matches!(
        update.status,
        Status::WaitingForInput
            | Status::Starting
            | Status::Finished
            | Status::Failed
            | Status::Stopped
            | Status::Interrupted
    );
    if !update.moved || !may_end {
        return;
    }
    let automations = app.automations.clone();
    let session_id = update.session_id.clone();
    let run = match blocking(move || automations.run_for_session(&session_id)).await {
        Ok(Some(run)) if matches!(run.state, RunState::Started | RunState::Stalled) => run,
        Ok(_) => return,
        Err(error) => {
            tracing::warn!(%error, "a session's recipe run was not looked up");
            return;
        }
    };
    let Ok(session) = app
        .sessions
        .get(&update.account_id, &update.session_id)
        .await
    else {
        return;
    };
    settle(app, &run, &session, None).await;
}

/// How long a run's session may wait for the user before the run is marked
/// stalled (docs/automations.md), on the app clock.
pub(crate) const STALL_AFTER: time::Duration = time::Duration::minutes(30);

/// How often the stall watch looks; a run is marked at most this late.
const STALL_LOOK_EVERY: time::Duration = time::Duration::minutes(1);

/// Marks stalled, once, each started run whose session has waited for the
/// user (a turn ended and nobody answered or archived it, or it waits for
/// approval to start) for [`STALL_AFTER`], with one `recipes` row each.
fn watch_stalls(app: &App) {
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        loop {
            if let Err(error) = mark_stalls(&app).await {
                tracing::warn!(%error, "recipe runs were not looked at for stalls");
            }
            tokio::select! {
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                () = app.clock.sleep(STALL_LOOK_EVERY) => {}
            }
        }
    });
}

async fn mark_stalls(app: &App) -> AppResult<()> {
    let automations = app.automations.clone();
    let runs = blocking(move || automations.started_runs()).await?;
    let now = app.clock.now();
    for run in runs {
        let Some(session_id) = &run.session_id else {
            continue;
        };
        let Ok(session) = app.sessions.get(&run.account_id, session_id).await else {
            continue;
        };
        let Some(since) = waiting_since(&session) else {
            continue;
        };
        if now - since < STALL_AFTER {
            continue;
        }
        let reason = format!(
            "its session has waited for you since {} ({} minutes or more): \
             answer it, or archive it if its work is done",
            session.updated_at,
            STALL_AFTER.whole_minutes()
        );
        let automations = app.automations.clone();
        let id = run.id.clone();
        if let Some(stalled) = blocking(move || automations.mark_stalled(&id, &reason)).await? {
            app.tell_run(&stalled, None, None).await;
        }
    }
    Ok(())
}

/// Since when a session has waited for the user, if it does: idle after a
/// turn, or held for the user's approval to start. Its last change is when
/// it began to wait (a later rename only makes the wait look shorter).
fn waiting_since(session: &Session) -> Option<time::OffsetDateTime> {
    let waiting = session.status == Status::WaitingForInput
        || (session.status == Status::Queued && session.awaiting_approval);
    if !waiting || session.archived {
        return None;
    }
    time::OffsetDateTime::parse(
        &session.updated_at,
        &time::format_description::well_known::Rfc3339,
    )
    .ok()
}

fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

async fn recipe_name(app: &App, run: &RecipeRun) -> String {
    let automations = app.automations.clone();
    let (account, id) = (run.account_id.clone(), run.recipe_id.clone());
    blocking(move || automations.recipe(&account, &id))
        .await
        .map_or_else(|_| run.recipe_id.clone(), |r| r.name)
}

#[cfg(test)]
mod tests {
    use sessions::SessionError;

    use super::NotStarted;

    #[test]
    fn a_refusal_by_a_setting_names_it_by_its_label_and_offers_it() {
        for error in [
            SessionError::AgentDrivenSessionsDisabled,
            SessionError::ConcurrencyLimit { max: 0 },
            SessionError::RunnersOff,
            SessionError::RemoteStartsOff,
        ] {
            let not_started = NotStarted::from(&error);
            let key = not_started.setting.unwrap_or_else(|| panic!("{error}"));
            let def = settings::lookup(key).unwrap_or_else(|| panic!("{key}"));
            assert!(error.to_string().contains(key), "{error}");
            assert!(!not_started.reason.contains(key), "{}", not_started.reason);
            assert!(
                not_started.reason.contains(def.label()),
                "{}",
                not_started.reason
            );
        }
        let other = NotStarted::from(&SessionError::InvalidInput(
            "A session needs a prompt.".into(),
        ));
        assert_eq!(other.setting, None);
        assert_eq!(
            other.reason,
            "its session could not start: A session needs a prompt."
        );
    }
}
