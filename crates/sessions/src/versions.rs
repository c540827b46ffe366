//! Which version of its engine a session runs: `claude --version` prints
//! `2.1.330 (Claude Code)`, `codex --version` prints `codex-cli 0.169.0`.
//!
//! The version is asked once per engine binary and kept: the cache key is
//! the resolved program (symbolic links followed) with its modification
//! time, and the same for each later word of the command that names a file
//! (`node cli.js`), so an upgraded CLI is read again and nothing else is.
//! The actor looks its engine up beside each turn, never in its way (a
//! detached task: a stat and a map lookup, the probe itself only on a miss,
//! in the session's own sandbox, bounded in time and output) and records a
//! changed version on the session. A version that cannot be read is `None`,
//! never a failed turn; `command` engines are not asked.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tokio::io::AsyncReadExt;
use tokio::sync::OnceCell;

use crate::confine::Confinement;
use crate::engines::{EngineKind, EngineSpec};

/// How long `--version` may take; a CLI that hangs has no version.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);
/// The most of its output read: a version is one short line.
const PROBE_OUTPUT: u64 = 4 << 10;

/// One engine binary as it is on disk now.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key(Vec<(String, Option<(PathBuf, SystemTime)>)>);

/// The versions read so far; a probe in flight is shared by every turn that
/// needs the same binary meanwhile.
#[derive(Default)]
pub(crate) struct Cache {
    versions: Mutex<HashMap<Key, Arc<OnceCell<Option<String>>>>>,
}

/// The version in the first line of a `--version` output: the first of its
/// first three words that starts with a digit and has a dot, made only of
/// what versions are made of (`2.1.330`, `0.169.0`, `1.0.0-beta.2+abc`).
pub(crate) fn parse_version(output: &str) -> Option<String> {
    let line = output.lines().map(str::trim).find(|l| !l.is_empty())?;
    line.split_whitespace()
        .take(3)
        .map(|word| word.trim_start_matches('v'))
        .find(|word| {
            word.len() <= 64
                && word.starts_with(|c: char| c.is_ascii_digit())
                && word.contains('.')
                && word
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
        })
        .map(str::to_owned)
}

/// The version engine `name` reports, read now in the sandbox its sessions
/// get, from `cwd`, and kept nowhere: for a process without a supervisor
/// (`switchboard doctor`). `None` for `command` engines and whenever a
/// turn's read would give none.
pub async fn engine_version(
    data_dir: &Path,
    name: &str,
    spec: &EngineSpec,
    cwd: &str,
) -> Option<String> {
    Cache::default()
        .outside_session(data_dir, name, spec, cwd)
        .await
}

impl Cache {
    /// The version of engine `name`, asked outside any session: its
    /// sandbox hides the data directory and opens no worktree.
    pub(crate) async fn outside_session(
        &self,
        data_dir: &Path,
        name: &str,
        spec: &EngineSpec,
        cwd: &str,
    ) -> Option<String> {
        if spec.kind == EngineKind::Command {
            return None;
        }
        let confinement = Confinement {
            data_dir,
            session_id: "",
            engine: name,
            spec,
            control_url: None,
            locked_down: false,
        };
        self.version(&confinement, cwd).await
    }

    /// The version of the engine `confinement` runs in `cwd`, read with
    /// `--version` in that sandbox unless this binary's is known.
    pub(crate) async fn version(&self, confinement: &Confinement<'_>, cwd: &str) -> Option<String> {
        let command = confinement.spec.program();
        let (words, search_path, dir) = (
            command.clone(),
            confinement.spec.env.get("PATH").cloned(),
            PathBuf::from(cwd),
        );
        let key = tokio::task::spawn_blocking(move || key_of(&words, search_path.as_deref(), &dir))
            .await
            .ok()??;
        let cell = {
            let mut versions = self.versions.lock().unwrap_or_else(|p| p.into_inner());
            Arc::clone(versions.entry(key.clone()).or_default())
        };
        let version = cell
            .get_or_init(|| probe(confinement, &command, cwd))
            .await
            .clone();
        if version.is_none() {
            // A probe that timed out on a busy machine or could not start is
            // tried again by a later turn, not remembered as "no version".
            let mut versions = self.versions.lock().unwrap_or_else(|p| p.into_inner());
            if versions
                .get(&key)
                .is_some_and(|kept| Arc::ptr_eq(kept, &cell))
            {
                versions.remove(&key);
            }
        }
        version
    }
}

/// The binary `command` runs, as it is on disk now; `None` when its program
/// cannot be found (the turn will say so).
fn key_of(command: &[String], search_path: Option<&str>, cwd: &Path) -> Option<Key> {
    let (program, rest) = command.split_first()?;
    let found = if program.contains('/') {
        Some(cwd.join(program))
    } else {
        let path = search_path
            .map(std::ffi::OsString::from)
            .or_else(|| std::env::var_os("PATH"))?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
    }?;
    let stamp = |path: &Path| {
        let real = std::fs::canonicalize(path).ok()?;
        let metadata = std::fs::metadata(&real).ok()?;
        if !metadata.is_file() {
            return None;
        }
        Some((real, metadata.modified().ok()?))
    };
    let mut parts = vec![(program.clone(), Some(stamp(&found)?))];
    parts.extend(
        rest.iter()
            .map(|word| (word.clone(), stamp(&cwd.join(word)))),
    );
    Some(Key(parts))
}

/// Runs `command --version` in the session's sandbox and reads its version.
async fn probe(confinement: &Confinement<'_>, command: &[String], cwd: &str) -> Option<String> {
    let (program, rest) = command.split_first()?;
    let mut probe = tokio::process::Command::new(program);
    probe
        .args(rest)
        .arg("--version")
        .current_dir(cwd)
        .envs(&confinement.spec.env)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(prepared) = confinement.prepare().await.ok()? {
        let hook = prepared.into_pre_exec(Path::new(cwd));
        // SAFETY: as for a turn (see `turn.rs`): the hook only makes system
        // calls, with a ruleset built before the fork.
        unsafe { probe.pre_exec(hook) };
    }
    let mut child = probe.spawn().ok()?;
    let pgid = child.id();
    let mut output = String::new();
    let read = async {
        let stdout = child.stdout.take()?;
        stdout
            .take(PROBE_OUTPUT)
            .read_to_string(&mut output)
            .await
            .ok()?;
        child.wait().await.ok()
    };
    let finished = tokio::time::timeout(PROBE_TIMEOUT, read).await;
    if let Some(pgid) = pgid {
        // Whatever it left behind, or all of it when it hung.
        crate::process::signal_group(pgid, libc::SIGKILL);
    }
    finished.ok()??;
    parse_version(&output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pinned_clis_versions() {
        assert_eq!(
            parse_version("2.1.330 (Claude Code)\n").as_deref(),
            Some("2.1.330")
        );
        assert_eq!(
            parse_version("codex-cli 0.169.0\n").as_deref(),
            Some("0.169.0")
        );
        assert_eq!(
            parse_version("\n  v1.0.0-beta.2+abc extra\nmore").as_deref(),
            Some("1.0.0-beta.2+abc")
        );
    }

    #[test]
    fn what_is_not_a_version_is_none() {
        for output in [
            "",
            "\n\n",
            "error: unexpected argument '--version' found",
            r#"{"type":"system","subtype":"init","claude_code_version":"2.0.14"}"#,
            "usage: tool [options] 1.2.3",
            "12 files",
            "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899",
        ] {
            assert_eq!(parse_version(output), None, "{output}");
        }
    }

    #[test]
    fn the_key_follows_links_and_changes_with_the_binary() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let real = dir.path().join("claude.exe");
        std::fs::write(&real, "#!/bin/sh\n").unwrap_or_else(|e| panic!("{e}"));
        let link = dir.path().join("claude");
        std::os::unix::fs::symlink(&real, &link).unwrap_or_else(|e| panic!("{e}"));
        let search = dir.path().display().to_string();

        let by_name = key_of(&["claude".into()], Some(&search), Path::new("/"));
        let by_path = key_of(&[link.display().to_string()], None, Path::new("/"));
        let (Some(by_name), Some(by_path)) = (by_name, by_path) else {
            panic!("the program was not found");
        };
        assert_eq!(by_name.0[0].1, by_path.0[0].1, "both are the linked file");
        assert_eq!(
            by_name.0[0].1.as_ref().map(|(p, _)| p.clone()),
            std::fs::canonicalize(&real).ok()
        );

        let later = SystemTime::now() + Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(&real)
            .and_then(|f| f.set_modified(later))
            .unwrap_or_else(|e| panic!("{e}"));
        let upgraded = key_of(&["claude".into()], Some(&search), Path::new("/"));
        assert_ne!(
            upgraded.as_ref(),
            Some(&by_name),
            "an upgrade is read again"
        );

        assert_eq!(
            key_of(&["claude".into()], Some("/nonexistent"), Path::new("/")),
            None
        );
        // A script run by an interpreter is keyed by the script too.
        let script = key_of(
            &["/bin/sh".into(), real.display().to_string(), "-x".into()],
            None,
            Path::new("/"),
        );
        let Some(script) = script else {
            panic!("/bin/sh was not found");
        };
        assert!(script.0[1].1.is_some());
        assert_eq!(script.0[2], ("-x".to_owned(), None));
    }
}
