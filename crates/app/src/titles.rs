//! AI session titles: a new session without a title of the user's is named
//! from its first prompt by the utility model (`initialTitleModel`), in the
//! `sessionTitleStyle`; `journey` and `latest_topic` titles are written again
//! as the work moves on, at most every [`REFRESH_TURNS`] turns
//! (`refreshTitleModel`), the replaced title kept in the session's history;
//! `custom` leaves titles to the user. A title the user typed is never
//! replaced: the sessions crate checks that in the same statement that
//! writes.
//!
//! It follows the sessions' broadcasts; each model call runs on a task of its
//! own, so a slow answer never holds up the next session's title.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use sessions::{Session, SessionUpdate, Status, TitleSource, Transcript};
use settings::SessionTitleStyle;
use utility::{Ask, Budget, Feature};

use crate::services::App;
use crate::utility_model;

/// A refreshing style writes a new title after this many turns at the most.
pub const REFRESH_TURNS: i64 = 3;

/// How much of a prompt or a turn a title prompt quotes.
const PROMPT_CHARS: usize = 4_000;
const TURN_CHARS: usize = 1_500;

/// The phrases that open the two prompts: the utility model's answer is
/// plain text, so tests (and the stand-in API) tell the two apart by these.
pub const NAME_PHRASE: &str = "Name this coding agent session";
pub const RETITLE_PHRASE: &str = "Retitle this coding agent session";

#[derive(Default)]
struct Titling {
    /// Sessions whose first title was decided (written, or not wanted).
    named: HashSet<String>,
    /// Sessions with a model call running now.
    asking: HashSet<String>,
}

pub fn start(state: &App) {
    let titling = Arc::new(Mutex::new(Titling::default()));
    crate::publish::on_session_updates(
        state,
        "session titles",
        |_| true,
        move |state, update| {
            let titling = titling.clone();
            async move { consider(&state, &update, &titling).await }
        },
    );
}

async fn consider(state: &App, update: &SessionUpdate, titling: &Arc<Mutex<Titling>>) {
    let style = state.settings.session_title_style();
    if style == SessionTitleStyle::Custom {
        return;
    }
    let first = !lock(titling).named.contains(&update.session_id);
    let turn_ended = update.moved
        && matches!(update.status, Status::WaitingForInput | Status::Finished)
        && refreshes(style);
    if !first && !turn_ended {
        return;
    }
    let session = match state
        .sessions
        .get(&update.account_id, &update.session_id)
        .await
    {
        Ok(session) => session,
        Err(error) => {
            tracing::warn!(%error, session_id = update.session_id, "cannot read a session to title it");
            return;
        }
    };
    let wanted = if first {
        lock(titling).named.insert(session.id.clone());
        (session.title_source.is_none() && !session.archived).then_some(Kind::Name)
    } else {
        None
    };
    let wanted = match wanted {
        Some(kind) => Some(kind),
        None if turn_ended && session.title_source == Some(TitleSource::Ai) => {
            let titled = state.sessions.titled_turn(&session.id).await.ok().flatten();
            titled
                .is_some_and(|at| session.turns - at >= REFRESH_TURNS)
                .then_some(Kind::Refresh)
        }
        None => None,
    };
    let Some(kind) = wanted else {
        return;
    };
    if !lock(titling).asking.insert(session.id.clone()) {
        return;
    }
    let (state, titling) = (state.clone(), titling.clone());
    tokio::spawn(async move {
        write_title(&state, &session, kind, style).await;
        lock(&titling).asking.remove(&session.id);
    });
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Name,
    Refresh,
}

fn refreshes(style: SessionTitleStyle) -> bool {
    matches!(
        style,
        SessionTitleStyle::Journey | SessionTitleStyle::LatestTopic
    )
}

async fn write_title(state: &App, session: &Session, kind: Kind, style: SessionTitleStyle) {
    let (prompt, model) = match kind {
        Kind::Name => (
            name_prompt(style, &session.prompt),
            state
                .settings
                .initial_title_model()
                .filter(|m| !m.trim().is_empty()),
        ),
        Kind::Refresh => {
            let transcript = match state
                .sessions
                .transcript(&session.account_id, &session.id)
                .await
            {
                Ok(transcript) => transcript,
                Err(error) => {
                    tracing::warn!(%error, session_id = session.id, "cannot read a transcript to retitle it");
                    return;
                }
            };
            let model = Some(state.settings.refresh_title_model()).filter(|m| !m.trim().is_empty());
            (
                retitle_prompt(
                    style,
                    session.title.as_deref().unwrap_or_default(),
                    &transcript,
                ),
                model,
            )
        }
    };
    let ask = Ask {
        feature: Feature::Title,
        model: model.as_deref(),
        prompt: &prompt,
        budget: Budget::unlimited(utility_model::day_start(state)),
    };
    let answer = match state.utility.text(&ask).await {
        Ok(answer) => answer,
        Err(error) => {
            utility_model::report(state, &session.account_id, Feature::Title, &error).await;
            return;
        }
    };
    let Some(title) = clean_title(&answer.text) else {
        tracing::warn!(
            session_id = session.id,
            "the utility model gave an empty title"
        );
        return;
    };
    if let Err(error) = state
        .sessions
        .set_ai_title(&session.account_id, &session.id, &title)
        .await
    {
        tracing::warn!(%error, session_id = session.id, "cannot store a session's title");
    }
}

fn name_prompt(style: SessionTitleStyle, prompt: &str) -> String {
    let shape = match style {
        SessionTitleStyle::Descriptive => {
            "one plain line of at most 12 words saying what the session is doing"
        }
        _ => "2 to 5 words naming the task, like a ticket title",
    };
    format!(
        "{NAME_PHRASE}. Write {shape}, from the request the user gave it below. \
         No quotes, no trailing period, no preamble: reply with the title only.\n\n\
         <request>\n{}\n</request>",
        clip(prompt, PROMPT_CHARS)
    )
}

fn retitle_prompt(style: SessionTitleStyle, title: &str, transcript: &Transcript) -> String {
    let shape = match style {
        SessionTitleStyle::Journey => {
            "at most 10 words tracing the arc of the work so far, its stages joined by \u{2192}"
        }
        _ => "2 to 6 words naming what the session is working on now",
    };
    let recent: Vec<String> = transcript
        .turns
        .iter()
        .rev()
        .take(REFRESH_TURNS as usize)
        .rev()
        .map(|turn| {
            format!(
                "<turn>\nUser: {}\nAgent: {}\n</turn>",
                clip(&turn.input, TURN_CHARS),
                clip_end(&turn.output, TURN_CHARS)
            )
        })
        .collect();
    format!(
        "{RETITLE_PHRASE}. Its title is \"{title}\". Write a new title of {shape}, from its latest \
         turns below. No quotes, no trailing period, no preamble: reply with the title only.\n\n{}",
        recent.join("\n")
    )
}

/// The first non-empty line, without the quotes, a `Title:` label or a
/// trailing period a model may add anyway.
fn clean_title(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|line| !line.is_empty())?;
    let line = line
        .strip_prefix("Title:")
        .or_else(|| line.strip_prefix("title:"))
        .unwrap_or(line)
        .trim()
        .trim_matches(['"', '\'', '*', '`'])
        .trim_end_matches('.')
        .trim();
    (!line.is_empty()).then(|| line.chars().take(sessions::MAX_TITLE_CHARS).collect())
}

fn clip(text: &str, chars: usize) -> String {
    text.chars().take(chars).collect()
}

/// The end of a long reply: its conclusion says most about where the work is.
fn clip_end(text: &str, chars: usize) -> String {
    let count = text.chars().count();
    text.chars().skip(count.saturating_sub(chars)).collect()
}

fn lock(titling: &Mutex<Titling>) -> std::sync::MutexGuard<'_, Titling> {
    titling.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_loses_quotes_labels_and_periods() {
        assert_eq!(
            clean_title("\n\"Fix the login bug.\"\n").as_deref(),
            Some("Fix the login bug")
        );
        assert_eq!(
            clean_title("Title: Upgrade tokio").as_deref(),
            Some("Upgrade tokio")
        );
        assert_eq!(clean_title("  \n \"\" "), None);
    }

    #[test]
    fn prompts_quote_the_request_and_say_the_style() {
        let brief = name_prompt(SessionTitleStyle::Brief, "fix the flaky login test");
        assert!(brief.starts_with(NAME_PHRASE) && brief.contains("2 to 5 words"));
        assert!(brief.contains("fix the flaky login test"));
        let descriptive = name_prompt(SessionTitleStyle::Descriptive, "x");
        assert!(descriptive.contains("one plain line"));
        let long = "y".repeat(10_000);
        assert!(name_prompt(SessionTitleStyle::Brief, &long).len() < 5_000);
    }
}
