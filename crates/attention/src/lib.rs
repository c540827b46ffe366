//! Which session turns need the user: the rule that reads how a turn ended
//! and says whether, and why, it belongs in the inbox, and the one row per
//! session that carries it.
//!
//! [`turn_ended`] is a pure function of the session (its status, title,
//! parent, error), the entries of its latest turn and the [`Rules`] the
//! settings give. It answers a [`Notice`] with its [`Reason`]:
//!
//! - `question`: the engine asked explicitly (Claude Code's `AskUserQuestion`
//!   tool), or, with `autoDetectQuestions`, the reply's last paragraph asks
//!   one ([`asks_a_question`]);
//! - `failed`: the session failed; the body is its error;
//! - `routine`: any other turn end, only while `hideRoutineUpdatesFromInbox`
//!   is off, and never for a session another session spawned (sub-agents
//!   reach the inbox with a question or a failure only).
//!
//! [`needs_you`] is the same reading as a verdict: failed, or the turn
//! asked; a turn that did its work is done and needs nobody. The server
//! keeps it per session (`turnEnd`), so the board, the inbox's "Needs you"
//! and `n` all follow this one rule.
//!
//! [`session_row`] makes the inbox row: every notice about one session
//! shares one dedup key, so while its row is unread a new notice updates that
//! row (count, newest title, body and reason) and a session never has two
//! unread rows of a category. The permission broker (a later issue) writes
//! its `cli_pending` rows through the same function, with
//! `Category::CliPending` and a notice of its own reason, so an approval
//! waiting on a session is one row too.
//!
//! Knows nothing of HTTP, settings or the database: the server reads the
//! settings, the entries and writes the row.

mod notice;
mod question;
mod turn;

pub use notice::{Notice, Reason, Rules, session_row};
pub use question::{asks_a_question, explicit_question, the_question};
pub use turn::{needs_you, turn_ended};

#[cfg(test)]
mod tests;
