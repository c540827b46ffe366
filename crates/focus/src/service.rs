//! [`Focus`]: each account's focus mode, pomodoro run and weekday rules,
//! kept in one SQLite row per account, moved on the app clock.
//!
//! Every change that turns focus mode off says since when it was on
//! ([`FocusChange::released_since`]), so the caller can release what it
//! held as one summary. A run that manages focus mode turns it on for
//! blocks and off for breaks; the user toggling it by hand during the run
//! ends that management for the rest of the run.

use std::collections::HashMap;
use std::sync::Arc;

use clock::Clock;
use serde::{Deserialize, Serialize};
use store::Db;
use store::rusqlite::{OptionalExtension, Transaction, params};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::FocusError;
use crate::pomodoro::{Advance, Phase, Plan, Run};
use crate::schedule::PomodoroRule;

/// Who turned focus mode on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FocusBy {
    User,
    Pomodoro,
}

/// Focus mode as `GET /focus` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FocusState {
    pub on: bool,
    /// When it was turned on; `null` while off.
    pub since: Option<String>,
    pub by: Option<FocusBy>,
}

/// The run as `GET /pomodoro` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunState {
    pub plan: Plan,
    pub phase: Phase,
    pub block: u32,
    pub phase_started_at: String,
    pub phase_ends_at: String,
    pub manages_focus: bool,
    pub rule_id: Option<String>,
}

/// `GET /pomodoro`: the run under way, if any, and the weekday rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PomodoroState {
    pub run: Option<RunState>,
    pub rules: Vec<PomodoroRule>,
}

/// Focus mode after a change, and since when it had been on if the change
/// turned it off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FocusChange {
    pub state: FocusState,
    pub released_since: Option<String>,
}

/// What one account's pomodoro did: its state now, whether the phase
/// changed (start, next phase, end), and focus mode if it moved too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    pub account_id: String,
    pub pomodoro: PomodoroState,
    pub phase_changed: bool,
    pub focus: Option<FocusChange>,
}

/// What a tick changed, and when the next phase of any run ends (when
/// the next tick has something to do besides the rules).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ticked {
    pub transitions: Vec<Transition>,
    pub next_phase_end: Option<time::OffsetDateTime>,
}

/// What the settings say at a tick.
#[derive(Clone, Copy, Debug)]
pub struct TickSettings {
    /// Weekday rules may start runs (`pomodoroScheduleEnabled`).
    pub schedule: bool,
    /// A run a rule starts turns focus mode on for its blocks.
    pub manages_focus: bool,
    /// Focus mode may be on at all (`focusModeFeatureEnabled`).
    pub focus_allowed: bool,
}

/// The stored row of one account.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Account {
    focus_on: bool,
    focus_since_ms: Option<i64>,
    focus_by: Option<FocusBy>,
    run: Option<Run>,
    rules: Vec<PomodoroRule>,
    /// The local date each rule last started a run.
    rule_days: HashMap<String, String>,
}

pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "focus",
    sql: "CREATE TABLE focus_accounts (
        account_id TEXT PRIMARY KEY,
        state TEXT NOT NULL
    );",
}];

/// The focus and pomodoro service.
#[derive(Clone)]
pub struct Focus {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

impl Focus {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Focus {
        Focus { db, clock }
    }

    fn now_ms(&self) -> i64 {
        (self.clock.now().unix_timestamp_nanos() / 1_000_000) as i64
    }

    pub fn focus(&self, account_id: &str) -> Result<FocusState, FocusError> {
        let account = self.db.read(|tx| load(tx, account_id))?;
        Ok(account.focus_state())
    }

    pub fn pomodoro(&self, account_id: &str) -> Result<PomodoroState, FocusError> {
        let account = self.db.read(|tx| load(tx, account_id))?;
        Ok(account.pomodoro_state())
    }

    /// The user turns focus mode on or off. During a run that manages it,
    /// the run stops managing it.
    pub fn set_focus(&self, account_id: &str, on: bool) -> Result<FocusChange, FocusError> {
        let now = self.now_ms();
        self.db.write(|tx| {
            let mut account = load(tx, account_id)?;
            if let Some(run) = account.run.as_mut() {
                run.manages_focus = false;
            }
            let change = account.turn_focus(on, FocusBy::User, now);
            save(tx, account_id, &account)?;
            Ok(change.unwrap_or_else(|| FocusChange {
                state: account.focus_state(),
                released_since: None,
            }))
        })
    }

    /// Starts a run now; `manages_focus` turns focus mode on for its blocks.
    pub fn start(
        &self,
        account_id: &str,
        plan: Plan,
        manages_focus: bool,
    ) -> Result<Transition, FocusError> {
        plan.validate()?;
        let now = self.now_ms();
        self.db.write(|tx| {
            let mut account = load(tx, account_id)?;
            if account.run.is_some() {
                return Err(FocusError::WrongState(
                    "a pomodoro run is under way: stop it first",
                ));
            }
            let transition = account.begin(account_id, Run::start(plan, now, manages_focus, None));
            save(tx, account_id, &account)?;
            Ok(transition)
        })
    }

    /// Ends the run now (nothing happens when none runs).
    pub fn stop(&self, account_id: &str) -> Result<Transition, FocusError> {
        let now = self.now_ms();
        self.db.write(|tx| {
            let mut account = load(tx, account_id)?;
            let transition = account.end(account_id, now);
            save(tx, account_id, &account)?;
            Ok(transition)
        })
    }

    /// Ends the current phase now and starts the next.
    pub fn skip(&self, account_id: &str) -> Result<Transition, FocusError> {
        let now = self.now_ms();
        self.db.write(|tx| {
            let mut account = load(tx, account_id)?;
            let Some(run) = account.run.clone() else {
                return Err(FocusError::WrongState("no pomodoro run is under way"));
            };
            let transition = account.moved(account_id, run.skip(now), now);
            save(tx, account_id, &account)?;
            Ok(transition)
        })
    }

    /// Replaces the weekday rules; a rule without an id gets one.
    pub fn set_rules(
        &self,
        account_id: &str,
        mut rules: Vec<PomodoroRule>,
    ) -> Result<PomodoroState, FocusError> {
        for rule in &mut rules {
            rule.validate()?;
            if rule.id.is_empty() {
                rule.id = store::new_id();
            }
        }
        self.db.write(|tx| {
            let mut account = load(tx, account_id)?;
            account
                .rule_days
                .retain(|id, _| rules.iter().any(|r| &r.id == id));
            account.rules = rules;
            save(tx, account_id, &account)?;
            Ok(account.pomodoro_state())
        })
    }

    /// Moves every account's run to the clock's now, starts the runs
    /// weekday rules make due, and turns focus mode off everywhere when the
    /// feature is not allowed. Returns what changed.
    pub fn tick(&self, settings: TickSettings) -> Result<Ticked, FocusError> {
        let TickSettings {
            schedule,
            manages_focus,
            focus_allowed,
        } = settings;
        let now = self.now_ms();
        let moment = jiff::Timestamp::from_millisecond(now).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        self.db.write(|tx| {
            let mut changed = Vec::new();
            let mut next_phase_end = None;
            for (account_id, mut account) in load_all(tx)? {
                // While the feature is off a run may not turn focus mode on.
                if !focus_allowed && let Some(run) = account.run.as_mut() {
                    run.manages_focus = false;
                }
                let mut transition = match account.run.clone() {
                    Some(run) => run
                        .advance(now)
                        .map(|advance| account.moved(&account_id, advance, now)),
                    None if schedule => account.scheduled(&account_id, moment, manages_focus),
                    None => None,
                };
                if !focus_allowed && let Some(off) = account.turn_focus(false, FocusBy::User, now) {
                    let mut moved = transition.unwrap_or_else(|| Transition {
                        phase_changed: false,
                        ..account.transition(&account_id, None)
                    });
                    moved.focus = Some(off);
                    transition = Some(moved);
                }
                if let Some(transition) = transition {
                    save(tx, &account_id, &account)?;
                    changed.push(transition);
                }
                let ends = account.run.as_ref().map(|run| run.phase_ends_ms);
                next_phase_end = [next_phase_end, ends].into_iter().flatten().min();
            }
            Ok(Ticked {
                transitions: changed,
                next_phase_end: next_phase_end.map(moment_of),
            })
        })
    }
}

impl Account {
    fn focus_state(&self) -> FocusState {
        FocusState {
            on: self.focus_on,
            since: self.focus_since_ms.filter(|_| self.focus_on).map(stamp),
            by: self.focus_by.filter(|_| self.focus_on),
        }
    }

    fn pomodoro_state(&self) -> PomodoroState {
        PomodoroState {
            run: self.run.as_ref().map(|run| RunState {
                plan: run.plan,
                phase: run.phase,
                block: run.block,
                phase_started_at: stamp(run.phase_started_ms),
                phase_ends_at: stamp(run.phase_ends_ms),
                manages_focus: run.manages_focus,
                rule_id: run.rule_id.clone(),
            }),
            rules: self.rules.clone(),
        }
    }

    /// Turns focus mode on or off; `None` when it already was.
    fn turn_focus(&mut self, on: bool, by: FocusBy, now_ms: i64) -> Option<FocusChange> {
        if self.focus_on == on {
            return None;
        }
        let released_since = (!on).then(|| self.focus_since_ms.map(stamp)).flatten();
        self.focus_on = on;
        self.focus_since_ms = on.then_some(now_ms);
        self.focus_by = on.then_some(by);
        Some(FocusChange {
            state: self.focus_state(),
            released_since,
        })
    }

    fn transition(&self, account_id: &str, focus: Option<FocusChange>) -> Transition {
        Transition {
            account_id: account_id.to_owned(),
            pomodoro: self.pomodoro_state(),
            phase_changed: true,
            focus,
        }
    }

    fn begin(&mut self, account_id: &str, run: Run) -> Transition {
        let (manages, start) = (run.manages_focus, run.phase_started_ms);
        self.run = Some(run);
        let focus = manages
            .then(|| self.turn_focus(true, FocusBy::Pomodoro, start))
            .flatten();
        self.transition(account_id, focus)
    }

    fn end(&mut self, account_id: &str, now_ms: i64) -> Transition {
        let Some(run) = self.run.take() else {
            return Transition {
                phase_changed: false,
                ..self.transition(account_id, None)
            };
        };
        let focus = (run.manages_focus && self.focus_by == Some(FocusBy::Pomodoro))
            .then(|| self.turn_focus(false, FocusBy::Pomodoro, now_ms))
            .flatten();
        self.transition(account_id, focus)
    }

    fn moved(&mut self, account_id: &str, advance: Advance, now_ms: i64) -> Transition {
        match advance {
            Advance::Finished => self.end(account_id, now_ms),
            Advance::Phase { run, .. } => {
                let (manages, focus_on) = (run.manages_focus, !run.phase.is_break());
                self.run = Some(run);
                let focus = manages
                    .then(|| self.turn_focus(focus_on, FocusBy::Pomodoro, now_ms))
                    .flatten();
                self.transition(account_id, focus)
            }
        }
    }

    /// Starts the run of the first rule due at `now`, if one is.
    fn scheduled(
        &mut self,
        account_id: &str,
        now: jiff::Timestamp,
        manages_focus: bool,
    ) -> Option<Transition> {
        let (rule, start) = self.rules.iter().find_map(|rule| {
            let last = self
                .rule_days
                .get(&rule.id)
                .and_then(|d| d.parse::<jiff::civil::Date>().ok());
            Some((rule.clone(), rule.due(now, last)?))
        })?;
        let today = rule.local_date(now)?;
        self.rule_days.insert(rule.id.clone(), today.to_string());
        let run = Run::start(
            rule.plan,
            start.as_millisecond(),
            manages_focus,
            Some(rule.id.clone()),
        );
        Some(self.begin(account_id, run))
    }
}

fn moment_of(ms: i64) -> time::OffsetDateTime {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
}

fn stamp(ms: i64) -> String {
    clock::timestamp(moment_of(ms))
}

fn load(tx: &Transaction<'_>, account_id: &str) -> Result<Account, FocusError> {
    let state: Option<String> = tx
        .query_row(
            "SELECT state FROM focus_accounts WHERE account_id = ?1",
            [account_id],
            |row| row.get(0),
        )
        .optional()?;
    match state {
        Some(text) => serde_json::from_str(&text).map_err(|e| FocusError::Corrupt(e.to_string())),
        None => Ok(Account::default()),
    }
}

fn load_all(tx: &Transaction<'_>) -> Result<Vec<(String, Account)>, FocusError> {
    let mut statement = tx.prepare("SELECT account_id, state FROM focus_accounts")?;
    let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get::<_, String>(1)?)))?;
    let mut accounts = Vec::new();
    for row in rows {
        let (account_id, text) = row?;
        let account =
            serde_json::from_str(&text).map_err(|e| FocusError::Corrupt(e.to_string()))?;
        accounts.push((account_id, account));
    }
    Ok(accounts)
}

fn save(tx: &Transaction<'_>, account_id: &str, account: &Account) -> Result<(), FocusError> {
    let text = serde_json::to_string(account).map_err(|e| FocusError::Corrupt(e.to_string()))?;
    tx.execute(
        "INSERT INTO focus_accounts (account_id, state) VALUES (?1, ?2)
         ON CONFLICT (account_id) DO UPDATE SET state = excluded.state",
        params![account_id, text],
    )?;
    Ok(())
}
