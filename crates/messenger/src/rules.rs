//! Who may talk to the bot and what an update asks for: [`route`] turns
//! one update into a prompt or a command for one chat key, a pairing
//! request, a button press, or a reason to ignore it.
//!
//! - A direct chat is one key (its chat id); in an allowed group the
//!   general chat is one key and each forum topic another.
//! - A command is a `bot_command` at the start of the text: `/start`,
//!   `/new`, `/stop`, `/status`, `/sessions`, or any of them as
//!   `/cmd@botname`. Words after a command are not read. Any other
//!   `/command` is passed on to the agent as text (without `@botname`), so
//!   an agent's own slash commands work; one addressed to another bot is
//!   ignored.
//! - In a group that requires a mention, a plain `/cmd` does not address
//!   the bot (several bots may share the group): `/cmd@botname`, an
//!   `@botname` mention, a mention of the bot by name (`text_mention`) or a
//!   reply to one of the bot's messages does.
//! - A button is pressed by a user on the allowed list, or refused: an
//!   approval decides what an agent may run, so being in an allowed group
//!   is not enough.

use crate::buttons::{Decision, parse_callback_data};
use crate::text::byte_at_utf16;
use crate::types::{CallbackQuery, Message, Update, User};

/// The conversation a message belongs to: each has its own session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChatKey {
    pub chat_id: i64,
    /// The forum topic; `None` for a direct chat and a group's general chat.
    pub thread_id: Option<i64>,
}

/// `messengerBotDmPolicy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DmPolicy {
    /// An unknown sender gets a code; the owner approves it in the inbox.
    Pairing,
    /// Only the allowed users.
    Allowlist,
    /// No direct messages at all.
    Disabled,
}

impl DmPolicy {
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "pairing" => Some(Self::Pairing),
            "allowlist" => Some(Self::Allowlist),
            "disabled" => Some(Self::Disabled),
            _ => None,
        }
    }
}

/// The settings that decide who is answered, as the app reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    pub dm: DmPolicy,
    pub allowed_users: Vec<i64>,
    /// Empty: the bot answers in no group.
    pub allowed_groups: Vec<i64>,
    pub group_require_mention: bool,
}

impl Policy {
    /// From the settings' values; an id that is not a number matches nobody.
    pub fn new(
        dm: DmPolicy,
        allowed_user_ids: &[String],
        allowed_group_ids: &[String],
        group_require_mention: bool,
    ) -> Self {
        let ids = |list: &[String]| {
            list.iter()
                .filter_map(|id| id.trim().parse().ok())
                .collect()
        };
        Self {
            dm,
            allowed_users: ids(allowed_user_ids),
            allowed_groups: ids(allowed_group_ids),
            group_require_mention,
        }
    }
}

/// The bot itself, from `getMe`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Me {
    pub id: i64,
    /// Without the `@`.
    pub username: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Telegram's first message in a chat: a greeting.
    Start,
    /// A fresh session for this chat.
    New,
    /// Stop the chat's session.
    Stop,
    Status,
    Sessions,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    Command(Command),
    /// What the agent is told, mentions of the bot taken out.
    Prompt(String),
}

/// A message the bot acts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Incoming {
    pub key: ChatKey,
    pub message_id: i64,
    pub sender: User,
    pub input: Input,
}

/// A pressed approval button, from an allowed user.
#[derive(Debug, Clone, PartialEq)]
pub struct Press {
    /// Answered with `answerCallbackQuery`, or the button spins on.
    pub callback_id: String,
    pub token: String,
    pub decision: Decision,
    pub from: User,
    /// The bot's message that holds the button, when Telegram sent it.
    pub message: Option<(ChatKey, i64)>,
}

/// Why an update is not acted on: for logs and for a refused button's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ignored {
    /// Neither a message nor a button press.
    NotHandled,
    NoSender,
    FromABot,
    /// A channel, or a chat of a kind this bot does not serve.
    UnsupportedChat,
    /// A photo, a sticker, a service message: nothing to read.
    NoText,
    DirectMessagesOff,
    UserNotAllowed,
    GroupNotAllowed,
    /// A group that requires a mention, and this message does not address the bot.
    NotAddressed,
    ForAnotherBot,
    /// Nothing left once the mention is taken out.
    EmptyPrompt,
    UnknownButton,
}

impl Ignored {
    pub fn as_str(self) -> &'static str {
        match self {
            Ignored::NotHandled => "not a message or a button press",
            Ignored::NoSender => "no sender",
            Ignored::FromABot => "sent by a bot",
            Ignored::UnsupportedChat => "not a direct chat or a group",
            Ignored::NoText => "no text",
            Ignored::DirectMessagesOff => "direct messages are turned off",
            Ignored::UserNotAllowed => "the sender is not on the allowed list",
            Ignored::GroupNotAllowed => "the group is not on the allowed list",
            Ignored::NotAddressed => "the bot was not mentioned or replied to",
            Ignored::ForAnotherBot => "a command for another bot",
            Ignored::EmptyPrompt => "nothing but the mention",
            Ignored::UnknownButton => "not one of this bot's buttons",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Routed {
    Ignore(Ignored),
    /// An unknown sender under [`DmPolicy::Pairing`]: give them a code.
    Pairing {
        chat_id: i64,
        sender: User,
    },
    Message(Incoming),
    Press(Press),
    /// A press the bot does not act on; answer it with the reason.
    RefusedPress {
        callback_id: String,
        reason: Ignored,
    },
}

pub fn route(update: &Update, policy: &Policy, me: &Me) -> Routed {
    if let Some(message) = &update.message {
        return route_message(message, policy, me);
    }
    if let Some(query) = &update.callback_query {
        return route_press(query, policy);
    }
    Routed::Ignore(Ignored::NotHandled)
}

/// The key of the chat (and forum topic) a message is in. Outside forum
/// topics `message_thread_id` names a thread of replies, not a
/// conversation, so only `is_topic_message` makes a key of its own.
pub fn chat_key(message: &Message) -> ChatKey {
    ChatKey {
        chat_id: message.chat.id,
        thread_id: message
            .message_thread_id
            .filter(|_| message.is_topic_message),
    }
}

fn route_message(message: &Message, policy: &Policy, me: &Me) -> Routed {
    let Some(sender) = &message.from else {
        return Routed::Ignore(Ignored::NoSender);
    };
    if sender.is_bot {
        return Routed::Ignore(Ignored::FromABot);
    }
    let group = match message.chat.kind.as_str() {
        "private" => false,
        "group" | "supergroup" => true,
        _ => return Routed::Ignore(Ignored::UnsupportedChat),
    };
    let Some(text) = &message.text else {
        return Routed::Ignore(Ignored::NoText);
    };
    let allowed_user = policy.allowed_users.contains(&sender.id);
    if group {
        if !policy.allowed_groups.contains(&message.chat.id) {
            return Routed::Ignore(Ignored::GroupNotAllowed);
        }
    } else {
        match policy.dm {
            DmPolicy::Disabled => return Routed::Ignore(Ignored::DirectMessagesOff),
            _ if allowed_user => {}
            DmPolicy::Allowlist => return Routed::Ignore(Ignored::UserNotAllowed),
            DmPolicy::Pairing => {
                return Routed::Pairing {
                    chat_id: message.chat.id,
                    sender: sender.clone(),
                };
            }
        }
    }
    let read = match read_text(message, text, me) {
        Ok(read) => read,
        Err(reason) => return Routed::Ignore(reason),
    };
    let addressed = read.mentioned || read.command_for_me || replies_to_me(message, me);
    if group && policy.group_require_mention && !addressed {
        return Routed::Ignore(Ignored::NotAddressed);
    }
    let input = match read.command {
        Some(command) => Input::Command(command),
        None if read.prompt.is_empty() => return Routed::Ignore(Ignored::EmptyPrompt),
        None => Input::Prompt(read.prompt),
    };
    Routed::Message(Incoming {
        key: chat_key(message),
        message_id: message.message_id,
        sender: sender.clone(),
        input,
    })
}

/// A reply to one of the bot's messages. In a forum topic every message
/// replies to the topic's first message, which says nothing of who it
/// addresses, so that one does not count.
fn replies_to_me(message: &Message, me: &Me) -> bool {
    message.reply_to_message.as_ref().is_some_and(|replied| {
        let topic_root =
            message.is_topic_message && Some(replied.message_id) == message.message_thread_id;
        !topic_root && replied.from.as_ref().is_some_and(|from| from.id == me.id)
    })
}

struct Read {
    command: Option<Command>,
    /// `/cmd@botname` names this bot.
    command_for_me: bool,
    mentioned: bool,
    prompt: String,
}

fn read_text(message: &Message, text: &str, me: &Me) -> Result<Read, Ignored> {
    let span = |offset: usize, length: usize| {
        let start = byte_at_utf16(text, offset)?;
        let end = byte_at_utf16(text, offset + length)?;
        (start <= end).then_some(start..end)
    };
    let my_name = |name: &str| name.eq_ignore_ascii_case(&me.username);
    let mut cut = Vec::new();
    let mut read = Read {
        command: None,
        command_for_me: false,
        mentioned: false,
        prompt: String::new(),
    };
    for entity in &message.entities {
        let Some(range) = span(entity.offset, entity.length) else {
            continue;
        };
        match entity.kind.as_str() {
            "mention" if text[range.clone()].strip_prefix('@').is_some_and(my_name) => {
                read.mentioned = true;
                cut.push(range);
            }
            "text_mention" if entity.user.as_ref().is_some_and(|user| user.id == me.id) => {
                read.mentioned = true;
                cut.push(range);
            }
            "bot_command" if range.start == 0 => {
                let (name, target) = match text[range.clone()].split_once('@') {
                    Some((name, target)) => (name, Some(target)),
                    None => (&text[range.clone()], None),
                };
                match target {
                    Some(target) if !my_name(target) => return Err(Ignored::ForAnotherBot),
                    Some(_) => {
                        read.command_for_me = true;
                        // `/cmd@botname` goes on as `/cmd`.
                        cut.push(range.start + name.len()..range.end);
                    }
                    None => {}
                }
                read.command = command(name);
            }
            _ => {}
        }
    }
    read.prompt = without(text, cut);
    Ok(read)
}

fn command(name: &str) -> Option<Command> {
    match name.to_ascii_lowercase().as_str() {
        "/start" => Some(Command::Start),
        "/new" => Some(Command::New),
        "/stop" => Some(Command::Stop),
        "/status" => Some(Command::Status),
        "/sessions" => Some(Command::Sessions),
        _ => None,
    }
}

/// `text` without the byte ranges in `cut`, one space where a cut left
/// words on both sides, trimmed.
fn without(text: &str, mut cut: Vec<std::ops::Range<usize>>) -> String {
    cut.sort_by_key(|range| range.start);
    let mut out = String::new();
    let mut from = 0;
    for range in cut
        .into_iter()
        .chain(std::iter::once(text.len()..text.len()))
    {
        if range.start < from {
            continue;
        }
        let kept = &text[from..range.start];
        let joins = !out.is_empty() && out.ends_with(' ') && kept.starts_with(' ');
        out.push_str(if joins {
            kept.trim_start_matches(' ')
        } else {
            kept
        });
        from = range.end;
    }
    out.trim().to_owned()
}

fn route_press(query: &CallbackQuery, policy: &Policy) -> Routed {
    let refuse = |reason| Routed::RefusedPress {
        callback_id: query.id.clone(),
        reason,
    };
    let Some((token, decision)) = query.data.as_deref().and_then(parse_callback_data) else {
        return refuse(Ignored::UnknownButton);
    };
    if !policy.allowed_users.contains(&query.from.id) {
        return refuse(Ignored::UserNotAllowed);
    }
    Routed::Press(Press {
        callback_id: query.id.clone(),
        token: token.to_owned(),
        decision,
        from: query.from.clone(),
        message: query
            .message
            .as_ref()
            .map(|message| (chat_key(message), message.message_id)),
    })
}
