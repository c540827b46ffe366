//! When a rule fires: the [`Trigger`] a rule is written with, the
//! [`Event`] the server saw, whether one matches the other, and the event's
//! fields, which fill a started recipe's placeholders (`{{item.name}}`,
//! `{{body.workflow_run.head_branch}}`).
//!
//! Pure: no storage, no clock.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use utoipa::ToSchema;

/// How a session ended, as a `session_end` trigger names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "RuleSessionOutcome")]
pub enum SessionOutcome {
    Finished,
    Failed,
    /// It waits for the user's answer.
    NeedsUser,
}

impl SessionOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            SessionOutcome::Finished => "finished",
            SessionOutcome::Failed => "failed",
            SessionOutcome::NeedsUser => "needs_user",
        }
    }
}

/// What a rule waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(rename = "RuleTrigger")]
#[schema(as = RuleTrigger)]
pub enum Trigger {
    /// A delivery to one of the account's webhooks; with `match`, only one
    /// whose JSON body has each dotted path equal to its text (`{"action":
    /// "completed", "workflow_run.conclusion": "failure"}`).
    Webhook {
        #[serde(rename = "webhookId")]
        webhook_id: String,
        #[serde(default, rename = "match", skip_serializing_if = "BTreeMap::is_empty")]
        #[ts(as = "Option<BTreeMap<String, String>>", optional, rename = "match")]
        #[schema(required = false)]
        matches: BTreeMap<String, String>,
    },
    /// An item of the board moved into a status (its label's name, letter
    /// case aside) of `column`, or of any status column when it is absent.
    ItemStatus {
        #[serde(rename = "boardId")]
        board_id: String,
        status: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        column: Option<String>,
    },
    /// An item of the board moved into a group.
    ItemGroup {
        #[serde(rename = "boardId")]
        board_id: String,
        #[serde(rename = "groupId")]
        group_id: String,
    },
    /// A session of the account ended so, or (with `recipeId`) a session
    /// of that recipe's runs.
    SessionEnd {
        outcome: SessionOutcome,
        #[serde(default, rename = "recipeId", skip_serializing_if = "Option::is_none")]
        #[ts(optional, rename = "recipeId")]
        recipe_id: Option<String>,
    },
    /// A schedule of the account ticked.
    Schedule {
        #[serde(rename = "scheduleId")]
        schedule_id: String,
    },
}

impl Trigger {
    /// The trigger's `kind`, as the wire spells it.
    pub fn kind(&self) -> &'static str {
        match self {
            Trigger::Webhook { .. } => "webhook",
            Trigger::ItemStatus { .. } => "item_status",
            Trigger::ItemGroup { .. } => "item_group",
            Trigger::SessionEnd { .. } => "session_end",
            Trigger::Schedule { .. } => "schedule",
        }
    }
}

/// Which rule's action caused an event, so that rule is not fired by it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cause {
    /// The rule whose action wrote the item or started the session.
    pub rule_id: Option<String>,
}

/// A board item as an event carries it.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemFacts {
    pub board_id: String,
    pub item_id: String,
    pub name: String,
    pub group_id: String,
    /// The item's values by column id.
    pub values: serde_json::Map<String, Value>,
}

/// Something that happened, which rules may answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Webhook {
        webhook_id: String,
        title: String,
        /// The delivery's body, parsed when it was JSON (else `Null`).
        body: Value,
    },
    ItemStatus {
        item: ItemFacts,
        column: String,
        status: String,
        cause: Cause,
    },
    ItemGroup {
        item: ItemFacts,
        cause: Cause,
    },
    SessionEnd {
        session_id: String,
        title: String,
        outcome: SessionOutcome,
        /// The recipe whose run the session was, if any.
        recipe_id: Option<String>,
        /// The session's last words, when it had some.
        summary: Option<String>,
        cause: Cause,
    },
    Schedule {
        schedule_id: String,
        recipe_id: String,
    },
}

/// How deep into a webhook's body fields are read for placeholders.
const MAX_DEPTH: usize = 6;
/// How long one field's text may be; longer is cut.
const MAX_FIELD_CHARS: usize = 4_000;

impl Event {
    /// Whether `trigger` answers this event.
    pub fn matches(&self, trigger: &Trigger) -> bool {
        match (trigger, self) {
            (
                Trigger::Webhook {
                    webhook_id,
                    matches,
                },
                Event::Webhook {
                    webhook_id: got,
                    body,
                    ..
                },
            ) => {
                webhook_id == got
                    && matches
                        .iter()
                        .all(|(path, want)| lookup(body, path).is_some_and(|v| text(v) == *want))
            }
            (
                Trigger::ItemStatus {
                    board_id,
                    status,
                    column,
                },
                Event::ItemStatus {
                    item,
                    column: got_column,
                    status: got,
                    ..
                },
            ) => {
                *board_id == item.board_id
                    && column.as_ref().is_none_or(|c| c == got_column)
                    && status.trim().eq_ignore_ascii_case(got.trim())
            }
            (Trigger::ItemGroup { board_id, group_id }, Event::ItemGroup { item, .. }) => {
                *board_id == item.board_id && *group_id == item.group_id
            }
            (
                Trigger::SessionEnd { outcome, recipe_id },
                Event::SessionEnd {
                    outcome: got,
                    recipe_id: got_recipe,
                    ..
                },
            ) => {
                outcome == got
                    && recipe_id
                        .as_ref()
                        .is_none_or(|want| got_recipe.as_ref() == Some(want))
            }
            (
                Trigger::Schedule { schedule_id },
                Event::Schedule {
                    schedule_id: got, ..
                },
            ) => schedule_id == got,
            _ => false,
        }
    }

    /// The rule whose own action caused this event.
    pub fn caused_by(&self) -> Option<&str> {
        match self {
            Event::ItemStatus { cause, .. }
            | Event::ItemGroup { cause, .. }
            | Event::SessionEnd { cause, .. } => cause.rule_id.as_deref(),
            Event::Webhook { .. } | Event::Schedule { .. } => None,
        }
    }

    /// The board item the event is about.
    pub fn item(&self) -> Option<&ItemFacts> {
        match self {
            Event::ItemStatus { item, .. } | Event::ItemGroup { item, .. } => Some(item),
            _ => None,
        }
    }

    /// One line for the rule's history.
    pub fn describe(&self) -> String {
        match self {
            Event::Webhook { title, .. } => format!("webhook delivery: {title}"),
            Event::ItemStatus { item, status, .. } => {
                format!("{:?} moved to {status}", item.name)
            }
            Event::ItemGroup { item, .. } => {
                format!("{:?} moved to group {}", item.name, item.group_id)
            }
            Event::SessionEnd { title, outcome, .. } => {
                format!("session {title:?} {}", outcome.as_str())
            }
            Event::Schedule { schedule_id, .. } => format!("schedule {schedule_id} ticked"),
        }
    }

    /// The event's fields by name, for a started recipe's placeholders.
    pub fn fields(&self) -> BTreeMap<String, String> {
        let mut fields = BTreeMap::new();
        match self {
            Event::Webhook { title, body, .. } => {
                fields.insert("title".to_owned(), title.clone());
                flatten("body", body, 0, &mut fields);
            }
            Event::ItemStatus {
                item,
                status,
                column,
                ..
            } => {
                item_fields(item, &mut fields);
                fields.insert("status".to_owned(), status.clone());
                fields.insert("column".to_owned(), column.clone());
            }
            Event::ItemGroup { item, .. } => item_fields(item, &mut fields),
            Event::SessionEnd {
                session_id,
                title,
                outcome,
                summary,
                ..
            } => {
                fields.insert("session.id".to_owned(), session_id.clone());
                fields.insert("session.title".to_owned(), title.clone());
                fields.insert("session.outcome".to_owned(), outcome.as_str().to_owned());
                fields.insert(
                    "session.summary".to_owned(),
                    summary.clone().unwrap_or_default(),
                );
            }
            Event::Schedule {
                schedule_id,
                recipe_id,
            } => {
                fields.insert("schedule.id".to_owned(), schedule_id.clone());
                fields.insert("schedule.recipeId".to_owned(), recipe_id.clone());
            }
        }
        for value in fields.values_mut() {
            if value.chars().count() > MAX_FIELD_CHARS {
                *value = value.chars().take(MAX_FIELD_CHARS).collect();
            }
        }
        fields
    }
}

fn item_fields(item: &ItemFacts, fields: &mut BTreeMap<String, String>) {
    fields.insert("item.id".to_owned(), item.item_id.clone());
    fields.insert("item.name".to_owned(), item.name.clone());
    fields.insert("item.group".to_owned(), item.group_id.clone());
    fields.insert("board.id".to_owned(), item.board_id.clone());
    for (column, value) in &item.values {
        if !value.is_null() {
            fields.insert(format!("item.{column}"), text(value));
        }
    }
}

/// A JSON value as a placeholder shows it: strings bare, labels by name,
/// everything else as JSON.
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Object(map) => match map.get("label").or_else(|| map.get("name")) {
            Some(Value::String(label)) => label.clone(),
            _ => value.to_string(),
        },
        other => other.to_string(),
    }
}

fn lookup<'v>(body: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(body, |value, key| match value {
        Value::Object(map) => map.get(key),
        Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

fn flatten(prefix: &str, value: &Value, depth: usize, out: &mut BTreeMap<String, String>) {
    match value {
        Value::Object(map) if depth < MAX_DEPTH => {
            for (key, inner) in map {
                if crate::recipe::is_name(key) || key.chars().all(|c| c.is_ascii_digit()) {
                    flatten(&format!("{prefix}.{key}"), inner, depth + 1, out);
                }
            }
        }
        Value::Null => {}
        other => {
            out.insert(prefix.to_owned(), text(other));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn item(board: &str, group: &str) -> ItemFacts {
        ItemFacts {
            board_id: board.into(),
            item_id: "i1".into(),
            name: "Fix the login".into(),
            group_id: group.into(),
            values: json!({"status": {"label": "Ready for agent"}, "prompt": "Use OAuth"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        }
    }

    #[test]
    fn a_webhook_trigger_matches_its_hook_and_every_dotted_field() {
        let event = Event::Webhook {
            webhook_id: "h1".into(),
            title: "CI".into(),
            body: json!({"workflow_run": {"conclusion": "failure", "head_branch": "main"}, "n": 3}),
        };
        let trigger = |hook: &str, pairs: &[(&str, &str)]| Trigger::Webhook {
            webhook_id: hook.into(),
            matches: pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        };
        assert!(event.matches(&trigger("h1", &[])));
        assert!(event.matches(&trigger(
            "h1",
            &[("workflow_run.conclusion", "failure"), ("n", "3")]
        )));
        assert!(!event.matches(&trigger("h1", &[("workflow_run.conclusion", "success")])));
        assert!(!event.matches(&trigger("h1", &[("workflow_run.missing", "")])));
        assert!(!event.matches(&trigger("h2", &[])));
        let fields = event.fields();
        assert_eq!(fields["body.workflow_run.head_branch"], "main");
        assert_eq!(fields["title"], "CI");
    }

    #[test]
    fn an_item_trigger_matches_its_board_status_and_column() {
        let event = Event::ItemStatus {
            item: item("b1", "todo"),
            column: "status".into(),
            status: "Ready for agent".into(),
            cause: Cause::default(),
        };
        let on = |board: &str, status: &str, column: Option<&str>| Trigger::ItemStatus {
            board_id: board.into(),
            status: status.into(),
            column: column.map(str::to_owned),
        };
        assert!(event.matches(&on("b1", "ready for agent", None)));
        assert!(event.matches(&on("b1", "Ready for agent", Some("status"))));
        assert!(!event.matches(&on("b1", "Ready for agent", Some("stage"))));
        assert!(!event.matches(&on("b2", "Ready for agent", None)));
        assert!(!event.matches(&on("b1", "Review", None)));
        let fields = event.fields();
        assert_eq!(fields["item.name"], "Fix the login");
        assert_eq!(fields["item.prompt"], "Use OAuth");
        assert_eq!(fields["item.status"], "Ready for agent");
    }

    #[test]
    fn a_session_trigger_matches_its_outcome_and_recipe() {
        let event = Event::SessionEnd {
            session_id: "s1".into(),
            title: "Nightly".into(),
            outcome: SessionOutcome::Failed,
            recipe_id: Some("r1".into()),
            summary: None,
            cause: Cause::default(),
        };
        let on = |outcome, recipe: Option<&str>| Trigger::SessionEnd {
            outcome,
            recipe_id: recipe.map(str::to_owned),
        };
        assert!(event.matches(&on(SessionOutcome::Failed, None)));
        assert!(event.matches(&on(SessionOutcome::Failed, Some("r1"))));
        assert!(!event.matches(&on(SessionOutcome::Failed, Some("r2"))));
        assert!(!event.matches(&on(SessionOutcome::Finished, None)));
        assert!(!event.matches(&Trigger::Schedule {
            schedule_id: "s1".into()
        }));
    }

    #[test]
    fn a_triggers_kind_is_its_wire_tag() {
        for wire in [
            json!({"kind": "webhook", "webhookId": "h"}),
            json!({"kind": "item_status", "boardId": "b", "status": "s"}),
            json!({"kind": "item_group", "boardId": "b", "groupId": "g"}),
            json!({"kind": "session_end", "outcome": "failed"}),
            json!({"kind": "schedule", "scheduleId": "s"}),
        ] {
            let trigger: Trigger = serde_json::from_value(wire.clone()).unwrap();
            assert_eq!(trigger.kind(), wire["kind"]);
        }
    }

    #[test]
    fn triggers_read_and_write_the_wire_shape() {
        let trigger: Trigger = serde_json::from_value(json!({
            "kind": "webhook", "webhookId": "h1", "match": {"action": "opened"}
        }))
        .unwrap();
        assert_eq!(
            serde_json::to_value(&trigger).unwrap(),
            json!({"kind": "webhook", "webhookId": "h1", "match": {"action": "opened"}})
        );
        let trigger: Trigger = serde_json::from_value(json!({
            "kind": "item_status", "boardId": "b1", "status": "Ready for agent"
        }))
        .unwrap();
        assert!(matches!(trigger, Trigger::ItemStatus { column: None, .. }));
        assert!(serde_json::from_value::<Trigger>(json!({"kind": "moon"})).is_err());
    }
}
