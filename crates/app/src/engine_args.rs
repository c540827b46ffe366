//! What each turn of a session is started with beyond its prompt: the
//! permission arguments (Claude Code's hook, Codex's sandbox flags) at the
//! level in force, and the MCP entry that points the engine back at the
//! control server; and the agent tokens the session's engine calls back with.

use std::sync::Arc;

use permissions::OWN_MCP_SERVER;
use serde_json::json;

use crate::permission_check;

/// The header an engine's MCP calls name their session with, so a spawn made
/// through MCP is recorded as that session's child.
pub const SOURCE_SESSION_HEADER: &str = "x-app-source-session-id";

/// The program Claude Code's hook runs: this very binary, by absolute path,
/// so the hook is the same build as the server it asks.
pub(crate) fn hook_program() -> std::path::PathBuf {
    std::env::current_exe().unwrap_or_else(|error| {
        tracing::warn!(%error, "cannot tell this binary's path; the permission hook runs `switchboard` from PATH");
        "switchboard".into()
    })
}

/// Each turn's permission arguments: the hook for Claude Code, the sandbox
/// flags for Codex, at the level in force when the turn starts (the level
/// pinned on the session at spawn, if any, else a codex engine's own level,
/// if its spec has one, else the setting's; an email-triggered session's is
/// read-only); and, while the control server runs, its MCP endpoint.
pub(crate) struct BrokerArgs {
    pub settings: Arc<settings::SettingsStore>,
    pub program: std::path::PathBuf,
    pub control_url: Option<String>,
    /// `agentFindBatchingEnabled` as each session's first turn found it:
    /// the setting takes effect on new sessions, so a session keeps the
    /// value it started with (until the server restarts, when its next turn
    /// pins it anew).
    pub find_batching_pins: std::sync::Mutex<std::collections::HashMap<String, bool>>,
}

impl BrokerArgs {
    fn find_batching(&self, session_id: &str) -> bool {
        let mut pins = self
            .find_batching_pins
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *pins
            .entry(session_id.to_owned())
            .or_insert_with(|| self.settings.agent_find_batching_enabled())
    }
}

impl sessions::TurnArgs for BrokerArgs {
    fn turn_args(
        &self,
        session_id: &str,
        engine: &sessions::EngineSpec,
        trigger: Option<sessions::Trigger>,
        session_level: Option<permissions::Level>,
        remote: Option<&sessions::RemotePlace>,
    ) -> Vec<String> {
        let level = permission_check::effective_level(
            &self.settings,
            trigger,
            session_level,
            engine.permission_level,
        );
        let program = remote.map_or_else(
            || self.program.clone(),
            |place| std::path::PathBuf::from(&place.hook_program),
        );
        let mut args = permissions::engine_args(
            engine.kind.as_str(),
            level,
            &program,
            self.find_batching(session_id),
        );
        let control_url = remote
            .map(|place| &place.control_url)
            .or(self.control_url.as_ref());
        if let Some(url) = control_url {
            let strict = self.settings.session_strict_mcp_config();
            args.extend(mcp_engine_args(engine.kind, url, strict));
        }
        args
    }
}

/// Agent tokens for spawned sessions, minted and revoked through accounts.
pub(crate) struct AgentTokens(pub Arc<accounts::Accounts>);

impl sessions::TokenIssuer for AgentTokens {
    fn mint(&self, account_id: &str, session_id: &str, access: sessions::TokenAccess) -> String {
        let read_only = access == sessions::TokenAccess::ReadOnly;
        self.0
            .mint_agent_token(account_id, session_id, read_only)
            .unwrap_or_else(|error| {
                // The session still runs; it just cannot call back.
                tracing::error!(%error, session_id, "could not mint an agent token");
                String::new()
            })
    }

    fn revoke(&self, session_id: &str) {
        if let Err(error) = self.0.revoke_session(session_id) {
            tracing::error!(%error, session_id, "could not revoke agent tokens");
        }
    }
}

/// What a session's engine is given to reach this server's MCP endpoint
/// with its own agent token, naming itself as the source of its spawns. The
/// token itself is never written anywhere: Claude Code expands
/// `${APP_CLI_TOKEN}` from its environment, Codex reads the variables named
/// by `bearer_token_env_var` and `env_http_headers`. With `strict`, the engine
/// loads no other server than this one. `codex exec` never asks, so it
/// refuses every MCP call ("MCP tool call requires approval, but approval
/// policy is never") unless the server's entry approves its tools: this
/// server's routes apply the token's own rules, as Claude's hook relies on.
pub fn mcp_engine_args(kind: sessions::EngineKind, control_url: &str, strict: bool) -> Vec<String> {
    let url = format!("{control_url}/mcp");
    match kind {
        sessions::EngineKind::Claude => {
            // The permission hook allows this server's tools by its name.
            let config = json!({"mcpServers": {OWN_MCP_SERVER: {
                "type": "http",
                "url": url,
                "headers": {
                    "Authorization": "Bearer ${APP_CLI_TOKEN}",
                    SOURCE_SESSION_HEADER: "${APP_SESSION_ID}",
                },
            }}});
            let mut args = vec!["--mcp-config".to_owned(), config.to_string()];
            if strict {
                args.push("--strict-mcp-config".to_owned());
            }
            args
        }
        sessions::EngineKind::Codex => {
            let server = format!(
                "{{url={url:?},bearer_token_env_var=\"APP_CLI_TOKEN\",\
                 env_http_headers={{{SOURCE_SESSION_HEADER:?}=\"APP_SESSION_ID\"}},\
                 default_tools_approval_mode=\"approve\"}}"
            );
            let assignment = if strict {
                // The whole table replaced: the user's own servers are not loaded.
                format!("mcp_servers={{{OWN_MCP_SERVER}={server}}}")
            } else {
                format!("mcp_servers.{OWN_MCP_SERVER}={server}")
            };
            vec!["-c".to_owned(), assignment]
        }
        sessions::EngineKind::Command => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn claude_gets_a_config_naming_the_token_variable_and_the_strict_flag() {
        let args = mcp_engine_args(sessions::EngineKind::Claude, "http://127.0.0.1:9", true);
        assert_eq!(args[0], "--mcp-config");
        let config: Value = serde_json::from_str(&args[1]).unwrap();
        let server = &config["mcpServers"]["switchboard"];
        assert_eq!(server["url"], "http://127.0.0.1:9/mcp");
        assert_eq!(
            server["headers"]["Authorization"],
            "Bearer ${APP_CLI_TOKEN}"
        );
        assert_eq!(
            server["headers"]["x-app-source-session-id"],
            "${APP_SESSION_ID}"
        );
        assert_eq!(args[2], "--strict-mcp-config");
        let loose = mcp_engine_args(sessions::EngineKind::Claude, "http://127.0.0.1:9", false);
        assert_eq!(loose.len(), 2);
    }

    #[test]
    fn codex_gets_an_override_that_replaces_its_servers_only_when_strict() {
        let strict = mcp_engine_args(sessions::EngineKind::Codex, "http://127.0.0.1:9", true);
        assert_eq!(
            strict,
            [
                "-c",
                "mcp_servers={switchboard={url=\"http://127.0.0.1:9/mcp\",bearer_token_env_var=\"APP_CLI_TOKEN\",\
                 env_http_headers={\"x-app-source-session-id\"=\"APP_SESSION_ID\"},\
                 default_tools_approval_mode=\"approve\"}}"
            ]
        );
        let loose = mcp_engine_args(sessions::EngineKind::Codex, "http://127.0.0.1:9", false);
        assert!(loose[1].starts_with("mcp_servers.switchboard={"));
        assert!(mcp_engine_args(sessions::EngineKind::Command, "x", true).is_empty());
    }
}
