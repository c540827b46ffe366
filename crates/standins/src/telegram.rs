//! A stand-in of the Telegram Bot API on loopback, for the messenger bot's
//! tests and bench: `POST /bot<token>/<method>` with a JSON body, answered
//! `{"ok": true, "result": ...}` as the Bot API documents it. Updates the
//! test feeds are served to `getUpdates` from its `offset`, the request
//! held until one arrives or a second passes (the real `timeout` holds it
//! longer; a second keeps a test's idle polls cheap); `sendMessage` answers
//! the message it would have made. Every call is recorded with the token
//! that was in its path and when it came.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The bot the stand-in says it is (`getMe`).
pub const BOT_ID: i64 = 7_001_234_567;
pub const BOT_NAME: &str = "sb_test_bot";

/// The longest a `getUpdates` is held without news.
const HOLD: Duration = Duration::from_secs(1);

/// One call the stand-in received.
#[derive(Debug, Clone)]
pub struct Call {
    pub method: String,
    /// The token in the request's path.
    pub token: String,
    pub body: Value,
    pub at: Instant,
}

#[derive(Default)]
struct State {
    updates: Vec<Value>,
    next_update: i64,
    next_message: i64,
    calls: Vec<Call>,
}

/// The running stand-in; clones share it. Its threads end with the process.
#[derive(Clone)]
pub struct BotApi {
    base: String,
    state: Arc<(Mutex<State>, Condvar)>,
}

impl BotApi {
    pub fn start() -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let base = format!("http://{}", listener.local_addr()?);
        let api = BotApi {
            base,
            state: Arc::new((Mutex::new(State::default()), Condvar::new())),
        };
        let served = api.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let api = served.clone();
                std::thread::spawn(move || api.serve(stream));
            }
        });
        Ok(api)
    }

    /// The base URL, as `messenger.toml`'s `base_url`.
    pub fn url(&self) -> &str {
        &self.base
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn serve(&self, stream: TcpStream) {
        let Ok(mut writer) = stream.try_clone() else {
            return;
        };
        let mut reader = BufReader::new(stream);
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
            let mut length = 0;
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap_or(0) == 0 {
                    return;
                }
                let header = header.trim_end();
                if header.is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':')
                    && name.eq_ignore_ascii_case("content-length")
                {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let (token, method) = path
                .strip_prefix("/bot")
                .and_then(|rest| rest.split_once('/'))
                .map(|(t, m)| (t.to_owned(), m.to_owned()))
                .unwrap_or_default();
            let at = Instant::now();
            let result = self.answer(&method, &body);
            self.lock().calls.push(Call {
                method,
                token,
                body,
                at,
            });
            let text = json!({"ok": true, "result": result}).to_string();
            let response = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
                text.len()
            );
            if writer.write_all(response.as_bytes()).is_err() {
                return;
            }
        }
    }

    fn answer(&self, method: &str, body: &Value) -> Value {
        match method {
            "getMe" => {
                json!({"id": BOT_ID, "is_bot": true, "first_name": "Switchboard", "username": BOT_NAME})
            }
            "getUpdates" => {
                let offset = body["offset"].as_i64().unwrap_or(0);
                let deadline = Instant::now() + HOLD;
                let (_, wake) = &*self.state;
                let mut state = self.lock();
                loop {
                    let ready: Vec<Value> = state
                        .updates
                        .iter()
                        .filter(|u| u["update_id"].as_i64().unwrap_or(0) >= offset)
                        .cloned()
                        .collect();
                    let left = deadline.saturating_duration_since(Instant::now());
                    if !ready.is_empty() || left.is_zero() {
                        return json!(ready);
                    }
                    state = match wake.wait_timeout(state, left) {
                        Ok((state, _)) => state,
                        Err(poisoned) => poisoned.into_inner().0,
                    };
                }
            }
            "sendMessage" => {
                let mut state = self.lock();
                state.next_message += 1;
                let kind = if body["chat_id"].as_i64().unwrap_or(0) < 0 {
                    "supergroup"
                } else {
                    "private"
                };
                json!({
                    "message_id": state.next_message,
                    "date": 1_700_000_000,
                    "chat": {"id": body["chat_id"], "type": kind},
                    "from": {"id": BOT_ID, "is_bot": true, "first_name": "Switchboard", "username": BOT_NAME},
                    "text": body["text"],
                })
            }
            _ => json!(true),
        }
    }

    /// Feeds an update (its `update_id` is given here) to the next `getUpdates`.
    pub fn push(&self, mut update: Value) {
        let mut state = self.lock();
        state.next_update += 1;
        update["update_id"] = json!(state.next_update);
        state.updates.push(update);
        self.state.1.notify_all();
    }

    /// A direct message from `user`; a text starting with `/` carries the
    /// `bot_command` entity Telegram adds.
    pub fn dm(&self, user: i64, text: &str) {
        let mut message = json!({
            "message_id": 100 + user,
            "date": 1_700_000_000,
            "from": {"id": user, "is_bot": false, "first_name": format!("User{user}"), "username": format!("user{user}")},
            "chat": {"id": user, "type": "private"},
            "text": text,
        });
        if text.starts_with('/') {
            let length = text.split_whitespace().next().unwrap_or(text).len();
            message["entities"] = json!([{"type": "bot_command", "offset": 0, "length": length}]);
        }
        self.push(json!({ "message": message }));
    }

    /// A message in group `chat` (in forum topic `topic`), with a `mention`
    /// entity where the text names the bot.
    pub fn group(&self, chat: i64, topic: Option<i64>, user: i64, text: &str) {
        let mut message = json!({
            "message_id": 500,
            "date": 1_700_000_000,
            "from": {"id": user, "is_bot": false, "first_name": format!("User{user}")},
            "chat": {"id": chat, "type": "supergroup", "is_forum": topic.is_some()},
            "text": text,
        });
        let mention = format!("@{BOT_NAME}");
        if let Some(at) = text.find(&mention) {
            message["entities"] =
                json!([{"type": "mention", "offset": at, "length": mention.len()}]);
        }
        if let Some(topic) = topic {
            message["message_thread_id"] = json!(topic);
            message["is_topic_message"] = json!(true);
        }
        self.push(json!({ "message": message }));
    }

    /// Every call so far.
    pub fn all_calls(&self) -> Vec<Call> {
        self.lock().calls.clone()
    }

    /// The calls of one method, in order.
    pub fn calls(&self, method: &str) -> Vec<Call> {
        self.lock()
            .calls
            .iter()
            .filter(|c| c.method == method)
            .cloned()
            .collect()
    }

    /// The messages the bot sent to `chat`, in order.
    pub fn sent_to(&self, chat: i64) -> Vec<Call> {
        self.calls("sendMessage")
            .into_iter()
            .filter(|c| c.body["chat_id"] == chat)
            .collect()
    }

    /// True once every update fed so far was fetched and confirmed (a
    /// later `getUpdates` asked from past it).
    pub fn consumed(&self) -> bool {
        let state = self.lock();
        let confirmed = state
            .calls
            .iter()
            .filter(|c| c.method == "getUpdates")
            .filter_map(|c| c.body["offset"].as_i64())
            .max()
            .unwrap_or(0);
        confirmed > state.next_update
    }
}
