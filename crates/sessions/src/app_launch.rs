//! The dev servers a session asks Switchboard to run (`POST /apps`,
//! `switchboard apps start`): started in the session's folder and in the
//! same sandbox as its engine, so an agent cannot use an app to step out of
//! its own confinement, but outside its turn's process tree, so the server
//! outlives the turn that asked for it (a turn's tree is killed whole when
//! the turn ends).

use std::path::PathBuf;
use std::sync::Arc;

use tokio::process::Command;

use crate::confine::Confinement;
use crate::db;
use crate::engines::EngineSpec;
use crate::error::{Result, SessionError};
use crate::model::Trigger;
use crate::state::Inner;
use crate::supervisor::Supervisor;

/// How to start one app of a session, again at every restart.
#[derive(Clone)]
pub struct AppLaunch {
    inner: Arc<Inner>,
    session_id: String,
    engine: String,
    spec: EngineSpec,
    /// The session's folder: its worktree when it has one.
    pub cwd: PathBuf,
    /// `local` or the runner its turns run on.
    pub runner: String,
    locked_down: bool,
}

impl Supervisor {
    /// What starting an app of session `id` needs, read once; `NotFound`
    /// for another account's session.
    pub async fn app_launch(&self, account_id: &str, id: &str) -> Result<AppLaunch> {
        let session = self.get(account_id, id).await?;
        let owned = id.to_owned();
        let ((spec, _, engine, runner), (trigger, _)) = self
            .inner
            .read(move |tx| {
                Ok((
                    db::engine_spec(tx, &owned)?,
                    db::permissions_of(tx, &owned)?,
                ))
            })
            .await?;
        let spec: EngineSpec = serde_json::from_str(&spec).map_err(|e| {
            SessionError::InvalidInput(format!("stored engine spec is unreadable: {e}"))
        })?;
        Ok(AppLaunch {
            inner: Arc::clone(&self.inner),
            session_id: session.id,
            engine,
            spec,
            // A runner's folder is the runner's: its helper reads `~`.
            cwd: if runner == runners::LOCAL {
                expand_home(&session.cwd)
            } else {
                PathBuf::from(&session.cwd)
            },
            runner,
            locked_down: trigger == Some(Trigger::Email),
        })
    }
}

impl AppLaunch {
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// `sh -c <command>` in `folder` (the session's, or one inside it),
    /// with `env` added, confined as the session's engine is. Blocking: the
    /// sandbox's ruleset is prepared here, once per start.
    pub fn command(
        &self,
        command: &str,
        folder: &std::path::Path,
        env: &[(String, String)],
    ) -> std::io::Result<Command> {
        let confinement = Confinement {
            data_dir: &self.inner.data_dir,
            session_id: &self.session_id,
            engine: &self.engine,
            spec: &self.spec,
            control_url: self.inner.control_url.as_deref(),
            locked_down: self.locked_down,
        };
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(command)
            .current_dir(folder)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env("APP_SESSION_ID", &self.session_id)
            .env_remove("APP_CLI_TOKEN");
        match confinement.prepare_blocking() {
            Ok(Some(prepared)) => {
                let hook = prepared.into_pre_exec(folder);
                // SAFETY: the hook runs in the child between fork and exec and
                // only makes system calls on what was built before the fork.
                unsafe { shell.pre_exec(hook) };
            }
            Ok(None) => {}
            Err(message) => return Err(std::io::Error::other(message)),
        }
        Ok(shell)
    }
}

impl AppLaunch {
    /// The sandbox an app of a session on a runner gets there: its turns'
    /// (a locked-down or hardened session's app connects nowhere), and
    /// whether the session has a home of its own there.
    pub fn remote_confine(&self) -> (runners::Confine, bool) {
        let hardened = self
            .inner
            .governance
            .as_ref()
            .is_some_and(|g| g.hardened_remote_sessions());
        let confine = runners::Confine {
            hide_sensitive: self.spec.kind == crate::engines::EngineKind::Command
                || self.locked_down,
            connect_ports: (self.locked_down || hardened).then(Vec::new),
            unsafe_allow_unsandboxed: self.spec.unsafe_allow_unsandboxed,
        };
        (confine, hardened)
    }
}

/// A session's folder as stored (`~` for the home folder).
fn expand_home(cwd: &str) -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match (cwd, home) {
        ("~" | "", Some(home)) => home,
        (rest, Some(home)) if rest.starts_with("~/") => home.join(&rest[2..]),
        (cwd, _) => PathBuf::from(cwd),
    }
}
