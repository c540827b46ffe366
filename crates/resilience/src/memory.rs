//! Memory in use, as a percentage, for the memory guard that holds burst
//! starts while the machine (or the container) is short of memory.
//!
//! Inside a cgroup v2 with a memory limit (a container, a systemd unit with
//! `MemoryMax=`), what counts is the limit, not the host's memory: the
//! kernel kills inside the cgroup when its limit is reached however much the
//! host has free. `/proc/self/cgroup` names the cgroup (`0::/system.slice/
//! switchboard.service`); its `memory.max` (`max` when unlimited) and
//! `memory.current` under `/sys/fs/cgroup` give the reading. A limit may sit
//! on an enclosing cgroup rather than our own, so each one up to the root is
//! read, and the fullest counts. Without a limit, `/proc/meminfo`:
//! `(MemTotal - MemAvailable) / MemTotal`.
//!
//! The files are read through [`MemorySource`], so tests (and the guard's
//! tests elsewhere) can hand in any machine's contents.

use std::path::{Path, PathBuf};

/// Reads a file's text; [`ProcFs`] reads the real ones.
pub trait MemorySource {
    fn read(&self, path: &Path) -> std::io::Result<String>;
}

/// The running machine's `/proc` and `/sys/fs/cgroup`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcFs;

impl MemorySource for ProcFs {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
}

const CGROUP_ROOT: &str = "/sys/fs/cgroup";

/// Memory in use, 0 to 100 (a cgroup briefly over its limit can read a little
/// more), or `None` when nothing readable says.
pub fn used_percent(source: &dyn MemorySource) -> Option<f64> {
    cgroup_percent(source).or_else(|| meminfo_percent(source))
}

/// The fullest limited cgroup from ours up to the root, if any has a limit.
fn cgroup_percent(source: &dyn MemorySource) -> Option<f64> {
    let membership = source.read(Path::new("/proc/self/cgroup")).ok()?;
    // cgroup v2 is the single line with hierarchy 0 and no controllers.
    let path = membership
        .lines()
        .find_map(|line| line.strip_prefix("0::"))?
        .trim();
    let mut dir = PathBuf::from(CGROUP_ROOT);
    let mut dirs = vec![dir.clone()];
    // A cgroup outside our namespace shows as `/../..`; those parts cannot be
    // reached under our /sys/fs/cgroup, so they are left out rather than
    // allowed to climb out of it.
    for part in path
        .split('/')
        .filter(|part| !part.is_empty() && *part != "..")
    {
        dir.push(part);
        dirs.push(dir.clone());
    }
    dirs.iter()
        .filter_map(|dir| {
            let max = source.read(&dir.join("memory.max")).ok()?;
            let max: u64 = max.trim().parse().ok()?; // `max`: no limit here
            let current: u64 = source
                .read(&dir.join("memory.current"))
                .ok()?
                .trim()
                .parse()
                .ok()?;
            (max > 0).then(|| current as f64 / max as f64 * 100.0)
        })
        .reduce(f64::max)
}

fn meminfo_percent(source: &dyn MemorySource) -> Option<f64> {
    let meminfo = source.read(Path::new("/proc/meminfo")).ok()?;
    let field = |name: &str| -> Option<u64> {
        meminfo.lines().find_map(|line| {
            let value = line.strip_prefix(name)?.strip_prefix(':')?;
            value.split_whitespace().next()?.parse().ok()
        })
    };
    let total = field("MemTotal").filter(|total| *total > 0)?;
    // Kernels before 3.14 have no MemAvailable; free plus page cache is the
    // estimate they leave.
    let available = field("MemAvailable").or_else(|| {
        Some(field("MemFree")? + field("Buffers").unwrap_or(0) + field("Cached").unwrap_or(0))
    })?;
    Some(total.saturating_sub(available) as f64 / total as f64 * 100.0)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Files by path; any other path cannot be read.
    #[derive(Default)]
    struct Fake(HashMap<PathBuf, String>);

    impl Fake {
        fn with(mut self, path: &str, text: &str) -> Fake {
            self.0.insert(PathBuf::from(path), text.to_owned());
            self
        }
    }

    impl MemorySource for Fake {
        fn read(&self, path: &Path) -> std::io::Result<String> {
            self.0
                .get(path)
                .cloned()
                .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
        }
    }

    const MEMINFO: &str = "MemTotal:       16318480 kB
MemFree:         1290112 kB
MemAvailable:    4079620 kB
Buffers:          412300 kB
Cached:          2874332 kB
SwapCached:            0 kB
Active:          9120416 kB
";

    const SERVICE: &str = "0::/system.slice/switchboard.service\n";

    fn close(actual: Option<f64>, expected: f64) {
        let actual = actual.expect("a reading");
        assert!((actual - expected).abs() < 0.01, "{actual} != {expected}");
    }

    #[test]
    fn a_limited_cgroup_counts_against_its_limit() {
        let source = Fake::default()
            .with("/proc/self/cgroup", SERVICE)
            .with("/proc/meminfo", MEMINFO)
            .with(
                "/sys/fs/cgroup/system.slice/switchboard.service/memory.max",
                "4294967296\n",
            )
            .with(
                "/sys/fs/cgroup/system.slice/switchboard.service/memory.current",
                "3758096384\n",
            );
        close(used_percent(&source), 87.5);
    }

    #[test]
    fn a_limit_on_an_enclosing_cgroup_counts() {
        let source = Fake::default()
            .with("/proc/self/cgroup", SERVICE)
            .with(
                "/sys/fs/cgroup/system.slice/switchboard.service/memory.max",
                "max\n",
            )
            .with(
                "/sys/fs/cgroup/system.slice/switchboard.service/memory.current",
                "1073741824\n",
            )
            .with("/sys/fs/cgroup/system.slice/memory.max", "8589934592\n")
            .with("/sys/fs/cgroup/system.slice/memory.current", "2147483648\n");
        close(used_percent(&source), 25.0);
    }

    #[test]
    fn an_unlimited_cgroup_falls_back_to_meminfo() {
        let source = Fake::default()
            .with("/proc/self/cgroup", SERVICE)
            .with("/proc/meminfo", MEMINFO)
            .with(
                "/sys/fs/cgroup/system.slice/switchboard.service/memory.max",
                "max\n",
            )
            .with(
                "/sys/fs/cgroup/system.slice/switchboard.service/memory.current",
                "1073741824\n",
            );
        // (16318480 - 4079620) / 16318480
        close(used_percent(&source), 75.0);
    }

    #[test]
    fn a_container_root_cgroup_with_a_limit() {
        let source = Fake::default()
            .with("/proc/self/cgroup", "0::/\n")
            .with("/sys/fs/cgroup/memory.max", "2147483648\n")
            .with("/sys/fs/cgroup/memory.current", "536870912\n");
        close(used_percent(&source), 25.0);
    }

    #[test]
    fn an_old_kernel_without_mem_available_estimates_it() {
        let meminfo = "MemTotal:       8000000 kB\nMemFree:        1000000 kB\nBuffers:         500000 kB\nCached:         2500000 kB\n";
        let source = Fake::default().with("/proc/meminfo", meminfo);
        close(used_percent(&source), 50.0);
    }

    #[test]
    fn nothing_readable_gives_no_reading() {
        assert_eq!(used_percent(&Fake::default()), None);
        let garbled = Fake::default()
            .with("/proc/self/cgroup", "12:cpu:/\n")
            .with("/proc/meminfo", "MemTotal: lots\n");
        assert_eq!(used_percent(&garbled), None);
    }
}
