//! The sandbox each engine process runs in: what it hides from which engine,
//! and failing closed where the kernel cannot hide it.
//!
//! Every engine: Switchboard's data directory (the `cli-token`, the database,
//! other sessions' worktrees), except the session's own worktree inside it.
//! External engines (kind `command`) and locked-down sessions: the sensitive
//! files too, whatever `agentPermissionLevel` says; Claude and Codex reach
//! them at `full`, below it their hook asks the user. Locked-down sessions
//! also lose TCP, but for Switchboard's own control port and the port the
//! engine reaches its model on (an engine without its model does nothing;
//! Landlock filters by port, not host, so the permission broker's
//! `read_only` level, which denies every tool but reading, is the fence
//! against the agent using that port for anything else).

use std::path::{Path, PathBuf};

use crate::engines::{EngineKind, EngineSpec};

pub(crate) struct Confinement<'a> {
    pub data_dir: &'a Path,
    pub session_id: &'a str,
    pub engine: &'a str,
    pub spec: &'a EngineSpec,
    pub control_url: Option<&'a str>,
    /// An email-triggered session: no network, and the sensitive files are
    /// hidden whatever the engine.
    pub locked_down: bool,
}

impl Confinement<'_> {
    pub(crate) fn policy(&self) -> sandbox::Policy {
        let mut hidden = vec![self.data_dir.to_owned()];
        if self.spec.kind == EngineKind::Command || self.locked_down {
            let home = std::env::var_os("HOME").map(PathBuf::from);
            hidden.extend(sandbox::sensitive_paths(home.as_deref()));
        }
        let network = if self.locked_down {
            sandbox::Network::Denied {
                connect_ports: self
                    .control_url
                    .and_then(port_of)
                    .into_iter()
                    .chain(model_port(self.spec))
                    .collect(),
            }
        } else {
            sandbox::Network::Allowed
        };
        // A probe outside any session (the doctor's `--version`) gets no
        // worktree: an empty id would name every session's.
        let exceptions = if self.session_id.is_empty() {
            Vec::new()
        } else {
            // Images attached to a turn (docs/attachments.md) are read
            // from there by the engine's own tools.
            vec![
                self.data_dir.join("worktrees").join(self.session_id),
                self.data_dir.join("attachments"),
            ]
        };
        sandbox::Policy {
            hidden,
            exceptions,
            network,
        }
    }

    /// The ruleset for this turn's process, `None` when the engine opted out
    /// and the kernel cannot confine it, or the message the turn fails with.
    pub(crate) async fn prepare(&self) -> Result<Option<sandbox::Prepared>, String> {
        let policy = self.policy();
        let prepared = tokio::task::spawn_blocking(move || policy.prepare())
            .await
            .map_err(|e| format!("the sandbox could not be prepared: {e}"))?;
        self.judge(prepared)
    }

    /// [`Confinement::prepare`] on the calling thread.
    pub(crate) fn prepare_blocking(&self) -> Result<Option<sandbox::Prepared>, String> {
        self.judge(self.policy().prepare())
    }

    fn judge(
        &self,
        prepared: Result<sandbox::Prepared, sandbox::SandboxError>,
    ) -> Result<Option<sandbox::Prepared>, String> {
        match prepared {
            Ok(prepared) => Ok(Some(prepared)),
            Err(
                e @ (sandbox::SandboxError::Unsupported { .. }
                | sandbox::SandboxError::NoNetworkControl { .. }),
            ) => {
                if self.spec.unsafe_allow_unsandboxed {
                    tracing::warn!(
                        engine = self.engine,
                        session = self.session_id,
                        "{e}: running the engine unconfined, as engines.toml allows"
                    );
                    Ok(None)
                } else {
                    Err(format!(
                        "engine `{name}` was not started: {e}, so the operating system cannot keep it away from Switchboard's data directory; set `unsafe_allow_unsandboxed = true` under [engines.{name}] in engines.toml to run it unconfined",
                        name = self.engine
                    ))
                }
            }
            Err(e) => Err(format!(
                "engine `{}` was not started: {e}: {}",
                self.engine,
                std::error::Error::source(&e).map_or_else(String::new, ToString::to_string)
            )),
        }
    }
}

/// The port of `http://127.0.0.1:<port>` (the control and UI addresses
/// Switchboard writes).
pub fn port_of(url: &str) -> Option<u16> {
    url.trim_end_matches('/').rsplit(':').next()?.parse().ok()
}

/// The port an engine reaches its model API on: the one its `env`'s base
/// URL names (`ANTHROPIC_BASE_URL` for Claude Code, `OPENAI_BASE_URL` for
/// Codex), else HTTPS's. A `command` engine has no model of ours to reach.
pub(crate) fn model_port(spec: &EngineSpec) -> Option<u16> {
    let variable = match spec.kind {
        EngineKind::Claude => "ANTHROPIC_BASE_URL",
        EngineKind::Codex => "OPENAI_BASE_URL",
        EngineKind::Command => return None,
    };
    match spec.env.get(variable) {
        None => Some(443),
        Some(url) => {
            let (scheme, rest) = url.split_once("://")?;
            let authority = rest.split('/').next()?;
            match authority.rsplit_once(':') {
                Some((_, port)) if !port.contains(']') => port.parse().ok(),
                _ => match scheme {
                    "https" => Some(443),
                    "http" => Some(80),
                    _ => None,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_session_opens_its_worktree() {
        let spec = EngineSpec {
            kind: EngineKind::Claude,
            command: None,
            args: Vec::new(),
            env: std::collections::BTreeMap::new(),
            unsafe_allow_unsandboxed: false,
            permission_level: None,
            runner: None,
            max_sessions: None,
        };
        let confinement = |session_id| Confinement {
            data_dir: Path::new("/data"),
            session_id,
            engine: "primary",
            spec: &spec,
            control_url: None,
            locked_down: false,
        };
        assert_eq!(
            confinement("s1").policy().exceptions,
            [
                Path::new("/data/worktrees/s1"),
                Path::new("/data/attachments")
            ]
        );
        let outside = confinement("").policy();
        assert_eq!(outside.hidden, [Path::new("/data")]);
        assert!(outside.exceptions.is_empty(), "{outside:?}");
    }

    #[test]
    fn a_locked_down_session_reaches_the_control_port_and_its_model_only() {
        let spec = |kind, url: Option<&str>| EngineSpec {
            kind,
            command: None,
            args: Vec::new(),
            env: url
                .map(|u| [(String::from("ANTHROPIC_BASE_URL"), u.to_owned())].into())
                .unwrap_or_default(),
            unsafe_allow_unsandboxed: false,
            permission_level: None,
            runner: None,
            max_sessions: None,
        };
        let ports = |spec: &EngineSpec| match (Confinement {
            data_dir: Path::new("/data"),
            session_id: "s1",
            engine: "primary",
            spec,
            control_url: Some("http://127.0.0.1:19519"),
            locked_down: true,
        })
        .policy()
        .network
        {
            sandbox::Network::Denied { connect_ports } => connect_ports,
            sandbox::Network::Allowed => panic!("a locked-down session has the network"),
        };
        assert_eq!(ports(&spec(EngineKind::Claude, None)), [19519, 443]);
        assert_eq!(
            ports(&spec(EngineKind::Claude, Some("http://127.0.0.1:4000"))),
            [19519, 4000]
        );
        assert_eq!(
            ports(&spec(EngineKind::Claude, Some("http://proxy.internal/v1"))),
            [19519, 80]
        );
        assert_eq!(ports(&spec(EngineKind::Command, None)), [19519]);
    }

    #[test]
    fn the_control_port_is_read_from_its_url() {
        assert_eq!(port_of("http://127.0.0.1:19519"), Some(19519));
        assert_eq!(port_of("http://127.0.0.1:8/"), Some(8));
        assert_eq!(port_of("nonsense"), None);
    }
}
