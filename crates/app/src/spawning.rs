//! The spawn rules and prompt additions as the settings say them now, for
//! every path that starts a session: `POST /sessions` and what is built on
//! it, and the sessions the application starts on someone's behalf from
//! outside (a messenger chat, an email, a bug report).

use sessions::{Caller, PromptSettings, SessionError, SpawnPolicy, SpawnRequest, Spawned, Via};

use crate::services::App;

impl App {
    /// The spawn rules a session started now is checked against.
    pub fn spawn_policy(&self) -> SpawnPolicy {
        let s = &self.settings;
        SpawnPolicy {
            agent_driven_sessions_enabled: s.agent_driven_sessions_enabled(),
            allow_agent_token_spawn: s.allow_agent_token_spawn(),
            require_spawn_source_session: s.require_spawn_source_session(),
            agent_driven_max_concurrent: s.agent_driven_max_concurrent(),
            cli_spawn_spacing_seconds: s.cli_spawn_spacing_seconds(),
            max_dollars_per_session: s.agent_driven_max_dollars_per_session(),
            max_turns_per_session: s.agent_driven_max_turns_per_session(),
            remote_runners: s.cloud_control_plane_enabled(),
            remote_started_sessions: s.cloud_started_sessions_enabled(),
        }
    }

    /// What the settings add to a new session's prompt.
    pub fn prompt_settings(&self) -> PromptSettings {
        let s = &self.settings;
        PromptSettings {
            default_instructions_enabled: s.default_agent_instructions_enabled(),
            default_instructions_custom: s.default_agent_instructions_custom(),
            app_awareness: s.app_awareness_prompt_enabled(),
            audience_style: s.audience_style_prompt_enabled(),
            engineering_principles: s.engineering_principles_prompt_enabled(),
            execution_bias: s.execution_bias_prompt_enabled(),
            key_reminders: s.key_reminders_prompt_enabled(),
            persona: s.persona_prompt_enabled(),
            shell_cwd_persist_nudge: s.shell_cwd_persist_nudge_enabled(),
        }
    }

    /// Starts a session the application starts itself for `account` from
    /// outside (a messenger chat, an email, a bug report): agent-driven,
    /// under the spawn rules but for `requireSpawnSourceSession`, since
    /// nothing that starts it has a session to name.
    pub(crate) async fn spawn_from_outside(
        &self,
        account: &str,
        request: SpawnRequest,
    ) -> Result<Spawned, SessionError> {
        let caller = Caller {
            account_id: account.to_owned(),
            via: Via::ControlCli,
            source_session_header: None,
        };
        let policy = SpawnPolicy {
            require_spawn_source_session: false,
            ..self.spawn_policy()
        };
        self.sessions
            .spawn(&caller, &policy, &self.prompt_settings(), request)
            .await
    }
}
