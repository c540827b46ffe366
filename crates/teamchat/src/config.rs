//! `DIR/teamchat.toml`: where the service is, which saved keys hold its
//! tokens, and who the person is there.
//!
//! ```toml
//! base_url = "https://slack.com/api"
//! token_key = "SLACK_BOT_TOKEN"
//! user_token_key = "SLACK_USER_TOKEN"
//! mention_user = "U012AB3CD"
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
    /// The person's own user id (`U…`, or `W…` in an Enterprise Grid), whose
    /// mentions the daily briefing lists. Needed because the token is the
    /// bot's: nothing it can ask the service says which user is "you".
    #[serde(default)]
    pub mention_user: Option<String>,
    /// The saved key holding the person's own user token (`xoxp-…`, from
    /// Slack's OAuth with the `chat:write` user scope), which sends as them
    /// while `chatAppPersonalEnabled` is on. The bot stays set up beside it:
    /// reads and everything else go on with the bot's token.
    #[serde(default)]
    pub user_token_key: Option<String>,
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
        if let Some(user) = &config.mention_user
            && !is_user_id(user)
        {
            return Err(bad(
                "mention_user must be a user id such as U012AB3CD (not a name)".to_owned(),
            ));
        }
        if config
            .user_token_key
            .as_ref()
            .is_some_and(|key| key.trim().is_empty())
        {
            return Err(bad("user_token_key must name a saved key".to_owned()));
        }
        Ok(config)
    }

    /// The saved key whose token sends: the person's own while `as_user`
    /// (`chatAppPersonalEnabled`), else the bot's.
    pub fn sending_key(&self, as_user: bool) -> Result<&str, ChatError> {
        if !as_user {
            return Ok(&self.token_key);
        }
        self.user_token_key.as_deref().ok_or_else(|| {
            ChatError::NotConfigured(
                "chatAppPersonalEnabled sends as you: set user_token_key in teamchat.toml to the \
                 saved key holding your user token (xoxp-…, from Slack's OAuth)"
                    .to_owned(),
            )
        })
    }
}

/// Slack's user ids: `U` or `W`, then upper-case letters and digits.
fn is_user_id(id: &str) -> bool {
    id.len() > 1
        && (id.starts_with('U') || id.starts_with('W'))
        && id
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
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
        assert_eq!(config.mention_user, None);
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

    #[test]
    fn the_person_s_own_token_sends_only_when_asked_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let write = |extra: &str| {
            std::fs::write(
                dir.path().join(CONFIG_FILE),
                format!("base_url = \"https://slack.com/api\"\ntoken_key = \"BOT\"\n{extra}"),
            )
            .unwrap();
            Config::load(dir.path())
        };
        let bot_only = write("").unwrap();
        assert_eq!(bot_only.sending_key(false).unwrap(), "BOT");
        assert!(matches!(
            bot_only.sending_key(true),
            Err(ChatError::NotConfigured(_))
        ));
        let both = write("user_token_key = \"ME\"\n").unwrap();
        assert_eq!(both.sending_key(false).unwrap(), "BOT");
        assert_eq!(both.sending_key(true).unwrap(), "ME");
        assert!(matches!(
            write("user_token_key = \" \"\n"),
            Err(ChatError::BadConfig { .. })
        ));
    }

    #[test]
    fn mention_user_is_an_id_never_a_name() {
        let dir = tempfile::tempdir().unwrap();
        let write = |user: &str| {
            std::fs::write(
                dir.path().join(CONFIG_FILE),
                format!(
                    "base_url = \"https://slack.com/api\"\ntoken_key = \"K\"\nmention_user = {user:?}\n"
                ),
            )
            .unwrap();
            Config::load(dir.path())
        };
        assert_eq!(
            write("U012AB3CD").unwrap().mention_user.as_deref(),
            Some("U012AB3CD")
        );
        assert!(write("W0ENTERPRISE1").is_ok());
        for bad in ["@ada", "ada", "U", "u012ab3cd", "<@U012AB3CD>"] {
            assert!(
                matches!(write(bad), Err(ChatError::BadConfig { .. })),
                "{bad}"
            );
        }
    }
}
