//! The lists asked so far, kept per engine, folder and version while the
//! skill folders stay as they were.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::model::{Ask, EngineKind, Skill};
use crate::{claude, codex, fingerprint, scan};

/// The arguments the engine's program is run with to list.
pub fn list_args(kind: EngineKind) -> &'static [&'static str] {
    match kind {
        EngineKind::Claude => claude::ARGS,
        EngineKind::Codex => codex::ARGS,
    }
}

/// The skills `ask.engine` offers in `ask.cwd`, asked now of `command`
/// (the engine's program run with [`list_args`]) and kept nowhere: for a
/// runner host, whose folders the server cannot watch.
pub async fn ask_now(ask: &Ask, command: tokio::process::Command) -> Vec<Skill> {
    match ask.kind {
        EngineKind::Claude => claude::list(ask, command).await,
        EngineKind::Codex => codex::list(ask, command).await,
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    engine: String,
    cwd: PathBuf,
    version: Option<String>,
}

/// The lists asked so far, each with the state of the skill folders it
/// was asked in.
#[derive(Default)]
pub struct Catalog {
    kept: Mutex<HashMap<Key, (u64, Vec<Skill>)>>,
}

impl Catalog {
    /// The skills `ask.engine` offers in `ask.cwd`: the kept list while the
    /// skill folders are as they were, else asked again with the command
    /// `launch` builds from [`list_args`]. A list the engine could not give
    /// is never kept: it carries a [`reason`] entry and is asked again.
    pub async fn list<F, Fut>(&self, ask: &Ask, launch: F) -> Vec<Skill>
    where
        F: FnOnce(&'static [&'static str]) -> Fut,
        Fut: Future<Output = Result<tokio::process::Command, String>>,
    {
        let key = Key {
            engine: ask.engine.clone(),
            cwd: ask.cwd.clone(),
            version: ask.version.clone(),
        };
        let folders = fingerprint::watched(ask);
        let stamp = tokio::task::spawn_blocking(move || fingerprint::of(&folders))
            .await
            .unwrap_or_default();
        if let Some((kept_stamp, skills)) = self.locked().get(&key)
            && *kept_stamp == stamp
        {
            return skills.clone();
        }
        let skills = match launch(list_args(ask.kind)).await {
            Ok(command) => ask_now(ask, command).await,
            Err(why) => scan::fallback(ask, &why),
        };
        if skills.iter().all(|skill| !is_reason(skill)) {
            self.locked().insert(key, (stamp, skills.clone()));
        }
        skills
    }

    fn locked(&self) -> std::sync::MutexGuard<'_, HashMap<Key, (u64, Vec<Skill>)>> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn is_reason(skill: &Skill) -> bool {
    skill.name.is_empty() && skill.error.is_some()
}
