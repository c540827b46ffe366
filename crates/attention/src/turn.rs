//! The rule: does the end of a session's latest turn need the user, and why.

use inbox::{MAX_TITLE_CHARS, clip};
use sessions::{Entry, EntryBody, Session, Status};

use crate::notice::{Notice, Reason, Rules};
use crate::question::{asks_a_question, explicit_question, the_question};

/// Claude Code's tool for asking the user, with choices.
const ASK_TOOL: &str = "AskUserQuestion";
/// Enough of a reply or an error to act on; the session holds the rest.
const MAX_BODY_CHARS: usize = 2_000;
/// A session without a title is named by the start of its prompt.
const MAX_NAME_CHARS: usize = 60;

/// Whether `session`'s latest turn end needs the user. `entries` is the end
/// of its transcript (entries of earlier turns are ignored); the session is
/// read after its status moved to `waiting_for_input` or `failed` (any
/// other status, and an archived session, needs nothing).
pub fn turn_ended(session: &Session, entries: &[Entry], rules: Rules) -> Option<Notice> {
    if session.archived {
        return None;
    }
    let name = name_of(session);
    match session.status {
        Status::Failed => {
            let error = session
                .error
                .clone()
                .unwrap_or_else(|| "no reason was recorded".to_owned());
            Some(Notice {
                reason: Reason::Failed,
                title: clip_title(&format!("{name} failed: {}", first_line(&error))),
                body: Some(clip_end(&error)),
            })
        }
        Status::WaitingForInput => {
            let turn = latest_turn(session, entries);
            if let Some((title, question)) = asked(&turn, rules) {
                return Some(question_notice(&name, &title, question));
            }
            // Sub-agents report to the session that spawned them, not to the
            // user, so their routine turns never reach the inbox.
            if rules.hide_routine_updates || session.parent_id.is_some() {
                return None;
            }
            Some(Notice {
                reason: Reason::Routine,
                title: clip_title(&format!("{name} finished a turn")),
                body: reply_of(&turn).map(|r| clip_end(&r)),
            })
        }
        _ => None,
    }
}

/// Whether `session` needs the user, and why: it failed, or its latest
/// turn ended asking something (`AskUserQuestion`, or with
/// `autoDetectQuestions` a reply whose end asks). A turn that did its work
/// and asked nothing is done, not waiting on anyone: it never needs the
/// user, whatever `hideRoutineUpdatesFromInbox` says of the inbox. The one
/// rule behind "Needs you" on the board, in the inbox and for `n`; an
/// approval or an input request waiting on a session needs the user too,
/// and is the permission broker's to tell.
pub fn needs_you(session: &Session, entries: &[Entry], rules: Rules) -> Option<Reason> {
    if session.archived {
        return None;
    }
    match session.status {
        Status::Failed => Some(Reason::Failed),
        Status::WaitingForInput => asked(&latest_turn(session, entries), rules)
            .is_some()
            .then_some(Reason::Question),
        _ => None,
    }
}

fn latest_turn<'a>(session: &Session, entries: &'a [Entry]) -> Vec<&'a EntryBody> {
    entries
        .iter()
        .filter(|e| e.turn == session.turns)
        .map(|e| &e.body)
        .collect()
}

/// What the turn asked, when it asked: the line that titles it and the
/// question whole.
fn asked(turn: &[&EntryBody], rules: Rules) -> Option<(String, String)> {
    let explicit = turn.iter().rev().find_map(|body| match body {
        EntryBody::ToolCall { name, input, .. } if name == ASK_TOOL => {
            Some(explicit_question(input))
        }
        _ => None,
    });
    if let Some(question) = explicit {
        return Some((first_line(&question).to_owned(), question));
    }
    if !rules.auto_detect_questions {
        return None;
    }
    let question = reply_of(turn).as_deref().and_then(asks_a_question)?;
    Some((the_question(&question).to_owned(), question))
}

/// A question's notice, titled by `line`: the question itself.
fn question_notice(name: &str, line: &str, question: String) -> Notice {
    let title = match line {
        "" => format!("{name} asks a question"),
        line => format!("{name} asks: {line}"),
    };
    Notice {
        reason: Reason::Question,
        title: clip_title(&title),
        body: (!question.is_empty()).then(|| clip_end(&question)),
    }
}

/// The turn's reply: its final message, else its last prose, else (a
/// `command` engine) the standard output the page holds.
fn reply_of(turn: &[&EntryBody]) -> Option<String> {
    let last = |pick: fn(&EntryBody) -> Option<&str>| {
        turn.iter()
            .rev()
            .filter_map(|b| pick(b))
            .find(|t| !t.trim().is_empty())
            .map(str::to_owned)
    };
    last(|b| match b {
        EntryBody::Final { text } => Some(text),
        _ => None,
    })
    .or_else(|| {
        last(|b| match b {
            EntryBody::Text { text } => Some(text),
            _ => None,
        })
    })
    .or_else(|| {
        let stdout: String = turn
            .iter()
            .filter_map(|b| match b {
                EntryBody::Stdout { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        (!stdout.trim().is_empty()).then_some(stdout)
    })
}

fn name_of(session: &Session) -> String {
    match session.title.as_deref().map(str::trim) {
        Some(title) if !title.is_empty() => title.to_owned(),
        _ => match first_line(&session.prompt) {
            "" => format!("Session {}", session.id),
            line => clip(line, MAX_NAME_CHARS),
        },
    }
}

fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default()
}

fn clip_title(title: &str) -> String {
    clip(title, MAX_TITLE_CHARS)
}

/// The end of a long text, which is where a reply asks or an error says why.
fn clip_end(text: &str) -> String {
    let text = text.trim();
    let count = text.chars().count();
    if count <= MAX_BODY_CHARS {
        return text.to_owned();
    }
    let tail: String = text.chars().skip(count - (MAX_BODY_CHARS - 1)).collect();
    format!("…{tail}")
}
