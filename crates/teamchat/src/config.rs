//! `DIR/teamchat.toml`: where the service is and which saved key holds its
//! token.
//!
//! ```toml
//! base_url = "https://slack.com/api"
//! token_key = "SLACK_BOT_TOKEN"
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::ChatError;

pub const CONFIG_FILE: &str = "teamchat.toml";

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The Web API's base: `https://slack.com/api`, or a compatible service.
    pub base_url: String,
    /// The saved key (`PUT /keys/<name>`) that holds the bot token.
    pub token_key: String,
}

impl Config {
    /// Reads `DIR/teamchat.toml`; a missing file means team chat is not set up.
    pub fn load(data_dir: &Path) -> Result<Config, ChatError> {
        let path = data_dir.join(CONFIG_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ChatError::NotConfigured(format!(
                    "write {} with base_url and token_key (the saved key holding the bot token)",
                    path.display()
                )));
            }
            Err(e) => {
                return Err(ChatError::BadConfig {
                    path: path.display().to_string(),
                    detail: e.to_string(),
                });
            }
        };
        let bad = |detail: String| ChatError::BadConfig {
            path: path.display().to_string(),
            detail,
        };
        let config: Config = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if !(config.base_url.starts_with("https://") || config.base_url.starts_with("http://")) {
            return Err(bad("base_url must be an http(s) URL".to_owned()));
        }
        if config.token_key.trim().is_empty() {
            return Err(bad("token_key must name a saved key".to_owned()));
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_names_its_token_never_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            Config::load(dir.path()),
            Err(ChatError::NotConfigured(_))
        ));
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "base_url = \"https://slack.com/api\"\ntoken_key = \"SLACK_BOT_TOKEN\"\n",
        )
        .unwrap();
        let config = Config::load(dir.path()).unwrap();
        assert_eq!(config.token_key, "SLACK_BOT_TOKEN");
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "base_url = \"https://slack.com/api\"\ntoken = \"xoxb-1\"\n",
        )
        .unwrap();
        assert!(matches!(
            Config::load(dir.path()),
            Err(ChatError::BadConfig { .. })
        ));
    }
}
