//! Reading the person's mentions in a time range, for the daily briefing:
//! the channels the bot is in (`users.conversations`), then each one's
//! history in the range (`conversations.history` with `oldest`/`latest`,
//! Slack's `ts` seconds), keeping the messages whose text holds
//! `<@user>`. Both are paged with `response_metadata.next_cursor`.
//!
//! A busy workspace must not turn a briefing into hundreds of calls (Slack
//! allows about 50 history reads a minute), so the read is bounded: at most
//! [`MAX_CHANNELS`] channels, [`MAX_PAGES`] pages of 200 messages each, and
//! [`MAX_MENTIONS`] mentions; [`Mentions::truncated`] says a bound was hit.
//! A 429 is waited out once per read when its `Retry-After` is at most
//! [`MAX_WAIT`]; another 429, or a longer wait, ends the read as
//! [`RATE_LIMITED`]. Replies in threads are not read (history lists a
//! thread's first message only).

use std::cmp::Ordering;
use std::time::Duration;

use serde_json::Value;

use crate::client::{Answer, RATE_LIMITED};
use crate::{ChatError, Client};

pub const MAX_MENTIONS: usize = 50;
pub const MAX_CHANNELS: usize = 20;
/// Per channel.
pub const MAX_PAGES: usize = 5;
/// The longest `Retry-After` waited out.
pub const MAX_WAIT: Duration = Duration::from_secs(30);
const PAGE_SIZE: &str = "200";
/// A service that keeps answering empty pages with a cursor is not followed
/// for ever.
const MAX_CHANNEL_PAGES: usize = 10;

/// One message that mentions the person.
#[derive(Debug, Clone, PartialEq)]
pub struct Mention {
    /// The channel's name, without `#`.
    pub channel: String,
    /// The author's display or real name when the message carries its
    /// profile, else their user id (or a bot's name).
    pub author: String,
    /// The text as written, Slack's `&amp;`, `&lt;` and `&gt;` undone.
    pub text: String,
    /// Slack's timestamp: `seconds.micros`, the message's id.
    pub ts: String,
}

/// What a read found, oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mentions {
    pub found: Vec<Mention>,
    /// A bound was reached: there may be mentions not read.
    pub truncated: bool,
}

impl Client {
    /// The mentions of `user` (an id such as `U012AB3CD`) in messages from
    /// `oldest` (included) to `latest` (excluded), Unix seconds. `wait` is
    /// how the caller waits out a `Retry-After` (on its own clock).
    pub fn mentions(
        &self,
        user: &str,
        oldest: i64,
        latest: i64,
        wait: &dyn Fn(Duration),
    ) -> Result<Mentions, ChatError> {
        let mut reading = Reading {
            client: self,
            wait,
            waited: false,
        };
        let (channels, mut truncated) = reading.channels()?;
        let (from, to) = (oldest.to_string(), latest.to_string());
        let mut found = Vec::new();
        'channels: for (id, name) in &channels {
            let mut cursor = String::new();
            for page in 0..MAX_PAGES {
                let mut params = vec![
                    ("channel", id.as_str()),
                    ("oldest", from.as_str()),
                    ("latest", to.as_str()),
                    ("inclusive", "true"),
                    ("limit", PAGE_SIZE),
                ];
                if !cursor.is_empty() {
                    params.push(("cursor", cursor.as_str()));
                }
                let reply = reading.get("conversations.history", &params)?;
                for message in reply
                    .get("messages")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(mention) = mention_in(name, message, user, oldest, latest) {
                        if found.len() == MAX_MENTIONS {
                            truncated = true;
                            break 'channels;
                        }
                        found.push(mention);
                    }
                }
                match next_cursor(&reply) {
                    Some(_) if page + 1 == MAX_PAGES => truncated = true,
                    Some(next) => cursor = next,
                    None => break,
                }
            }
        }
        found.sort_by(|a, b| order(&a.ts, &b.ts));
        Ok(Mentions { found, truncated })
    }
}

/// One read's calls, sharing its single wait.
struct Reading<'a> {
    client: &'a Client,
    wait: &'a dyn Fn(Duration),
    waited: bool,
}

impl Reading<'_> {
    fn get(&mut self, method: &str, params: &[(&str, &str)]) -> Result<Value, ChatError> {
        match self.client.get(method, params)? {
            Answer::Reply(reply) => return Ok(reply),
            Answer::RateLimited(Some(wait)) if !self.waited && wait <= MAX_WAIT => {
                self.waited = true;
                (self.wait)(wait);
            }
            Answer::RateLimited(_) => return Err(rate_limited()),
        }
        match self.client.get(method, params)? {
            Answer::Reply(reply) => Ok(reply),
            Answer::RateLimited(_) => Err(rate_limited()),
        }
    }

    /// The channels the bot is in, `(id, name)`, and whether there were more.
    fn channels(&mut self) -> Result<(Vec<(String, String)>, bool), ChatError> {
        let mut channels = Vec::new();
        let mut cursor = String::new();
        for _ in 0..MAX_CHANNEL_PAGES {
            let mut params = vec![
                ("types", "public_channel,private_channel"),
                ("exclude_archived", "true"),
                ("limit", PAGE_SIZE),
            ];
            if !cursor.is_empty() {
                params.push(("cursor", cursor.as_str()));
            }
            let reply = self.get("users.conversations", &params)?;
            channels.extend(channels_in(&reply));
            if channels.len() > MAX_CHANNELS {
                channels.truncate(MAX_CHANNELS);
                return Ok((channels, true));
            }
            match next_cursor(&reply) {
                Some(_) if channels.len() == MAX_CHANNELS => return Ok((channels, true)),
                Some(next) => cursor = next,
                None => return Ok((channels, false)),
            }
        }
        Ok((channels, true))
    }
}

fn rate_limited() -> ChatError {
    ChatError::Service {
        code: RATE_LIMITED.to_owned(),
    }
}

/// The cursor of the next page; none on the last (Slack sends `""`).
fn next_cursor(reply: &Value) -> Option<String> {
    reply
        .pointer("/response_metadata/next_cursor")
        .and_then(Value::as_str)
        .filter(|cursor| !cursor.is_empty())
        .map(str::to_owned)
}

fn channels_in(reply: &Value) -> Vec<(String, String)> {
    reply
        .get("channels")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|channel| {
            let id = channel.get("id").and_then(Value::as_str)?;
            let name = channel.get("name").and_then(Value::as_str).unwrap_or(id);
            Some((id.to_owned(), name.to_owned()))
        })
        .collect()
}

/// `message` as a mention of `user` when its text names them, someone
/// else wrote it (a person's own join message names them too) and it lies
/// in the range.
fn mention_in(
    channel: &str,
    message: &Value,
    user: &str,
    oldest: i64,
    latest: i64,
) -> Option<Mention> {
    let text = message.get("text").and_then(Value::as_str)?;
    let plain = format!("<@{user}>");
    let labelled = format!("<@{user}|");
    if !(text.contains(&plain) || text.contains(&labelled)) {
        return None;
    }
    let author_id = message.get("user").and_then(Value::as_str);
    if author_id == Some(user) {
        return None;
    }
    let ts = message.get("ts").and_then(Value::as_str)?;
    let (seconds, _) = parse_ts(ts)?;
    if seconds < oldest || seconds >= latest {
        return None;
    }
    let profile = |key: &str| {
        message
            .pointer(&format!("/user_profile/{key}"))
            .and_then(Value::as_str)
            .filter(|name| !name.trim().is_empty())
    };
    let author = profile("display_name")
        .or_else(|| profile("real_name"))
        .or(author_id)
        .or_else(|| message.get("username").and_then(Value::as_str))
        .or_else(|| message.pointer("/bot_profile/name").and_then(Value::as_str))
        .unwrap_or("someone");
    Some(Mention {
        channel: channel.to_owned(),
        author: author.to_owned(),
        text: unescape(text),
        ts: ts.to_owned(),
    })
}

/// `1700000000.000100` as its seconds and microseconds.
fn parse_ts(ts: &str) -> Option<(i64, i64)> {
    let (seconds, micros) = ts.split_once('.').unwrap_or((ts, "0"));
    Some((seconds.parse().ok()?, micros.parse().ok()?))
}

fn order(a: &str, b: &str) -> Ordering {
    parse_ts(a).cmp(&parse_ts(b))
}

/// Slack escapes these three in message text, and only these.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const DAY: (i64, i64) = (1_893_888_000, 1_893_974_400);

    fn mention(message: Value) -> Option<Mention> {
        mention_in("general", &message, "UME", DAY.0, DAY.1)
    }

    #[test]
    fn a_mention_is_a_message_by_someone_else_naming_the_user_in_the_range() {
        let found = mention(json!({
            "type": "message", "user": "U2", "ts": "1893900000.000200",
            "text": "<@UME> can you review &lt;the PR&gt; &amp; merge?",
            "user_profile": {"display_name": "", "real_name": "Ada Lovelace"}
        }))
        .unwrap();
        assert_eq!(
            found,
            Mention {
                channel: "general".to_owned(),
                author: "Ada Lovelace".to_owned(),
                text: "<@UME> can you review <the PR> & merge?".to_owned(),
                ts: "1893900000.000200".to_owned(),
            }
        );
        let labelled = mention(json!({"user": "U2", "ts": "1893900000.1", "text": "hi <@UME|me>"}));
        assert_eq!(labelled.unwrap().author, "U2");
        let bot = mention(
            json!({"bot_profile": {"name": "CI"}, "ts": "1893900000.1", "text": "<@UME> red"}),
        );
        assert_eq!(bot.unwrap().author, "CI");
    }

    #[test]
    fn others_are_not_mentions() {
        for message in [
            json!({"user": "U2", "ts": "1893900000.1", "text": "lunch?"}),
            json!({"user": "U2", "ts": "1893900000.1", "text": "<@UMEX> not you"}),
            json!({"user": "UME", "ts": "1893900000.1", "text": "<@UME> has joined the channel"}),
            json!({"user": "U2", "ts": "1893887999.999999", "text": "<@UME> the day before"}),
            json!({"user": "U2", "ts": "1893974400.000000", "text": "<@UME> the day after"}),
            json!({"user": "U2", "ts": "soon", "text": "<@UME> no time"}),
            json!({"user": "U2", "ts": "1893900000.1"}),
        ] {
            assert_eq!(mention(message.clone()), None, "{message}");
        }
    }

    #[test]
    fn pages_end_on_an_empty_or_missing_cursor() {
        assert_eq!(
            next_cursor(&json!({"response_metadata": {"next_cursor": "bmV4dA=="}})),
            Some("bmV4dA==".to_owned())
        );
        assert_eq!(
            next_cursor(&json!({"response_metadata": {"next_cursor": ""}})),
            None
        );
        assert_eq!(next_cursor(&json!({"ok": true})), None);
        assert_eq!(
            channels_in(
                &json!({"channels": [{"id": "C1", "name": "general"}, {"id": "C2"}, {"name": "x"}]})
            ),
            [
                ("C1".to_owned(), "general".to_owned()),
                ("C2".to_owned(), "C2".to_owned())
            ]
        );
    }

    #[test]
    fn timestamps_order_by_seconds_then_micros() {
        assert_eq!(parse_ts("1893900000.000200"), Some((1_893_900_000, 200)));
        assert_eq!(parse_ts("1893900000"), Some((1_893_900_000, 0)));
        assert_eq!(order("9.5", "10.1"), Ordering::Less);
        assert_eq!(order("10.000200", "10.000100"), Ordering::Greater);
    }
}
