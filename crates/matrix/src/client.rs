//! The client-server API calls the messenger makes, on ureq (each call on
//! tokio's blocking pool). A 429 `M_LIMIT_EXCEEDED` is waited out on the
//! clock for its `retry_after_ms` (or the `Retry-After` header) and the
//! same request made again, at most [`MAX_RATE_RETRIES`] times; a 401
//! `M_UNKNOWN_TOKEN` is [`MatrixError::TokenRevoked`]. No error ever quotes
//! the token.

use std::sync::Arc;
use std::time::Duration;

use clock::Clock;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Value, json};
use ureq::Agent;

use crate::{Engine, MatrixError};

/// How many 429s in a row one call waits out before giving up.
pub const MAX_RATE_RETRIES: u32 = 5;
/// The longest wait one 429 may ask for that is honoured in the call;
/// longer asks end the call as [`MatrixError::RateLimited`].
pub const MAX_RATE_WAIT: Duration = Duration::from_secs(30);
/// The most a response body may hold (a first sync of many rooms is big).
const MAX_BODY: u64 = 32 * 1024 * 1024;

/// A signed-in device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    pub access_token: String,
    pub user_id: String,
    pub device_id: String,
}

/// One homeserver, one engine, one (optional) token.
#[derive(Clone)]
pub struct Client {
    agent: Agent,
    clock: Arc<dyn Clock>,
    base: String,
    engine: Engine,
    token: Option<String>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.base)
            .field("engine", &self.engine)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Copy)]
enum Method {
    Get,
    Post,
    Put,
}

impl Client {
    pub fn new(clock: Arc<dyn Clock>, homeserver: &str, engine: Engine) -> Self {
        Client {
            agent: Agent::config_builder()
                .http_status_as_error(false)
                // A long-polling /sync holds the request up to its own timeout.
                .timeout_global(Some(Duration::from_secs(90)))
                .user_agent("switchboard-messenger")
                .build()
                .into(),
            clock,
            base: homeserver.trim_end_matches('/').to_owned(),
            engine,
            token: None,
        }
    }

    pub fn with_token(mut self, token: String) -> Self {
        self.token = Some(token);
        self
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// `POST /login` with a password: a new device's token.
    pub async fn login(&self, user: &str, password: &str) -> Result<Login, MatrixError> {
        let body = json!({
            "type": "m.login.password",
            "identifier": {"type": "m.id.user", "user": user},
            "password": password,
            "initial_device_display_name": "Switchboard",
        });
        let answer = match self.call(Method::Post, "/login", Some(body), false).await {
            Err(MatrixError::Api { status: 403, .. }) => return Err(MatrixError::LoginRefused),
            other => other?,
        };
        let field = |name: &str| {
            answer[name]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| MatrixError::Invalid(format!("the login answer has no {name}")))
        };
        Ok(Login {
            access_token: field("access_token")?,
            user_id: field("user_id")?,
            device_id: field("device_id")?,
        })
    }

    /// `POST /logout`: the token stops working.
    pub async fn logout(&self) -> Result<(), MatrixError> {
        self.call(Method::Post, "/logout", Some(json!({})), true)
            .await
            .map(drop)
    }

    /// `GET /account/whoami`: the token's user.
    pub async fn whoami(&self) -> Result<String, MatrixError> {
        let answer = self
            .call(Method::Get, "/account/whoami", None, true)
            .await?;
        answer["user_id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| MatrixError::Invalid("whoami answered no user_id".to_owned()))
    }

    /// `GET /sync` from `since` (none: the first), holding up to `timeout`.
    pub async fn sync(&self, since: Option<&str>, timeout: Duration) -> Result<Value, MatrixError> {
        let mut path = format!("/sync?timeout={}", timeout.as_millis());
        if let Some(since) = since {
            path.push_str("&since=");
            path.push_str(&encode(since));
        } else {
            // A first sync brings each room's last few messages, not its history.
            let filter = json!({"room": {"timeline": {"limit": 10}}}).to_string();
            path.push_str("&filter=");
            path.push_str(&encode(&filter));
        }
        self.call(Method::Get, &path, None, true).await
    }

    /// `PUT /rooms/{room}/send/m.room.message/{txn}`: the homeserver keeps
    /// the transaction id per device, so the same `txn` sent again is the
    /// same event.
    pub async fn send_text(
        &self,
        room: &str,
        txn: &str,
        text: &str,
    ) -> Result<String, MatrixError> {
        let path = format!(
            "/rooms/{}/send/m.room.message/{}",
            encode(room),
            encode(txn)
        );
        let body = json!({"msgtype": "m.text", "body": text});
        let answer = self.call(Method::Put, &path, Some(body), true).await?;
        answer["event_id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| MatrixError::Invalid("the send answered no event_id".to_owned()))
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
        authenticated: bool,
    ) -> Result<Value, MatrixError> {
        let url = format!("{}{}{}", self.base, self.engine.prefix(), path);
        let token = if authenticated {
            Some(self.token.clone().ok_or_else(|| {
                MatrixError::NotConfigured("no access token: sign in first".to_owned())
            })?)
        } else {
            None
        };
        let mut retries = 0;
        loop {
            let agent = self.agent.clone();
            let (url, token, body) = (url.clone(), token.clone(), body.clone());
            let answer = tokio::task::spawn_blocking(move || {
                once(&agent, method, &url, token.as_deref(), body.as_ref())
            })
            .await
            .map_err(|e| MatrixError::Unreachable(format!("the call did not finish: {e}")))?;
            match answer {
                Err(MatrixError::RateLimited(wait))
                    if retries < MAX_RATE_RETRIES && wait <= MAX_RATE_WAIT =>
                {
                    retries += 1;
                    let wait = time::Duration::try_from(wait).unwrap_or(time::Duration::SECOND);
                    self.clock.sleep(wait).await;
                }
                other => return other,
            }
        }
    }
}

fn encode(text: &str) -> String {
    utf8_percent_encode(text, NON_ALPHANUMERIC).to_string()
}

fn once(
    agent: &Agent,
    method: Method,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<Value, MatrixError> {
    let bearer = token.map(|t| format!("Bearer {t}"));
    let response = match method {
        Method::Get => {
            let mut request = agent.get(url);
            if let Some(bearer) = &bearer {
                request = request.header("Authorization", bearer);
            }
            request.call()
        }
        Method::Post | Method::Put => {
            let mut request = if matches!(method, Method::Post) {
                agent.post(url)
            } else {
                agent.put(url)
            };
            if let Some(bearer) = &bearer {
                request = request.header("Authorization", bearer);
            }
            request.send_json(body.cloned().unwrap_or_else(|| json!({})))
        }
    };
    // ureq's error names the URL only; the token is in a header.
    let mut response = response.map_err(|e| MatrixError::Unreachable(e.to_string()))?;
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let text = response
        .body_mut()
        .with_config()
        .limit(MAX_BODY)
        .read_to_string()
        .map_err(|e| MatrixError::Unreachable(format!("reading the answer: {e}")))?;
    let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if (200..300).contains(&status) {
        return Ok(value);
    }
    let errcode = value["errcode"].as_str().unwrap_or("").to_owned();
    match (status, errcode.as_str()) {
        (429, _) | (_, "M_LIMIT_EXCEEDED") => {
            let ms = value["retry_after_ms"]
                .as_u64()
                .or_else(|| retry_after.map(|s| s * 1000))
                .unwrap_or(1000);
            Err(MatrixError::RateLimited(Duration::from_millis(ms)))
        }
        (401, "M_UNKNOWN_TOKEN" | "M_MISSING_TOKEN") => Err(MatrixError::TokenRevoked),
        _ => Err(MatrixError::Api {
            status,
            message: value["error"]
                .as_str()
                .unwrap_or("no error message")
                .chars()
                .take(300)
                .collect(),
            errcode,
        }),
    }
}
