//! The `recipe_runs` table: recording a run (by hand, or for a schedule's
//! tick), tying it to its session, marking it stalled, and ending it once.
//!
//! A run that cannot start (its folder is gone, a placeholder has no value)
//! is recorded `failed` with the reason, and [`Start::prompt`] is `None`,
//! so the caller makes one inbox row and starts no session. Ending a run
//! is done once: a second end is refused quietly (`None`), so a failure
//! reported twice makes one inbox row, not two. Marking a run stalled is
//! done once too, and is no end: a stalled run still ends with its session.

use std::collections::BTreeMap;

use store::rusqlite::{self, OptionalExtension, Row, Transaction, params};

use crate::error::AutomationError;
use crate::recipe::{Recipe, render};
use crate::recipes::find_recipe;
use crate::run::{RecipeRun, RunEnd, RunState, Start, folder_problem};
use crate::service::Automations;
use crate::stamp::stamp;
use crate::title::values_about;

const COLUMNS: &str = "id, account_id, recipe_id, schedule_id, scheduled_for, catch_up, \
                       session_id, state, reason, started_at, ended_at, spend_cap_usd";

/// The states a run is still going in: its session may yet end it.
const LIVE: &str = "('started', 'stalled')";

/// What a run stands for: a run by hand, or a tick of a schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub schedule_id: Option<String>,
    pub scheduled_for: Option<String>,
    pub catch_up: bool,
}

impl Origin {
    pub const BY_HAND: Origin = Origin {
        schedule_id: None,
        scheduled_for: None,
        catch_up: false,
    };
}

/// The reason a run at startup found no session for.
pub const UNLAUNCHED: &str = "the server stopped before the run's session started";

impl Automations {
    /// Runs a recipe by hand: fills its placeholders from `values` (a
    /// missing one is an error and nothing is recorded, since the user is
    /// there to give it), then records the run.
    pub fn run_now(
        &self,
        account_id: &str,
        recipe_id: &str,
        values: &BTreeMap<String, String>,
    ) -> Result<Start, AutomationError> {
        let recipe = self.recipe(account_id, recipe_id)?;
        render(&recipe.prompt, values)?;
        self.record_run(&recipe, values, Origin::BY_HAND, 0)
    }

    /// Records a run of `recipe`: `started` with the filled prompt, or,
    /// when it cannot start, `failed` with the reason (once).
    pub fn record_run(
        &self,
        recipe: &Recipe,
        values: &BTreeMap<String, String>,
        origin: Origin,
        passed_over: u64,
    ) -> Result<Start, AutomationError> {
        let now = stamp(self.now());
        let run = RecipeRun {
            id: store::new_id(),
            recipe_id: recipe.id.clone(),
            schedule_id: origin.schedule_id,
            scheduled_for: origin.scheduled_for,
            catch_up: origin.catch_up,
            session_id: None,
            state: RunState::Started,
            reason: None,
            spend_cap_usd: None,
            started_at: now,
            ended_at: None,
            account_id: recipe.account_id.clone(),
        };
        if !self.db.write(|tx| insert_run(tx, &run))? {
            return Err(AutomationError::AlreadyRun);
        }
        self.prepare(run, recipe.clone(), values, passed_over)
    }

    /// Fills the prompt and checks the folder of a run just recorded,
    /// failing the run with the reason when it cannot start.
    pub(crate) fn prepare(
        &self,
        run: RecipeRun,
        recipe: Recipe,
        values: &BTreeMap<String, String>,
        passed_over: u64,
    ) -> Result<Start, AutomationError> {
        let about = values_about(&recipe.prompt, values);
        let problem = match render(&recipe.prompt, values) {
            Ok(prompt) => folder_problem(&recipe).map_or(Ok(prompt), Err),
            Err(missing) => Err(missing.to_string()),
        };
        match problem {
            Ok(prompt) => Ok(Start {
                run,
                recipe,
                prompt: Some(prompt),
                passed_over,
                about,
            }),
            Err(reason) => {
                let run = self
                    .finish_run(&run.id, RunEnd::Failed, Some(&reason))?
                    .unwrap_or(run);
                Ok(Start {
                    run,
                    recipe,
                    prompt: None,
                    passed_over,
                    about,
                })
            }
        }
    }

    /// Ties a started run to the session that runs it, with the dollar cap
    /// that session was started under (`None`: no cap).
    pub fn attach_session(
        &self,
        run_id: &str,
        session_id: &str,
        spend_cap_usd: Option<f64>,
    ) -> Result<RecipeRun, AutomationError> {
        self.db.write(|tx| {
            tx.execute(
                "UPDATE recipe_runs SET session_id = ?2, spend_cap_usd = ?3 WHERE id = ?1",
                params![run_id, session_id, spend_cap_usd],
            )?;
            find_run(tx, run_id)
        })
    }

    /// Ends a started or stalled run, once: the run as ended, or `None` when
    /// it had already ended (the caller then makes no second inbox row).
    pub fn finish_run(
        &self,
        run_id: &str,
        end: RunEnd,
        reason: Option<&str>,
    ) -> Result<Option<RecipeRun>, AutomationError> {
        let now = stamp(self.now());
        self.db.write(|tx| {
            // A stalled run that finishes keeps why it stalled: the user was
            // told, and the reason still says what held it up.
            let changed = tx.execute(
                &format!(
                    "UPDATE recipe_runs SET state = ?2, reason = coalesce(?3, reason), ended_at = ?4
                     WHERE id = ?1 AND state IN {LIVE}"
                ),
                params![run_id, RunState::from(end).as_str(), reason, now],
            )?;
            if changed == 0 {
                // Unknown, or ended already.
                find_run(tx, run_id)?;
                return Ok(None);
            }
            find_run(tx, run_id).map(Some)
        })
    }

    /// Marks a started run stalled with the reason, once: the run as marked,
    /// or `None` when it was not `started` (stalled already, or ended). It
    /// has not ended: [`Automations::finish_run`] still ends it.
    pub fn mark_stalled(
        &self,
        run_id: &str,
        reason: &str,
    ) -> Result<Option<RecipeRun>, AutomationError> {
        self.db.write(|tx| {
            let changed = tx.execute(
                "UPDATE recipe_runs SET state = 'stalled', reason = ?2
                 WHERE id = ?1 AND state = 'started'",
                params![run_id, reason],
            )?;
            if changed == 0 {
                find_run(tx, run_id)?;
                return Ok(None);
            }
            find_run(tx, run_id).map(Some)
        })
    }

    /// Every run, of any account, that is `started` with its session: the
    /// ones that may yet stall. Oldest first.
    pub fn started_runs(&self) -> Result<Vec<RecipeRun>, AutomationError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(&format!(
                "SELECT {COLUMNS} FROM recipe_runs
                 WHERE state = 'started' AND session_id IS NOT NULL ORDER BY seq"
            ))?;
            let rows = stmt.query_map([], read_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// The run a session belongs to, if a recipe started it.
    pub fn run_for_session(&self, session_id: &str) -> Result<Option<RecipeRun>, AutomationError> {
        self.db.read(|tx| {
            Ok(tx
                .query_row(
                    &format!("SELECT {COLUMNS} FROM recipe_runs WHERE session_id = ?1"),
                    [session_id],
                    read_row,
                )
                .optional()?)
        })
    }

    pub fn run(&self, account_id: &str, run_id: &str) -> Result<RecipeRun, AutomationError> {
        self.db.read(|tx| find_run(tx, run_id)).and_then(|run| {
            (run.account_id == account_id)
                .then_some(run)
                .ok_or(AutomationError::RunNotFound)
        })
    }

    /// A recipe's runs, newest first, at most `limit`.
    pub fn list_runs(
        &self,
        account_id: &str,
        recipe_id: &str,
        limit: u32,
    ) -> Result<Vec<RecipeRun>, AutomationError> {
        self.db.read(|tx| {
            find_recipe(tx, account_id, recipe_id)?;
            let mut stmt = tx.prepare(&format!(
                "SELECT {COLUMNS} FROM recipe_runs WHERE recipe_id = ?1 ORDER BY seq DESC LIMIT ?2"
            ))?;
            let rows = stmt.query_map(params![recipe_id, limit], read_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// At start-up: every run recorded but never given a session (the
    /// server stopped in between) ends `incomplete`, each returned once for
    /// its inbox row.
    pub fn abandon_unlaunched(&self) -> Result<Vec<RecipeRun>, AutomationError> {
        let ids: Vec<String> = self.db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id FROM recipe_runs WHERE state = 'started' AND session_id IS NULL
                 ORDER BY seq",
            )?;
            let rows = stmt.query_map([], |row| row.get(0))?;
            Ok::<_, AutomationError>(rows.collect::<rusqlite::Result<Vec<String>>>()?)
        })?;
        let mut ended = Vec::new();
        for id in ids {
            if let Some(run) = self.finish_run(&id, RunEnd::Incomplete, Some(UNLAUNCHED))? {
                ended.push(run);
            }
        }
        Ok(ended)
    }
}

/// Inserts a run; `false` when its schedule already has a run for that
/// tick (a tick never runs twice).
pub(crate) fn insert_run(tx: &Transaction<'_>, run: &RecipeRun) -> Result<bool, AutomationError> {
    let inserted = tx.execute(
        &format!(
            "INSERT OR IGNORE INTO recipe_runs ({COLUMNS})
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
        ),
        params![
            run.id,
            run.account_id,
            run.recipe_id,
            run.schedule_id,
            run.scheduled_for,
            run.catch_up,
            run.session_id,
            run.state.as_str(),
            run.reason,
            run.started_at,
            run.ended_at,
            run.spend_cap_usd,
        ],
    )?;
    Ok(inserted == 1)
}

fn find_run(tx: &Transaction<'_>, run_id: &str) -> Result<RecipeRun, AutomationError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM recipe_runs WHERE id = ?1"),
        [run_id],
        read_row,
    )
    .optional()?
    .ok_or(AutomationError::RunNotFound)
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<RecipeRun> {
    let state: String = row.get(7)?;
    Ok(RecipeRun {
        id: row.get(0)?,
        account_id: row.get(1)?,
        recipe_id: row.get(2)?,
        schedule_id: row.get(3)?,
        scheduled_for: row.get(4)?,
        catch_up: row.get(5)?,
        session_id: row.get(6)?,
        // Only this crate writes the column, from `RunState::as_str`.
        state: RunState::parse(&state).unwrap_or(RunState::Failed),
        reason: row.get(8)?,
        started_at: row.get(9)?,
        ended_at: row.get(10)?,
        spend_cap_usd: row.get(11)?,
    })
}
