//! AI coaching artifacts.
//!
//! - The **weekly report** ([`report::weekly`]) is computed, with no model
//!   call, from the user's own sessions of the last seven days: how many,
//!   their turns, stalls and loops the watchdog restarted, failures, cost,
//!   follow-ups per session, and the folders used most. It is always the
//!   current one, under the id [`WEEKLY_REPORT_ID`].
//! - A **coaching interview** is a session on the primary engine started
//!   with [`interviewer_prompt`]; its final answer is kept as an artifact
//!   ([`Coaching::save_interview`]) each time a turn of it ends.
//!
//! Knows nothing of HTTP or settings.

mod artifacts;
mod report;

pub use artifacts::{Artifact, ArtifactKind, Coaching, CoachingError, MIGRATIONS};
pub use report::{WEEKLY_REPORT_ID, Weekly, weekly};

/// What an interview session is asked to do; `topic` narrows it.
pub fn interviewer_prompt(topic: Option<&str>) -> String {
    let focus = match topic.map(str::trim).filter(|t| !t.is_empty()) {
        Some(topic) => format!("The user wants to talk about: {topic}."),
        None => "Let the user choose what to talk about.".to_owned(),
    };
    format!(
        "You are a coach for a developer who runs many AI coding agents. Interview them about how they \
         work with agents: ask one question at a time, listen, and dig into what slows them down or \
         costs them money. {focus} When you have enough, end your reply with a write-up: what you \
         learned, three concrete changes to try this week, and how they will know each one worked."
    )
}
