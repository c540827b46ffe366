//! A team chat connector that speaks the Slack Web API (and so any service
//! that implements its methods): each operation an agent or a script may
//! ask for becomes one or two Web API calls (`conversations.open` first for
//! direct messages), made with the bot token as a bearer.
//!
//! - [`Config`] is `DIR/teamchat.toml`: the service's base URL and the
//!   *name* of a saved key holding the token; the token itself lives sealed
//!   among the saved keys (the `secrets` crate), never in the file.
//! - [`Client::call`] posts JSON and reads Slack's `{"ok": false, "error"}`
//!   into [`ChatError::Service`], so the caller can pass the service's own
//!   error code on.
//! - [`Client::mentions`] reads the other way: the messages of a time
//!   range that mention the person (`mention_user` in the config), for the
//!   daily briefing; bounded, and a 429 waited out once.
//! - [`Operation`] is what the server's routes take; [`Operation::label`] marks a
//!   message sent by an agent as the user's agent, naming the session.
//!
//! Knows nothing of HTTP servers, settings or tokens of Switchboard.

mod client;
mod config;
mod mentions;
mod operation;

pub use client::{Client, RATE_LIMITED};
pub use config::{CONFIG_FILE, Config};
pub use mentions::{MAX_CHANNELS, MAX_MENTIONS, MAX_PAGES, MAX_WAIT, Mention, Mentions};
pub use operation::{Done, Operation};

#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    #[error("team chat is not set up: {0}")]
    NotConfigured(String),
    #[error("{path} is not a valid team chat configuration: {detail}")]
    BadConfig { path: String, detail: String },
    #[error("the team chat service refused: {code}")]
    Service { code: String },
    #[error("cannot reach the team chat service: {0}")]
    Unreachable(String),
    #[error("the team chat service answered something that is not its Web API: {0}")]
    BadReply(String),
    #[error("{0}")]
    InvalidInput(String),
}
