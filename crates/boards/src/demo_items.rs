//! What each item of the demo workspace holds (`demo.rs` makes the boards):
//! its group, sprint, status, people and dates, and its other values.
//!
//! The dates say what the rest of the product reads off them:
//! - Sprint boards name their sprints after the sprint column's title
//!   ("Sprint 6", "Cycle 6"); every item of a past sprint is done, within it.
//! - An item is *planned* when it was made before its sprint began (the
//!   Planned-vs-unplanned widget compares the day an item was made with its
//!   sprint's first done day), so about four in five are made before it.
//! - Open items are due in the coming month, except the few each board
//!   names as overdue, which are the user's own (the inbox notices an
//!   overdue item only for the member it is assigned to).
//! - An agent task that no session ran is queued or done: one that failed,
//!   needs review or is running links to the session that failed, waits or
//!   runs, and names the repository that session works in.

use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use serde_json::{Map, Value, json};
use time::{Date, Duration};

use crate::columns::{ColumnType, label_names};
use crate::model::{Board, Column, NewItem};

/// An agent session the demo made, for an item of the agent-tasks board to
/// link to. The caller makes the sessions: this crate knows nothing of them.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentRun {
    pub session_id: String,
    /// The session's title, which names the item.
    pub title: String,
    pub prompt: String,
    pub outcome: RunOutcome,
    /// The day the session's turn ended.
    pub day: Date,
}

/// An agent task the demo links to its session, with what [`AgentRun`]
/// leaves out: where the session works, and whether its turn is under way.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoRun {
    pub run: AgentRun,
    /// The repository the session works in (`acme/web`), which the task's
    /// Repository names; else one of the demo's, at random.
    pub repository: Option<String>,
    /// Its turn is under way: the task says Running (`run.outcome` is where
    /// the session will leave it).
    pub running: bool,
}

impl From<&AgentRun> for DemoRun {
    fn from(run: &AgentRun) -> Self {
        DemoRun {
            run: run.clone(),
            repository: None,
            running: false,
        }
    }
}

/// Where an agent session left its task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOutcome {
    Done,
    Failed,
    /// The session waits for the user.
    NeedsReview,
}

impl RunOutcome {
    /// The task's label in the `first-agent-board` preset's status column.
    fn label(self) -> &'static str {
        match self {
            RunOutcome::Done => "Done",
            RunOutcome::Failed => "Failed",
            RunOutcome::NeedsReview => "Review",
        }
    }
}

/// What an agent task's Session cell holds: the address of the session's
/// page, which the web app shows as a link named by the session's title.
pub fn session_link(session_id: &str) -> String {
    format!("/sessions/{session_id}")
}

const SPRINTS: i64 = 6;
const SPRINT_DAYS: i64 = 14;
/// One sprint item in this many is made after its sprint began.
const UNPLANNED_EVERY: usize = 5;

/// The repository an item names: its session's, else one its name mentions
/// ("Review open pull requests on acme/mobile").
fn named_repository(plan: &Plan) -> Option<String> {
    plan.repository.clone().or_else(|| {
        let at = plan.name.find("acme/")?;
        let word = plan.name[at..].split_whitespace().next()?;
        Some(word.to_owned())
    })
}

fn pick<'s>(rng: &mut StdRng, options: &[&'s str]) -> &'s str {
    options.choose(rng).copied().unwrap_or_default()
}

fn date(d: Date) -> Value {
    Value::String(day_text(d))
}

fn day_text(d: Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
}

/// What the generator reads of a board once.
pub(crate) struct Shape<'b> {
    board: &'b Board,
    /// The sprint column's title ("Sprint", "Cycle"), which names its sprints.
    sprint_word: Option<&'b str>,
    /// The status column's labels, in order, and which of them mean done.
    labels: Vec<String>,
    done_labels: Vec<String>,
    /// Agent tasks: one that no session ran is queued or done.
    runs_sessions: bool,
}

impl<'b> Shape<'b> {
    pub(crate) fn of(board: &'b Board) -> Shape<'b> {
        let column = |id: &str| board.columns.iter().find(|c| c.id == id);
        let status = column("status");
        let done_labels = status
            .and_then(|c| c.settings["labels"].as_array())
            .into_iter()
            .flatten()
            .filter(|l| l["done"] == true)
            .filter_map(|l| l["name"].as_str().map(str::to_owned))
            .collect();
        Shape {
            board,
            sprint_word: column("sprint").map(|c| c.title.as_str()),
            labels: status.map(|c| label_names(&c.settings)).unwrap_or_default(),
            done_labels,
            runs_sessions: column("session").is_some(),
        }
    }

    fn open_labels(&self) -> Vec<&str> {
        self.labels
            .iter()
            .filter(|l| !self.done_labels.contains(l))
            .map(String::as_str)
            .collect()
    }

    /// The first label: what an item nobody has started says.
    fn first_label(&self) -> Option<&str> {
        self.labels.first().map(String::as_str)
    }

    fn group(&self, id: &str) -> Option<String> {
        self.board
            .groups
            .iter()
            .find(|g| g.id == id)
            .map(|g| g.id.clone())
    }
}

/// What an item is before its columns are filled. Days count from today.
struct Plan {
    name: String,
    group: Option<String>,
    sprint: Option<i64>,
    done: bool,
    /// The status label, when the plan decides it rather than `done`.
    status: Option<String>,
    due: Option<i64>,
    done_on: Option<i64>,
    /// The people, when the plan decides them rather than the team.
    people: Option<Vec<String>>,
    session: Option<String>,
    prompt: Option<String>,
    repository: Option<String>,
    /// Timestamps, as the items table keeps them.
    created: String,
    updated: String,
}

/// One item and when it was made and last changed, as the items table keeps them.
pub(crate) struct DemoItem {
    pub(crate) item: NewItem,
    pub(crate) created: String,
    pub(crate) updated: String,
}

/// Makes one board's items.
pub(crate) struct ItemGen<'a> {
    pub(crate) rng: &'a mut StdRng,
    pub(crate) today: Date,
    /// Member ids.
    pub(crate) team: &'a [&'a str],
    /// The account's own member: the one the inbox notices items for.
    pub(crate) me: Option<&'a str>,
    /// How many more open items are to be past their due date.
    pub(crate) overdue_left: usize,
    /// The items put in a sprint so far.
    pub(crate) sprint_items: usize,
    pub(crate) shape: Shape<'a>,
}

/// First and last day of sprint `n`: [`SPRINTS`] is the current one, a week
/// in, and sprint 1 the oldest.
fn sprint_days(n: i64) -> (i64, i64) {
    let end = SPRINT_DAYS * (n - SPRINTS) + 7;
    (end - SPRINT_DAYS + 1, end)
}

impl ItemGen<'_> {
    fn between(&mut self, from: i64, to: i64) -> i64 {
        self.rng.random_range(from.min(to)..=to.max(from))
    }

    fn day(&self, offset: i64) -> Date {
        self.today + Duration::days(offset)
    }

    /// A moment during working hours on day `offset`, as the items table keeps it.
    fn moment(&mut self, offset: i64) -> String {
        let hour = self.rng.random_range(8..18);
        let minute = self.rng.random_range(0..60);
        format!(
            "{}T{hour:02}:{minute:02}:00.000Z",
            day_text(self.day(offset))
        )
    }

    /// When an item was made and last changed: never today, whose working
    /// hours may still be ahead.
    fn stamps(&mut self, created: i64, updated: i64) -> (String, String) {
        let updated = updated.min(-1);
        let first = self.moment(created);
        let last = if updated > created {
            self.moment(updated)
        } else {
            first.clone()
        };
        (first, last)
    }

    /// One member of the team, now and then two; sometimes the user.
    fn people(&mut self) -> Vec<String> {
        if let Some(me) = self.me.filter(|_| self.rng.random_bool(0.12)) {
            return vec![me.to_owned()];
        }
        let count = if self.rng.random_bool(0.2) { 2 } else { 1 };
        self.team
            .choose_multiple(self.rng, count)
            .map(|m| (*m).to_owned())
            .collect()
    }

    /// An open item's due day: in the coming month, or past for the board's
    /// few overdue ones, which go to the user so the inbox shows them.
    fn open_due(&mut self, latest: i64) -> (i64, Option<Vec<String>>) {
        if self.overdue_left > 0 {
            self.overdue_left -= 1;
            let people = self.me.map(|me| vec![me.to_owned()]);
            return (self.between(-4, -1), people);
        }
        (self.between(1, latest), None)
    }

    /// The items for `runs` (agent tasks each session ran), then one per name.
    pub(crate) fn items(
        &mut self,
        runs: &[DemoRun],
        names: impl Iterator<Item = String>,
    ) -> Vec<DemoItem> {
        let mut plans: Vec<Plan> = runs.iter().map(|run| self.run_plan(run)).collect();
        for name in names {
            let plan = self.plan(name);
            plans.push(plan);
        }
        plans
            .into_iter()
            .map(|plan| DemoItem {
                item: self.item(&plan),
                created: plan.created,
                updated: plan.updated,
            })
            .collect()
    }

    fn plan(&mut self, name: String) -> Plan {
        if self.shape.sprint_word.is_some() {
            self.sprint_plan(name)
        } else {
            self.flat_plan(name)
        }
    }

    fn sprint_plan(&mut self, name: String) -> Plan {
        let queued = |shape: &Shape<'_>| shape.first_label().map(str::to_owned);
        if self.rng.random_bool(0.2) {
            // The backlog: in no sprint, not started, rarely dated.
            let created = self.between(-60, -1);
            let due = self.rng.random_bool(0.25).then(|| self.between(8, 30));
            let (created, updated) = self.stamps(created, created);
            return Plan {
                name,
                group: self.shape.group("backlog"),
                sprint: None,
                done: false,
                status: queued(&self.shape),
                due,
                done_on: None,
                people: None,
                session: None,
                prompt: None,
                repository: None,
                created,
                updated,
            };
        }
        let n = self.rng.random_range(1..=SPRINTS);
        let (start, end) = sprint_days(n);
        let current = n == SPRINTS;
        self.sprint_items += 1;
        let created = if !self.sprint_items.is_multiple_of(UNPLANNED_EVERY) {
            self.between(start - 14, start - 1)
        } else {
            // In its second week, by when its first item is done, and before today.
            let latest = (end - 1).min(-1);
            self.between((start + 7).min(latest - 1), latest)
        };
        let done = !current || self.rng.random_bool(0.4);
        // A task for an agent says what to ask it before any session runs it.
        let prompt = (self.shape.runs_sessions && !done)
            .then(|| format!("{name}. Say what you changed and what is left to decide."));
        let (due, done_on, people) = if done {
            let done_on = self.between(created.max(start), end.min(0));
            (end, Some(done_on), None)
        } else {
            let (due, people) = self.open_due(end);
            (due, None, people)
        };
        let (created, updated) = self.stamps(created, done_on.unwrap_or(created));
        Plan {
            group: if current {
                self.shape.board.groups.first().map(|g| g.id.clone())
            } else {
                self.shape.group("completed")
            },
            name,
            sprint: Some(n),
            done,
            status: (!done && self.shape.runs_sessions)
                .then(|| queued(&self.shape))
                .flatten(),
            due: Some(due),
            done_on,
            people,
            session: None,
            prompt,
            repository: None,
            created,
            updated,
        }
    }

    /// An item of a board without sprints: done ones in a closing group
    /// when the board has one.
    fn flat_plan(&mut self, name: String) -> Plan {
        let done = self.rng.random_bool(0.35);
        let closing = |id: &str| matches!(id, "completed" | "closed" | "done");
        let groups: Vec<String> = self
            .shape
            .board
            .groups
            .iter()
            .filter(|g| closing(&g.id) == done)
            .map(|g| g.id.clone())
            .collect();
        let group = groups
            .choose(self.rng)
            .cloned()
            .or_else(|| self.shape.board.groups.first().map(|g| g.id.clone()));
        let (created, due, people) = if done {
            (self.between(-60, -20), self.between(-19, -1), None)
        } else {
            let (due, people) = self.open_due(30);
            (self.between(-45, -1), due, people)
        };
        let (created, updated) = self.stamps(created, created);
        Plan {
            name,
            group,
            sprint: None,
            done,
            status: None,
            due: Some(due),
            done_on: None,
            people,
            session: None,
            prompt: None,
            repository: None,
            created,
            updated,
        }
    }

    /// An agent task that a demo session ran, in the current sprint.
    fn run_plan(&mut self, demo: &DemoRun) -> Plan {
        let run = &demo.run;
        let (start, end) = sprint_days(SPRINTS);
        let ran = (run.day - self.today).whole_days().clamp(start, 0);
        let done = run.outcome == RunOutcome::Done && !demo.running;
        let created = self.between(start - 14, start - 1);
        let (created, updated) = self.stamps(created, ran);
        Plan {
            name: run.title.clone(),
            group: self.shape.board.groups.first().map(|g| g.id.clone()),
            sprint: Some(SPRINTS),
            done,
            status: Some(
                if demo.running {
                    "Running"
                } else {
                    run.outcome.label()
                }
                .to_owned(),
            ),
            due: Some(if done { end } else { self.between(1, end) }),
            done_on: done.then_some(ran),
            people: None,
            session: Some(session_link(&run.session_id)),
            prompt: Some(run.prompt.clone()),
            repository: demo.repository.clone(),
            created,
            updated,
        }
    }

    fn item(&mut self, plan: &Plan) -> NewItem {
        let board = self.shape.board;
        let mut values = Map::new();
        for column in &board.columns {
            if let Some(value) = self.value(column, plan) {
                values.insert(column.id.clone(), value);
            }
        }
        NewItem {
            group_id: plan.group.clone(),
            name: plan.name.clone(),
            values,
        }
    }

    /// A plausible value for one column, or `None` to leave it empty.
    fn value(&mut self, column: &Column, plan: &Plan) -> Option<Value> {
        let labels: Vec<String> = label_names(&column.settings);
        Some(match (column.kind, column.id.as_str()) {
            (_, "sprint") => {
                let word = self.shape.sprint_word?;
                json!(format!("{word} {}", plan.sprint?))
            }
            (_, "session") => json!(plan.session.clone()?),
            (ColumnType::Status, "status") => match &plan.status {
                Some(label) => json!(label),
                None if plan.done => {
                    let done: Vec<&str> =
                        self.shape.done_labels.iter().map(String::as_str).collect();
                    json!(pick(self.rng, &done))
                }
                None => {
                    let open = self.shape.open_labels();
                    json!(pick(self.rng, &open))
                }
            },
            (ColumnType::Status, _) => {
                let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
                json!(pick(self.rng, &labels))
            }
            (ColumnType::Date, "due") => date(self.day(plan.due?)),
            (ColumnType::Date, "done_on") => date(self.day(plan.done_on?)),
            (ColumnType::Date, _) => {
                let offset = self.between(1, 30);
                date(self.day(offset))
            }
            (ColumnType::Number, "effort") => json!([1, 2, 3, 3, 5, 5, 8, 13].choose(self.rng)),
            (ColumnType::Number, "budget") => json!(self.rng.random_range(10..=500) * 500),
            (ColumnType::Number, "spent") => json!(self.rng.random_range(1..=400) * 250),
            (ColumnType::Number, "cost") => json!(self.rng.random_range(2..=300) * 25),
            (ColumnType::Number, _) => json!(self.rng.random_range(1..=40)),
            (ColumnType::People, "owner") => match &plan.people {
                Some(people) => json!(people),
                None => json!(self.people()),
            },
            (ColumnType::People, _) => json!(self.people()),
            (ColumnType::Timeline, _) => {
                let from = self.between(-60, 30);
                let to = from + self.rng.random_range(14..=120);
                json!({"from": date(self.day(from)), "to": date(self.day(to))})
            }
            (ColumnType::Checkbox, _) => json!(plan.done || self.rng.random_bool(0.3)),
            (ColumnType::Dropdown, "engine") if plan.session.is_some() => json!(["claude"]),
            (ColumnType::Dropdown, _) => {
                let options: Vec<&str> = column.settings["options"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let count = self.rng.random_range(1..=2);
                json!(options.choose_multiple(self.rng, count).collect::<Vec<_>>())
            }
            (ColumnType::Text, "prompt") => json!(plan.prompt.clone()?),
            (ColumnType::Text, "repository") if named_repository(plan).is_some() => {
                json!(named_repository(plan)?)
            }
            (ColumnType::Text, _) => self.text(&column.id)?,
        })
    }

    fn text(&mut self, column_id: &str) -> Option<Value> {
        let n = self.rng.random_range(100..2000);
        let text = match column_id {
            "pull_request" => format!("https://github.com/acme/platform/pull/{n}"),
            "repository" => pick(self.rng, &["acme/platform", "acme/web", "acme/mobile"]).into(),
            "epic" => format!(
                "EPIC-{} {}",
                n % 40,
                pick(
                    self.rng,
                    &["Checkout revamp", "Reliability", "Self-serve onboarding"]
                )
            ),
            "fix_version" => format!("v2.{}.0", n % 9),
            "project" => pick(
                self.rng,
                &["Q3 reliability", "New onboarding", "Billing v2"],
            )
            .into(),
            _ if self.rng.random_bool(0.6) => return None,
            _ => pick(
                self.rng,
                &[
                    "Waiting on design sign-off.",
                    "See the thread in #eng for context.",
                    "Customer asked for this twice.",
                    "Blocked by the vendor until next week.",
                    "Follow-up from the retro.",
                ],
            )
            .into(),
        };
        Some(Value::String(text))
    }
}
