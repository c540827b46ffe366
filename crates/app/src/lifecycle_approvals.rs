//! Pause and archive asked with an agent token. At `read_only` they wait for
//! the user's approval (an approval in the broker and its `cli_pending` inbox
//! row) and are carried out once allowed; with
//! `sessionSelfArchiveWithoutApproval` a session archives itself without
//! asking, at the end of the turn it asks from (docs/sessions.md).

use attention::{Notice, Reason};
use inbox::Category;
use permissions::{Approval, Level, NewApproval, NewRecord, Outcome};
use serde_json::json;
use sessions::{Caller, Session, Status};
use tokio::sync::broadcast::error::RecvError;

use crate::error::{AppResult, blocking};
use crate::permission_check::{announce, effective_level};
use crate::publish;
use crate::services::App;

/// What an agent asks to do to a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifecycle {
    Pause,
    Archive,
}

impl Lifecycle {
    /// The approval's tool name.
    pub fn tool(self) -> &'static str {
        match self {
            Lifecycle::Pause => "switchboard_pause_session",
            Lifecycle::Archive => "switchboard_archive_session",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Lifecycle::Pause => "pause",
            Lifecycle::Archive => "archive",
        }
    }
}

/// What became of an agent's pause or archive.
#[derive(Debug)]
pub enum LifecycleOutcome {
    /// Carried out at once.
    Done(Box<Session>),
    /// Waits for the user's answer; carried out if allowed.
    Asked(Box<Approval>),
    /// The session archives itself once the turn it asked from ends.
    ArchiveAtTurnEnd,
}

/// The rule an approval of this kind is recorded under.
const RULE: &str = "read_only_lifecycle";

/// An agent token of session `asker_id` asks to pause or archive `target_id`.
pub async fn agent_lifecycle(
    app: &App,
    caller: &Caller,
    asker_id: &str,
    action: Lifecycle,
    target_id: &str,
) -> AppResult<LifecycleOutcome> {
    let account = caller.account_id.as_str();
    let target = app.sessions.get(account, target_id).await?;
    let asker = app.sessions.get(account, asker_id).await?;
    // Judged at the asking session's level, as its tool calls are: the
    // setting, unless it was pinned (a recipe's) or it came by email.
    let level = effective_level(&app.settings, asker.trigger, asker.permission_level, None);
    if level != Level::ReadOnly {
        return carry_out(app, caller, action, target_id).await;
    }
    if action == Lifecycle::Archive
        && asker_id == target_id
        && app.settings.session_self_archive_without_approval()
    {
        return archive_self(app, caller, target_id).await;
    }
    // Nothing to ask about what could not be done anyway: the same refusal
    // the user would get.
    if action == Lifecycle::Pause && (!target.status.is_active() || target.archived) {
        return Err(sessions::SessionError::SessionEnded {
            status: target.status,
        }
        .into());
    }
    if action == Lifecycle::Archive && target.archived {
        return Ok(LifecycleOutcome::Done(Box::new(target)));
    }
    let grant_key = format!("{}:{target_id}", action.tool());
    let broker = app.permissions.clone();
    let (sid, key) = (asker_id.to_owned(), grant_key.clone());
    if blocking(move || broker.is_granted(&sid, &key)).await? {
        return carry_out(app, caller, action, target_id).await;
    }
    let approval = open(app, &asker, &target, action, &grant_key).await?;
    announce(app, account, &approval);
    add_inbox_row(app, &asker, &target, action).await;
    crate::messenger_approvals::approval_opened(app, &asker, &approval);
    tokio::spawn(settle(
        app.clone(),
        caller.clone(),
        action,
        target_id.to_owned(),
        approval.clone(),
    ));
    Ok(LifecycleOutcome::Asked(Box::new(approval)))
}

async fn carry_out(
    app: &App,
    caller: &Caller,
    action: Lifecycle,
    target_id: &str,
) -> AppResult<LifecycleOutcome> {
    let session = match action {
        Lifecycle::Pause => app.sessions.pause(caller, target_id).await?,
        Lifecycle::Archive => app.sessions.archive(caller, target_id).await?,
    };
    Ok(LifecycleOutcome::Done(Box::new(session)))
}

/// A turn is under way: the engine that asks is still working.
fn in_turn(status: Status) -> bool {
    matches!(status, Status::Starting | Status::Running)
}

/// Archives the caller's own session now when no turn runs, else when its
/// turn ends: the engine asks from inside its turn, and archiving at once
/// would end the very turn that asked.
async fn archive_self(app: &App, caller: &Caller, id: &str) -> AppResult<LifecycleOutcome> {
    // Subscribed before reading the status, so a turn ending in between is
    // still heard.
    let mut updates = app.sessions.subscribe();
    let session = app.sessions.get(&caller.account_id, id).await?;
    if !in_turn(session.status) {
        return carry_out(app, caller, Lifecycle::Archive, id).await;
    }
    let (app, caller, id) = (app.clone(), caller.clone(), id.to_owned());
    tokio::spawn(async move {
        let mut stop = app.stop.subscribe();
        loop {
            let update = tokio::select! {
                update = updates.recv() => update,
                _ = stop.changed() => return,
            };
            let turn_over = match update {
                Ok(update) if update.session_id == id => !in_turn(update.status),
                Ok(_) => false,
                Err(RecvError::Lagged(_)) => {
                    match app.sessions.get(&caller.account_id, &id).await {
                        Ok(session) => !in_turn(session.status),
                        Err(_) => true,
                    }
                }
                Err(RecvError::Closed) => return,
            };
            if turn_over {
                break;
            }
        }
        if let Err(error) = app.sessions.archive(&caller, &id).await {
            tracing::warn!(%error, session_id = id, "cannot archive a session at its turn's end");
        }
    });
    Ok(LifecycleOutcome::ArchiveAtTurnEnd)
}

async fn open(
    app: &App,
    asker: &Session,
    target: &Session,
    action: Lifecycle,
    grant_key: &str,
) -> AppResult<Approval> {
    let reason = format!(
        "{} asks to {} {}; at read_only an agent's pause or archive waits for your approval",
        name_of(asker),
        action.verb(),
        describe_target(asker, target),
    );
    let input = json!({ "sessionId": target.id, "title": target.title });
    let broker = app.permissions.clone();
    let owned = (
        asker.account_id.clone(),
        asker.id.clone(),
        target.id.clone(),
        grant_key.to_owned(),
    );
    let approval = blocking(move || {
        let (account_id, session_id, target, grant_key) = &owned;
        broker.open_approval(&NewApproval {
            account_id,
            session_id,
            tool: action.tool(),
            target: Some(target),
            input: &input,
            reason: &reason,
            rule: RULE,
            grant_key,
        })
    })
    .await?;
    Ok(approval)
}

fn name_of(session: &Session) -> String {
    match &session.title {
        Some(title) => format!("Session {title}"),
        None => format!("Session {}", session.id),
    }
}

fn describe_target(asker: &Session, target: &Session) -> String {
    if asker.id == target.id {
        "itself".to_owned()
    } else {
        name_of(target).replacen("Session", "session", 1)
    }
}

/// The row through attention's session row, as a tool call's approval has,
/// so the inbox shows the approval under it.
async fn add_inbox_row(app: &App, asker: &Session, target: &Session, action: Lifecycle) {
    let title = format!(
        "{} asks to {} {}",
        name_of(asker),
        action.verb(),
        describe_target(asker, target)
    );
    let notice = Notice {
        reason: Reason::Permission,
        title,
        body: Some(format!(
            "{}: {}\nAgents at read_only need your approval to pause or archive a session.",
            action.tool(),
            target.id
        )),
    };
    let row = attention::session_row(asker, Category::CliPending, &notice);
    let inbox = app.inbox.clone();
    let owner = asker.account_id.clone();
    match blocking(move || inbox.add(&owner, row)).await {
        Ok(added) => {
            publish::inbox_added(app, &asker.account_id, added);
        }
        Err(error) => {
            tracing::warn!(%error, session_id = asker.id, "cannot add a lifecycle approval's row");
        }
    }
}

/// Waits for the user's answer (or the ten minutes on the clock); an allow
/// carries the pause or archive out, anything else leaves the session be.
async fn settle(
    app: App,
    caller: Caller,
    action: Lifecycle,
    target_id: String,
    approval: Approval,
) {
    let account = caller.account_id.clone();
    let outcome = match app.permissions.wait(&account, &approval.id).await {
        Ok(outcome) => outcome,
        Err(error) => {
            tracing::warn!(%error, approval = approval.id, "a lifecycle approval's wait failed");
            Outcome::Denied
        }
    };
    if outcome == Outcome::Allowed
        && let Err(error) = carry_out(&app, &caller, action, &target_id).await
    {
        tracing::warn!(%error, approval = approval.id, "cannot carry out an approved {}", action.verb());
    }
    let broker = app.permissions.clone();
    let (owner, approval_id, asker) = (
        account.clone(),
        approval.id.clone(),
        approval.session_id.clone(),
    );
    let recorded = blocking(move || {
        broker.record(&NewRecord {
            account_id: &owner,
            session_id: &asker,
            tool: action.tool(),
            target: Some(&target_id),
            level: Level::ReadOnly.as_str(),
            rule: RULE,
            decision: if outcome == Outcome::Allowed {
                "allow"
            } else {
                "deny"
            },
            approval_id: Some(&approval_id),
        })?;
        broker.get(&owner, &approval_id)
    })
    .await;
    crate::messenger_approvals::approval_settled(&app, &approval.id);
    match recorded {
        Ok(settled) => announce(&app, &account, &settled),
        Err(error) => tracing::warn!(%error, "cannot record a lifecycle approval's outcome"),
    }
}
