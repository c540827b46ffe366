//! The messenger bot.

mod config;
mod error;
mod text;
mod types;
mod webhook;

pub use config::{CONFIG_FILE, Config, DEFAULT_BASE_URL, DEFAULT_ENGINE, Mode};
pub use error::MessengerError;
pub use text::{
    MESSAGE_LIMIT, byte_at_utf16, escape_html, render_reply, split_markdown, to_html, utf16_len,
};
pub use types::{CallbackQuery, Chat, Message, MessageEntity, Update, User};
pub use webhook::{SECRET_TOKEN_HEADER, WebhookSecrets};
