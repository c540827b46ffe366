//! The messenger bot.

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
