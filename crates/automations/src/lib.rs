//! Automations: recipes (a saved start of a session), schedules that run
//! them, the record of every run, and rules that answer events.
//!
//! - [`trigger`]: what a rule waits for ([`Trigger`]), the [`Event`] the
//!   server saw, and the event's fields for a recipe's placeholders.
//! - `automation_rule`: an [`AutomationRule`]'s actions and the checks
//!   that refuse one that would plainly start itself; `automation_rules`
//!   stores them ([`RULE_MIGRATIONS`]) and records each firing under
//!   [`MAX_FIRINGS_PER_HOUR`].
//!
//! - [`recipe`]: a [`Recipe`] is an engine, a folder, an optional worktree
//!   isolation, runner, permission level and spend cap per run, and a prompt
//!   whose `{{name}}` placeholders [`render`] fills at each run.
//! - [`schedule`]: a [`Schedule`] runs a recipe on a five-field cron pattern
//!   or an RFC 5545 RRULE in an IANA time zone ([`rule`] says how each
//!   treats daylight-saving changes). One made with an agent's token waits,
//!   `pending`, until the user approves it.
//! - [`due`]: when a tick has come, one run, even for several ticks missed
//!   while the server was down (`missed: run_once`), or none for missed
//!   ticks (`missed: skip`); the next tick is always after now.
//! - [`Problems`]: every bad field of a request at once, each as a
//!   sentence a person reads; the checks of recipes, schedules and rules
//!   gather them rather than stop at the first.
//! - [`Automations`] keeps them in SQLite ([`MIGRATIONS`]) and records runs:
//!   [`Automations::run_now`] by hand, [`Automations::due_schedules`] for
//!   the ticks that have come; each hands back a [`Start`] (the filled
//!   prompt), or a run already failed with its reason (its folder is gone);
//!   [`Start::title`] names the run's session by the recipe, what the run
//!   is about (its values, or a rule's event) and when ([`run_title`]).
//!   [`Automations::mark_stalled`] marks a run whose session waits on the
//!   user once, and [`Automations::finish_run`] ends a run (started or
//!   stalled) once.
//!
//! Knows nothing of HTTP, sessions or the inbox: the caller starts each
//! run's session under the spawn rules (at the recipe's permission level,
//! capped at its spend cap), ties it with [`Automations::attach_session`],
//! decides when a run stalls or went over its cap, and makes one inbox row
//! (category `recipes`) for a run that stalled, failed or ended incomplete,
//! and one (category `cron`) for a schedule an agent made.
//!
//! ```
//! # use std::sync::Arc;
//! # use automations::{Automations, NewRecipe, NewSchedule, MIGRATIONS};
//! # let dir = tempfile::tempdir().unwrap();
//! # let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
//! # db.migrate(MIGRATIONS).unwrap();
//! let clock = Arc::new(clock::ManualClock::new(time::macros::datetime!(2026-01-05 08:00 UTC)));
//! let automations = Automations::new(db, clock);
//! let recipe = automations.create_recipe("me", &NewRecipe {
//!     name: "Nightly triage".into(),
//!     engine: "claude".into(),
//!     prompt: "Triage the issues labelled {{label}}".into(),
//!     cwd: "/tmp".into(),
//!     ..NewRecipe::default()
//! }).unwrap();
//! let schedule = automations.create_schedule("me", &NewSchedule {
//!     recipe_id: recipe.id.clone(),
//!     cron: Some("30 2 * * *".into()),
//!     time_zone: "Europe/Berlin".into(),
//!     values: [("label".to_owned(), "bug".to_owned())].into(),
//!     ..NewSchedule::default()
//! }, false).unwrap();
//! assert_eq!(schedule.next_at.as_deref(), Some("2026-01-06T01:30:00.000Z"));
//! ```

mod automation_rule;
mod automation_rules;
mod dry_run;
pub mod due;
mod error;
pub mod ical;
pub mod problems;
pub mod recipe;
mod recipes;
pub mod rule;
mod run;
mod runs;
pub mod schedule;
mod schedules;
mod service;
mod stamp;
mod title;
pub mod trigger;

pub use automation_rule::{
    AutomationRule, FiringOutcome, ItemFollowUp, MAX_FIRINGS_PER_HOUR, NewRule, RuleAction,
    RuleFiring, RuleState,
};
pub use automation_rules::{Begun, FIRINGS_KEPT, RULE_MIGRATIONS};
pub use dry_run::RuleDryRun;
pub use due::{Decision, Due, decide};
pub use error::AutomationError;
pub use problems::{FieldProblem, Problems};
pub use recipe::{Isolation, NewRecipe, Recipe, folder_here, placeholders, render};
pub use rule::{Rule, Scan};
pub use run::{RecipeRun, RunEnd, RunState, Start, folder_problem};
pub use runs::{Origin, UNLAUNCHED};
pub use schedule::{Missed, NewSchedule, Schedule, Spec, State};
pub use service::Automations;
pub use stamp::{from_jiff, stamp, to_jiff};
pub use title::{MAX_TITLE_CHARS, event_about, run_title, values_about};
pub use trigger::{Cause, Event, ItemFacts, SessionOutcome, Trigger};

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[
    store::Migration {
        feature: "automations",
        // Times are the clock's stored form (UTC, milliseconds), so `next_at`
        // compares as text. A schedule keeps its rule as written after checks
        // (`kind` cron or rrule; an RRULE with its DTSTART line) and its
        // placeholder values as a JSON object. A tick of a schedule makes at
        // most one run: the partial unique index refuses a second.
        sql: "CREATE TABLE recipes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            name TEXT NOT NULL COLLATE NOCASE,
            engine TEXT NOT NULL,
            prompt TEXT NOT NULL,
            cwd TEXT NOT NULL,
            isolation TEXT,
            runner TEXT,
            permission_level TEXT,
            spend_cap_usd REAL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (account_id, name)
          ) STRICT;
          CREATE TABLE schedules (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            recipe_id TEXT NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            spec TEXT NOT NULL,
            time_zone TEXT NOT NULL,
            missed TEXT NOT NULL,
            state TEXT NOT NULL,
            created_by_agent INTEGER NOT NULL,
            placeholder_values TEXT NOT NULL,
            next_at TEXT,
            last_run_at TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX schedules_by_account ON schedules (account_id, seq);
          CREATE INDEX schedules_due ON schedules (state, next_at);
          CREATE INDEX schedules_by_recipe ON schedules (recipe_id);
          CREATE TABLE recipe_runs (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            recipe_id TEXT NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
            schedule_id TEXT REFERENCES schedules (id) ON DELETE SET NULL,
            scheduled_for TEXT,
            catch_up INTEGER NOT NULL,
            session_id TEXT,
            state TEXT NOT NULL,
            reason TEXT,
            started_at TEXT NOT NULL,
            ended_at TEXT
          ) STRICT;
          CREATE UNIQUE INDEX recipe_runs_once_per_tick
            ON recipe_runs (schedule_id, scheduled_for) WHERE schedule_id IS NOT NULL;
          CREATE INDEX recipe_runs_by_recipe ON recipe_runs (recipe_id, seq);
          CREATE INDEX recipe_runs_by_session ON recipe_runs (session_id)
            WHERE session_id IS NOT NULL;
          CREATE INDEX recipe_runs_by_state ON recipe_runs (state);",
    },
    store::Migration {
        feature: "automations",
        // Whether an agent's token made a recipe (every recipe before was
        // the user's), and the dollar cap a run's session was started under
        // (runs before had none applied).
        sql: "ALTER TABLE recipes ADD COLUMN created_by_agent INTEGER NOT NULL DEFAULT 0;
          ALTER TABLE recipe_runs ADD COLUMN spend_cap_usd REAL;",
    },
];
