//! What the sandbox adds to starting an engine: `/bin/true` spawned and
//! waited for plainly, and with the policy prepared (as before every turn)
//! and applied, in each mode this machine offers. Printed, not asserted.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use sandbox::{Mode, Network, Policy};

const RUNS: usize = 200;

fn percentiles(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[times.len() * 95 / 100])
}

fn spawn_times(prepare: impl Fn() -> Option<sandbox::Prepared>) -> Vec<Duration> {
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let mut command = Command::new("/bin/true");
            if let Some(prepared) = prepare() {
                let hook = prepared.into_pre_exec(Path::new("/"));
                // SAFETY: the hook only makes system calls (see `into_pre_exec`).
                unsafe { command.pre_exec(hook) };
            }
            let status = command.status().expect("spawn /bin/true");
            assert!(status.success());
            start.elapsed()
        })
        .collect()
}

fn main() {
    let support = sandbox::support();
    println!(
        "sandbox here: mode {}, Landlock ABI {}, user namespaces {:?}",
        support.mode.as_str(),
        support.landlock_abi,
        support.user_namespaces
    );
    let data = tempfile::tempdir().expect("a temporary data directory");
    std::fs::create_dir_all(data.path().join("worktrees/s1")).expect("a worktree");
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let mut hidden = vec![data.path().to_owned()];
    hidden.extend(sandbox::sensitive_paths(home.as_deref()));
    let policy = Policy {
        hidden,
        exceptions: vec![data.path().join("worktrees/s1")],
        network: Network::Allowed,
    };
    let (p50, p95) = percentiles(spawn_times(|| None));
    println!("spawn /bin/true plain:       p50 {p50:?}  p95 {p95:?}");
    let mut modes = vec![];
    if support.mode == Mode::Namespaces {
        modes.push(Mode::Namespaces);
    }
    if support.landlock_abi >= sandbox::MIN_ABI {
        modes.push(Mode::Landlock);
    }
    for mode in modes {
        let times = spawn_times(|| {
            Some(
                policy
                    .prepare_as(mode, support.landlock_abi)
                    .expect("prepare"),
            )
        });
        let (s50, s95) = percentiles(times);
        println!(
            "spawn /bin/true {:<11} p50 {s50:?}  p95 {s95:?}; adds p50 {:?}  p95 {:?} (target: under 5 ms)",
            mode.as_str(),
            s50.saturating_sub(p50),
            s95.saturating_sub(p95)
        );
    }
}
