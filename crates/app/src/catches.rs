//! Caught follow-ups: with `tasksV2CatchesEnabled`, when a session finishes
//! or is archived, the utility model reads the end of its transcript (the
//! user's inputs and the agent's replies, at most [`TRANSCRIPT_CHARS`]
//! characters, latest kept) and proposes follow-up tasks as JSON, steered by
//! `tasksV2CatchesGuidance`; they are staged for the Caught view. A session
//! ends when it finishes, is stopped or is archived. It is claimed before
//! the call, so it is never scanned twice; a call that could not be made (no
//! primary engine, a CLI that failed) gives the claim back, so the next end
//! (archiving a stopped session) scans it. With the setting off nothing is
//! read and nothing is asked.

use serde::Deserialize;
use serde_json::json;
use sessions::{SessionUpdate, Status};
use utility::{Ask, Feature, UtilityError};

use crate::error::blocking;
use crate::services::App;
use crate::stream_events::{TasksChanged, TasksView};
use crate::utility_model;

/// The phrase that opens the prompt (the stand-in API in tests answers by it).
pub const CATCH_PHRASE: &str = "Find the follow-up tasks";

/// The most transcript a scan reads.
pub const TRANSCRIPT_CHARS: usize = 24_000;

/// The most follow-ups one session may stage.
const MOST: usize = 10;

#[derive(Debug, Deserialize)]
struct Proposed {
    #[serde(rename = "followUps")]
    follow_ups: Vec<FollowUp>,
}

#[derive(Debug, Deserialize)]
struct FollowUp {
    task: String,
    quote: String,
}

pub fn start(state: &App) {
    crate::publish::on_session_updates(
        state,
        "caught follow-ups",
        ends,
        |state, update| async move {
            if !state.settings.tasks_v2_catches_enabled() {
                return;
            }
            let state_for_task = state.clone();
            tokio::spawn(async move { scan(&state_for_task, &update).await });
        },
    );
}

/// A finish, or any change to a session that has ended (archiving is one).
fn ends(update: &SessionUpdate) -> bool {
    matches!(
        update.status,
        Status::Finished | Status::Stopped | Status::Failed
    )
}

async fn scan(state: &App, update: &SessionUpdate) {
    let Ok(session) = state
        .sessions
        .get(&update.account_id, &update.session_id)
        .await
    else {
        return;
    };
    if !(matches!(session.status, Status::Finished | Status::Stopped) || session.archived) {
        return;
    }
    let claimed = {
        let tasks = state.tasks.clone();
        let id = session.id.clone();
        blocking(move || tasks.claim_scan(&id)).await
    };
    if !matches!(claimed, Ok(true)) {
        return;
    }
    let Ok(transcript) = state
        .sessions
        .transcript(&session.account_id, &session.id)
        .await
    else {
        return;
    };
    let mut text = String::new();
    for turn in &transcript.turns {
        text.push_str(&format!(
            "User: {}\nAgent: {}\n\n",
            turn.input.trim(),
            turn.output.trim()
        ));
    }
    let skip = text.chars().count().saturating_sub(TRANSCRIPT_CHARS);
    let text: String = text.chars().skip(skip).collect();
    let guidance = state.settings.tasks_v2_catches_guidance();
    let guidance = if guidance.trim().is_empty() {
        String::new()
    } else {
        format!(
            "\nThe user's guidance on what to keep: {}\n",
            guidance.trim()
        )
    };
    let prompt = format!(
        "{CATCH_PHRASE} this coding agent session left behind: work the agent said remains, \
         promised, or suggested the user should do next. Leave out what was done. At most {MOST}, \
         each a short imperative task, with the sentence of the transcript it comes from.{guidance}\n\
         <transcript>\n{text}</transcript>"
    );
    let schema = json!({
        "type": "object",
        "required": ["followUps"],
        "properties": {"followUps": {"type": "array", "items": {
            "type": "object", "required": ["task", "quote"],
            "properties": {"task": {"type": "string"}, "quote": {"type": "string"}}
        }}}
    });
    let ask = Ask {
        feature: Feature::Catches,
        model: None,
        prompt: &prompt,
        budget: utility_model::budget(state, Feature::Catches),
    };
    let proposed = match state.utility.json::<Proposed>(&ask, &schema).await {
        Ok((proposed, _)) => proposed,
        Err(error) => {
            if matches!(error, UtilityError::NoEngine | UtilityError::Failed(_)) {
                let tasks = state.tasks.clone();
                let id = session.id.clone();
                if let Err(error) = blocking(move || tasks.release_scan(&id)).await {
                    tracing::warn!(%error, session_id = session.id, "cannot give a scan's claim back");
                }
            }
            utility_model::report(state, &session.account_id, Feature::Catches, &error).await;
            return;
        }
    };
    let items: Vec<(String, String)> = proposed
        .follow_ups
        .into_iter()
        .take(MOST)
        .map(|f| (f.task, f.quote))
        .collect();
    let tasks = state.tasks.clone();
    let (account, id, title) = (
        session.account_id.clone(),
        session.id.clone(),
        session.title.clone(),
    );
    match blocking(move || tasks.stage(&account, &id, title.as_deref(), items)).await {
        Ok(_) => crate::publish::tasks_changed(
            state,
            &session.account_id,
            &TasksChanged {
                view: TasksView::Caught,
                workspace_id: None,
            },
        ),
        Err(error) => {
            tracing::warn!(%error, session_id = session.id, "cannot stage caught follow-ups")
        }
    }
}
