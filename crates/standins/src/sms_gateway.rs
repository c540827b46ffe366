//! A stand-in of the SMS Gateway for Android app's local server (the
//! `native` SMS provider) on loopback, speaking its documented REST API:
//!
//! - `POST /message`, HTTP basic auth, body `{id?, textMessage: {text},
//!   phoneNumbers: [..], withDeliveryReport?}` (or the older `message`
//!   string), answered 202 with `{id, state: "Pending", isHashed,
//!   isEncrypted, recipients: [{phoneNumber, state}], states: {}}`; a
//!   message id already taken answers the same message again, so a retried
//!   send is one text.
//! - `GET /message/{id}`: the same shape with its state now; 404 unknown.
//! - `GET /health`: `{"status": "pass"}`, without credentials.
//! - Wrong credentials: 401.
//!
//! Where the shapes come from: the project's README ("Local Server",
//! "Webhooks"), the docs site's local-server and webhooks pages
//! (docs.sms-gate.app: `curl -X POST -u <username>:<password> ...
//! http://<device_ip>:8080/message`, the `sms:received` payload
//! `{deviceId, event, id, payload: {messageId, message, phoneNumber,
//! simNumber, receivedAt}, webhookId}`), and the official client
//! libraries (android-sms-gateway/client-rs `types/message.rs`,
//! `types/webhook.rs`, `webhook.rs`: states `Pending`, `Processed`, `Sent`,
//! `Delivered`, `Failed`; `X-Signature` = hex HMAC-SHA256 of the body
//! followed by `X-Timestamp`).
//!
//! It also speaks the **relay** shape docs/phone.md documents for any
//! provider behind a small adapter ([`Gateway::start_relay`]): `Authorization:
//! Bearer <token>`, `POST /send` with `{id, to, text}` answered 202 `{id,
//! state}` (lower case: `pending`, `sent`, `delivered`, `failed`), `GET
//! /send/{id}`, `GET /health`; this shape is ours, so the stand-in is its
//! reference.
//!
//! A test moves a message on ([`Gateway::set_state`]), makes the phone go
//! away (connections closed unanswered) or refuse the credentials, and
//! builds signed `sms:received` deliveries ([`received_delivery`]).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::{Value, json};

/// One message the phone was asked to send.
#[derive(Debug, Clone)]
pub struct Sent {
    pub id: String,
    pub to: Vec<String>,
    pub text: String,
    pub state: String,
}

#[derive(Default)]
struct State {
    messages: Vec<Sent>,
    /// Every `POST /message`, repeats included.
    posts: usize,
    away: bool,
    refuse: bool,
    next: u64,
}

/// Which API the stand-in speaks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Speaks {
    Native,
    Relay,
}

/// The running stand-in; clones share it. Its threads end with the process.
#[derive(Clone)]
pub struct Gateway {
    base: String,
    authorization: String,
    speaks: Speaks,
    state: Arc<Mutex<State>>,
}

impl Gateway {
    /// Listens on loopback as the app's local server, accepting
    /// `username`/`password`.
    pub fn start(username: &str, password: &str) -> std::io::Result<Self> {
        let authorization = format!("Basic {}", base64(&format!("{username}:{password}")));
        Self::listen(authorization, Speaks::Native)
    }

    /// Listens on loopback as a relay, accepting the bearer `token`.
    pub fn start_relay(token: &str) -> std::io::Result<Self> {
        Self::listen(format!("Bearer {token}"), Speaks::Relay)
    }

    fn listen(authorization: String, speaks: Speaks) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let base = format!("http://{}", listener.local_addr()?);
        let gateway = Gateway {
            base,
            authorization,
            speaks,
            state: Arc::default(),
        };
        let served = gateway.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let gateway = served.clone();
                std::thread::spawn(move || gateway.serve(stream));
            }
        });
        Ok(gateway)
    }

    /// The base URL, as `sms.toml`'s `[native] url` (or `[relay] url`).
    pub fn url(&self) -> &str {
        &self.base
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The phone leaves (true: every connection is closed unanswered) or
    /// comes back.
    pub fn set_away(&self, away: bool) {
        self.lock().away = away;
    }

    /// The app's password was changed: every authenticated call gets 401.
    pub fn set_refusing(&self, refuse: bool) {
        self.lock().refuse = refuse;
    }

    /// Moves message `id` to `state` (`Sent`, `Delivered`, `Failed`; a
    /// relay answers it in lower case).
    pub fn set_state(&self, id: &str, state: &str) {
        for message in &mut self.lock().messages {
            if message.id == id {
                message.state = state.to_owned();
            }
        }
    }

    /// The distinct messages taken, in order.
    pub fn sent(&self) -> Vec<Sent> {
        self.lock().messages.clone()
    }

    /// How many sends (`POST /message` or `/send`) came, repeats included.
    pub fn posts(&self) -> usize {
        self.lock().posts
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
            let mut parts = line.split_whitespace();
            let method = parts.next().unwrap_or("").to_owned();
            let path = parts.next().unwrap_or("").to_owned();
            let mut length = 0;
            let mut authorization = String::new();
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap_or(0) == 0 {
                    return;
                }
                let header = header.trim_end();
                if header.is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().unwrap_or(0);
                    } else if name.eq_ignore_ascii_case("authorization") {
                        authorization = value.trim().to_owned();
                    }
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            if self.lock().away {
                return;
            }
            let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let (status, answer) = self.answer(&method, &path, &authorization, &body);
            let text = answer.to_string();
            let response = format!(
                "HTTP/1.1 {status} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
                reason(status),
                text.len()
            );
            if writer.write_all(response.as_bytes()).is_err() {
                return;
            }
        }
    }

    fn answer(&self, method: &str, path: &str, authorization: &str, body: &Value) -> (u16, Value) {
        if method == "GET" && path == "/health" {
            return (200, json!({"status": "pass", "version": "standin"}));
        }
        let mut state = self.lock();
        if state.refuse || authorization != self.authorization {
            return (401, json!({"message": "Unauthorized"}));
        }
        let (prefix, shape): (&str, fn(&Sent) -> Value) = match self.speaks {
            Speaks::Native => ("/message", shape),
            Speaks::Relay => ("/send", relay_shape),
        };
        match (method, path.strip_prefix(prefix)) {
            ("POST", Some("")) => {
                state.posts += 1;
                let (text, to) = match self.speaks {
                    Speaks::Native => (
                        body["textMessage"]["text"]
                            .as_str()
                            .or_else(|| body["message"].as_str()),
                        body["phoneNumbers"]
                            .as_array()
                            .map(|n| {
                                n.iter()
                                    .filter_map(Value::as_str)
                                    .map(str::to_owned)
                                    .collect()
                            })
                            .unwrap_or_default(),
                    ),
                    Speaks::Relay => (
                        body["text"].as_str(),
                        body["to"]
                            .as_str()
                            .map(|n| vec![n.to_owned()])
                            .unwrap_or_default(),
                    ),
                };
                let Some(text) = text.filter(|_| !to.is_empty()) else {
                    return (
                        400,
                        json!({"message": "a text and a recipient are required"}),
                    );
                };
                let id = match body["id"].as_str() {
                    Some(id) => id.to_owned(),
                    None => {
                        state.next += 1;
                        format!("standin-{}", state.next)
                    }
                };
                if !state.messages.iter().any(|m| m.id == id) {
                    state.messages.push(Sent {
                        id: id.clone(),
                        to,
                        text: text.to_owned(),
                        state: "Pending".to_owned(),
                    });
                }
                let message = state.messages.iter().find(|m| m.id == id).cloned();
                message.map_or((500, Value::Null), |m| (202, shape(&m)))
            }
            ("GET", Some(rest)) if rest.starts_with('/') => {
                match state.messages.iter().find(|m| m.id == rest[1..]) {
                    Some(m) => (200, shape(m)),
                    None => (404, json!({"message": "message not found"})),
                }
            }
            _ => (404, json!({"message": "not found"})),
        }
    }
}

fn shape(message: &Sent) -> Value {
    json!({
        "id": message.id,
        "deviceId": "standin-device",
        "state": message.state,
        "isHashed": false,
        "isEncrypted": false,
        "recipients": message.to.iter().map(|n| json!({"phoneNumber": n, "state": message.state})).collect::<Vec<_>>(),
        "states": {},
    })
}

fn relay_shape(message: &Sent) -> Value {
    json!({"id": message.id, "state": message.state.to_lowercase()})
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        _ => "Error",
    }
}

/// An `sms:received` delivery as the app posts it to its webhook: the body,
/// and its `X-Timestamp` and `X-Signature` under `signing_key`.
pub fn received_delivery(
    signing_key: &str,
    message_id: &str,
    from: &str,
    text: &str,
    unix_seconds: i64,
) -> (Vec<u8>, String, String) {
    let body = json!({
        "deviceId": "standin-device",
        "event": "sms:received",
        "id": format!("delivery-{message_id}"),
        "webhookId": "switchboard",
        "payload": {
            "messageId": message_id,
            "message": text,
            "phoneNumber": from,
            "simNumber": 1,
            "receivedAt": "2026-01-05T10:00:00.000+01:00",
        },
    })
    .to_string()
    .into_bytes();
    let timestamp = unix_seconds.to_string();
    let signature = hmac_sha256_hex(signing_key.as_bytes(), &[&body, timestamp.as_bytes()]);
    (body, timestamp, signature)
}

fn hmac_sha256_hex(key: &[u8], parts: &[&[u8]]) -> String {
    use hmac::Mac;
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of every length"));
    for part in parts {
        mac.update(part);
    }
    hex::encode(mac.finalize().into_bytes())
}

fn base64(text: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(text)
}
