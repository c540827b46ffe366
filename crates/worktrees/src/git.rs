//! Runs the real `git` program, argument by argument (never a shell string),
//! in an environment that only the command line steers.

use std::ffi::OsStr;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

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
pub fn run<I, S>(dir: &Path, args: I) -> Result<Output>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    command(dir, args)
        .stdin(Stdio::null())
        .output()
        .map_err(WorktreeError::Spawn)
}

/// `git -C dir args…` with the repository-choosing variables cleared, for a
/// caller that must wire its pipes itself (a patch on stdin).
pub fn command<I, S>(dir: &Path, args: I) -> Command
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
        .env("GIT_OPTIONAL_LOCKS", "0");
    command
}

/// What [`bounded`] read from one run of git.
pub struct Bounded {
    pub status: ExitStatus,
    /// At most the limit asked for.
    pub stdout: Vec<u8>,
    /// stdout went on past the limit (git was then stopped).
    pub truncated: bool,
    pub stderr: String,
}

/// How much of stderr is kept for an error message.
const STDERR_KEPT: u64 = 16 << 10;

/// `git -C dir args…` like [`run`], for reads whose size and time the
/// caller cannot know beforehand (a worktree's diff): stdout is read up to
/// `limit` bytes, after which git is stopped, and a git still running after
/// `timeout` is killed and reported as [`WorktreeError::Timeout`].
pub fn bounded<S: AsRef<OsStr>>(
    dir: &Path,
    args: &[S],
    limit: usize,
    timeout: Duration,
) -> Result<Bounded> {
    let mut child = command(dir, args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(WorktreeError::Spawn)?;
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        // Both were asked for as pipes, so this does not happen; never leave git running.
        let _ = child.kill();
        let _ = child.wait();
        return Err(WorktreeError::Spawn(std::io::Error::other(
            "git's output pipes were not opened",
        )));
    };
    std::thread::scope(|scope| {
        let out = scope.spawn(move || {
            let mut kept = Vec::new();
            // One byte past the limit says there was more; dropping the
            // pipe then ends git with SIGPIPE instead of letting it write on.
            stdout
                .take(limit as u64 + 1)
                .read_to_end(&mut kept)
                .map(|_| kept)
        });
        let err = scope.spawn(move || {
            let mut kept = Vec::new();
            let mut stderr = stderr;
            let _ = (&mut stderr).take(STDERR_KEPT).read_to_end(&mut kept);
            // The rest is drained so git never blocks on a full stderr pipe.
            let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            String::from_utf8_lossy(&kept).trim().to_owned()
        });
        let status = wait_until(&mut child, Instant::now() + timeout);
        let stdout = out.join().unwrap_or_else(|_| Ok(Vec::new()));
        let stderr = err.join().unwrap_or_default();
        let status = status
            .ok_or_else(|| WorktreeError::Timeout {
                args: joined(args),
                seconds: timeout.as_secs(),
            })?
            .map_err(WorktreeError::Spawn)?;
        let mut stdout = stdout.map_err(WorktreeError::Spawn)?;
        let truncated = stdout.len() > limit;
        stdout.truncate(limit);
        Ok(Bounded {
            status,
            stdout,
            truncated,
            stderr,
        })
    })
}

/// The child's exit, or `None` once `deadline` passed (it is killed then).
fn wait_until(child: &mut Child, deadline: Instant) -> Option<std::io::Result<ExitStatus>> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(Ok(status)),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Some(Err(e)),
        }
    }
}

fn joined<S: AsRef<OsStr>>(args: &[S]) -> String {
    args.iter()
        .map(|a| a.as_ref().to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Like [`run`], but a non-zero exit is a [`WorktreeError::Git`]; returns stdout.
pub fn checked<I, S>(dir: &Path, args: I) -> Result<String>
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
        args: joined(args),
        status: output.status.to_string(),
        stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
    }
}

/// A [`bounded`] run that exited as git does on failure.
pub(crate) fn bounded_failure<S: AsRef<OsStr>>(args: &[S], run: &Bounded) -> WorktreeError {
    WorktreeError::Git {
        args: joined(args),
        status: run.status.to_string(),
        stderr: run.stderr.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_git_past_its_time_is_stopped_and_reported() {
        let dir = std::env::temp_dir();
        // A git that is still running at its deadline whatever the machine's load: an alias
        // that sleeps (a quick command may already have exited when the deadline is checked).
        let slow = ["-c", "alias.slow=!sleep 1", "slow"];
        let error = bounded(&dir, &slow, 1024, Duration::from_millis(50))
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("`git -c alias.slow=!sleep 1 slow` took longer than 0 s and was stopped.")
        );
        let run = bounded(&dir, &["version"], 3, Duration::from_secs(20))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((run.stdout.as_slice(), run.truncated), (&b"git"[..], true));
    }
}
