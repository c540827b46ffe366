//! The runners `DIR/runners.toml` declares, each reached as a session's
//! turn reaches it (`runners::Runners::ensure`: ssh's master connection, the
//! helper installed, a probe) and listed with its state, or why it cannot
//! be used. Without the file, or with a file that declares none, nothing is
//! reached.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use runners::{RunnerInfo, RunnerKind, RunnerState};

/// How long the doctor waits for all its runners together: each connection
/// gives up after ssh's connect timeout, but installing the helper over a
/// slow link may take longer than a check should.
const REACH_WITHIN: Duration = Duration::from_secs(60);

/// Where the doctor's tunnels point when it knows no control port (`serve`'s
/// default): the doctor sends nothing through them, but ssh wants a port.
const FALLBACK_CONTROL_PORT: u16 = 19519;

/// Every runner of `runners.toml` but `local` (the rest of the report is
/// `local`'s), reached now. `control_port` is where their control tunnels
/// lead. It blocks: it makes a runtime of its own, so it must not run on a
/// thread that is already driving one.
pub(crate) fn examine(data_dir: &Path, control_port: Option<u16>) -> Vec<RunnerInfo> {
    let file = runners::config::load(data_dir);
    if file.runners.is_empty() && file.invalid.is_empty() {
        return Vec::new();
    }
    // The server keeps its master connections' sockets in `DIR/runners/`,
    // and connecting ends a master that holds the socket already: the
    // doctor's own go to a folder of its own (mode 0700), with a copy of
    // the file, so that checking never cuts a running server's turns.
    let scratch = tempfile::Builder::new().prefix("sb-doctor").tempdir();
    let copied = scratch.map_err(|e| e.to_string()).and_then(|scratch| {
        let text = std::fs::read(&file.path).map_err(|e| e.to_string())?;
        std::fs::write(runners::config::runners_path(scratch.path()), text)
            .map_err(|e| e.to_string())?;
        Ok(scratch)
    });
    let scratch = match copied {
        Ok(scratch) => scratch,
        Err(error) => return unreached(&file, &error),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return unreached(&file, &format!("the doctor could not start a runtime: {e}")),
    };
    let engines = sessions::engines::probe_list(data_dir);
    let port = control_port
        .filter(|p| *p != 0)
        .unwrap_or(FALLBACK_CONTROL_PORT);
    let names = file.runners.iter().map(|r| r.name.clone()).collect();
    let list = runtime.block_on(reach(scratch.path(), names, port, engines));
    drop(runtime);
    drop(scratch);
    list
}

async fn reach(
    dir: &Path,
    names: Vec<String>,
    control_port: u16,
    engines: Vec<runners::ProbeEngine>,
) -> Vec<RunnerInfo> {
    let runners =
        runners::Runners::new(dir, env!("CARGO_PKG_VERSION"), Arc::new(clock::SystemClock));
    runners.set_control_port(control_port);
    runners.set_engines(engines);
    let mut reaching = tokio::task::JoinSet::new();
    for name in names {
        let runners = runners.clone();
        reaching.spawn(async move {
            let _ = runners.ensure(&name).await;
        });
    }
    let finished = tokio::time::timeout(REACH_WITHIN, reaching.join_all())
        .await
        .is_ok();
    let mut list: Vec<RunnerInfo> = runners
        .list(&Default::default(), runners::LocalFacts::default())
        .into_iter()
        .filter(|r| r.kind != RunnerKind::Local)
        .collect();
    if !finished {
        for runner in &mut list {
            if runner.state == RunnerState::Connecting {
                runner.state = RunnerState::Unreachable;
                runner.reason = Some(format!(
                    "not reached within {} s (the first contact installs the helper there, \
                     which a slow link may take longer for)",
                    REACH_WITHIN.as_secs()
                ));
            }
        }
    }
    runners.shutdown().await;
    list
}

/// The declarations as they stand when none could be tried: the invalid
/// ones with their reasons, the others unreachable for `why`.
fn unreached(file: &runners::RunnersFile, why: &str) -> Vec<RunnerInfo> {
    let info = RunnerInfo::unreached;
    let declared = file.runners.iter().map(|r| RunnerInfo {
        max_sessions: r.max_sessions,
        labels: r.labels.clone(),
        destination: Some(r.destination.clone()),
        ..info(&r.name, RunnerState::Unreachable, why)
    });
    let invalid = file
        .invalid
        .iter()
        .map(|i| info(&i.name, RunnerState::Invalid, &i.reason));
    declared.chain(invalid).collect()
}

/// What deserves a look: a runner that cannot be used, or one that can
/// confine nothing. None stops a session here.
pub(crate) fn warnings(runners: &[RunnerInfo]) -> Vec<String> {
    runners
        .iter()
        .filter_map(|runner| {
            let name = &runner.name;
            let reason = runner.reason.as_deref().unwrap_or("no reason given");
            match runner.state {
                RunnerState::Unreachable => Some(format!(
                    "Runner `{name}` ({}) is unreachable: {reason}. Sessions cannot start \
                     there; they still can here.",
                    runner.destination.as_deref().unwrap_or("?")
                )),
                RunnerState::Invalid => Some(format!(
                    "Runner `{name}` in runners.toml cannot be used: {reason}"
                )),
                RunnerState::Connected if runner.sandbox.as_deref() == Some("unavailable") => {
                    Some(format!(
                        "Runner `{name}` can confine nothing: only engines with \
                         `unsafe_allow_unsandboxed = true` start there."
                    ))
                }
                RunnerState::Connected | RunnerState::Connecting => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_runners_toml_nothing_is_reached() {
        let data = tempfile::tempdir().unwrap();
        assert!(examine(data.path(), None).is_empty());
        std::fs::write(data.path().join("runners.toml"), "# none yet\n").unwrap();
        assert!(examine(data.path(), None).is_empty());
        // Nothing was made in the data directory either.
        assert!(!data.path().join("runners").exists());
    }

    #[test]
    fn invalid_declarations_are_listed_with_their_line_and_column() {
        let data = tempfile::tempdir().unwrap();
        let path = data.path().join("runners.toml");
        std::fs::write(
            &path,
            "[runners.local]\nssh = \"h\"\n\n[runners.typo]\nssh = \"h\"\nmax_sesions = 2\n",
        )
        .unwrap();
        let list = examine(data.path(), Some(19519));
        let names: Vec<&str> = list.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["local", "typo"], "{list:#?}");
        assert!(list.iter().all(|r| r.state == RunnerState::Invalid));
        assert!(list.iter().all(|r| r.kind == RunnerKind::Ssh));
        let typo = &list[1];
        let reason = typo.reason.as_deref().unwrap();
        assert!(reason.contains("line 4, column 1"), "{reason}");
        assert!(reason.contains("max_sesions"), "{reason}");
        let warnings = warnings(&list);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[1]
                .starts_with("Runner `typo` in runners.toml cannot be used: runners.toml line 4"),
            "{warnings:?}"
        );

        // A file that is not TOML at all is one entry named after it.
        std::fs::write(&path, "[runners.devbox\nssh = 1\n").unwrap();
        let list = examine(data.path(), None);
        assert_eq!(list.len(), 1, "{list:#?}");
        assert_eq!(list[0].name, "runners.toml");
        assert_eq!(list[0].state, RunnerState::Invalid);
        assert!(
            list[0].reason.as_deref().unwrap().contains("line 1"),
            "{list:#?}"
        );
        assert!(!data.path().join("runners").exists());
    }

    #[test]
    fn a_file_that_cannot_be_copied_leaves_its_runners_unreached() {
        let file = runners::config::parse(
            Path::new("/d/runners.toml"),
            "[runners.devbox]\nssh = \"a@devbox:22\"\nmax_sessions = 2\n[runners.auto]\nssh = \"h\"\n",
        );
        let list = unreached(&file, "no room");
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].state, RunnerState::Unreachable);
        assert_eq!(list[0].destination.as_deref(), Some("a@devbox:22"));
        assert_eq!(list[0].max_sessions, Some(2));
        assert_eq!(list[0].reason.as_deref(), Some("no room"));
        assert_eq!(list[1].state, RunnerState::Invalid);
        assert!(warnings(&list)[0].contains("(a@devbox:22) is unreachable: no room."));
    }
}
