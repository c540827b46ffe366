//! One Web API call with the bot token as a bearer: writes are `POST
//! <base>/<method>` with a JSON body, reads `GET <base>/<method>?query`
//! (Slack's read methods take no JSON). Slack answers 200 with `{"ok":
//! true, ...}` or `{"ok": false, "error": "<code>"}`, and 429 with
//! `Retry-After` when it is rate limiting.

use std::time::Duration;

use serde_json::Value;

use crate::ChatError;

/// Long enough for a slow service, short enough that a request to
/// Switchboard (30 s) still gets an answer.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Slack's own error code for rate limiting; a 429 is reported with it
/// whatever its body says, so callers match one code.
pub const RATE_LIMITED: &str = "ratelimited";

pub struct Client {
    base_url: String,
    token: String,
    agent: ureq::Agent,
}

/// What a read brought: the reply, or how long the service asks to be
/// left alone (absent when its 429 named no wait).
pub(crate) enum Answer {
    Reply(Value),
    RateLimited(Option<Duration>),
}

impl Client {
    pub fn new(base_url: &str, token: String) -> Self {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(TIMEOUT))
            .build()
            .into();
        Self {
            base_url: base_url.trim_end_matches('/').to_owned(),
            token,
            agent,
        }
    }

    /// Calls `method` (`chat.postMessage`, ...) and gives back the reply's
    /// fields on `ok`.
    pub fn call(&self, method: &str, body: &Value) -> Result<Value, ChatError> {
        let url = format!("{}/{method}", self.base_url);
        let response = self
            .agent
            .post(&url)
            .header("Authorization", &format!("Bearer {}", self.token))
            .header("Content-Type", "application/json; charset=utf-8")
            .send(body.to_string())
            .map_err(|e| ChatError::Unreachable(e.to_string()))?;
        match read(response)? {
            Answer::Reply(reply) => Ok(reply),
            Answer::RateLimited(_) => Err(ChatError::Service {
                code: RATE_LIMITED.to_owned(),
            }),
        }
    }

    /// Reads with `method` (`conversations.history`, ...) and the query
    /// `params`; a 429 is an answer, so the caller decides whether to wait.
    pub(crate) fn get(&self, method: &str, params: &[(&str, &str)]) -> Result<Answer, ChatError> {
        let url = format!("{}/{method}", self.base_url);
        let mut request = self
            .agent
            .get(&url)
            .header("Authorization", &format!("Bearer {}", self.token));
        for (key, value) in params {
            request = request.query(*key, *value);
        }
        let response = request
            .call()
            .map_err(|e| ChatError::Unreachable(e.to_string()))?;
        read(response)
    }
}

fn read(mut response: ureq::http::Response<ureq::Body>) -> Result<Answer, ChatError> {
    let status = response.status().as_u16();
    if status == 429 {
        let wait = response
            .headers()
            .get("retry-after")
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        return Ok(Answer::RateLimited(wait));
    }
    let text = response
        .body_mut()
        .read_to_string()
        .map_err(|e| ChatError::Unreachable(e.to_string()))?;
    let reply: Value = serde_json::from_str(&text)
        .map_err(|_| ChatError::BadReply(format!("HTTP {status}, not JSON")))?;
    match reply.get("ok").and_then(Value::as_bool) {
        Some(true) => Ok(Answer::Reply(reply)),
        Some(false) => Err(ChatError::Service {
            code: reply
                .get("error")
                .and_then(Value::as_str)
                .unwrap_or("unknown_error")
                .to_owned(),
        }),
        None => Err(ChatError::BadReply(format!("HTTP {status}, no `ok` field"))),
    }
}
