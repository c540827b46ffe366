//! A rule's Test: what it would do if its event came now, in words, and
//! what would make that firing fail today (a recipe or its folder gone, a
//! placeholder nothing fills). A dry run: nothing is started, changed or
//! posted, so it is safe on a rule that moves items or starts sessions.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::automation_rule::RuleAction;
use crate::error::AutomationError;
use crate::recipes::find_recipe;
use crate::run::folder_problem;
use crate::service::Automations;
use crate::trigger::Trigger;

/// What a rule would do if its event came now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleDryRun {
    /// The event it waits for, in words.
    pub when: String,
    /// One sentence for each action, in order.
    pub would: Vec<String>,
    /// What would make a firing fail now; empty when nothing would.
    pub problems: Vec<String>,
}

impl Automations {
    /// The rule's Test: a dry run, in words (see the module).
    pub fn dry_run(&self, account_id: &str, rule_id: &str) -> Result<RuleDryRun, AutomationError> {
        let rule = self.rule(account_id, rule_id)?;
        self.db.read(|tx| {
            let mut would = Vec::new();
            let mut problems = Vec::new();
            for action in &rule.then {
                let recipe = match action {
                    RuleAction::StartRecipe { recipe_id, .. } => {
                        match find_recipe(tx, account_id, recipe_id) {
                            Ok(recipe) => Some(recipe),
                            Err(AutomationError::RecipeNotFound) => {
                                problems.push("The recipe it starts no longer exists.".to_owned());
                                None
                            }
                            Err(other) => return Err(other),
                        }
                    }
                    _ => None,
                };
                if let Some(recipe) = &recipe {
                    if let Some(why) = folder_problem(recipe) {
                        problems.push(format!("Its session would not start: {why}."));
                    }
                    if let RuleAction::StartRecipe { values, .. } = action {
                        let unfilled: Vec<String> = recipe
                            .placeholders
                            .iter()
                            .filter(|name| !values.contains_key(*name) && !fills(&rule.when, name))
                            .map(|name| format!("{{{{{name}}}}}"))
                            .collect();
                        if !unfilled.is_empty() {
                            problems.push(format!(
                                "Nothing would fill {} of the recipe's prompt.",
                                unfilled.join(", ")
                            ));
                        }
                    }
                }
                would.push(action_words(
                    action,
                    recipe.as_ref().map(|r| r.name.as_str()),
                ));
            }
            Ok(RuleDryRun {
                when: trigger_words(&rule.when),
                would,
                problems,
            })
        })
    }
}

/// Whether the event of `trigger` fills a placeholder of that name.
fn fills(trigger: &Trigger, name: &str) -> bool {
    match trigger {
        Trigger::ItemStatus { .. } => {
            name.starts_with("item.") || matches!(name, "board.id" | "status" | "column")
        }
        Trigger::ItemGroup { .. } => name.starts_with("item.") || name == "board.id",
        Trigger::Webhook { .. } => name == "title" || name.starts_with("body."),
        Trigger::SessionEnd { .. } => name.starts_with("session."),
        Trigger::Schedule { .. } => name.starts_with("schedule."),
    }
}

/// The event a rule waits for, in words.
pub fn trigger_words(trigger: &Trigger) -> String {
    match trigger {
        Trigger::Webhook { matches, .. } if matches.is_empty() => {
            "When its webhook gets a delivery".to_owned()
        }
        Trigger::Webhook { matches, .. } => {
            let conditions: Vec<String> =
                matches.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            format!(
                "When its webhook gets a delivery where {}",
                conditions.join(" and ")
            )
        }
        Trigger::ItemStatus { status, .. } => format!("When an item moves to “{status}”"),
        Trigger::ItemGroup { group_id, .. } => format!("When an item moves to group {group_id}"),
        Trigger::SessionEnd { outcome, .. } => {
            format!("When a session ends {}", outcome.as_str().replace('_', " "))
        }
        Trigger::Schedule { .. } => "When its schedule ticks".to_owned(),
    }
}

/// One action in words; `recipe` is the name of the recipe it starts.
fn action_words(action: &RuleAction, recipe: Option<&str>) -> String {
    match action {
        RuleAction::StartRecipe { values, item, .. } => {
            let name = recipe.map_or("a recipe that no longer exists".to_owned(), |n| {
                format!("“{n}”")
            });
            let mut words = format!("Start a session of the recipe {name}");
            if !values.is_empty() {
                let given: Vec<String> = values.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                words.push_str(&format!(" with {}", given.join(", ")));
            }
            if let Some(follow) = item {
                let moves: Vec<String> = [
                    ("as it starts", &follow.running_status),
                    ("when it finishes", &follow.finished_status),
                    ("when it fails", &follow.failed_status),
                ]
                .into_iter()
                .filter_map(|(when, status)| status.as_ref().map(|s| format!("to “{s}” {when}")))
                .collect();
                if !moves.is_empty() {
                    words.push_str(&format!(", and move the item {}", moves.join(", ")));
                }
            }
            words.push('.');
            words
        }
        RuleAction::UpdateItem { values } => {
            let columns: Vec<&str> = values.keys().map(String::as_str).collect();
            format!("Set {} of the item.", columns.join(", "))
        }
        RuleAction::MoveItem { group_id } => format!("Move the item to group {group_id}."),
        RuleAction::Inbox { title, .. } => format!("Post “{title}” to the inbox."),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_rule_is_said_in_words() {
        let when: Trigger = serde_json::from_value(
            json!({"kind": "item_status", "boardId": "b", "status": "Ready"}),
        )
        .unwrap();
        assert_eq!(trigger_words(&when), "When an item moves to “Ready”");
        let start: RuleAction = serde_json::from_value(json!({
            "kind": "start_recipe", "recipeId": "r", "values": {"label": "bug"},
            "item": {"finishedStatus": "Review", "failedStatus": "Failed"}
        }))
        .unwrap();
        assert_eq!(
            action_words(&start, Some("Triage")),
            "Start a session of the recipe “Triage” with label = bug, and move the item to \
             “Review” when it finishes, to “Failed” when it fails."
        );
        assert!(fills(&when, "item.name") && !fills(&when, "label"));
        let inbox: RuleAction =
            serde_json::from_value(json!({"kind": "inbox", "title": "CI failed"})).unwrap();
        assert_eq!(action_words(&inbox, None), "Post “CI failed” to the inbox.");
    }
}
