//! An engine's program run for a question outside any session (which skills
//! it offers, say), in the sandbox its sessions get, so asking never
//! reaches what a session could not.

use std::path::Path;
use std::process::Stdio;

use crate::confine::Confinement;
use crate::engines::{EngineKind, EngineSpec};

/// Engine `name`'s program with `args`, from `cwd`, with its `env`, piped
/// stdin and stdout, in its own process group, confined like a probe of
/// its version: the data directory hidden, no worktree opened. The error is the sentence a turn would fail
/// with; `command` engines have no program of their own to ask.
pub async fn confined_command(
    data_dir: &Path,
    name: &str,
    spec: &EngineSpec,
    cwd: &str,
    args: &[String],
) -> Result<tokio::process::Command, String> {
    if spec.kind == EngineKind::Command {
        return Err(format!("engine `{name}` is an external command"));
    }
    let program = spec.program();
    let (first, rest) = program
        .split_first()
        .ok_or_else(|| format!("engine `{name}` names no program"))?;
    let confinement = Confinement {
        data_dir,
        session_id: "",
        engine: name,
        spec,
        control_url: None,
        locked_down: false,
    };
    let mut command = tokio::process::Command::new(first);
    command
        .args(rest)
        .args(args)
        .current_dir(cwd)
        .envs(&spec.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(prepared) = confinement.prepare().await? {
        let hook = prepared.into_pre_exec(Path::new(cwd));
        // SAFETY: as for a turn (see `turn.rs`): the hook only makes system
        // calls, with a ruleset built before the fork.
        unsafe { command.pre_exec(hook) };
    }
    Ok(command)
}
