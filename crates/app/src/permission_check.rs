//! The permission broker's server side: one tool call from Claude Code's
//! hook judged by the permissions crate's table with the settings and the
//! session, an "ask" turned into an approval, its `cli_pending` inbox row and
//! `approval` events, and every answer put on record and in the transcript.

use std::path::PathBuf;

use attention::{Notice, Reason};
use events::{Audience, Name};
use inbox::Category;
use permissions::{Approval, Call, Context, Level, NewApproval, NewRecord, Outcome, Verdict};
use serde::Serialize;
use serde_json::{Value, json};
use sessions::{EntryBody, Session, Trigger};
use settings::{AgentPermissionLevel, SettingsStore};
use utoipa::ToSchema;

use crate::error::AppResult;
use crate::error::{blocking, poll_wait};
use crate::publish;
use crate::services::App;

/// What the hook is told.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckAnswer {
    /// `allow`, `deny`, or `pending` (ask again with `approvalId`).
    pub decision: &'static str,
    pub reason: String,
    pub rule: String,
    pub approval_id: Option<String>,
}

/// The level a session runs at: an email-triggered one is read-only whatever
/// the setting, its engine or its own pinned level says; otherwise the level
/// pinned on the session at spawn (`session_level`: a recipe's), else its
/// engine's own level (`engine_level`, which only the second engine, kind
/// `codex`, can have), else `agentPermissionLevel`.
pub fn effective_level(
    settings: &SettingsStore,
    trigger: Option<Trigger>,
    session_level: Option<Level>,
    engine_level: Option<Level>,
) -> Level {
    if trigger == Some(Trigger::Email) {
        return Level::ReadOnly;
    }
    session_level
        .or(engine_level)
        .unwrap_or_else(|| setting_level(settings))
}

/// `agentPermissionLevel` as the broker's level.
pub fn setting_level(settings: &SettingsStore) -> Level {
    broker_level(settings.agent_permission_level())
}

fn broker_level(level: AgentPermissionLevel) -> Level {
    match level {
        AgentPermissionLevel::ReadOnly => Level::ReadOnly,
        AgentPermissionLevel::Guarded => Level::Guarded,
        AgentPermissionLevel::Autonomous => Level::Autonomous,
        AgentPermissionLevel::Full => Level::Full,
    }
}

/// The level to pin on a recipe run's session: the recipe's as written, but
/// when an agent had a hand in the run (it made the recipe or the schedule,
/// or started the run with its token) no more permissive than `setting`, so
/// an agent never gets a session above the level agents are given.
/// Lowering always applies. `None`: nothing pinned, the session follows its
/// engine's level or the setting like any other.
pub fn pinned_level(asked: Option<Level>, setting: Level, by_agent: bool) -> Option<Level> {
    asked.map(|level| if by_agent { level.min(setting) } else { level })
}

/// Judges one `PreToolUse` call of `session_id`; an ask waits up to
/// [`POLL_WAIT`](crate::POLL_WAIT) for the user before answering `pending`.
pub async fn check(
    state: &App,
    account_id: &str,
    session_id: &str,
    hook: &Value,
) -> AppResult<CheckAnswer> {
    let session = state.sessions.get(account_id, session_id).await?;
    // The hook answers Claude Code and external engines, and neither may
    // have a level of its own (engines.toml refuses one): the session's
    // pinned level, else the setting, decides.
    let level = effective_level(
        &state.settings,
        session.trigger,
        session.permission_level,
        None,
    );
    let context = Context {
        level,
        cwd: PathBuf::from(&session.cwd),
        // Paths are judged where the engine runs: `~` on a runner host is
        // its user's home there.
        home: if session.runner == runners::LOCAL {
            std::env::var_os("HOME").map(PathBuf::from)
        } else {
            state.runners.home(&session.runner).map(PathBuf::from)
        },
        auto_approve_plans: state.settings.auto_approve_plans(),
        auto_approve_config_files: state.settings.auto_approve_config_files(),
    };
    let tool = hook.get("tool_name").and_then(Value::as_str).unwrap_or("");
    let input = hook.get("tool_input").cloned().unwrap_or(Value::Null);
    let decision = permissions::decide(
        Call {
            tool,
            input: &input,
        },
        &context,
    );
    let settled = |verdict: Verdict, rule: &str| Settled {
        tool: tool.to_owned(),
        target: decision.target.clone(),
        level,
        rule: rule.to_owned(),
        allow: verdict == Verdict::Allow,
        reason: decision.reason.clone(),
        approval_id: None,
    };
    match decision.verdict {
        Verdict::Allow | Verdict::Deny => {
            let done = settled(decision.verdict, decision.rule);
            return finish(state, &session, done).await;
        }
        Verdict::Ask => {}
    }
    let broker = state.permissions.clone();
    let (sid, key) = (session.id.clone(), decision.grant_key.clone());
    if blocking(move || broker.is_granted(&sid, &key)).await? {
        let mut done = settled(Verdict::Allow, "remembered");
        done.reason = "the user allowed this for the rest of the session".into();
        return finish(state, &session, done).await;
    }
    let broker = state.permissions.clone();
    let new = (
        account_id.to_owned(),
        session.id.clone(),
        tool.to_owned(),
        decision.target.clone(),
        input,
        decision.reason.clone(),
        decision.rule,
        decision.grant_key.clone(),
    );
    let approval = blocking(move || {
        let (account_id, session_id, tool, target, input, reason, rule, grant_key) = &new;
        broker.open_approval(&NewApproval {
            account_id,
            session_id,
            tool,
            target: target.as_deref(),
            input,
            reason,
            rule,
            grant_key,
        })
    })
    .await?;
    announce(state, account_id, &approval);
    add_inbox_row(state, &session, &approval).await;
    crate::messenger_approvals::approval_opened(state, &session, &approval);
    let pending = settled(Verdict::Ask, decision.rule);
    tokio::spawn(settle(
        state.clone(),
        session.clone(),
        approval.clone(),
        pending,
    ));
    poll(state, account_id, &approval.id).await
}

/// Waits up to [`POLL_WAIT`](crate::POLL_WAIT) for the approval's outcome.
pub async fn poll(state: &App, account_id: &str, approval_id: &str) -> AppResult<CheckAnswer> {
    let pending = || CheckAnswer {
        decision: "pending",
        reason: "waiting for the user's approval".into(),
        rule: "pending".into(),
        approval_id: Some(approval_id.to_owned()),
    };
    let outcome = match state.permissions.subscribe(approval_id) {
        Some(mut answer) => tokio::select! {
            answered = answer.wait_for(Option::is_some) => answered.ok().and_then(|outcome| *outcome),
            () = poll_wait(state.clock.as_ref()) => return Ok(pending()),
        },
        None => None,
    };
    let outcome = match outcome {
        Some(outcome) => outcome,
        None => {
            let broker = state.permissions.clone();
            let (account, id) = (account_id.to_owned(), approval_id.to_owned());
            let approval = blocking(move || broker.get(&account, &id)).await?;
            match approval.state.outcome() {
                Some(outcome) => outcome,
                None => return Ok(pending()),
            }
        }
    };
    let (decision, rule, reason) = answer_of(outcome);
    Ok(CheckAnswer {
        decision,
        reason: reason.into(),
        rule: rule.into(),
        approval_id: Some(approval_id.to_owned()),
    })
}

fn answer_of(outcome: Outcome) -> (&'static str, &'static str, &'static str) {
    match outcome {
        Outcome::Allowed => ("allow", "approved", "the user approved this call"),
        Outcome::Denied => ("deny", "refused", "The user denied this tool call."),
        Outcome::TimedOut => (
            "deny",
            "timed_out",
            "Nobody approved this tool call within 10 minutes, so it was denied. Ask the user before trying again.",
        ),
    }
}

/// A decision ready to be put on record.
struct Settled {
    tool: String,
    target: Option<String>,
    level: Level,
    rule: String,
    allow: bool,
    reason: String,
    approval_id: Option<String>,
}

/// Waits on the clock for the user's answer (or the ten minutes), then puts
/// it on record and announces the approval's new state.
async fn settle(state: App, session: Session, approval: Approval, mut done: Settled) {
    let outcome = state
        .permissions
        .wait(&session.account_id, &approval.id)
        .await;
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(error) => {
            tracing::warn!(%error, approval = approval.id, "an approval's wait failed");
            Outcome::Denied
        }
    };
    let (decision, rule, reason) = answer_of(outcome);
    done.allow = decision == "allow";
    done.rule = rule.to_owned();
    done.reason = reason.to_owned();
    done.approval_id = Some(approval.id.clone());
    if let Err(error) = finish(&state, &session, done).await {
        tracing::warn!(
            %error,
            approval = approval.id,
            "cannot record an approval's outcome"
        );
    }
    crate::messenger_approvals::approval_settled(&state, &approval.id);
    let broker = state.permissions.clone();
    let (account, id) = (session.account_id.clone(), approval.id.clone());
    match blocking(move || broker.get(&account, &id)).await {
        Ok(settled) => announce(&state, &session.account_id, &settled),
        Err(error) => tracing::warn!(%error, "cannot read a settled approval"),
    }
}

/// Records the decision (the permissions log and the transcript) and answers the hook.
async fn finish(state: &App, session: &Session, done: Settled) -> AppResult<CheckAnswer> {
    let decision = if done.allow { "allow" } else { "deny" };
    let broker = state.permissions.clone();
    let (account, sid) = (session.account_id.clone(), session.id.clone());
    let record = (
        done.tool.clone(),
        done.target.clone(),
        done.rule.clone(),
        done.approval_id.clone(),
    );
    let level = done.level.as_str();
    blocking(move || {
        let (tool, target, rule, approval_id) = &record;
        broker.record(&NewRecord {
            account_id: &account,
            session_id: &sid,
            tool,
            target: target.as_deref(),
            level,
            rule,
            decision,
            approval_id: approval_id.as_deref(),
        })
    })
    .await?;
    let entry = EntryBody::Permission {
        tool: done.tool,
        target: done.target,
        level: level.to_owned(),
        rule: done.rule.clone(),
        decision: decision.to_owned(),
    };
    state
        .sessions
        .append_entry(&session.account_id, &session.id, entry)
        .await?;
    Ok(CheckAnswer {
        decision,
        reason: done.reason,
        rule: done.rule,
        approval_id: done.approval_id,
    })
}

pub(crate) fn announce(state: &App, account_id: &str, approval: &Approval) {
    state.events.publish(
        Audience::Account(account_id.to_owned()),
        Name::Approval,
        &json!(approval),
    );
}

/// One `cli_pending` row per session, through attention's session row, so a
/// session with several calls waiting is one unread row.
async fn add_inbox_row(state: &App, session: &Session, approval: &Approval) {
    let what = approval.target.as_deref().unwrap_or(&approval.tool);
    let body = match approval.input.get("plan").and_then(Value::as_str) {
        Some(plan) => plan.to_owned(),
        None => format!("{}: {what}\n{}", approval.tool, approval.reason),
    };
    let name = session.title.as_deref().unwrap_or("A session");
    let notice = Notice {
        reason: Reason::Permission,
        title: format!("{name} asks to use {}", approval.tool),
        body: Some(body),
    };
    let row = attention::session_row(session, Category::CliPending, &notice);
    let pushed = format!("approval-{}", approval.id);
    crate::push_delivery::needs_you(state, session, &notice, &pushed);
    let inbox = state.inbox.clone();
    let owner = session.account_id.clone();
    match blocking(move || inbox.add(&owner, row)).await {
        Ok(added) => {
            publish::inbox_added(state, &session.account_id, added);
        }
        Err(error) => {
            tracing::warn!(
                %error,
                session_id = session.id,
                "cannot add an approval's inbox row"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_level_is_the_recipes_unless_an_agent_would_gain_by_it() {
        use Level::{Autonomous, Full, Guarded, ReadOnly};
        // The user's run: the recipe's level as written, up or down.
        assert_eq!(pinned_level(Some(Full), Guarded, false), Some(Full));
        assert_eq!(pinned_level(Some(ReadOnly), Full, false), Some(ReadOnly));
        // An agent's: never above the setting, lowering still applies.
        assert_eq!(pinned_level(Some(Full), Guarded, true), Some(Guarded));
        assert_eq!(
            pinned_level(Some(ReadOnly), Autonomous, true),
            Some(ReadOnly)
        );
        assert_eq!(pinned_level(None, Full, true), None);
    }
}
