//! A thin blocking client of the Bot API: `POST <base>/bot<token>/<method>`
//! with a JSON body; the service answers `{"ok": true, "result": ...}` or
//! `{"ok": false, "error_code", "description"}` (with
//! `parameters.retry_after` on 429).
//!
//! The token sits in the URL's path, so anything that may quote the URL (a
//! transport error, the service's description) is redacted before it
//! becomes an error, and `{:?}` of the client shows no token either.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::MessengerError;
use crate::rules::{ChatKey, Me};
use crate::types::{InlineButton, Message, Update, User};

/// Long enough for a slow service, short enough that a request to
/// Switchboard (30 s) waiting on a call still gets an answer.
const TIMEOUT: Duration = Duration::from_secs(20);

/// What stands in for the token in every message.
const REDACTED: &str = "<token>";

/// The update kinds the bot asks for; others are never sent to it.
pub const ALLOWED_UPDATES: [&str; 2] = ["message", "callback_query"];

pub struct Client {
    base_url: String,
    token: String,
    agent: ureq::Agent,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.base_url)
            .field("token", &REDACTED)
            .finish()
    }
}

/// A message to send: HTML (see [`crate::render_reply`]) to one chat key.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    pub key: ChatKey,
    pub html: String,
    /// Rows of inline buttons ([`crate::approval_keyboard`]).
    pub buttons: Option<Vec<Vec<InlineButton>>>,
    /// The message this one answers; sent even if it was deleted since.
    pub reply_to: Option<i64>,
}

impl Client {
    /// A client for the bot with `token`; refuses a token with characters no
    /// Bot API token has, which could change the URL's path.
    pub fn new(base_url: &str, token: String) -> Result<Self, MessengerError> {
        let fits = |c: char| c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-');
        if token.is_empty() || !token.chars().all(fits) {
            return Err(MessengerError::InvalidInput(
                "the saved bot token is not a Bot API token (digits, a colon, then letters, digits, _ or -)"
                    .to_owned(),
            ));
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        Ok(Self {
            base_url: base_url.trim_end_matches('/').to_owned(),
            token,
            agent,
        })
    }

    fn redact(&self, text: &str) -> String {
        text.replace(&self.token, REDACTED)
            .replace(&self.token.replace(':', "%3A"), REDACTED)
            .replace(&self.token.replace(':', "%3a"), REDACTED)
    }

    /// Calls `method` and reads its `result`.
    fn call<T: DeserializeOwned>(
        &self,
        method: &str,
        body: &Value,
        timeout: Duration,
    ) -> Result<T, MessengerError> {
        let url = format!("{}/bot{}/{method}", self.base_url, self.token);
        let unreachable = |e: ureq::Error| MessengerError::Unreachable(self.redact(&e.to_string()));
        let mut response = self
            .agent
            .post(&url)
            .config()
            .timeout_global(Some(timeout))
            .build()
            .header("Content-Type", "application/json; charset=utf-8")
            .send(body.to_string())
            .map_err(unreachable)?;
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().map_err(unreachable)?;
        let reply: Value = serde_json::from_str(&text)
            .map_err(|_| MessengerError::BadReply(format!("{method}: HTTP {status}, not JSON")))?;
        match reply.get("ok").and_then(Value::as_bool) {
            Some(true) => {
                serde_json::from_value(reply.get("result").cloned().unwrap_or(Value::Null))
                    .map_err(|e| MessengerError::BadReply(self.redact(&format!("{method}: {e}"))))
            }
            Some(false) => Err(self.refusal(&reply, status)),
            None => Err(MessengerError::BadReply(format!(
                "{method}: HTTP {status}, no `ok` field"
            ))),
        }
    }

    fn refusal(&self, reply: &Value, status: u16) -> MessengerError {
        let code = reply
            .get("error_code")
            .and_then(Value::as_i64)
            .unwrap_or(i64::from(status));
        let description = self.redact(
            reply
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("no description"),
        );
        let retry_after = reply
            .pointer("/parameters/retry_after")
            .and_then(Value::as_u64);
        match retry_after {
            Some(retry_after) => MessengerError::RateLimited {
                retry_after,
                description,
            },
            None => MessengerError::Api { code, description },
        }
    }

    /// The bot itself: its id and username.
    pub fn get_me(&self) -> Result<Me, MessengerError> {
        let user: User = self.call("getMe", &json!({}), TIMEOUT)?;
        let username = user
            .username
            .ok_or_else(|| MessengerError::BadReply("getMe: the bot has no username".to_owned()))?;
        Ok(Me {
            id: user.id,
            username,
        })
    }

    /// The updates from `offset` on (confirming those before it), waiting
    /// up to `wait_seconds` for one to come (long polling). An update this
    /// crate cannot read comes back with only its id, so the offset still
    /// moves past it.
    pub fn get_updates(
        &self,
        offset: Option<i64>,
        wait_seconds: u64,
    ) -> Result<Vec<Update>, MessengerError> {
        let mut body = json!({"timeout": wait_seconds, "allowed_updates": ALLOWED_UPDATES});
        if let Some(offset) = offset {
            body["offset"] = json!(offset);
        }
        let raw: Vec<Value> = self.call(
            "getUpdates",
            &body,
            TIMEOUT + Duration::from_secs(wait_seconds),
        )?;
        raw.into_iter()
            .map(
                |value| match serde_json::from_value::<Update>(value.clone()) {
                    Ok(update) => Ok(update),
                    Err(_) => value
                        .get("update_id")
                        .and_then(Value::as_i64)
                        .map(|update_id| Update {
                            update_id,
                            message: None,
                            callback_query: None,
                        })
                        .ok_or_else(|| {
                            MessengerError::BadReply(
                                "getUpdates: an update without update_id".to_owned(),
                            )
                        }),
                },
            )
            .collect()
    }

    /// Sends one message in the HTML parse mode and gives back what was sent.
    pub fn send_message(&self, message: &Outgoing) -> Result<Message, MessengerError> {
        let mut body = json!({
            "chat_id": message.key.chat_id,
            "text": message.html,
            "parse_mode": "HTML",
            "link_preview_options": {"is_disabled": true},
        });
        if let Some(thread) = message.key.thread_id {
            body["message_thread_id"] = json!(thread);
        }
        if let Some(buttons) = &message.buttons {
            body["reply_markup"] = json!({"inline_keyboard": buttons});
        }
        if let Some(reply_to) = message.reply_to {
            body["reply_parameters"] =
                json!({"message_id": reply_to, "allow_sending_without_reply": true});
        }
        self.call("sendMessage", &body, TIMEOUT)
    }

    /// Ends a button's spinner, showing `text` briefly when given.
    pub fn answer_callback_query(
        &self,
        callback_id: &str,
        text: Option<&str>,
    ) -> Result<(), MessengerError> {
        let mut body = json!({"callback_query_id": callback_id});
        if let Some(text) = text {
            body["text"] = json!(text);
        }
        self.call::<bool>("answerCallbackQuery", &body, TIMEOUT)
            .map(drop)
    }

    /// Takes the buttons off a message once its approval is answered.
    pub fn remove_buttons(&self, chat_id: i64, message_id: i64) -> Result<(), MessengerError> {
        let body = json!({
            "chat_id": chat_id,
            "message_id": message_id,
            "reply_markup": {"inline_keyboard": []},
        });
        // The edited message, or `true` for an inline message: either will do.
        self.call::<Value>("editMessageReplyMarkup", &body, TIMEOUT)
            .map(drop)
    }

    /// Has Telegram post updates to `url`, each carrying `secret_token` in
    /// [`crate::SECRET_TOKEN_HEADER`].
    pub fn set_webhook(&self, url: &str, secret_token: &str) -> Result<(), MessengerError> {
        let body = json!({
            "url": url,
            "secret_token": secret_token,
            "allowed_updates": ALLOWED_UPDATES,
        });
        self.call::<bool>("setWebhook", &body, TIMEOUT).map(drop)
    }

    /// Back to `getUpdates`; updates waiting are kept.
    pub fn delete_webhook(&self) -> Result<(), MessengerError> {
        self.call::<bool>("deleteWebhook", &json!({}), TIMEOUT)
            .map(drop)
    }
}
