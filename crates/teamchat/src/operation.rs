//! The operations the spec lists, each as the Web API calls it takes.

use serde::Serialize;
use serde_json::{Value, json};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::{ChatError, Client};

/// One write to team chat. Texts are sent as given (the caller labels an
/// agent's message first, with [`label`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Operation {
    /// A direct message to a user (`conversations.open`, then `chat.postMessage`).
    DirectMessage {
        user: String,
        text: String,
    },
    /// A message in a channel, or in a thread of it.
    ChannelMessage {
        channel: String,
        text: String,
        thread_ts: Option<String>,
    },
    Reaction {
        channel: String,
        ts: String,
        name: String,
    },
    Edit {
        channel: String,
        ts: String,
        text: String,
    },
    Delete {
        channel: String,
        ts: String,
    },
    Pin {
        channel: String,
        ts: String,
    },
    /// A direct message sent later, at `post_at` (Unix seconds).
    ScheduledDirectMessage {
        user: String,
        text: String,
        post_at: i64,
    },
    /// Invites users (guests included) into a channel.
    Invite {
        channel: String,
        users: Vec<String>,
    },
}

/// What the service answered, as Switchboard passes it on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Done {
    /// The channel written to (a direct message's conversation).
    pub channel: Option<String>,
    /// The message's timestamp: its id in the Web API.
    pub ts: Option<String>,
    pub scheduled_message_id: Option<String>,
}

impl Operation {
    /// Marks the text of a message an agent sends as the user's agent's,
    /// naming the session; operations without text are left as they are.
    pub fn label(&mut self, session: &str) {
        match self {
            Operation::DirectMessage { text, .. }
            | Operation::ChannelMessage { text, .. }
            | Operation::Edit { text, .. }
            | Operation::ScheduledDirectMessage { text, .. } => {
                *text = format!("[Sent by the user's agent, session {session}] {text}");
            }
            Operation::Reaction { .. }
            | Operation::Delete { .. }
            | Operation::Pin { .. }
            | Operation::Invite { .. } => {}
        }
    }
}

fn field(reply: &Value, key: &str) -> Option<String> {
    reply.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn required(value: &str, name: &str) -> Result<(), ChatError> {
    if value.trim().is_empty() {
        return Err(ChatError::InvalidInput(format!("{name} must not be empty")));
    }
    Ok(())
}

impl Operation {
    /// Refuses an empty field before anything else is read or added (an
    /// agent's label would otherwise make an empty text look written).
    pub fn check(&self) -> Result<(), ChatError> {
        match self {
            Operation::DirectMessage { user, text } => {
                required(user, "user")?;
                required(text, "text")
            }
            Operation::ChannelMessage { channel, text, .. } => {
                required(channel, "channel")?;
                required(text, "text")
            }
            Operation::Reaction { channel, ts, name } => {
                required(channel, "channel")?;
                required(ts, "ts")?;
                required(name, "name")
            }
            Operation::Edit { channel, ts, text } => {
                required(channel, "channel")?;
                required(ts, "ts")?;
                required(text, "text")
            }
            Operation::Delete { channel, ts } | Operation::Pin { channel, ts } => {
                required(channel, "channel")?;
                required(ts, "ts")
            }
            Operation::ScheduledDirectMessage {
                user,
                text,
                post_at,
            } => {
                required(user, "user")?;
                required(text, "text")?;
                if *post_at <= 0 {
                    return Err(ChatError::InvalidInput(
                        "postAt must be a time in Unix seconds".to_owned(),
                    ));
                }
                Ok(())
            }
            Operation::Invite { channel, users } => {
                required(channel, "channel")?;
                if users.is_empty() || users.iter().any(|u| u.trim().is_empty()) {
                    return Err(ChatError::InvalidInput(
                        "users must name at least one user".to_owned(),
                    ));
                }
                Ok(())
            }
        }
    }

    /// Checks the input, then makes the calls. Bad input makes none.
    pub fn run(&self, client: &Client) -> Result<Done, ChatError> {
        self.check()?;
        let open = |user: &str| -> Result<String, ChatError> {
            let opened = client.call("conversations.open", &json!({ "users": user }))?;
            opened
                .pointer("/channel/id")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| ChatError::BadReply("conversations.open gave no channel".to_owned()))
        };
        let posted = |reply: Value| Done {
            channel: field(&reply, "channel"),
            ts: field(&reply, "ts"),
            scheduled_message_id: field(&reply, "scheduled_message_id"),
        };
        Ok(match self {
            Operation::DirectMessage { user, text } => {
                let channel = open(user)?;
                posted(client.call(
                    "chat.postMessage",
                    &json!({ "channel": channel, "text": text }),
                )?)
            }
            Operation::ChannelMessage {
                channel,
                text,
                thread_ts,
            } => {
                let mut body = json!({ "channel": channel, "text": text });
                if let Some(thread) = thread_ts {
                    body["thread_ts"] = json!(thread);
                }
                posted(client.call("chat.postMessage", &body)?)
            }
            Operation::Reaction { channel, ts, name } => {
                client.call(
                    "reactions.add",
                    &json!({ "channel": channel, "timestamp": ts, "name": name }),
                )?;
                Done {
                    channel: Some(channel.clone()),
                    ts: Some(ts.clone()),
                    ..Done::default()
                }
            }
            Operation::Edit { channel, ts, text } => posted(client.call(
                "chat.update",
                &json!({ "channel": channel, "ts": ts, "text": text }),
            )?),
            Operation::Delete { channel, ts } => {
                posted(client.call("chat.delete", &json!({ "channel": channel, "ts": ts }))?)
            }
            Operation::Pin { channel, ts } => {
                client.call("pins.add", &json!({ "channel": channel, "timestamp": ts }))?;
                Done {
                    channel: Some(channel.clone()),
                    ts: Some(ts.clone()),
                    ..Done::default()
                }
            }
            Operation::ScheduledDirectMessage {
                user,
                text,
                post_at,
            } => {
                let channel = open(user)?;
                posted(client.call(
                    "chat.scheduleMessage",
                    &json!({ "channel": channel, "text": text, "post_at": post_at }),
                )?)
            }
            Operation::Invite { channel, users } => {
                client.call(
                    "conversations.invite",
                    &json!({ "channel": channel, "users": users.join(",") }),
                )?;
                Done {
                    channel: Some(channel.clone()),
                    ..Done::default()
                }
            }
        })
    }
}
