//! One Web API call: `POST <base>/<method>` with a JSON body and the bot
//! token as a bearer; Slack answers 200 with `{"ok": true, ...}` or
//! `{"ok": false, "error": "<code>"}`.

use std::time::Duration;

use serde_json::Value;

use crate::ChatError;

/// Long enough for a slow service, short enough that a request to
/// Switchboard (30 s) still gets an answer.
const TIMEOUT: Duration = Duration::from_secs(20);

pub struct Client {
    base_url: String,
    token: String,
    agent: ureq::Agent,
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
        let mut response = self
            .agent
            .post(&url)
            .header("Authorization", &format!("Bearer {}", self.token))
            .header("Content-Type", "application/json; charset=utf-8")
            .send(body.to_string())
            .map_err(|e| ChatError::Unreachable(e.to_string()))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| ChatError::Unreachable(e.to_string()))?;
        let reply: Value = serde_json::from_str(&text)
            .map_err(|_| ChatError::BadReply(format!("HTTP {status}, not JSON")))?;
        match reply.get("ok").and_then(Value::as_bool) {
            Some(true) => Ok(reply),
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
}
