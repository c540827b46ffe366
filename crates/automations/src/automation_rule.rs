//! What an automation rule is (when a [`Trigger`] happens, do its
//! [`RuleAction`]s), its states, the record of each firing, and the checks
//! on the fields that make one: pure, no storage.
//!
//! A rule that would plainly start itself again (it moves an item into the
//! status or group that fires it; a session-end rule starts the very
//! recipe whose end fires it) is refused when it is written. At run time a
//! rule's own actions never fire it, and [`MAX_FIRINGS_PER_HOUR`] caps what
//! a chain of rules can still do.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::AutomationError;
use crate::problems::Problems;
use crate::recipe::MAX_PROMPT_BYTES;
use crate::trigger::Trigger;

/// A rule fires at most this often in any hour; past it each event is
/// recorded skipped, and the first of them tells the inbox.
pub const MAX_FIRINGS_PER_HOUR: u32 = 30;
pub const MAX_NAME_CHARS: usize = 100;
pub const MAX_ACTIONS: usize = 10;
pub const MAX_TITLE_CHARS: usize = 200;

/// What the item of a `start_recipe` rule becomes: the session's id as it
/// starts, the session's last words and a status as it ends. Columns
/// default to `session`, `summary` and `status` where the board has them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct ItemFollowUp {
    pub session_column: Option<String>,
    pub summary_column: Option<String>,
    pub status_column: Option<String>,
    /// The status the item moves to as the session starts.
    pub running_status: Option<String>,
    /// The status the item moves to when the session finishes.
    pub finished_status: Option<String>,
    /// The status the item moves to when the session fails or stops.
    pub failed_status: Option<String>,
}

/// What a rule does when it fires.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RuleAction {
    /// Runs a recipe. Its placeholders take the event's fields of the same
    /// name (`{{item.name}}`), then `values`, whose texts may name event
    /// fields themselves (`"branch": "{{body.ref}}"`).
    StartRecipe {
        #[serde(rename = "recipeId")]
        recipe_id: String,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        #[ts(as = "Option<BTreeMap<String, String>>", optional)]
        #[schema(required = false)]
        values: BTreeMap<String, String>,
        /// For an item trigger: how the item follows the session.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        item: Option<ItemFollowUp>,
    },
    /// Sets values of the event's item (column id → value, as
    /// `PATCH /items/{id}` takes them).
    UpdateItem {
        #[ts(type = "Record<string, unknown>")]
        #[schema(value_type = Object)]
        values: serde_json::Map<String, Value>,
    },
    /// Moves the event's item to a group of its board.
    MoveItem {
        #[serde(rename = "groupId")]
        group_id: String,
    },
    /// Posts a note to the inbox.
    Inbox {
        title: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        body: Option<String>,
    },
}

/// What `POST /rules` and `PUT /rules/{id}` carry.
#[derive(Debug, Clone, PartialEq, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewRule {
    pub name: String,
    pub when: Trigger,
    pub then: Vec<RuleAction>,
}

/// A rule's state: one an agent made waits for the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "RuleState")]
#[schema(as = RuleState)]
pub enum RuleState {
    Active,
    Pending,
    Paused,
}

impl RuleState {
    pub fn as_str(self) -> &'static str {
        match self {
            RuleState::Active => "active",
            RuleState::Pending => "pending",
            RuleState::Paused => "paused",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<RuleState> {
        [RuleState::Active, RuleState::Pending, RuleState::Paused]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// A rule as the API gives it.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "Rule")]
#[schema(as = Rule)]
pub struct AutomationRule {
    pub id: String,
    #[serde(skip)]
    #[ts(skip)]
    pub account_id: String,
    pub name: String,
    pub state: RuleState,
    pub created_by_agent: bool,
    pub when: Trigger,
    pub then: Vec<RuleAction>,
    pub created_at: String,
    pub updated_at: String,
    pub last_fired_at: Option<String>,
}

/// How a firing went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FiringOutcome {
    /// Its session runs; the item follows when it ends.
    Started,
    Done,
    /// Not acted on: the rule was at its hourly cap.
    Skipped,
    Failed,
}

impl FiringOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            FiringOutcome::Started => "started",
            FiringOutcome::Done => "done",
            FiringOutcome::Skipped => "skipped",
            FiringOutcome::Failed => "failed",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<FiringOutcome> {
        [
            FiringOutcome::Started,
            FiringOutcome::Done,
            FiringOutcome::Skipped,
            FiringOutcome::Failed,
        ]
        .into_iter()
        .find(|o| o.as_str() == text)
    }
}

/// One time a rule fired, for its history.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleFiring {
    pub id: String,
    pub rule_id: String,
    pub at: String,
    /// The event, in one line.
    pub event: String,
    pub outcome: FiringOutcome,
    pub reason: Option<String>,
    pub session_id: Option<String>,
    pub run_id: Option<String>,
    pub item_id: Option<String>,
    #[serde(skip)]
    #[ts(skip)]
    pub follow_up: Option<ItemFollowUp>,
}

impl NewRule {
    /// The fields trimmed and checked, or every problem found.
    pub fn validate(&self) -> Result<NewRule, AutomationError> {
        let mut problems = Problems::new();
        let name = self.name.trim();
        if name.is_empty() {
            problems.add("name", "Give the rule a name.");
        } else if name.chars().count() > MAX_NAME_CHARS {
            problems.add(
                "name",
                format!("The name can be at most {MAX_NAME_CHARS} characters."),
            );
        }
        check_trigger(&self.when, &mut problems);
        if self.then.is_empty() {
            problems.add("then", "Add at least one thing for the rule to do.");
        } else if self.then.len() > MAX_ACTIONS {
            problems.add("then", format!("A rule does at most {MAX_ACTIONS} things."));
        }
        let has_item = matches!(
            self.when,
            Trigger::ItemStatus { .. } | Trigger::ItemGroup { .. }
        );
        for action in &self.then {
            check_action(action, has_item, &mut problems);
            if let Some(why) = starts_itself(&self.when, action) {
                problems.add(
                    "then",
                    format!("The rule would start itself in a loop: {why}."),
                );
            }
        }
        problems.or(|| NewRule {
            name: name.to_owned(),
            when: self.when.clone(),
            then: self.then.clone(),
        })
    }
}

fn required(problems: &mut Problems, field: &'static str, value: &str, ask: &str) {
    if value.trim().is_empty() {
        problems.add(field, ask);
    }
}

fn check_trigger(trigger: &Trigger, problems: &mut Problems) {
    match trigger {
        Trigger::Webhook {
            webhook_id,
            matches,
        } => {
            required(
                problems,
                "when.webhookId",
                webhook_id,
                "Choose the webhook.",
            );
            if matches
                .keys()
                .any(|path| path.split('.').any(str::is_empty))
            {
                problems.add(
                    "when.match",
                    "Each key is a dotted path into the delivery's JSON, such as workflow_run.conclusion.",
                );
            }
        }
        Trigger::ItemStatus {
            board_id, status, ..
        } => {
            required(problems, "when.boardId", board_id, "Choose the board.");
            required(problems, "when.status", status, "Choose the status.");
        }
        Trigger::ItemGroup { board_id, group_id } => {
            required(problems, "when.boardId", board_id, "Choose the board.");
            required(problems, "when.groupId", group_id, "Choose the group.");
        }
        Trigger::SessionEnd { .. } => {}
        Trigger::Schedule { schedule_id } => {
            required(
                problems,
                "when.scheduleId",
                schedule_id,
                "Choose the schedule.",
            );
        }
    }
}

fn check_action(action: &RuleAction, has_item: bool, problems: &mut Problems) {
    let needs_item = "This acts on the event's item, and only a rule on an item's status or \
                      group has one.";
    match action {
        RuleAction::StartRecipe {
            recipe_id,
            values,
            item,
        } => {
            required(
                problems,
                "then.recipeId",
                recipe_id,
                "Choose the recipe to start.",
            );
            if values.values().map(String::len).sum::<usize>() > MAX_PROMPT_BYTES {
                problems.add(
                    "then.values",
                    format!("The values can be at most {MAX_PROMPT_BYTES} bytes together."),
                );
            }
            if item.is_some() && !has_item {
                problems.add("then", needs_item);
            }
        }
        RuleAction::UpdateItem { values } => {
            if !has_item {
                problems.add("then", needs_item);
            }
            if values.is_empty() {
                problems.add("then.values", "Set at least one value.");
            }
        }
        RuleAction::MoveItem { group_id } => {
            if !has_item {
                problems.add("then", needs_item);
            }
            required(
                problems,
                "then.groupId",
                group_id,
                "Choose the group to move the item to.",
            );
        }
        RuleAction::Inbox { title, body } => {
            let title = title.trim();
            if title.is_empty() {
                problems.add("then.title", "Give the inbox row a title.");
            } else if title.chars().count() > MAX_TITLE_CHARS {
                problems.add(
                    "then.title",
                    format!("The title can be at most {MAX_TITLE_CHARS} characters."),
                );
            }
            if body.as_ref().is_some_and(|b| b.len() > MAX_PROMPT_BYTES) {
                problems.add(
                    "then.body",
                    format!("The body can be at most {MAX_PROMPT_BYTES} bytes."),
                );
            }
        }
    }
}

/// Why `action` would fire `trigger` again, if it plainly would.
fn starts_itself(trigger: &Trigger, action: &RuleAction) -> Option<String> {
    match (trigger, action) {
        (Trigger::ItemStatus { status, column, .. }, RuleAction::UpdateItem { values }) => values
            .iter()
            .filter(|(key, _)| column.as_ref().is_none_or(|c| c == *key))
            .any(|(_, value)| label_is(value, status))
            .then(|| format!("it moves the item into {status:?}, which fires it")),
        (
            Trigger::ItemStatus { status, .. },
            RuleAction::StartRecipe {
                item: Some(follow), ..
            },
        ) => [
            &follow.running_status,
            &follow.finished_status,
            &follow.failed_status,
        ]
        .into_iter()
        .flatten()
        .any(|to| to.trim().eq_ignore_ascii_case(status.trim()))
        .then(|| format!("the item goes back to {status:?} when its session ends")),
        (Trigger::ItemGroup { group_id, .. }, RuleAction::MoveItem { group_id: to }) => {
            (group_id == to).then(|| format!("it moves the item into group {to}, which fires it"))
        }
        (
            Trigger::SessionEnd { recipe_id, .. },
            RuleAction::StartRecipe {
                recipe_id: runs, ..
            },
        ) => recipe_id
            .as_ref()
            .is_none_or(|id| id == runs)
            .then(|| "the session it starts ends and fires it again".to_owned()),
        _ => None,
    }
}

fn label_is(value: &Value, status: &str) -> bool {
    let label = match value {
        Value::String(label) => Some(label.as_str()),
        Value::Object(map) => map.get("label").and_then(Value::as_str),
        _ => None,
    };
    label.is_some_and(|l| l.trim().eq_ignore_ascii_case(status.trim()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::trigger::SessionOutcome;

    fn rule(when: Value, then: Value) -> Result<NewRule, AutomationError> {
        let rule: NewRule =
            serde_json::from_value(json!({"name": " Agent loop ", "when": when, "then": then}))
                .unwrap();
        rule.validate()
    }

    #[test]
    fn the_board_loop_is_a_valid_rule() {
        let ok = rule(
            json!({"kind": "item_status", "boardId": "b1", "status": "Ready for agent"}),
            json!([{"kind": "start_recipe", "recipeId": "r1",
                    "item": {"finishedStatus": "Review", "failedStatus": "Failed"}}]),
        )
        .unwrap();
        assert_eq!(ok.name, "Agent loop");
    }

    #[test]
    fn item_actions_need_an_item_trigger() {
        let error = rule(
            json!({"kind": "webhook", "webhookId": "h1"}),
            json!([{"kind": "move_item", "groupId": "done"}]),
        )
        .unwrap_err();
        assert_eq!(error.field(), Some("then"));
        let error = rule(json!({"kind": "webhook", "webhookId": "h1"}), json!([])).unwrap_err();
        assert_eq!(error.field(), Some("then"));
        let error = rule(
            json!({"kind": "webhook", "webhookId": " "}),
            json!([{"kind": "inbox", "title": "CI failed"}]),
        )
        .unwrap_err();
        assert_eq!(error.field(), Some("when.webhookId"));
    }

    #[test]
    fn rules_that_start_themselves_are_refused() {
        for (when, then) in [
            (
                json!({"kind": "item_status", "boardId": "b", "status": "Ready"}),
                json!([{"kind": "update_item", "values": {"status": {"label": "ready"}}}]),
            ),
            (
                json!({"kind": "item_status", "boardId": "b", "status": "Ready"}),
                json!([{"kind": "start_recipe", "recipeId": "r",
                        "item": {"finishedStatus": "Ready"}}]),
            ),
            (
                json!({"kind": "item_group", "boardId": "b", "groupId": "g"}),
                json!([{"kind": "move_item", "groupId": "g"}]),
            ),
            (
                json!({"kind": "session_end", "outcome": "failed"}),
                json!([{"kind": "start_recipe", "recipeId": "r"}]),
            ),
            (
                json!({"kind": "session_end", "outcome": "failed", "recipeId": "r"}),
                json!([{"kind": "start_recipe", "recipeId": "r"}]),
            ),
        ] {
            let error = rule(when.clone(), then).unwrap_err();
            assert!(error.to_string().contains("loop"), "{when}: {error}");
        }
        // Another recipe's failure may start an investigation.
        assert!(
            rule(
                json!({"kind": "session_end", "outcome": SessionOutcome::Failed, "recipeId": "nightly"}),
                json!([{"kind": "start_recipe", "recipeId": "investigate"}]),
            )
            .is_ok()
        );
    }

    #[test]
    fn every_problem_of_a_rule_is_said_at_once() {
        let error = rule(
            json!({"kind": "item_status", "boardId": "", "status": " "}),
            json!([{"kind": "inbox", "title": ""}, {"kind": "move_item", "groupId": ""}]),
        )
        .unwrap_err();
        let AutomationError::Fields(list) = error else {
            panic!("not a list of fields");
        };
        let said: Vec<(&str, &str)> = list.iter().map(|p| (p.field, p.message.as_str())).collect();
        assert_eq!(
            said,
            [
                ("when.boardId", "Choose the board."),
                ("when.status", "Choose the status."),
                ("then.title", "Give the inbox row a title."),
                ("then.groupId", "Choose the group to move the item to."),
            ]
        );
    }
}
