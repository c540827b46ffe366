//! The parent folder of this server's session trees, and each tree: made,
//! joined by an engine before its `exec`, limited, read and killed whole.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::limits::{
    CPU_PERIOD_US, ENGINES_SHARES_V1, ENGINES_WEIGHT_V2, LOW_IO_WEIGHT, Limits, MAX_PROCESSES,
    TREE_SHARES_V1, TREE_WEIGHT_V2,
};
use crate::mode::{self, Layout};
use crate::usage::{self, Usage};

/// What confines session trees here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[ts(rename = "ResourceMode")]
#[schema(as = ResourceMode)]
pub enum Mode {
    #[serde(rename = "cgroup-v2")]
    CgroupV2,
    #[serde(rename = "cgroup-v1")]
    CgroupV1,
    /// No writable cgroup: nice, an idle I/O class and `RLIMIT_NPROC`.
    #[serde(rename = "nice")]
    Nice,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::CgroupV2 => "cgroup-v2",
            Mode::CgroupV1 => "cgroup-v1",
            Mode::Nice => "nice",
        }
    }
}

/// The niceness engines run at where no cgroup can weigh them.
const FALLBACK_NICE: libc::c_int = 10;

/// This server's session trees.
#[derive(Debug)]
pub struct Trees {
    mode: Mode,
    /// Why this mode: what was found, or why a cgroup could not be used.
    why: String,
    /// The parent folder in each hierarchy, by controller (`unified` for
    /// v2).
    parents: Vec<(String, PathBuf)>,
    cpus: u32,
    limits: std::sync::Mutex<Limits>,
    /// The session whose tree outweighs the others (`boost`).
    boosted: std::sync::Mutex<Option<String>>,
}

/// Joins the calling process to a session's tree: for `pre_exec`, where it
/// makes only system calls on what was opened before the fork.
pub struct Hook {
    procs: Vec<OwnedFd>,
    nice: Option<libc::c_int>,
    idle_io: bool,
    nproc: Option<u64>,
}

impl Hook {
    /// Runs in the child between fork and exec. A failure leaves the
    /// engine outside the tree, never unstarted.
    pub fn join(&self) -> io::Result<()> {
        for fd in &self.procs {
            // SAFETY: writes two bytes from a static buffer to an open fd.
            unsafe { libc::write(fd.as_raw_fd(), b"0\n".as_ptr().cast(), 2) };
        }
        if let Some(nice) = self.nice {
            // SAFETY: one system call on integers.
            unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, nice) };
        }
        if self.idle_io {
            // IOPRIO_WHO_PROCESS, this process, IOPRIO_CLASS_IDLE << 13.
            // SAFETY: one system call on integers.
            unsafe { libc::syscall(libc::SYS_ioprio_set, 1, 0, 3 << 13) };
        }
        if let Some(n) = self.nproc {
            let limit = libc::rlimit {
                rlim_cur: n,
                rlim_max: n,
            };
            // SAFETY: setrlimit reads the struct on the stack.
            unsafe { libc::setrlimit(libc::RLIMIT_NPROC, &limit) };
        }
        Ok(())
    }
}

impl Trees {
    /// Finds this machine's mechanism and makes (or adopts) the parent
    /// folder named for `key` (one per data directory, so a restarted
    /// server finds its own).
    pub fn open(key: &str) -> Trees {
        let read = |p: &str| fs::read_to_string(p).unwrap_or_default();
        let layout = mode::layout(&read("/proc/self/cgroup"), &read("/proc/self/mountinfo"));
        Trees::open_in(&layout, key)
    }

    /// [`Trees::open`] for the data directory at `data_dir`: its key is
    /// the directory's own, so every server on it finds the same parent.
    pub fn for_data_dir(data_dir: &Path) -> Trees {
        use sha2::Digest;
        let place = fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_owned());
        let key = hex::encode(sha2::Sha256::digest(place.as_os_str().as_encoded_bytes()));
        Trees::open(&key[..12])
    }

    /// The mode a server would find, and why, without making or moving
    /// anything (for `doctor`, beside a running server or none).
    pub fn probe() -> (Mode, String) {
        let read = |p: &str| fs::read_to_string(p).unwrap_or_default();
        let layout = mode::layout(&read("/proc/self/cgroup"), &read("/proc/self/mountinfo"));
        let writable = |p: &Path| {
            std::ffi::CString::new(p.as_os_str().as_encoded_bytes())
                // SAFETY: access reads a NUL-terminated path.
                .is_ok_and(|c| unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0)
        };
        if let Some(own) = &layout.unified {
            let offered = read(&own.join("cgroup.controllers").display().to_string());
            if ["cpu", "memory", "pids"]
                .iter()
                .all(|c| offered.split_whitespace().any(|o| o == *c))
                && writable(own)
                && writable(&own.join("cgroup.subtree_control"))
            {
                return (
                    Mode::CgroupV2,
                    format!("a delegated cgroup v2 subtree at {}", own.display()),
                );
            }
        }
        let needed = ["cpu", "memory", "pids"];
        match needed
            .iter()
            .find(|c| !layout.v1.get(**c).is_some_and(|p| writable(p)))
        {
            None => (Mode::CgroupV1, "the cgroup v1 hierarchies".to_owned()),
            Some(_) if layout.v1.is_empty() && layout.unified.is_some() => (
                Mode::Nice,
                "the cgroup v2 subtree here is not delegated to this user".to_owned(),
            ),
            Some(missing) => (
                Mode::Nice,
                format!("the cgroup v1 `{missing}` hierarchy is missing or not writable"),
            ),
        }
    }

    pub fn open_in(layout: &Layout, key: &str) -> Trees {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
        let name = format!("switchboard-{key}");
        let mut why = Vec::new();
        if let Some(own) = &layout.unified {
            match open_v2(own, &name) {
                Ok(parent) => {
                    return Trees::with(
                        Mode::CgroupV2,
                        format!("a delegated cgroup v2 subtree at {}", own.display()),
                        vec![("unified".to_owned(), parent)],
                        cpus,
                    );
                }
                Err(e) => why.push(format!("cgroup v2 at {}: {e}", own.display())),
            }
        }
        if !layout.v1.is_empty() {
            match open_v1(layout, &name) {
                Ok(parents) => {
                    let found = parents
                        .iter()
                        .map(|(c, _)| c.as_str())
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Trees::with(
                        Mode::CgroupV1,
                        format!("the cgroup v1 hierarchies ({found})"),
                        parents,
                        cpus,
                    );
                }
                Err(e) => why.push(format!("cgroup v1: {e}")),
            }
        }
        if why.is_empty() {
            why.push("this kernel mounts no cgroup hierarchy".to_owned());
        }
        Trees::with(Mode::Nice, why.join("; "), Vec::new(), cpus)
    }

    /// Nothing is written but the folders: the caller applies its limits,
    /// so a look from `doctor` beside a running server changes none.
    fn with(mode: Mode, why: String, parents: Vec<(String, PathBuf)>, cpus: u32) -> Trees {
        Trees {
            mode,
            why,
            parents,
            cpus,
            limits: std::sync::Mutex::new(Limits::default()),
            boosted: std::sync::Mutex::new(None),
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn why(&self) -> &str {
        &self.why
    }

    /// Whether a server in `mode` would have `controller` (`cpu`, `memory`,
    /// `pids`, `io`, `cpuset`), as this process sees the hierarchies.
    pub fn offers(mode: Mode, controller: &str) -> bool {
        let read = |p: &str| fs::read_to_string(p).unwrap_or_default();
        let layout = mode::layout(&read("/proc/self/cgroup"), &read("/proc/self/mountinfo"));
        match mode {
            Mode::Nice => false,
            Mode::CgroupV1 => layout.v1.contains_key(if controller == "io" {
                "blkio"
            } else {
                controller
            }),
            Mode::CgroupV2 => layout.unified.is_some_and(|own| {
                read(&own.join("cgroup.controllers").display().to_string())
                    .split_whitespace()
                    .any(|c| c == controller)
            }),
        }
    }

    fn parent(&self, controller: &str) -> Option<&Path> {
        self.parents
            .iter()
            .find(|(c, _)| c == controller)
            .map(|(_, p)| p.as_path())
    }

    /// The folders of session `id`'s tree, one per hierarchy.
    fn folders(&self, id: &str) -> Vec<(String, PathBuf)> {
        self.parents
            .iter()
            .map(|(c, p)| (c.clone(), p.join(id)))
            .collect()
    }

    /// Makes session `id`'s tree (kept across its turns, so what it used
    /// adds up) with the limits in force, and the hook its engine joins it
    /// with.
    pub fn prepare(&self, id: &str) -> Hook {
        let limits = self.limits();
        let fallback = self.mode == Mode::Nice;
        let mut hook = Hook {
            procs: Vec::new(),
            nice: fallback.then_some(FALLBACK_NICE),
            idle_io: limits.low_io,
            nproc: (fallback && limits.max_processes).then_some(u64::from(MAX_PROCESSES)),
        };
        if !valid_id(id) {
            return hook;
        }
        if self.parents.iter().any(|(_, parent)| !parent.exists()) {
            // Swept by another server while this one ran nothing.
            self.apply(limits);
        }
        for (controller, folder) in self.folders(id) {
            if let Err(e) = fs::create_dir_all(&folder) {
                tracing::warn!(
                    session = id,
                    "the session's cgroup {} could not be made: {e}",
                    folder.display()
                );
                continue;
            }
            if controller == "cpuset" {
                inherit_cpuset(&folder);
            }
            match fs::OpenOptions::new()
                .write(true)
                .open(folder.join("cgroup.procs"))
            {
                Ok(file) => hook.procs.push(file.into()),
                Err(e) => tracing::warn!(session = id, "{}: {e}", folder.display()),
            }
        }
        self.apply_session(id, &limits);
        hook
    }

    /// The pids in session `id`'s tree.
    pub fn pids(&self, id: &str) -> Vec<i32> {
        let Some((_, folder)) = self.folders(id).into_iter().next() else {
            return Vec::new();
        };
        fs::read_to_string(folder.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Kills every process in session `id`'s tree, however it forked, and
    /// waits (a little) for the tree to empty. Blocking.
    pub fn kill(&self, id: &str) {
        if !valid_id(id) || self.mode == Mode::Nice {
            return;
        }
        if let Some(parent) = self.parent("unified")
            && fs::write(parent.join(id).join("cgroup.kill"), "1").is_ok()
        {
            self.wait_empty(id);
            return;
        }
        for _ in 0..100 {
            let pids = self.pids(id);
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                if pid > 1 {
                    // SAFETY: kill only reads its two integer arguments.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn wait_empty(&self, id: &str) {
        for _ in 0..100 {
            if self.pids(id).is_empty() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Removes session `id`'s tree once nothing runs in it (its use is
    /// gone with it). Blocking.
    pub fn remove(&self, id: &str) {
        if !valid_id(id) {
            return;
        }
        self.kill(id);
        for (_, folder) in self.folders(id) {
            let _ = fs::remove_dir(&folder);
        }
    }

    /// The trees a server before this one left (it was killed): their
    /// processes are killed and the folders removed, unless `keep` names
    /// the session. Returns the sessions removed.
    pub fn sweep(&self, keep: &dyn Fn(&str) -> bool) -> Vec<String> {
        let Some((_, parent)) = self.parents.first() else {
            return Vec::new();
        };
        let mut removed = Vec::new();
        for entry in fs::read_dir(parent).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() && valid_id(&name) && !keep(&name) {
                self.remove(&name);
                removed.push(name);
            }
        }
        removed
    }

    /// The server is stopping: the trees with nothing left in them go, and
    /// the parent with them when it is empty, so stopped servers leave no
    /// folders behind. Blocking.
    pub fn close(&self) {
        for (_, parent) in &self.parents {
            for entry in fs::read_dir(parent).into_iter().flatten().flatten() {
                if entry.path().is_dir() {
                    let _ = fs::remove_dir(entry.path());
                }
            }
            let _ = fs::remove_dir(parent);
        }
    }

    /// What session `id`'s tree used; `None` when it has none.
    pub fn usage(&self, id: &str) -> Option<Usage> {
        if !valid_id(id) {
            return None;
        }
        let read = |controller: &str, file: &str| {
            self.parent(controller)
                .and_then(|p| fs::read_to_string(p.join(id).join(file)).ok())
        };
        match self.mode {
            Mode::Nice => None,
            Mode::CgroupV1 => {
                let cpu_ns = read("cpuacct", "cpuacct.usage").and_then(|t| usage::number(&t));
                let peak =
                    read("memory", "memory.max_usage_in_bytes").and_then(|t| usage::number(&t));
                let processes = read("pids", "pids.current").and_then(|t| usage::number(&t));
                let (read_bytes, written_bytes) =
                    read("blkio", "blkio.throttle.io_service_bytes_recursive")
                        .map_or((0, 0), |t| usage::v1_io(&t));
                (cpu_ns.is_some() || processes.is_some()).then(|| Usage {
                    cpu_seconds: cpu_ns.unwrap_or(0) as f64 / 1e9,
                    peak_memory_mb: peak.unwrap_or(0) >> 20,
                    processes: processes.unwrap_or(0) as u32,
                    read_bytes,
                    written_bytes,
                })
            }
            Mode::CgroupV2 => {
                let stat = read("unified", "cpu.stat")?;
                let peak = read("unified", "memory.peak")
                    .or_else(|| read("unified", "memory.current"))
                    .and_then(|t| usage::number(&t));
                let processes = read("unified", "pids.current").and_then(|t| usage::number(&t));
                let (read_bytes, written_bytes) =
                    read("unified", "io.stat").map_or((0, 0), |t| usage::v2_io(&t));
                Some(Usage {
                    cpu_seconds: usage::keyed(&stat, "usage_usec").unwrap_or(0) as f64 / 1e6,
                    peak_memory_mb: peak.unwrap_or(0) >> 20,
                    processes: processes.unwrap_or(0) as u32,
                    read_bytes,
                    written_bytes,
                })
            }
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits.lock().map(|l| *l).unwrap_or_default()
    }

    /// Puts `limits` in force on the parent and on every running tree at
    /// once; nothing restarts. Blocking.
    pub fn apply(&self, limits: Limits) {
        if let Ok(mut slot) = self.limits.lock() {
            *slot = limits;
        }
        for (controller, parent) in &self.parents {
            if !parent.exists() && fs::create_dir_all(parent).is_ok() && controller == "cpuset" {
                inherit_cpuset(parent);
            }
        }
        let write = |controller: &str, file: &str, value: &str| {
            if let Some(parent) = self.parent(controller) {
                let path = parent.join(file);
                if path.exists()
                    && let Err(e) = fs::write(&path, value)
                {
                    tracing::warn!("{} = {value}: {e}", path.display());
                }
            }
        };
        let quota = limits.quota_us(self.cpus);
        match self.mode {
            Mode::Nice => {}
            Mode::CgroupV1 => {
                write("cpu", "cpu.shares", &ENGINES_SHARES_V1.to_string());
                write("cpu", "cpu.cfs_period_us", &CPU_PERIOD_US.to_string());
                write(
                    "cpu",
                    "cpu.cfs_quota_us",
                    &quota.map_or_else(|| "-1".to_owned(), |q| q.to_string()),
                );
                let io_weight = if limits.low_io { LOW_IO_WEIGHT } else { 500 };
                write("blkio", "blkio.bfq.weight", &io_weight.to_string());
                write("blkio", "blkio.weight", &io_weight.to_string());
                // Reclaimed first under memory pressure, or as any other group.
                write(
                    "memory",
                    "memory.soft_limit_in_bytes",
                    if limits.low_io { "0" } else { "-1" },
                );
                if let Some(parent) = self.parent("cpuset") {
                    let cpus = limits
                        .cpus(self.cpus)
                        .unwrap_or_else(|| inherited(parent, "cpuset.cpus"));
                    let _ = fs::write(parent.join("cpuset.cpus"), &cpus);
                    for entry in fs::read_dir(parent).into_iter().flatten().flatten() {
                        if entry.path().is_dir() {
                            let _ = fs::write(entry.path().join("cpuset.cpus"), &cpus);
                        }
                    }
                }
            }
            Mode::CgroupV2 => {
                write("unified", "cpu.weight", &ENGINES_WEIGHT_V2.to_string());
                write(
                    "unified",
                    "cpu.max",
                    &quota.map_or_else(
                        || format!("max {CPU_PERIOD_US}"),
                        |q| format!("{q} {CPU_PERIOD_US}"),
                    ),
                );
                write(
                    "unified",
                    "io.weight",
                    &format!("default {}", if limits.low_io { 1 } else { 100 }),
                );
                write(
                    "unified",
                    "cpuset.cpus",
                    &limits.cpus(self.cpus).unwrap_or_default(),
                );
            }
        }
        for id in self.tree_ids() {
            self.apply_session(&id, &limits);
        }
    }

    /// The sessions with a tree now.
    fn tree_ids(&self) -> Vec<String> {
        self.parents
            .first()
            .map(|(_, p)| p)
            .into_iter()
            .flat_map(|p| fs::read_dir(p).into_iter().flatten().flatten())
            .filter(|entry| entry.path().is_dir())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| valid_id(name))
            .collect()
    }

    /// `mergePriorityBoostEnabled`: session `id`'s tree gets four times a
    /// tree's usual CPU weight and every other tree a quarter of it, until
    /// `None` makes them even again. Trees made meanwhile get theirs as
    /// they are made. Blocking; nothing in the `nice` mode.
    pub fn boost(&self, id: Option<&str>) {
        if let Ok(mut slot) = self.boosted.lock() {
            *slot = id.map(str::to_owned);
        }
        for tree in self.tree_ids() {
            self.write_weight(&tree);
        }
    }

    fn write_weight(&self, id: &str) {
        let boosted = self.boosted.lock().ok().and_then(|b| b.clone());
        let (controller, file, even) = match self.mode {
            Mode::CgroupV1 => ("cpu", "cpu.shares", TREE_SHARES_V1),
            Mode::CgroupV2 => ("unified", "cpu.weight", TREE_WEIGHT_V2),
            Mode::Nice => return,
        };
        let weight = match boosted {
            None => even,
            Some(b) if b == id => even * 4,
            Some(_) => even / 4,
        };
        if let Some(parent) = self.parent(controller) {
            let _ = fs::write(parent.join(id).join(file), weight.to_string());
        }
    }

    fn apply_session(&self, id: &str, limits: &Limits) {
        let max = if limits.max_processes {
            MAX_PROCESSES.to_string()
        } else {
            "max".to_owned()
        };
        let v2 = self.mode == Mode::CgroupV2;
        if let Some(parent) = self.parent(if v2 { "unified" } else { "pids" }) {
            let _ = fs::write(parent.join(id).join("pids.max"), &max);
        }
        self.write_weight(id);
        let busy = !self.pids(id).is_empty();
        let Some(tree) = self
            .parent(if v2 { "unified" } else { "memory" })
            .map(|p| p.join(id))
        else {
            return;
        };
        let (now_file, limit_file, unlimited) = if v2 {
            ("memory.current", "memory.high", "max")
        } else {
            ("memory.usage_in_bytes", "memory.soft_limit_in_bytes", "-1")
        };
        let limit = match fs::read_to_string(tree.join(now_file)) {
            Ok(now) if limits.page_busy && busy => now.trim().to_owned(),
            _ => unlimited.to_owned(),
        };
        let _ = fs::write(tree.join(limit_file), limit);
    }
}

/// A session id as a folder name: letters and digits only.
fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn inherited(folder: &Path, file: &str) -> String {
    folder
        .parent()
        .and_then(|p| fs::read_to_string(p.join(file)).ok())
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// A v1 cpuset folder starts empty and takes no task until given CPUs and
/// memory nodes.
fn inherit_cpuset(folder: &Path) {
    for file in ["cpuset.cpus", "cpuset.mems"] {
        let value = inherited(folder, file);
        let _ = fs::write(folder.join(file), value);
    }
}

fn open_v1(layout: &Layout, name: &str) -> Result<Vec<(String, PathBuf)>, String> {
    let mut parents = Vec::new();
    for controller in mode::V1_CONTROLLERS {
        let Some(own) = layout.v1.get(controller) else {
            if ["cpu", "memory", "pids"].contains(&controller) {
                return Err(format!("no `{controller}` hierarchy is mounted"));
            }
            continue;
        };
        let parent = own.join(name);
        match fs::create_dir_all(&parent) {
            Ok(()) => {
                if controller == "cpuset" {
                    inherit_cpuset(&parent);
                }
                parents.push((controller.to_owned(), parent));
            }
            Err(e) if ["cpu", "memory", "pids"].contains(&controller) => {
                return Err(format!("{} cannot be made: {e}", parent.display()));
            }
            Err(_) => {}
        }
    }
    Ok(parents)
}

/// A delegated v2 subtree: the server moves into a leaf of its own
/// (`server`), since a cgroup with processes may not hand controllers to
/// its children, and the engines' parent sits beside it.
fn open_v2(own: &Path, name: &str) -> Result<PathBuf, String> {
    let controllers =
        fs::read_to_string(own.join("cgroup.controllers")).map_err(|e| e.to_string())?;
    let offered: Vec<&str> = controllers.split_whitespace().collect();
    for needed in ["cpu", "memory", "pids"] {
        if !offered.contains(&needed) {
            return Err(format!("the `{needed}` controller is not delegated here"));
        }
    }
    let leaf = own.join("server");
    fs::create_dir_all(&leaf).map_err(|e| format!("{} cannot be made: {e}", leaf.display()))?;
    fs::write(leaf.join("cgroup.procs"), std::process::id().to_string())
        .map_err(|e| format!("the server cannot move into {}: {e}", leaf.display()))?;
    let enable: String = offered
        .iter()
        .filter(|c| ["cpu", "memory", "pids", "io", "cpuset"].contains(c))
        .map(|c| format!("+{c} "))
        .collect();
    fs::write(own.join("cgroup.subtree_control"), enable.trim())
        .map_err(|e| format!("the controllers cannot be handed down: {e}"))?;
    let parent = own.join(name);
    fs::create_dir_all(&parent).map_err(|e| format!("{} cannot be made: {e}", parent.display()))?;
    let _ = fs::write(parent.join("cgroup.subtree_control"), enable.trim());
    Ok(parent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_writable_falls_back_to_nice_and_says_why() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let layout = Layout {
            unified: None,
            unified_controllers: Vec::new(),
            v1: [("cpu".to_owned(), dir.path().join("missing/readonly"))].into(),
        };
        let trees = Trees::open_in(&layout, "k");
        assert_eq!(trees.mode(), Mode::Nice);
        assert!(trees.why().contains("memory"), "{}", trees.why());
        assert!(trees.usage("abc").is_none());
        assert!(trees.prepare("abc").nice.is_some());
    }

    #[test]
    fn session_ids_never_leave_the_parent() {
        assert!(valid_id("01a2124af9147276ba97aa7e49b499f2"));
        assert!(!valid_id("../x"));
        assert!(!valid_id(""));
    }
}
