//! `DIR/sms.toml`: where the gateway (or relay) is and which saved keys hold
//! its credentials and the incoming webhook's signing key. The setting
//! `smsProvider` picks the section that is used.
//!
//! ```toml
//! # The key the gateway signs POST /sms/incoming with (X-Signature).
//! webhook_secret_key = "SMS_WEBHOOK_SECRET"
//!
//! [native]                        # SMS Gateway for Android, local server
//! url = "http://192.168.1.20:8080"
//! username = "sms"
//! password_key = "SMS_GATEWAY_PASSWORD"
//!
//! [relay]                         # any provider behind docs/phone.md's relay shape
//! url = "https://relay.example.com"
//! token_key = "SMS_RELAY_TOKEN"
//! ```
//!
//! Secrets stay sealed among the saved keys, never in this file.

use std::path::Path;

use serde::Deserialize;

use crate::SmsError;

pub const CONFIG_FILE: &str = "sms.toml";

/// Which service carries the texts (the setting `smsProvider`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// The user's own phone through the SMS Gateway for Android app.
    Native,
    /// A relay speaking the documented shape.
    Relay,
}

impl Provider {
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Native => "native",
            Provider::Relay => "relay",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub webhook_secret_key: String,
    pub native: Option<Section>,
    pub relay: Option<Section>,
}

/// One provider's section: where it is, who to log in as (native only) and
/// the saved key holding its password or token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub url: String,
    pub username: Option<String>,
    pub secret_key: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    webhook_secret_key: String,
    native: Option<NativeFile>,
    relay: Option<RelayFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NativeFile {
    url: String,
    username: String,
    password_key: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RelayFile {
    url: String,
    token_key: String,
}

impl Config {
    /// Reads `DIR/sms.toml`; a missing file means texts are not set up.
    pub fn load(data_dir: &Path) -> Result<Config, SmsError> {
        let path = data_dir.join(CONFIG_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(SmsError::NotConfigured(format!(
                    "write {} (see docs/phone.md)",
                    path.display()
                )));
            }
            Err(e) => {
                return Err(SmsError::BadConfig {
                    path: path.display().to_string(),
                    detail: e.to_string(),
                });
            }
        };
        Self::parse(&text).map_err(|detail| SmsError::BadConfig {
            path: path.display().to_string(),
            detail,
        })
    }

    pub fn parse(text: &str) -> Result<Config, String> {
        // The message and line only: the parser's own text quotes the line,
        // which could hold a password pasted where it does not belong.
        let file: File = toml::from_str(text).map_err(|e| match e.span() {
            Some(span) => format!(
                "line {}: {}",
                text.get(..span.start).unwrap_or(text).matches('\n').count() + 1,
                e.message()
            ),
            None => e.message().to_owned(),
        })?;
        named(&file.webhook_secret_key, "webhook_secret_key")?;
        let native = match file.native {
            Some(n) => {
                named(&n.password_key, "native.password_key")?;
                if n.username.trim().is_empty() {
                    return Err("native.username must not be empty".to_owned());
                }
                Some(Section {
                    url: http_url(&n.url, "native.url")?,
                    username: Some(n.username),
                    secret_key: n.password_key,
                })
            }
            None => None,
        };
        let relay = match file.relay {
            Some(r) => {
                named(&r.token_key, "relay.token_key")?;
                Some(Section {
                    url: http_url(&r.url, "relay.url")?,
                    username: None,
                    secret_key: r.token_key,
                })
            }
            None => None,
        };
        Ok(Config {
            webhook_secret_key: file.webhook_secret_key,
            native,
            relay,
        })
    }

    /// The section of `provider`, or why there is none.
    pub fn section(&self, provider: Provider) -> Result<&Section, SmsError> {
        let section = match provider {
            Provider::Native => self.native.as_ref(),
            Provider::Relay => self.relay.as_ref(),
        };
        section.ok_or_else(|| {
            SmsError::NotConfigured(format!(
                "sms.toml has no [{}] section for smsProvider {:?}",
                provider.as_str(),
                provider.as_str()
            ))
        })
    }
}

fn named(key: &str, field: &str) -> Result<(), String> {
    if key.trim().is_empty() {
        return Err(format!("{field} must name a saved key"));
    }
    Ok(())
}

fn http_url(url: &str, field: &str) -> Result<String, String> {
    let url = url.trim().trim_end_matches('/');
    if url.starts_with("http://") || url.starts_with("https://") {
        Ok(url.to_owned())
    } else {
        Err(format!("{field} must be an http(s) URL"))
    }
}
