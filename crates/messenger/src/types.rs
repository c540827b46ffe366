//! The Bot API's objects this bot reads, as the service sends them (only
//! the fields the rules use, so an update with fields added later still
//! parses), and the inline button it sends.

use serde::{Deserialize, Serialize};

/// One incoming update; of the kinds asked for (`message`,
/// `callback_query`), at most one is present.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Update {
    pub update_id: i64,
    #[serde(default)]
    pub message: Option<Message>,
    #[serde(default)]
    pub callback_query: Option<CallbackQuery>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct User {
    pub id: i64,
    #[serde(default)]
    pub is_bot: bool,
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: Option<String>,
    #[serde(default)]
    pub username: Option<String>,
}

impl User {
    /// The name a person reads: first and last name, else `@username`.
    pub fn display_name(&self) -> String {
        let full = match &self.last_name {
            Some(last) => format!("{} {last}", self.first_name),
            None => self.first_name.clone(),
        };
        match (full.trim(), &self.username) {
            ("", Some(username)) => format!("@{username}"),
            (name, _) => name.to_owned(),
        }
    }
}

/// `private`, `group`, `supergroup` or `channel`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Chat {
    pub id: i64,
    #[serde(rename = "type")]
    pub kind: String,
}

/// A message entity: where it is, in UTF-16 code units of `text`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MessageEntity {
    #[serde(rename = "type")]
    pub kind: String,
    pub offset: usize,
    pub length: usize,
    /// For `text_mention` only: the user mentioned.
    #[serde(default)]
    pub user: Option<User>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Message {
    pub message_id: i64,
    #[serde(default)]
    pub from: Option<User>,
    pub chat: Chat,
    /// A forum topic's id (or, outside forums, the thread of replies).
    #[serde(default)]
    pub message_thread_id: Option<i64>,
    /// True only for a message sent in a forum topic.
    #[serde(default)]
    pub is_topic_message: bool,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub entities: Vec<MessageEntity>,
    #[serde(default)]
    pub reply_to_message: Option<Box<Message>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CallbackQuery {
    pub id: String,
    pub from: User,
    #[serde(default)]
    pub data: Option<String>,
    /// The bot's message that holds the button, when it is not too old.
    #[serde(default)]
    pub message: Option<Message>,
}

/// One button of an inline keyboard; pressing it sends `callback_data`
/// (1–64 bytes) back as a [`CallbackQuery`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InlineButton {
    pub text: String,
    pub callback_data: String,
}
