//! The messenger bot over the Telegram Bot API: each direct chat, and each
//! forum topic of an allowed group, is its own agent session.
//!
//! - [`Config`] is `DIR/messenger.toml`: the API's base URL, the *name* of
//!   the saved key holding the bot token (the token stays sealed among the
//!   saved keys), the sessions' folder and engine, and polling or webhook
//!   mode; [`WebhookSecrets`] derives the webhook's secret path and
//!   `secret_token` from the token and checks them in constant time.
//! - [`Client`] makes the calls (`getMe`, `getUpdates`, `sendMessage`, ...)
//!   and turns `{"ok": false}` into [`MessengerError::Api`] or, on 429,
//!   [`MessengerError::RateLimited`]; no error ever quotes the token.
//! - [`route`] is the pure rule: given an [`Update`], the settings'
//!   [`Policy`] and the bot ([`Me`]), a prompt or [`Command`] for a
//!   [`ChatKey`], a pairing request, an approval button press, or why not.
//! - [`render_reply`] turns the agent's Markdown into HTML messages within
//!   Telegram's limit; [`approval_keyboard`] makes the Allow/Deny buttons.
//! - [`BotState`] keeps the update offset, each chat's session, pairing
//!   codes, the bot's messages and its announced approvals ([`MIGRATIONS`]).
//!
//! Knows nothing of HTTP servers, settings, saved keys or sessions: the app
//! passes the settings' values and the token, serves the webhook, and
//! starts, stops and lists the sessions.

mod buttons;
mod client;
mod config;
mod error;
mod rules;
mod schema;
mod state;
mod text;
mod types;
mod webhook;

#[cfg(test)]
mod tests;

pub use buttons::{
    CALLBACK_DATA_LIMIT, Decision, approval_keyboard, callback_data, fits_as_token,
    parse_callback_data,
};
pub use client::{ALLOWED_UPDATES, Client, Outgoing};
pub use config::{CONFIG_FILE, Config, DEFAULT_BASE_URL, DEFAULT_ENGINE, Mode};
pub use error::MessengerError;
pub use rules::{
    ChatKey, Command, DmPolicy, Ignored, Incoming, Input, Me, Policy, Press, Routed, chat_key,
    route,
};
pub use schema::MIGRATIONS;
pub use state::{
    Announced, BotState, CODE_ALPHABET, CODE_LENGTH, PAIRING_LIFETIME, Pairing, PairingState,
    Requested, Sent,
};
pub use text::{
    MESSAGE_LIMIT, byte_at_utf16, escape_html, render_reply, split_markdown, to_html, utf16_len,
};
pub use types::{CallbackQuery, Chat, InlineButton, Message, MessageEntity, Update, User};
pub use webhook::{SECRET_TOKEN_HEADER, WebhookSecrets};
