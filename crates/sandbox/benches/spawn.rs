//! What the sandbox adds to starting an engine: `/bin/true` spawned and
//! waited for plainly, and with the policy prepared (the carve-out walk and
//! the ruleset, as before every turn) and applied. Printed, not asserted.

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::{Duration, Instant};

use sandbox::{Network, Policy};

const RUNS: usize = 200;

fn percentiles(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[times.len() * 95 / 100])
}

fn main() {
    if sandbox::kernel_abi() < sandbox::MIN_ABI {
        println!("sandbox spawn: skipped, this kernel has no Landlock");
        return;
    }
    let data = tempfile::tempdir().expect("a temporary data directory");
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let mut hidden = vec![data.path().to_owned()];
    hidden.extend(sandbox::sensitive_paths(home.as_deref()));
    let policy = Policy {
        hidden,
        exceptions: vec![],
        network: Network::Allowed,
    };
    let plain: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let status = Command::new("/bin/true").status().expect("spawn /bin/true");
            assert!(status.success());
            start.elapsed()
        })
        .collect();
    let sandboxed: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let hook = policy.prepare().expect("prepare").into_pre_exec();
            let mut command = Command::new("/bin/true");
            // SAFETY: the hook only makes system calls (see `into_pre_exec`).
            unsafe { command.pre_exec(hook) };
            let status = command.status().expect("spawn /bin/true sandboxed");
            assert!(status.success());
            start.elapsed()
        })
        .collect();
    let (p50, p95) = percentiles(plain);
    let (s50, s95) = percentiles(sandboxed);
    println!("spawn /bin/true plain:     p50 {p50:?}  p95 {p95:?}");
    println!("spawn /bin/true sandboxed: p50 {s50:?}  p95 {s95:?} (walk + ruleset + apply)");
    println!(
        "sandbox adds: p50 {:?}  p95 {:?} (target: under 5 ms)",
        s50.saturating_sub(p50),
        s95.saturating_sub(p95)
    );
}
