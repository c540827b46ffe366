//! `DIR/messenger.toml`: where the Bot API is, which saved key holds the
//! bot token, where the bot's sessions work, and how updates arrive.
//!
//! ```toml
//! base_url = "https://api.telegram.org"   # the default
//! token_key = "TELEGRAM_BOT_TOKEN"
//! folder = "/home/me/bot"
//! engine = "primary"                      # the default
//! mode = "polling"                        # the default; or "webhook":
//! # webhook_url = "https://bot.example.com/switchboard"
//! ```
//!
//! The token itself stays sealed among the saved keys, never in this file.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::MessengerError;

pub const CONFIG_FILE: &str = "messenger.toml";
pub const DEFAULT_BASE_URL: &str = "https://api.telegram.org";
pub const DEFAULT_ENGINE: &str = "primary";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The Bot API's base, without `/bot<token>`.
    pub base_url: String,
    /// The saved key (`PUT /keys/<name>`) that holds the bot token.
    pub token_key: String,
    /// The working folder of every session the bot starts: absolute.
    pub folder: PathBuf,
    /// The engine the bot's sessions run on.
    pub engine: String,
    pub mode: Mode,
}

/// How updates reach Switchboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Switchboard asks with `getUpdates` (long polling): nothing to expose.
    Polling,
    /// Telegram posts each update to `public_url` followed by the path the
    /// app serves (with [`crate::WebhookSecrets::path`] in it).
    Webhook { public_url: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default = "default_base_url")]
    base_url: String,
    token_key: String,
    folder: PathBuf,
    #[serde(default = "default_engine")]
    engine: String,
    #[serde(default)]
    mode: FileMode,
    #[serde(default)]
    webhook_url: Option<String>,
}

#[derive(Deserialize, Default, PartialEq)]
#[serde(rename_all = "lowercase")]
enum FileMode {
    #[default]
    Polling,
    Webhook,
}

fn default_base_url() -> String {
    DEFAULT_BASE_URL.to_owned()
}

fn default_engine() -> String {
    DEFAULT_ENGINE.to_owned()
}

impl Config {
    /// Reads `DIR/messenger.toml`; a missing file means the bot is not set up.
    pub fn load(data_dir: &Path) -> Result<Config, MessengerError> {
        let path = data_dir.join(CONFIG_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(MessengerError::NotConfigured(format!(
                    "write {} with token_key (the saved key holding the bot token) and folder",
                    path.display()
                )));
            }
            Err(e) => {
                return Err(MessengerError::BadConfig {
                    path: path.display().to_string(),
                    detail: e.to_string(),
                });
            }
        };
        Self::parse(&text).map_err(|detail| MessengerError::BadConfig {
            path: path.display().to_string(),
            detail,
        })
    }

    fn parse(text: &str) -> Result<Config, String> {
        // Only the message and the line: the parser's own text quotes the
        // line, which could hold a token pasted where it does not belong.
        let file: File = toml::from_str(text).map_err(|e| match e.span() {
            Some(span) => format!(
                "line {}: {}",
                text.get(..span.start).unwrap_or(text).matches('\n').count() + 1,
                e.message()
            ),
            None => e.message().to_owned(),
        })?;
        let base_url = file.base_url.trim_end_matches('/').to_owned();
        if !is_http_url(&base_url) {
            return Err("base_url must be an http(s) URL".to_owned());
        }
        if file.token_key.trim().is_empty() {
            return Err("token_key must name a saved key".to_owned());
        }
        if !file.folder.is_absolute() {
            return Err("folder must be an absolute path".to_owned());
        }
        if file.engine.trim().is_empty() {
            return Err("engine must name an engine".to_owned());
        }
        let mode = match (file.mode, file.webhook_url) {
            (FileMode::Polling, None) => Mode::Polling,
            (FileMode::Polling, Some(_)) => {
                return Err("webhook_url is only for mode = \"webhook\"".to_owned());
            }
            // Telegram posts updates over HTTPS only.
            (FileMode::Webhook, Some(url)) if url.starts_with("https://") => Mode::Webhook {
                public_url: url.trim_end_matches('/').to_owned(),
            },
            (FileMode::Webhook, _) => {
                return Err(
                    "mode = \"webhook\" needs webhook_url, the https:// address Telegram posts to"
                        .to_owned(),
                );
            }
        };
        Ok(Config {
            base_url,
            token_key: file.token_key,
            folder: file.folder,
            engine: file.engine,
            mode,
        })
    }
}

fn is_http_url(url: &str) -> bool {
    ["https://", "http://"].iter().any(|scheme| {
        url.strip_prefix(scheme)
            .is_some_and(|rest| !rest.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_not_configured_and_defaults_fill_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            Config::load(dir.path()),
            Err(MessengerError::NotConfigured(_))
        ));
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "token_key = \"TELEGRAM_BOT_TOKEN\"\nfolder = \"/srv/bot\"\n",
        )
        .unwrap();
        let config = Config::load(dir.path()).unwrap();
        assert_eq!(
            config,
            Config {
                base_url: "https://api.telegram.org".to_owned(),
                token_key: "TELEGRAM_BOT_TOKEN".to_owned(),
                folder: PathBuf::from("/srv/bot"),
                engine: "primary".to_owned(),
                mode: Mode::Polling,
            }
        );
    }

    #[test]
    fn webhook_mode_needs_an_https_address() {
        let base = "token_key = \"K\"\nfolder = \"/srv/bot\"\nmode = \"webhook\"\n";
        assert!(Config::parse(base).is_err());
        assert!(Config::parse(&format!("{base}webhook_url = \"http://x.example\"\n")).is_err());
        let config =
            Config::parse(&format!("{base}webhook_url = \"https://x.example/sb/\"\n")).unwrap();
        assert_eq!(
            config.mode,
            Mode::Webhook {
                public_url: "https://x.example/sb".to_owned()
            }
        );
        let polling = "token_key = \"K\"\nfolder = \"/srv/bot\"\nwebhook_url = \"https://x\"\n";
        assert!(Config::parse(polling).is_err());
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        for (text, says) in [
            ("token_key = \"K\"\nfolder = \"bot\"\n", "absolute"),
            ("token_key = \" \"\nfolder = \"/bot\"\n", "token_key"),
            (
                "token_key = \"K\"\nfolder = \"/bot\"\nbase_url = \"ftp://x\"\n",
                "base_url",
            ),
            // The token itself has no place in the file.
            (
                "token = \"123:abc\"\ntoken_key = \"K\"\nfolder = \"/bot\"\n",
                "token",
            ),
            (
                "token_key = \"K\"\nfolder = \"/bot\"\nmode = \"push\"\n",
                "polling",
            ),
        ] {
            std::fs::write(dir.path().join(CONFIG_FILE), text).unwrap();
            let error = Config::load(dir.path()).unwrap_err();
            assert!(
                matches!(&error, MessengerError::BadConfig { detail, .. } if detail.contains(says)),
                "{text}: {error}"
            );
            assert!(!error.to_string().contains("123:abc"), "{error}");
        }
    }
}
