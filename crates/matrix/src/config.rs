//! `DIR/matrix.toml`: the user's homeserver and account, and the saved key
//! the access token is kept in once they sign in.
//!
//! ```toml
//! homeserver = "https://matrix.example.org"
//! user = "@me:example.org"          # or just "me"
//! token_key = "MATRIX_ACCESS_TOKEN" # the default
//! password_key = "MATRIX_PASSWORD"  # optional
//! ```
//!
//! With no token saved yet (or after a revoked token or an engine switch
//! dropped it), Switchboard signs in with the password in `password_key`'s
//! saved key, when there is one, and keeps the new token under
//! `token_key`; both stay sealed among the saved keys, never in this file.

use std::path::Path;

use serde::Deserialize;

use crate::MatrixError;

pub const CONFIG_FILE: &str = "matrix.toml";
pub const DEFAULT_TOKEN_KEY: &str = "MATRIX_ACCESS_TOKEN";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The client-server API's base, without a trailing `/`.
    pub homeserver: String,
    pub user: String,
    pub token_key: String,
    /// The saved key holding the password to sign in with, if any.
    pub password_key: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    homeserver: String,
    user: String,
    #[serde(default)]
    token_key: Option<String>,
    #[serde(default)]
    password_key: Option<String>,
}

impl Config {
    /// Reads `DIR/matrix.toml`; a missing file means no messenger account.
    pub fn load(data_dir: &Path) -> Result<Config, MatrixError> {
        let path = data_dir.join(CONFIG_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(MatrixError::NotConfigured(format!(
                    "write {} with homeserver and user (see docs/phone.md)",
                    path.display()
                )));
            }
            Err(e) => {
                return Err(MatrixError::BadConfig {
                    path: path.display().to_string(),
                    detail: e.to_string(),
                });
            }
        };
        Self::parse(&text).map_err(|detail| MatrixError::BadConfig {
            path: path.display().to_string(),
            detail,
        })
    }

    pub fn parse(text: &str) -> Result<Config, String> {
        let file: File = toml::from_str(text).map_err(|e| match e.span() {
            Some(span) => format!(
                "line {}: {}",
                text.get(..span.start).unwrap_or(text).matches('\n').count() + 1,
                e.message()
            ),
            None => e.message().to_owned(),
        })?;
        let homeserver = file.homeserver.trim().trim_end_matches('/').to_owned();
        if !(homeserver.starts_with("https://") || homeserver.starts_with("http://")) {
            return Err("homeserver must be an http(s) URL".to_owned());
        }
        if file.user.trim().is_empty() {
            return Err("user must name the account".to_owned());
        }
        let token_key = file
            .token_key
            .unwrap_or_else(|| DEFAULT_TOKEN_KEY.to_owned());
        if token_key.trim().is_empty() {
            return Err("token_key must name a saved key".to_owned());
        }
        if file
            .password_key
            .as_deref()
            .is_some_and(|k| k.trim().is_empty())
        {
            return Err("password_key must name a saved key".to_owned());
        }
        Ok(Config {
            homeserver,
            user: file.user.trim().to_owned(),
            token_key,
            password_key: file.password_key,
        })
    }
}
