//! The `schedules` table: create (active at once for the user, `pending`
//! for an agent), approve, pause, resume, delete, and claiming what is
//! due.
//!
//! [`Automations::due_schedules`] moves every due schedule to its next tick
//! and records the run the tick makes ([`crate::due::decide`]) in one write
//! transaction, so a tick is claimed once even if the server stops right
//! after: a run recorded but never given a session is found at the next
//! start-up ([`Automations::abandon_unlaunched`]).

use std::collections::BTreeMap;

use jiff::Timestamp;
use store::rusqlite::types::Type;
use store::rusqlite::{self, OptionalExtension, Row, Transaction, params};

use crate::due::decide;
use crate::error::AutomationError;
use crate::problems::{Problems, missing_values};
use crate::recipe::Recipe;
use crate::recipes::find_recipe;
use crate::run::{RecipeRun, RunState, Start};
use crate::runs::insert_run;
use crate::schedule::{Missed, NewSchedule, Schedule, Spec, State};
use crate::service::Automations;
use crate::stamp::{parse_stamp, stamp};
use crate::title::values_about;

const COLUMNS: &str = "id, account_id, recipe_id, kind, spec, time_zone, missed, state, \
                       created_by_agent, placeholder_values, next_at, last_run_at, created_at, \
                       updated_at";

/// A due schedule's claimed tick, before its run is prepared.
struct Claimed {
    run: RecipeRun,
    recipe: Recipe,
    values: BTreeMap<String, String>,
    passed_over: u64,
}

impl Automations {
    /// Makes a schedule: active at once when the user makes it, `pending`
    /// (no `nextAt`) until approved when an agent does. Every placeholder of
    /// the recipe's prompt needs a value in `values`.
    pub fn create_schedule(
        &self,
        account_id: &str,
        fields: &NewSchedule,
        by_agent: bool,
    ) -> Result<Schedule, AutomationError> {
        let now = self.now();
        let mut problems = Problems::new();
        let checked = match fields.validate(now) {
            Ok(checked) => Some(checked),
            Err(error) => {
                problems.absorb(error)?;
                None
            }
        };
        let recipe_id = fields.recipe_id.trim().to_owned();
        let values = values_json(&fields.values)?;
        self.db.write(|tx| {
            if !recipe_id.is_empty() {
                match find_recipe(tx, account_id, &recipe_id) {
                    Ok(recipe) => {
                        let missing: Vec<String> = recipe
                            .placeholders
                            .iter()
                            .filter(|name| !fields.values.contains_key(*name))
                            .cloned()
                            .collect();
                        if !missing.is_empty() {
                            problems.add("values", missing_values(&missing));
                        }
                    }
                    Err(AutomationError::RecipeNotFound) => {
                        problems.add("recipeId", "There is no such recipe.");
                    }
                    Err(other) => return Err(other),
                }
            }
            let checked = match checked {
                Some(checked) if problems.is_empty() => checked,
                _ => return Err(problems.into_error()),
            };
            let state = if by_agent {
                State::Pending
            } else {
                State::Active
            };
            let next_at = match state {
                State::Active => checked.rule.next_after(now).map(stamp),
                State::Pending | State::Paused => None,
            };
            let created = stamp(now);
            let schedule = Schedule {
                id: store::new_id(),
                account_id: account_id.to_owned(),
                recipe_id,
                spec: checked.spec,
                time_zone: checked.time_zone,
                missed: checked.missed,
                state,
                created_by_agent: by_agent,
                values: fields.values.clone(),
                next_at,
                last_run_at: None,
                created_at: created.clone(),
                updated_at: created,
            };
            tx.execute(
                &format!(
                    "INSERT INTO schedules ({COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
                ),
                params![
                    schedule.id,
                    schedule.account_id,
                    schedule.recipe_id,
                    schedule.spec.kind(),
                    schedule.spec.text(),
                    schedule.time_zone,
                    schedule.missed.as_str(),
                    schedule.state.as_str(),
                    schedule.created_by_agent,
                    values,
                    schedule.next_at,
                    schedule.last_run_at,
                    schedule.created_at,
                    schedule.updated_at,
                ],
            )?;
            Ok(schedule)
        })
    }

    /// The account's schedules, oldest first.
    pub fn list_schedules(&self, account_id: &str) -> Result<Vec<Schedule>, AutomationError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(&format!(
                "SELECT {COLUMNS} FROM schedules WHERE account_id = ?1 ORDER BY seq"
            ))?;
            let rows = stmt.query_map([account_id], read_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    pub fn schedule(&self, account_id: &str, id: &str) -> Result<Schedule, AutomationError> {
        self.db.read(|tx| find_schedule(tx, account_id, id))
    }

    /// The user approves an agent's schedule: it becomes active and waits
    /// for its first tick after now.
    pub fn approve(&self, account_id: &str, id: &str) -> Result<Schedule, AutomationError> {
        self.set_state(
            account_id,
            id,
            State::Pending,
            "only a pending schedule is approved",
        )
    }

    /// Stops an active schedule; nothing it would have run meanwhile is
    /// caught up on resuming.
    pub fn pause(&self, account_id: &str, id: &str) -> Result<Schedule, AutomationError> {
        self.set_state(
            account_id,
            id,
            State::Active,
            "only an active schedule is paused",
        )
    }

    /// Starts a paused schedule again at its first tick after now.
    pub fn resume(&self, account_id: &str, id: &str) -> Result<Schedule, AutomationError> {
        self.set_state(
            account_id,
            id,
            State::Paused,
            "only a paused schedule is resumed",
        )
    }

    pub fn delete_schedule(&self, account_id: &str, id: &str) -> Result<(), AutomationError> {
        self.db.write(|tx| {
            let deleted = tx.execute(
                "DELETE FROM schedules WHERE account_id = ?1 AND id = ?2",
                params![account_id, id],
            )?;
            if deleted == 0 {
                return Err(AutomationError::ScheduleNotFound);
            }
            Ok(())
        })
    }

    /// Moves a schedule out of `from`: pending and paused to active (at
    /// the first tick after now), active to paused.
    fn set_state(
        &self,
        account_id: &str,
        id: &str,
        from: State,
        refusal: &'static str,
    ) -> Result<Schedule, AutomationError> {
        let now = self.now();
        self.db.write(|tx| {
            let mut schedule = find_schedule(tx, account_id, id)?;
            if schedule.state != from {
                return Err(AutomationError::WrongState {
                    state: schedule.state.as_str(),
                    message: refusal,
                });
            }
            (schedule.state, schedule.next_at) = match from {
                State::Active => (State::Paused, None),
                State::Pending | State::Paused => {
                    (State::Active, schedule.rule()?.next_after(now).map(stamp))
                }
            };
            schedule.updated_at = stamp(now);
            tx.execute(
                "UPDATE schedules SET state = ?2, next_at = ?3, updated_at = ?4 WHERE id = ?1",
                params![
                    schedule.id,
                    schedule.state.as_str(),
                    schedule.next_at,
                    schedule.updated_at
                ],
            )?;
            Ok(schedule)
        })
    }

    /// The soonest tick an active schedule waits for: when to look again.
    pub fn next_wake(&self) -> Result<Option<Timestamp>, AutomationError> {
        let soonest: Option<String> = self.db.read(|tx| {
            tx.query_row(
                "SELECT min(next_at) FROM schedules WHERE state = 'active'",
                [],
                |row| row.get(0),
            )
        })?;
        soonest.as_deref().map(parse_stamp).transpose()
    }

    /// Claims every active schedule due at `now`: moves each to its first
    /// tick after now and records the run its ticks make (one, however
    /// many passed while the server was down, or none for those with
    /// `missed: skip`). Returns the runs to start; a run that cannot start
    /// comes back already failed, with no prompt.
    pub fn due_schedules(&self, now: Timestamp) -> Result<Vec<Start>, AutomationError> {
        let (claimed, mut starts) = self.db.write(|tx| claim_due(tx, now))?;
        for Claimed {
            run,
            recipe,
            values,
            passed_over,
        } in claimed
        {
            starts.push(self.prepare(run, recipe, &values, passed_over)?);
        }
        starts.sort_by(|a, b| a.run.scheduled_for.cmp(&b.run.scheduled_for));
        Ok(starts)
    }
}

/// The due schedules' ticks, claimed: the runs to prepare, and the runs
/// already failed because a schedule's stored rule can no longer be read
/// (that schedule is paused, so it fails once).
fn claim_due(
    tx: &Transaction<'_>,
    now: Timestamp,
) -> Result<(Vec<Claimed>, Vec<Start>), AutomationError> {
    let now_stamp = stamp(now);
    let due: Vec<Schedule> = {
        let mut stmt = tx.prepare(&format!(
            "SELECT {COLUMNS} FROM schedules
             WHERE state = 'active' AND next_at IS NOT NULL AND next_at <= ?1
             ORDER BY next_at, seq"
        ))?;
        let rows = stmt.query_map([&now_stamp], read_row)?;
        rows.collect::<rusqlite::Result<Vec<_>>>()?
    };
    let mut claimed = Vec::new();
    let mut failed = Vec::new();
    for schedule in due {
        let recipe = find_recipe(tx, &schedule.account_id, &schedule.recipe_id)?;
        let readable = schedule.rule().map_err(|e| e.to_string()).and_then(|rule| {
            // The query only picks rows with a `next_at`.
            let next_at = schedule.next_at.as_deref().unwrap_or_default();
            Ok((rule, parse_stamp(next_at).map_err(|e| e.to_string())?))
        });
        let (rule, next_at) = match readable {
            Ok(readable) => readable,
            Err(error) => {
                let reason = format!("the schedule can no longer be read: {error}");
                failed.push(stop_unreadable(tx, schedule, recipe, &now_stamp, reason)?);
                continue;
            }
        };
        let decision = decide(&rule, schedule.missed, next_at, now);
        tx.execute(
            "UPDATE schedules SET next_at = ?2, updated_at = ?3,
                    last_run_at = CASE WHEN ?4 THEN ?3 ELSE last_run_at END
             WHERE id = ?1",
            params![
                schedule.id,
                decision.next_at.map(stamp),
                now_stamp,
                decision.run.is_some(),
            ],
        )?;
        let Some(due) = decision.run else { continue };
        let run = RecipeRun {
            id: store::new_id(),
            recipe_id: recipe.id.clone(),
            schedule_id: Some(schedule.id.clone()),
            scheduled_for: Some(stamp(due.tick)),
            catch_up: due.catch_up,
            session_id: None,
            state: RunState::Started,
            reason: None,
            spend_cap_usd: None,
            started_at: now_stamp.clone(),
            ended_at: None,
            account_id: schedule.account_id.clone(),
        };
        if insert_run(tx, &run)? {
            claimed.push(Claimed {
                run,
                recipe,
                values: schedule.values,
                passed_over: decision.passed_over,
            });
        }
    }
    Ok((claimed, failed))
}

/// Pauses a schedule whose stored rule no longer reads (a zone gone from a
/// newer time zone database) and records one failed run saying why.
fn stop_unreadable(
    tx: &Transaction<'_>,
    schedule: Schedule,
    recipe: Recipe,
    now: &str,
    reason: String,
) -> Result<Start, AutomationError> {
    tx.execute(
        "UPDATE schedules SET state = 'paused', next_at = NULL, updated_at = ?2 WHERE id = ?1",
        params![schedule.id, now],
    )?;
    let run = RecipeRun {
        id: store::new_id(),
        recipe_id: recipe.id.clone(),
        schedule_id: Some(schedule.id),
        scheduled_for: schedule.next_at,
        catch_up: false,
        session_id: None,
        state: RunState::Failed,
        reason: Some(reason),
        spend_cap_usd: None,
        started_at: now.to_owned(),
        ended_at: Some(now.to_owned()),
        account_id: schedule.account_id,
    };
    insert_run(tx, &run)?;
    Ok(Start {
        about: values_about(&recipe.prompt, &schedule.values),
        run,
        recipe,
        prompt: None,
        passed_over: 0,
    })
}

fn values_json(values: &BTreeMap<String, String>) -> Result<String, AutomationError> {
    serde_json::to_string(values).map_err(|_| AutomationError::Corrupt("values"))
}

fn find_schedule(
    tx: &Transaction<'_>,
    account_id: &str,
    id: &str,
) -> Result<Schedule, AutomationError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM schedules WHERE account_id = ?1 AND id = ?2"),
        params![account_id, id],
        read_row,
    )
    .optional()?
    .ok_or(AutomationError::ScheduleNotFound)
}

fn unreadable(column: usize, what: &str) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(column, Type::Text, format!("not a {what}").into())
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<Schedule> {
    let kind: String = row.get(3)?;
    let spec = Spec::from_parts(&kind, row.get(4)?).ok_or_else(|| unreadable(3, "rule kind"))?;
    let missed: String = row.get(6)?;
    let state: String = row.get(7)?;
    let values: String = row.get(9)?;
    Ok(Schedule {
        id: row.get(0)?,
        account_id: row.get(1)?,
        recipe_id: row.get(2)?,
        spec,
        time_zone: row.get(5)?,
        missed: Missed::parse(&missed).ok_or_else(|| unreadable(6, "missed policy"))?,
        state: State::parse(&state).ok_or_else(|| unreadable(7, "schedule state"))?,
        created_by_agent: row.get(8)?,
        values: serde_json::from_str(&values).map_err(|_| unreadable(9, "JSON object"))?,
        next_at: row.get(10)?,
        last_run_at: row.get(11)?,
        created_at: row.get(12)?,
        updated_at: row.get(13)?,
    })
}
