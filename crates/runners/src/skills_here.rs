//! The runner host's side of [`Request::Skills`](crate::wire::Request):
//! an engine's `/` list (docs/skills.md) asked here, of the engine's
//! program run in the sandbox a turn gets on this host.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::keeper::{home, prepare, runner_dir};
use crate::wire::SkillsAsk;

/// The sandbox's session when the folder is no session's worktree: a name
/// no session id can have (they are letters and digits), so it opens none.
const NO_SESSION: &str = "-skills-";

pub(crate) async fn list(ask: SkillsAsk) -> Result<Vec<skills::Skill>, String> {
    let kind = match ask.kind.as_str() {
        "claude" => skills::EngineKind::Claude,
        "codex" => skills::EngineKind::Codex,
        other => return Err(format!("engines of kind `{other}` offer no skills")),
    };
    let home = home();
    let cwd = match ask.cwd.as_deref() {
        None | Some("" | "~") => home.clone(),
        Some(path) => match path.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None => PathBuf::from(path),
        },
    };
    if !cwd.is_dir() {
        return Err(format!(
            "{} is not a folder on the runner host",
            cwd.display()
        ));
    }
    let (program, args) = ask
        .argv
        .split_first()
        .ok_or_else(|| format!("engine `{}` names no program", ask.engine))?;
    let session = worktree_session(&home, &cwd).unwrap_or_else(|| NO_SESSION.to_owned());
    let prepared = {
        let (confine, home) = (ask.confine.clone(), home.clone());
        tokio::task::spawn_blocking(move || prepare(&session, &confine, &home))
            .await
            .map_err(|e| format!("the sandbox could not be prepared: {e}"))??
    };
    let env_of = |key: &str| {
        ask.env
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| PathBuf::from(value))
    };
    let user_home = env_of("HOME").unwrap_or_else(|| home.clone());
    let question = skills::Ask {
        engine: ask.engine.clone(),
        kind,
        cwd: cwd.clone(),
        codex_home: env_of("CODEX_HOME").or_else(|| Some(user_home.join(".codex"))),
        home: Some(user_home),
        version: None,
    };
    let mut command = tokio::process::Command::new(program);
    command
        .args(args)
        .current_dir(&cwd)
        .envs(ask.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(prepared) = prepared {
        let hook = prepared.into_pre_exec(&cwd);
        // SAFETY: as for a turn's keeper: the hook only makes system calls,
        // with a ruleset built before the fork.
        unsafe { command.pre_exec(hook) };
    }
    Ok(skills::ask_now(&question, command).await)
}

/// The session whose worktree on this host holds `cwd`, if one does.
fn worktree_session(home: &Path, cwd: &Path) -> Option<String> {
    let rest = cwd.strip_prefix(runner_dir(home).join("worktrees")).ok()?;
    let first = rest.components().next()?;
    Some(first.as_os_str().to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worktree_names_its_session() {
        let home = Path::new("/home/dev");
        let worktrees = runner_dir(home).join("worktrees");
        assert_eq!(
            worktree_session(home, &worktrees.join("abc123/src")).as_deref(),
            Some("abc123")
        );
        assert_eq!(worktree_session(home, &worktrees), None);
        assert_eq!(worktree_session(home, Path::new("/home/dev/project")), None);
    }
}
