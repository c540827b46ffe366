//! Runs the real `git` program, argument by argument (never a shell string),
//! in an environment that only the command line steers.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::error::{Result, WorktreeError};

/// Variables that would make git act on another repository than the one
/// `-C` names (they are set inside git hooks, for one).
const REPOSITORY_OVERRIDES: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
];

/// `git -C dir args…`, with its output captured. A failure to start git is
/// an error; a non-zero exit is returned for the caller to judge.
pub(crate) fn run<I, S>(dir: &Path, args: I) -> Result<Output>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new("git");
    command.arg("-C").arg(dir).args(args);
    for name in REPOSITORY_OVERRIDES {
        command.env_remove(name);
    }
    command
        // English messages: `not a git repository` is recognised by its text.
        .env("LC_ALL", "C")
        // Never wait for a password or an editor that nobody will answer.
        .env("GIT_TERMINAL_PROMPT", "0")
        // A status must not take the index lock an agent's own git may want.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .output()
        .map_err(WorktreeError::Spawn)
}

/// Like [`run`], but a non-zero exit is a [`WorktreeError::Git`]; returns stdout.
pub(crate) fn checked<I, S>(dir: &Path, args: I) -> Result<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<S> = args.into_iter().collect();
    let output = run(dir, &args)?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(failure(&args, &output))
    }
}

pub(crate) fn failure<S: AsRef<OsStr>>(args: &[S], output: &Output) -> WorktreeError {
    WorktreeError::Git {
        args: args
            .iter()
            .map(|a| a.as_ref().to_string_lossy())
            .collect::<Vec<_>>()
            .join(" "),
        status: output.status.to_string(),
        stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
    }
}
