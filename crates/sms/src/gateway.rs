//! The two providers' send and state calls.
//!
//! **native** is the SMS Gateway for Android app's local server
//! (capcom6/android-sms-gateway; its documented shapes as in
//! `crates/standins/src/sms_gateway.rs`): HTTP basic auth, `POST /message`
//! with `{id, textMessage: {text}, phoneNumbers: [..]}` answered 202 with
//! `{id, state, recipients}`, `GET /message/{id}` for the state (`Pending`,
//! `Processed`, `Sent`, `Delivered`, `Failed`), `GET /health`. The `id` is
//! ours, so a send retried after a lost answer is the same message.
//!
//! **relay** is the shape docs/phone.md documents for any provider:
//! `Authorization: Bearer <token>`, `POST /send` with `{id, to, text}`
//! answered 2xx `{id, state}` (`pending`, `sent`, `delivered`, `failed`),
//! `GET /send/{id}` for the state, `GET /health`.

use std::time::Duration;

use base64::Engine;
use serde_json::{Value, json};
use ureq::Agent;

use crate::DeliveryState;
use crate::config::{Provider, Section};

/// Where to send and with what: a config section with its secret revealed.
#[derive(Clone)]
pub struct Endpoint {
    pub provider: Provider,
    pub url: String,
    pub username: Option<String>,
    /// The gateway's password or the relay's token.
    pub secret: String,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("provider", &self.provider)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl Endpoint {
    pub fn new(provider: Provider, section: &Section, secret: String) -> Self {
        Endpoint {
            provider,
            url: section.url.clone(),
            username: section.username.clone(),
            secret,
        }
    }

    fn authorization(&self) -> String {
        match self.provider {
            Provider::Native => {
                let pair = format!("{}:{}", self.username.as_deref().unwrap_or(""), self.secret);
                format!(
                    "Basic {}",
                    base64::engine::general_purpose::STANDARD.encode(pair)
                )
            }
            Provider::Relay => format!("Bearer {}", self.secret),
        }
    }

    fn message_path(&self) -> &'static str {
        match self.provider {
            Provider::Native => "/message",
            Provider::Relay => "/send",
        }
    }
}

/// Why the gateway did not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GatewayError {
    /// 401 or 403: the username, password or token is wrong.
    #[error("the gateway refused the credentials (HTTP {0})")]
    Refused(u16),
    /// No answer: the phone is off, asleep or off the network.
    #[error("the gateway cannot be reached: {0}")]
    Away(String),
    /// Any other answer that is not success.
    #[error("the gateway answered HTTP {status}: {detail}")]
    Rejected { status: u16, detail: String },
}

/// A message the gateway took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    pub id: String,
    pub state: DeliveryState,
}

/// The HTTP side of both providers.
#[derive(Clone)]
pub struct Gateway {
    agent: Agent,
}

impl Default for Gateway {
    fn default() -> Self {
        Self::new(Duration::from_secs(10))
    }
}

impl Gateway {
    pub fn new(timeout: Duration) -> Self {
        Gateway {
            agent: Agent::config_builder()
                .http_status_as_error(false)
                .timeout_global(Some(timeout))
                .max_redirects(0)
                .user_agent("switchboard-sms")
                .build()
                .into(),
        }
    }

    /// Sends `text` to `to` as message `id`.
    pub fn send(
        &self,
        endpoint: &Endpoint,
        id: &str,
        to: &str,
        text: &str,
    ) -> Result<Accepted, GatewayError> {
        let body = match endpoint.provider {
            Provider::Native => json!({
                "id": id,
                "textMessage": {"text": text},
                "phoneNumbers": [to],
                "withDeliveryReport": true,
            }),
            Provider::Relay => json!({"id": id, "to": to, "text": text}),
        };
        let url = format!("{}{}", endpoint.url, endpoint.message_path());
        let answer = self.call(
            self.agent
                .post(&url)
                .header("Authorization", &endpoint.authorization())
                .send_json(&body),
        )?;
        Ok(Accepted {
            id: answer["id"].as_str().unwrap_or(id).to_owned(),
            state: DeliveryState::from_gateway(answer["state"].as_str().unwrap_or("")),
        })
    }

    /// The delivery state of message `id`.
    pub fn state(&self, endpoint: &Endpoint, id: &str) -> Result<DeliveryState, GatewayError> {
        let id: String = id
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            .collect();
        let url = format!("{}{}/{id}", endpoint.url, endpoint.message_path());
        let answer = self.call(
            self.agent
                .get(&url)
                .header("Authorization", &endpoint.authorization())
                .call(),
        )?;
        Ok(DeliveryState::from_gateway(
            answer["state"].as_str().unwrap_or(""),
        ))
    }

    /// Whether the gateway answers and takes the credentials: `GET /health`
    /// is unauthenticated on the app, so the check also reads a message
    /// state that cannot exist, which needs the credentials (404 is fine).
    pub fn check(&self, endpoint: &Endpoint) -> Result<(), GatewayError> {
        let health = format!("{}/health", endpoint.url);
        self.call(self.agent.get(&health).call())?;
        match self.state(endpoint, "switchboard-health-check") {
            Ok(_) | Err(GatewayError::Rejected { status: 404, .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn call(
        &self,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<Value, GatewayError> {
        let mut response = response.map_err(|e| GatewayError::Away(e.to_string()))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .with_config()
            .limit(64 * 1024)
            .read_to_string()
            .unwrap_or_default();
        match status {
            200..=299 => Ok(serde_json::from_str(&text).unwrap_or(Value::Null)),
            401 | 403 => Err(GatewayError::Refused(status)),
            // A proxy in front of a phone that is gone answers these.
            502..=504 => Err(GatewayError::Away(format!("HTTP {status}"))),
            _ => Err(GatewayError::Rejected {
                status,
                detail: short(&text),
            }),
        }
    }
}

fn short(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
