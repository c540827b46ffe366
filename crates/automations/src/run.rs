//! What a run of a recipe is (its wire shape and states), what starting
//! one hands the caller, and the check that its folder is still there.

use std::path::Path;

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::recipe::Recipe;

/// Where a run is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "RecipeRunState")]
#[schema(as = RecipeRunState)]
pub enum RunState {
    /// Its session is starting or running.
    Started,
    /// It could not start, or its session failed.
    Failed,
    /// Its session finished its work.
    Finished,
    /// Its session has waited for the user too long (the application's
    /// threshold, docs/automations.md). Not an end: the run still ends
    /// `finished`, `failed` or `incomplete` with its session.
    Stalled,
    /// Its session ended without finishing.
    Incomplete,
}

impl RunState {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            RunState::Started => "started",
            RunState::Failed => "failed",
            RunState::Finished => "finished",
            RunState::Stalled => "stalled",
            RunState::Incomplete => "incomplete",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [
            RunState::Started,
            RunState::Failed,
            RunState::Finished,
            RunState::Stalled,
            RunState::Incomplete,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }

    /// An end the user hears of: one inbox row (category `recipes`).
    pub fn needs_attention(self) -> bool {
        matches!(
            self,
            RunState::Failed | RunState::Stalled | RunState::Incomplete
        )
    }
}

/// How a run ended (a stalled run has not: `Automations::mark_stalled`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEnd {
    Finished,
    Failed,
    Incomplete,
}

impl From<RunEnd> for RunState {
    fn from(end: RunEnd) -> Self {
        match end {
            RunEnd::Finished => RunState::Finished,
            RunEnd::Failed => RunState::Failed,
            RunEnd::Incomplete => RunState::Incomplete,
        }
    }
}

/// One run of a recipe, by hand or on a schedule.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecipeRun {
    pub id: String,
    pub recipe_id: String,
    /// The schedule that started it; `null`: by hand (or the schedule is gone).
    pub schedule_id: Option<String>,
    /// The tick it stands for (RFC 3339, UTC), for a scheduled run.
    pub scheduled_for: Option<String>,
    /// It stands for ticks missed while the server was down.
    pub catch_up: bool,
    /// Its session, once one was started.
    pub session_id: Option<String>,
    pub state: RunState,
    /// Why it failed, stalled or ended incomplete.
    pub reason: Option<String>,
    /// The most its session may spend, in US dollars, as fixed when the
    /// session started; `null`: no cap (or no session yet).
    pub spend_cap_usd: Option<f64>,
    pub started_at: String,
    pub ended_at: Option<String>,
    #[serde(skip)]
    #[ts(skip)]
    #[schema(ignore)]
    pub account_id: String,
}

/// A run just recorded, for the caller to start its session.
#[derive(Debug, Clone, PartialEq)]
pub struct Start {
    pub run: RecipeRun,
    /// The recipe as it was when the run was recorded.
    pub recipe: Recipe,
    /// The prompt with its placeholders filled: start the session with it.
    /// `None` when the run already failed (`run.reason` says why; the
    /// caller makes its one inbox row).
    pub prompt: Option<String>,
    /// Ticks of its schedule that passed without a run of their own.
    pub passed_over: u64,
    /// What the run is about, for its session's title ([`Start::title`]):
    /// the values of its prompt's placeholders, or the event a rule
    /// answered ([`crate::event_about`]); `None`: nothing beyond the recipe.
    pub about: Option<String>,
}

/// Why a recipe's session cannot start in its folder, if it cannot. A
/// folder on a pool runner is the runner's to check.
pub fn folder_problem(recipe: &Recipe) -> Option<String> {
    if recipe.runner.is_some() {
        return None;
    }
    match std::fs::metadata(Path::new(&recipe.cwd)) {
        Ok(meta) if meta.is_dir() => None,
        Ok(_) => Some(format!(
            "the recipe's folder {} is not a folder",
            recipe.cwd
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(format!(
            "the recipe's folder {} no longer exists",
            recipe.cwd
        )),
        // The system's own words ("os error 13") say nothing to a person.
        Err(_) => Some(format!(
            "the recipe's folder {} cannot be opened",
            recipe.cwd
        )),
    }
}
