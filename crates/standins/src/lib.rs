//! Scripted stand-ins of the two model APIs the real engines call, served on
//! loopback so the pinned Claude Code and Codex CLIs run offline in tests.
//!
//! A [`Standin`] speaks one API ([`Api::Anthropic`]: the Messages API that
//! `ANTHROPIC_BASE_URL` points Claude Code at; [`Api::OpenAi`]: the Responses
//! API a Codex `model_providers` entry points at). Each *main* request (a turn
//! of the conversation) takes the next [`Reply`] of the script the test pushed
//! and gets it streamed as the real API streams it; auxiliary requests (a
//! connectivity check, token counting, a side question asked with no tools)
//! get a fixed answer and leave the script alone, so a test scripts only the
//! conversation. Every request is recorded ([`Recorded`]) for the test to
//! read, with the API keys masked.
//!
//! A request whose body contains a phrase given to [`Standin::answer`] is
//! answered from that phrase's replies instead, main or auxiliary: a
//! utility-model call (a title, a summary) is told apart from the
//! conversation by what it asks, not by its shape.
//!
//! The server runs on a thread of its own, so the blocking tests of the `cli`
//! package use it as they are; dropping the [`Standin`] stops it.
//!
//! [`telegram::BotApi`] stands in for the messenger's Bot API the same way:
//! it feeds the updates a test pushes to `getUpdates` and records every call.
//! [`codehost::CodeHost`] stands in for GitHub's or GitLab's REST API: the
//! pull (merge) requests a test adds, listed with ETags and 304s, created,
//! refused and rate limited as the hosts document it.
//! [`sms_gateway::Gateway`] stands in for the SMS Gateway for Android app's
//! local server (the `native` SMS provider).
//! [`push::PushService`] stands in for a Web Push service and the browser
//! behind each subscription: it checks VAPID and decrypts what a phone reads.
//! [`logind::Bus`] is a private system bus (the real `dbus-daemon`) with
//! logind's sleep inhibitors on it, for `keepAwakeWhileSessionsRunning`.
//!
//! ```
//! use standins::{Api, Message, Standin};
//! let standin = Standin::start(Api::Anthropic).unwrap();
//! standin.push(Message::text("Hello."));
//! // ANTHROPIC_BASE_URL=standin.url() for the engine, then:
//! assert!(standin.main_requests().is_empty());
//! ```

mod anthropic;
pub mod codehost;
pub mod logind;
mod openai;
pub mod push;
mod script;
pub mod sms_gateway;
pub mod telegram;
mod wire;

pub use script::{Block, Message, Reply, Reset, Usage};

use std::collections::VecDeque;
use std::net::Ipv4Addr;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, Uri};
use axum::response::Response;
use serde_json::Value;
use tokio::sync::oneshot;

/// Which model API a stand-in speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// Anthropic's Messages API (`POST /v1/messages`, streamed), for Claude Code.
    Anthropic,
    /// OpenAI's Responses API (`POST /v1/responses`, streamed), for Codex.
    OpenAi,
}

/// One request the stand-in received.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    /// The path with its query, e.g. `/v1/messages?beta=true`.
    pub path: String,
    /// Lower-case names; API keys and other credentials read `[redacted]`.
    pub headers: Vec<(String, String)>,
    /// The JSON body; `Null` when empty, a string when not JSON.
    pub body: Value,
    /// Whether it was a turn of the conversation, answered from the script.
    pub main: bool,
    /// When it arrived: a tool call's round trip through the engine is the
    /// time from one main request to the next.
    pub at: Instant,
    /// The [`Standin::answer`] phrase that answered it, if one did.
    pub answered: Option<String>,
}

/// A running stand-in; dropping it stops the server.
pub struct Standin {
    api: Api,
    port: u16,
    shared: Arc<Shared>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    api: Api,
    log: Mutex<Log>,
    changed: Condvar,
}

#[derive(Default)]
struct Log {
    script: VecDeque<Reply>,
    /// Per phrase, the replies still to give; the last one is given again
    /// for as long as the phrase is asked.
    answers: Vec<(String, VecDeque<Reply>)>,
    requests: Vec<Recorded>,
}

impl Log {
    fn answer_for(&mut self, body: &str) -> Option<(String, Reply)> {
        let (phrase, replies) = self
            .answers
            .iter_mut()
            .find(|(phrase, _)| body.contains(phrase.as_str()))?;
        let reply = if replies.len() > 1 {
            replies.pop_front()?
        } else {
            replies.front()?.clone()
        };
        Some((phrase.clone(), reply))
    }
}

const SECRET_HEADERS: [&str; 5] = [
    "authorization",
    "x-api-key",
    "cookie",
    "proxy-authorization",
    "chatgpt-account-id",
];

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The body as JSON text, for a test that looks for a phrase anywhere in it.
    pub fn body_text(&self) -> String {
        self.body.to_string()
    }
}

impl Standin {
    /// Binds 127.0.0.1 on a free port and serves until dropped.
    pub fn start(api: Api) -> std::io::Result<Standin> {
        let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let shared = Arc::new(Shared {
            api,
            log: Mutex::new(Log::default()),
            changed: Condvar::new(),
        });
        let app = Router::new()
            .fallback(handle)
            .with_state(Arc::clone(&shared));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (shutdown, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(format!("standin-{port}"))
            .spawn(move || {
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                        return;
                    };
                    // Not a graceful shutdown: a stream an engine left open
                    // must not keep a test from ending.
                    tokio::select! {
                        _ = axum::serve(listener, app) => {}
                        _ = stopped => {}
                    }
                });
            })?;
        Ok(Standin {
            api,
            port,
            shared,
            shutdown: Some(shutdown),
            thread: Some(thread),
        })
    }

    pub fn api(&self) -> Api {
        self.api
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The base URL: `ANTHROPIC_BASE_URL` as it is; a Codex provider's
    /// `base_url` is this with `/v1`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Appends a reply to the script.
    pub fn push(&self, reply: impl Into<Reply>) {
        self.log().script.push_back(reply.into());
    }

    /// Answers every request whose body contains `phrase` (JSON-escaped as
    /// it travels: plain words are safest) with `reply`, leaving the script
    /// alone. Called again with the same phrase, the replies are given in
    /// turn, the last one for good.
    pub fn answer(&self, phrase: &str, reply: impl Into<Reply>) {
        let mut log = self.log();
        let reply = reply.into();
        match log.answers.iter_mut().find(|(known, _)| known == phrase) {
            Some((_, replies)) => replies.push_back(reply),
            None => log
                .answers
                .push((phrase.to_owned(), VecDeque::from([reply]))),
        }
    }

    /// The requests a [`Standin::answer`] phrase answered.
    pub fn answered(&self, phrase: &str) -> Vec<Recorded> {
        self.log()
            .requests
            .iter()
            .filter(|request| request.answered.as_deref() == Some(phrase))
            .cloned()
            .collect()
    }

    /// Replies not served yet.
    pub fn remaining(&self) -> usize {
        self.log().script.len()
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.log().requests.clone()
    }

    pub fn main_requests(&self) -> Vec<Recorded> {
        self.log()
            .requests
            .iter()
            .filter(|request| request.main)
            .cloned()
            .collect()
    }

    /// Waits up to `limit` for the `n`-th main request (1 for the first).
    pub fn wait_main(&self, n: usize, limit: Duration) -> Option<Recorded> {
        let deadline = Instant::now() + limit;
        let mut log = self.log();
        loop {
            if let Some(found) = log
                .requests
                .iter()
                .filter(|r| r.main)
                .nth(n.checked_sub(1)?)
            {
                return Some(found.clone());
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            log = match self.shared.changed.wait_timeout(log, left) {
                Ok((log, _)) => log,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    fn log(&self) -> MutexGuard<'_, Log> {
        self.shared.lock()
    }
}

impl Drop for Standin {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Log> {
        // A test that panicked while holding the lock must not hide the log
        // from the next assertion.
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let body = parse_body(&body);
    let path = uri.path();
    let main = match shared.api {
        Api::Anthropic => anthropic::is_main(&method, path, &body),
        Api::OpenAi => openai::is_main(&method, path, &body),
    };
    let mut recorded = Recorded {
        method: method.to_string(),
        path: uri
            .path_and_query()
            .map_or_else(|| path.to_owned(), ToString::to_string),
        headers: masked(&headers),
        body,
        main,
        at: Instant::now(),
        answered: None,
    };
    let response = {
        let mut log = shared.lock();
        let number = log.requests.len() + 1;
        let answer = match recorded.body {
            Value::Null => None,
            ref body => log.answer_for(&body.to_string()),
        };
        let response = if let Some((phrase, reply)) = answer {
            recorded.main = false;
            recorded.answered = Some(phrase);
            match shared.api {
                Api::Anthropic => anthropic::answer(&reply, &recorded.body, number),
                Api::OpenAi => openai::reply(Some(&reply), &recorded.body, number),
            }
        } else if main {
            let reply = log.script.pop_front();
            match shared.api {
                Api::Anthropic => anthropic::reply(reply.as_ref(), &recorded.body, number),
                Api::OpenAi => openai::reply(reply.as_ref(), &recorded.body, number),
            }
        } else {
            match shared.api {
                Api::Anthropic => anthropic::side(&method, path, &recorded.body, number),
                Api::OpenAi => openai::side(&method, path),
            }
        };
        log.requests.push(recorded);
        response
    };
    shared.changed.notify_all();
    response
}

fn parse_body(body: &Bytes) -> Value {
    if body.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))
}

fn masked(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let name = name.as_str().to_ascii_lowercase();
            let value = if SECRET_HEADERS.contains(&name.as_str()) {
                "[redacted]".to_owned()
            } else {
                String::from_utf8_lossy(value.as_bytes()).into_owned()
            };
            (name, value)
        })
        .collect()
}
