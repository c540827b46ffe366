//! The `/` menu's list (docs/skills.md): engine `name`'s skills in a
//! folder, asked of the engine's own program run as its sessions run it
//! (engines.toml's program, arguments and `env`, in their sandbox) and
//! kept per engine, folder and version by [`skills::Catalog`].

use std::path::PathBuf;

use sessions::SessionError;
use sessions::engines::{self, EngineKind};

use crate::App;

impl App {
    /// What engine `engine` (the primary one when `None`) offers on `/` in
    /// `cwd`, or an unknown engine's error. An engine that cannot list is
    /// not an error: its list carries the reason ([`skills::reason`]).
    pub async fn skills(
        &self,
        engine: Option<&str>,
        cwd: &str,
        runner: Option<&str>,
    ) -> Result<Vec<skills::Skill>, SessionError> {
        let name = engine.filter(|e| !e.is_empty()).unwrap_or("primary");
        let spec = engines::load(&self.data_dir)?.remove(name);
        let Some(spec) = spec else {
            if name == engines::DEMO_ENGINE {
                return Ok(vec![skills::reason("The demo engine offers no skills.")]);
            }
            return Err(SessionError::UnknownEngine {
                known: self
                    .sessions
                    .engines()?
                    .into_iter()
                    .map(|info| info.name)
                    .collect::<Vec<_>>()
                    .join(", "),
                name: name.to_owned(),
            });
        };
        let kind = match spec.kind {
            EngineKind::Claude => skills::EngineKind::Claude,
            EngineKind::Codex => skills::EngineKind::Codex,
            EngineKind::Command => {
                return Ok(vec![skills::reason(format!(
                    "Engine `{name}` is an external command, which offers no skills."
                ))]);
            }
        };
        if let Some(runner) = runner.filter(|r| !r.is_empty() && *r != runners::LOCAL) {
            return Ok(self.skills_on_runner(runner, name, &spec, kind, cwd).await);
        }
        let home = spec
            .env
            .get("HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(PathBuf::from));
        let codex_home = spec
            .env
            .get("CODEX_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("CODEX_HOME").map(PathBuf::from))
            .or_else(|| home.as_ref().map(|home| home.join(".codex")));
        let version = self.sessions.engine_version(name, &spec, cwd).await;
        let ask = skills::Ask {
            engine: name.to_owned(),
            kind,
            cwd: PathBuf::from(cwd),
            home,
            codex_home,
            version,
        };
        let data_dir = &self.data_dir;
        let listed = self
            .skills
            .list(&ask, |args| async {
                let mut args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
                // Claude Code's own options (plugins, settings) change what
                // it offers; Codex's are `exec`'s, not its app server's.
                if kind == skills::EngineKind::Claude {
                    args.extend(spec.args.iter().cloned());
                }
                sessions::confined_command(data_dir, name, &spec, cwd, &args).await
            })
            .await;
        Ok(listed)
    }

    /// The list asked on runner `runner`, in the sandbox a turn gets there,
    /// kept nowhere (the server cannot watch that host's folders); a runner
    /// that cannot be asked gives the reason entry.
    async fn skills_on_runner(
        &self,
        runner: &str,
        name: &str,
        spec: &engines::EngineSpec,
        kind: skills::EngineKind,
        cwd: &str,
    ) -> Vec<skills::Skill> {
        if !self.settings.cloud_control_plane_enabled() {
            return vec![skills::reason(
                "Sessions on other machines are turned off (setting cloudControlPlaneEnabled).",
            )];
        }
        // Read at each ask, as a spawn reads it: an edit needs no restart.
        self.runners.reload();
        let mut argv = spec.program();
        argv.extend(skills::list_args(kind).iter().map(|a| (*a).to_owned()));
        if kind == skills::EngineKind::Claude {
            argv.extend(spec.args.iter().cloned());
        }
        let ask = runners::wire::SkillsAsk {
            engine: name.to_owned(),
            kind: spec.kind.as_str().to_owned(),
            argv,
            env: spec.env.clone().into_iter().collect(),
            cwd: (cwd != "~" && !cwd.is_empty()).then(|| cwd.to_owned()),
            confine: runners::wire::Confine {
                hide_sensitive: false,
                connect_ports: None,
                unsafe_allow_unsandboxed: spec.unsafe_allow_unsandboxed,
            },
        };
        match self.runners.skills(runner, ask).await {
            Ok(listed) => listed,
            Err(why) => vec![skills::reason(format!(
                "Runner `{runner}` could not be asked for the skills: {why}"
            ))],
        }
    }
}
