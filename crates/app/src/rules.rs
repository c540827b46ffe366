//! Automation rules at work (docs/automations.md): making them (an
//! agent's waits for approval behind an `automations` inbox row; a session
//! a rule started may make none), and firing them: each rule an event
//! fires is recorded under its hourly cap, then its actions run in order
//! (start a recipe through the same spawn path as `POST /sessions`, update
//! or move the event's item, post a `note` to the inbox). What the events
//! are and where they come from is `rule_events.rs`.
//!
//! A rule's writes are made as `rule:<id>`, so the item events they cause
//! carry their rule and never fire it again; a session a rule started ends
//! as that rule's, for the same reason. A rule's sessions are the user's
//! own automation (`Via::Automation`): spaced and counted under the spawn
//! rules and the governor, never refused by `agentDrivenSessionsEnabled`.

use std::collections::BTreeMap;

use automations::{
    AutomationError, AutomationRule, Begun, Event, FiringOutcome, ItemFollowUp, NewRule,
    RuleAction, RuleFiring, Trigger, render,
};
use boards::Board;
use inbox::{Action, Category, NewRow};
use serde_json::{Map, Value};
use sessions::{Caller, SpawnPolicy, Via};

use crate::error::{AppError, AppResult, blocking};
use crate::rule_items::{board, status_label, text_column, write_item};
use crate::services::App;

/// How a firing's actions went.
struct Settled {
    outcome: FiringOutcome,
    reason: Option<String>,
    /// The session the first `start_recipe` started, its run, and how the
    /// event's item follows it.
    started: Option<(String, String, Option<ItemFollowUp>)>,
}

impl App {
    /// Makes a rule. One an agent made waits, `pending`, behind one
    /// `automations` inbox row that approves it; a session that a rule
    /// started (`source_session`) may make none, so rules never make rules.
    pub async fn create_rule(
        &self,
        account: &str,
        source_session: Option<&str>,
        fields: NewRule,
        by_agent: bool,
    ) -> AppResult<AutomationRule> {
        self.refuse_rule_sessions(source_session).await?;
        let fields = self.check_references(account, fields).await?;
        let automations = self.automations.clone();
        let owner = account.to_owned();
        let rule = blocking(move || automations.create_rule(&owner, &fields, by_agent)).await?;
        if by_agent {
            self.ask_to_approve(&rule).await;
        }
        Ok(rule)
    }

    /// Replaces a rule's name, trigger and actions; an agent's change
    /// sends an active rule back for approval.
    pub async fn replace_rule(
        &self,
        account: &str,
        source_session: Option<&str>,
        id: &str,
        fields: NewRule,
        by_agent: bool,
    ) -> AppResult<AutomationRule> {
        self.refuse_rule_sessions(source_session).await?;
        let fields = self.check_references(account, fields).await?;
        let automations = self.automations.clone();
        let (owner, id) = (account.to_owned(), id.to_owned());
        let rule =
            blocking(move || automations.replace_rule(&owner, &id, &fields, by_agent)).await?;
        if by_agent && rule.state == automations::RuleState::Pending {
            self.ask_to_approve(&rule).await;
        }
        Ok(rule)
    }

    async fn refuse_rule_sessions(&self, source_session: Option<&str>) -> AppResult<()> {
        let Some(session) = source_session.map(str::to_owned) else {
            return Ok(());
        };
        let automations = self.automations.clone();
        if blocking(move || automations.firing_for_session(&session))
            .await?
            .is_some()
        {
            return Err(AppError::Forbidden(
                "A session that a rule started cannot make or change rules.".to_owned(),
            ));
        }
        Ok(())
    }

    /// Every board, hook, schedule and recipe the rule names is the
    /// account's, so a typo is a 400 now rather than a rule that never fires.
    async fn check_references(&self, account: &str, fields: NewRule) -> AppResult<NewRule> {
        let fields = fields.validate()?;
        let (db, hooks, automations) = (
            self.db.clone(),
            self.webhooks.clone(),
            self.automations.clone(),
        );
        let owner = account.to_owned();
        blocking(move || {
            let unknown = |field: &'static str, what: &str| AutomationError::Invalid {
                field,
                message: format!("names no {what} of this account"),
            };
            // Not found is the request's fault; a failed read is not.
            let missing = |error: AutomationError, field, what: &str| match error {
                AutomationError::RecipeNotFound | AutomationError::ScheduleNotFound => {
                    unknown(field, what)
                }
                other => other,
            };
            match &fields.when {
                Trigger::Webhook { webhook_id, .. } => {
                    let known = hooks.list(&owner)?;
                    if !known.iter().any(|hook| hook.id == *webhook_id) {
                        return Err(unknown("when.webhookId", "webhook").into());
                    }
                }
                Trigger::ItemStatus { board_id, .. } | Trigger::ItemGroup { board_id, .. } => {
                    match boards::get_board(&db, &owner, board_id) {
                        Ok(_) => {}
                        Err(boards::BoardsError::NotFound { .. }) => {
                            return Err(unknown("when.boardId", "board").into());
                        }
                        Err(other) => return Err(other.into()),
                    }
                }
                Trigger::SessionEnd {
                    recipe_id: Some(recipe_id),
                    ..
                } => {
                    automations
                        .recipe(&owner, recipe_id)
                        .map_err(|e| missing(e, "when.recipeId", "recipe"))?;
                }
                Trigger::SessionEnd { .. } => {}
                Trigger::Schedule { schedule_id } => {
                    automations
                        .schedule(&owner, schedule_id)
                        .map_err(|e| missing(e, "when.scheduleId", "schedule"))?;
                }
            }
            for action in &fields.then {
                if let RuleAction::StartRecipe { recipe_id, .. } = action {
                    automations
                        .recipe(&owner, recipe_id)
                        .map_err(|e| missing(e, "then.recipeId", "recipe"))?;
                }
            }
            Ok::<_, AppError>(fields)
        })
        .await
    }

    async fn ask_to_approve(&self, rule: &AutomationRule) {
        let mut row = NewRow::new(
            Category::Automations,
            format!("An agent asks to add the rule {}", rule.name),
        );
        row.body = Some(format!(
            "When: {}. Then: {}. It does nothing until you approve it (POST /rules/{}/approve).",
            serde_json::to_string(&rule.when).unwrap_or_default(),
            serde_json::to_string(&rule.then).unwrap_or_default(),
            rule.id
        ));
        row.reason = Some("rule_approval".to_owned());
        row.actions = vec![Action::ApproveRule {
            rule_id: rule.id.clone(),
        }];
        row.dedup_key = Some(format!("rule-approval:{}:{}", rule.id, rule.updated_at));
        crate::publish::add_row(self, &rule.account_id, row).await;
    }

    /// Fires every active rule of the account that `event` fires.
    pub async fn fire_rules(&self, account: &str, event: Event) {
        let automations = self.automations.clone();
        let (owner, seen) = (account.to_owned(), event.clone());
        let rules = match blocking(move || automations.rules_for(&owner, &seen)).await {
            Ok(rules) => rules,
            Err(error) => {
                tracing::warn!(%error, "the rules an event fires were not read");
                return;
            }
        };
        for rule in rules {
            self.fire(&rule, &event).await;
        }
    }

    async fn fire(&self, rule: &AutomationRule, event: &Event) {
        let automations = self.automations.clone();
        let (held, seen) = (rule.clone(), event.clone());
        let firing = match blocking(move || automations.begin_firing(&held, &seen)).await {
            Ok(Begun::Act(firing)) => firing,
            Ok(Begun::Capped { first }) => {
                if first {
                    self.tell_capped(rule).await;
                }
                return;
            }
            Err(error) => {
                tracing::warn!(%error, rule = %rule.id, "a rule's firing was not recorded");
                return;
            }
        };
        let settled = self.act(rule, &firing, event).await;
        let session = settled.started.as_ref().map(|(id, _, _)| id.clone());
        let automations = self.automations.clone();
        let id = firing.id.clone();
        let recorded = blocking(move || {
            let started = settled
                .started
                .as_ref()
                .map(|(session, run, follow)| (session.as_str(), run.as_str(), follow.as_ref()));
            automations.settle_firing(&id, settled.outcome, settled.reason.as_deref(), started)
        })
        .await;
        if let Err(error) = recorded {
            tracing::warn!(%error, rule = %rule.id, "a rule's firing was not settled");
        }
        if let Some(session) = session {
            crate::rule_events::follow_if_ended(self, &rule.account_id, &session).await;
        }
    }

    /// Runs the rule's actions in order; the first that fails ends the firing.
    async fn act(&self, rule: &AutomationRule, firing: &RuleFiring, event: &Event) -> Settled {
        let fields = event.fields();
        let mut started = None;
        for action in &rule.then {
            let done = match action {
                RuleAction::StartRecipe {
                    recipe_id,
                    values,
                    item,
                } => {
                    match self
                        .start_for_rule(rule, event, recipe_id, values, item.as_ref(), &fields)
                        .await
                    {
                        Ok(session) => {
                            started = started.or(Some(session));
                            Ok(())
                        }
                        Err(reason) => Err(reason),
                    }
                }
                RuleAction::UpdateItem { values } => {
                    self.change_item(rule, event, values.clone(), None).await
                }
                RuleAction::MoveItem { group_id } => {
                    self.change_item(rule, event, Map::new(), Some(group_id.clone()))
                        .await
                }
                RuleAction::Inbox { title, body } => {
                    let fill =
                        |text: &str| render(text, &fields).unwrap_or_else(|_| text.to_owned());
                    let mut row = NewRow::new(Category::Note, fill(title));
                    row.body = body.as_deref().map(fill);
                    row.reason = Some(format!("rule:{}", rule.id));
                    if let Some(item) = event.item() {
                        row.actions = vec![Action::OpenItem {
                            board_id: item.board_id.clone(),
                            item_id: item.item_id.clone(),
                        }];
                    }
                    crate::publish::add_row(self, &rule.account_id, row).await;
                    Ok(())
                }
            };
            if let Err(reason) = done {
                tracing::info!(rule = %rule.id, firing = %firing.id, %reason, "a rule's action failed");
                return Settled {
                    outcome: FiringOutcome::Failed,
                    reason: Some(reason),
                    started,
                };
            }
        }
        Settled {
            outcome: if started.is_some() {
                FiringOutcome::Started
            } else {
                FiringOutcome::Done
            },
            reason: None,
            started,
        }
    }

    /// Starts the recipe's run as the user's own automation (an active
    /// rule is one the user made or approved) and ties the event's item to
    /// its session.
    async fn start_for_rule(
        &self,
        rule: &AutomationRule,
        event: &Event,
        recipe_id: &str,
        values: &BTreeMap<String, String>,
        follow: Option<&ItemFollowUp>,
        fields: &BTreeMap<String, String>,
    ) -> Result<(String, String, Option<ItemFollowUp>), String> {
        let mut filled = fields.clone();
        for (name, template) in values {
            let value = render(template, fields).map_err(|e| format!("values.{name}: {e}"))?;
            filled.insert(name.clone(), value);
        }
        let automations = self.automations.clone();
        let (owner, recipe) = (rule.account_id.clone(), recipe_id.to_owned());
        let mut start = blocking(move || automations.run_now(&owner, &recipe, &filled))
            .await
            .map_err(|e| format!("the recipe did not run: {e}"))?;
        start.about = Some(automations::event_about(event));
        let run_id = start.run.id.clone();
        let caller = Caller {
            account_id: rule.account_id.clone(),
            via: Via::Automation,
            source_session_header: None,
        };
        let policy = SpawnPolicy {
            require_spawn_source_session: false,
            ..self.spawn_policy()
        };
        let follow = event.item().map(|_| follow.cloned().unwrap_or_default());
        // Its placeholders may come from a delivery: a rule's run has an
        // agent's hand in it, so its level is at most the agents' setting.
        let session_id = match self.launch(start, &caller, &policy, true).await {
            Ok(session_id) => session_id,
            Err(not_started) => {
                let reason = format!("the recipe's session did not start: {}", not_started.reason);
                if let Some(follow) = &follow {
                    self.item_not_started(rule, event, follow, &reason).await?;
                }
                return Err(reason);
            }
        };
        if let Some(follow) = &follow {
            let board = self.board_of(&rule.account_id, event).await?;
            let mut values = Map::new();
            if let Some(column) = text_column(&board, follow.session_column.as_deref(), "session") {
                values.insert(column, Value::from(boards::session_link(&session_id)));
            }
            if let Some(status) = &follow.running_status {
                let (column, label) =
                    status_label(&board, follow.status_column.as_deref(), status)?;
                values.insert(column, Value::from(label));
            }
            if !values.is_empty() {
                self.change_item(rule, event, values, None).await?;
            }
        }
        Ok((session_id, run_id, follow))
    }

    /// The event's item takes the rule's failed status, and the reason in
    /// its summary column, when the run's session could not start: the
    /// item must not sit in the status that asked for an agent as if one
    /// were on it.
    async fn item_not_started(
        &self,
        rule: &AutomationRule,
        event: &Event,
        follow: &ItemFollowUp,
        reason: &str,
    ) -> Result<(), String> {
        let board = self.board_of(&rule.account_id, event).await?;
        let mut values = Map::new();
        if let Some(status) = &follow.failed_status {
            let (column, label) = status_label(&board, follow.status_column.as_deref(), status)?;
            values.insert(column, Value::from(label));
        }
        if let Some(column) = text_column(&board, follow.summary_column.as_deref(), "summary") {
            values.insert(column, Value::from(reason));
        }
        if values.is_empty() {
            return Ok(());
        }
        self.change_item(rule, event, values, None).await
    }

    async fn board_of(&self, account: &str, event: &Event) -> Result<Board, String> {
        let item = event
            .item()
            .ok_or_else(|| "the event has no item".to_owned())?;
        board(self, account, &item.board_id).await
    }

    /// Writes values to the event's item, or moves it, as the rule.
    async fn change_item(
        &self,
        rule: &AutomationRule,
        event: &Event,
        values: Map<String, Value>,
        group_id: Option<String>,
    ) -> Result<(), String> {
        let item = event
            .item()
            .ok_or_else(|| "the event has no item".to_owned())?;
        write_item(
            self,
            &rule.account_id,
            &rule.id,
            &item.item_id,
            values,
            group_id,
        )
        .await
    }

    async fn tell_capped(&self, rule: &AutomationRule) {
        let mut row = NewRow::new(
            Category::Automations,
            format!(
                "The rule {} fired {} times within an hour",
                rule.name,
                automations::MAX_FIRINGS_PER_HOUR
            ),
        );
        row.body = Some(
            "Its further events are skipped until the hour has passed: a chain of rules that \
             fire each other stops here. Its history shows what fired it; pause it if it should \
             not run."
                .to_owned(),
        );
        row.reason = Some("rule_capped".to_owned());
        row.dedup_key = Some(format!("rule-capped:{}", rule.id));
        crate::publish::add_row(self, &rule.account_id, row).await;
    }
}
