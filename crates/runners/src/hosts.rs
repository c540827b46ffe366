//! The runners in force and their connections: which are reachable, what
//! each host has, placing a session, and running a turn there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use tokio::process::Child;

use crate::channel::Channel;
use crate::config::{self, RunnersFile, SshRunner};
use crate::host::{Host, Link, Ready, SshLink, Status};
use crate::info::{EngineVersion, Memory, RunnerInfo, RunnerKind, RunnerState};
use crate::ssh::SshHost;
use crate::wire::{self, ProbeEngine, ProbeReply, Request};

/// The remote ports the control server must accept as its own `Host`: each
/// runner's reverse tunnel ends on one.
#[derive(Debug, Clone, Default)]
pub struct TunnelPorts(Arc<RwLock<BTreeSet<u16>>>);

impl TunnelPorts {
    pub fn contains(&self, port: u16) -> bool {
        self.0.read().is_ok_and(|ports| ports.contains(&port))
    }

    pub(crate) fn add(&self, port: u16) {
        if let Ok(mut ports) = self.0.write() {
            ports.insert(port);
        }
    }
}

pub(crate) struct Inner {
    pub(crate) data_dir: PathBuf,
    pub(crate) version: String,
    pub(crate) clock: Arc<dyn clock::Clock>,
    pub(crate) control_port: std::sync::atomic::AtomicU16,
    pub(crate) file: RwLock<RunnersFile>,
    pub(crate) hosts: RwLock<BTreeMap<String, Arc<Host>>>,
    pub(crate) engines: RwLock<Vec<ProbeEngine>>,
    pub(crate) tunnel_ports: TunnelPorts,
    exe: tokio::sync::OnceCell<(PathBuf, String)>,
    /// Numbers pool connections, so a late end of an old one never marks
    /// the runner's newer connection gone.
    pub(crate) generation: std::sync::atomic::AtomicU64,
    /// Open tunnels of pool runners, by the runner token that opened them.
    pub(crate) tunnels: Mutex<Vec<(String, tokio::task::AbortHandle)>>,
}

/// The runners of one server. Cheap to clone.
#[derive(Clone)]
pub struct Runners {
    pub(crate) inner: Arc<Inner>,
}

/// What `local` reports, gathered by the caller.
#[derive(Debug, Clone, Default)]
pub struct LocalFacts {
    pub memory: Option<Memory>,
    pub load: Option<f64>,
    pub engines: Vec<EngineVersion>,
    pub sandbox: Option<String>,
}

impl Runners {
    /// Reads `DIR/runners.toml`; nothing is connected until asked.
    pub fn new(data_dir: &Path, version: &str, clock: Arc<dyn clock::Clock>) -> Runners {
        let runners = Runners {
            inner: Arc::new(Inner {
                data_dir: data_dir.to_owned(),
                version: version.to_owned(),
                clock,
                control_port: std::sync::atomic::AtomicU16::new(0),
                file: RwLock::new(RunnersFile::default()),
                hosts: RwLock::new(BTreeMap::new()),
                engines: RwLock::new(Vec::new()),
                tunnel_ports: TunnelPorts::default(),
                exe: tokio::sync::OnceCell::new(),
                generation: std::sync::atomic::AtomicU64::new(0),
                tunnels: Mutex::new(Vec::new()),
            }),
        };
        runners.reload();
        runners
    }

    /// The control server's port, which each runner's tunnel leads to.
    pub fn set_control_port(&self, port: u16) {
        self.inner
            .control_port
            .store(port, std::sync::atomic::Ordering::Relaxed);
    }

    /// The engines whose versions a probe reads on each host.
    pub fn set_engines(&self, engines: Vec<ProbeEngine>) {
        if let Ok(mut slot) = self.inner.engines.write() {
            *slot = engines;
        }
    }

    pub fn tunnel_ports(&self) -> TunnelPorts {
        self.inner.tunnel_ports.clone()
    }

    /// Reads the file again; a host whose declaration did not change keeps
    /// its connection.
    pub fn reload(&self) {
        let file = config::load(&self.inner.data_dir);
        let run_dir = self.inner.data_dir.join("runners");
        let _ = std::fs::create_dir_all(&run_dir);
        if let Ok(mut hosts) = self.inner.hosts.write() {
            // Pool runners are not declared: they stay while connected.
            hosts.retain(|name, host| match host.ssh() {
                Some(link) => file
                    .runner(name)
                    .is_some_and(|r| *r == link.ssh.runner && file.ssh_config == link.ssh.config),
                None => true,
            });
            for runner in &file.runners {
                hosts.entry(runner.name.clone()).or_insert_with(|| {
                    Arc::new(Host {
                        link: Link::Ssh(SshLink {
                            ssh: SshHost {
                                runner: runner.clone(),
                                config: file.ssh_config.clone(),
                                control_path: run_dir.join(format!("{}.sock", runner.name)),
                            },
                            leases: Mutex::new(vec![0]),
                            extra_masters: tokio::sync::Mutex::new(Vec::new()),
                        }),
                        status: Mutex::new(Status::connecting()),
                        connecting: tokio::sync::Mutex::new(()),
                    })
                });
            }
        }
        if let Ok(mut slot) = self.inner.file.write() {
            *slot = file;
        }
    }

    /// `[listener]` as the file says it now: where pool runners connect, or
    /// why the table cannot be used.
    pub fn listener(&self) -> Result<Option<config::Listener>, String> {
        let file = self
            .inner
            .file
            .read()
            .map_err(|_| "the runners are poisoned".to_owned())?;
        match &file.listener_error {
            Some(error) => Err(error.clone()),
            None => Ok(file.listener.clone()),
        }
    }

    /// Every runner's name, `local` first, pool runners last.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .inner
            .file
            .read()
            .map(|f| f.names().into_iter().map(str::to_owned).collect())
            .unwrap_or_else(|_| vec![config::LOCAL.to_owned()]);
        names.extend(self.pool_names());
        names
    }

    pub(crate) fn pool_names(&self) -> Vec<String> {
        self.inner
            .hosts
            .read()
            .map(|hosts| {
                hosts
                    .iter()
                    .filter(|(_, host)| host.pool().is_some())
                    .map(|(name, _)| name.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether `name` is `local` or a runner declared (valid or not).
    pub fn knows(&self, name: &str) -> bool {
        self.names().iter().any(|n| n == name)
    }

    pub(crate) fn host(&self, name: &str) -> Option<Arc<Host>> {
        self.inner.hosts.read().ok()?.get(name).cloned()
    }

    fn declared(&self, name: &str) -> Option<SshRunner> {
        self.inner.file.read().ok()?.runner(name).cloned()
    }

    /// Connects `name` if it is not (master, helper, tunnel) and says what a
    /// turn there needs, or why it cannot be reached.
    pub async fn ensure(&self, name: &str) -> Result<Ready, String> {
        let Some(host) = self.host(name) else {
            return Err(self.invalid_reason(name));
        };
        if host.pool().is_some() {
            // A pool runner connects itself; it is ready while connected.
            let status = host
                .status
                .lock()
                .map_err(|_| "the runner's state is poisoned".to_owned())?;
            return status.ready.clone().ok_or_else(|| {
                status
                    .reason
                    .clone()
                    .unwrap_or_else(|| format!("the pool runner `{name}` is not connected"))
            });
        }
        let _one = host.connecting.lock().await;
        // A master process still running is a live connection: ssh exits
        // when its connection drops (ServerAlive), so this costs no `ssh -O
        // check` on every turn.
        let live = host.status.lock().ok().and_then(|mut status| {
            let running = status
                .master
                .as_mut()
                .is_some_and(|master| matches!(master.try_wait(), Ok(None)));
            status.ready.clone().filter(|_| running)
        });
        if let Some(ready) = live {
            return Ok(ready);
        }
        match self.connect_host(&host).await {
            Ok((ready, probe, master)) => {
                if let Ok(mut status) = host.status.lock() {
                    status.state = RunnerState::Connected;
                    status.reason = None;
                    status.probe = Some(probe);
                    status.last_seen = Some(self.inner.clock.timestamp());
                    status.ready = Some(ready.clone());
                    status.master = Some(master);
                }
                Ok(ready)
            }
            Err(reason) => {
                if let Ok(mut status) = host.status.lock() {
                    status.state = RunnerState::Unreachable;
                    status.reason = Some(reason.clone());
                    status.ready = None;
                    status.master = None;
                }
                Err(reason)
            }
        }
    }

    fn invalid_reason(&self, name: &str) -> String {
        self.inner
            .file
            .read()
            .ok()
            .and_then(|f| f.invalid.iter().find(|i| i.name == name).cloned())
            .map_or_else(
                || format!("no runner is named `{name}`"),
                |invalid| invalid.reason,
            )
    }

    async fn connect_host(&self, host: &Arc<Host>) -> Result<(Ready, ProbeReply, Child), String> {
        let Some(link) = host.ssh() else {
            return Err("a pool runner connects itself".to_owned());
        };
        let master = link.ssh.connect().await?;
        let (exe, hash) = self.exe().await?;
        let remote_exe = link.ssh.install(&exe, &hash).await?;
        let port = self
            .inner
            .control_port
            .load(std::sync::atomic::Ordering::Relaxed);
        let tunnel_port = link.ssh.forward_back(port).await?;
        self.inner.tunnel_ports.add(tunnel_port);
        let probe = self.probe_with(host, &remote_exe, true).await?;
        if probe.protocol != wire::PROTOCOL {
            return Err(format!(
                "the helper on the runner host speaks protocol {}, this server {}",
                probe.protocol,
                wire::PROTOCOL
            ));
        }
        let ready = Ready {
            remote_exe,
            tunnel_port,
            home: probe.home.clone(),
        };
        Ok((ready, probe, master))
    }

    /// This binary and its content hash, read once.
    async fn exe(&self) -> Result<(PathBuf, String), String> {
        self.inner
            .exe
            .get_or_try_init(|| async {
                tokio::task::spawn_blocking(|| {
                    let exe = std::env::current_exe()
                        .map_err(|e| format!("the server cannot find its own binary: {e}"))?;
                    let bytes = std::fs::read(&exe)
                        .map_err(|e| format!("{} cannot be read: {e}", exe.display()))?;
                    use sha2::Digest;
                    let hash = hex::encode(sha2::Sha256::digest(&bytes));
                    Ok((exe, hash[..16].to_owned()))
                })
                .await
                .map_err(|e| format!("hashing the binary failed: {e}"))?
            })
            .await
            .cloned()
    }

    /// The host's facts; with `versions`, its engines' `--version` too (a
    /// CLI's start each, too dear for every periodic look).
    pub(crate) async fn probe_with(
        &self,
        host: &Arc<Host>,
        remote_exe: &str,
        versions: bool,
    ) -> Result<ProbeReply, String> {
        let engines = if versions {
            self.inner
                .engines
                .read()
                .map(|e| e.clone())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut channel = Channel::open(host, remote_exe, &Request::Probe { engines }).await?;
        channel.reply().await
    }

    /// Looks at every runner again: reconnects those that dropped (which
    /// reads everything, versions included) and reads each connected host's
    /// load and memory, and with `versions` its engines' versions again.
    pub async fn refresh(&self, versions: bool) {
        let names: Vec<String> = self
            .inner
            .hosts
            .read()
            .map(|h| h.keys().cloned().collect())
            .unwrap_or_default();
        for name in names {
            let Some(host) = self.host(&name) else {
                continue;
            };
            let was_ready = host.status.lock().is_ok_and(|s| s.ready.is_some());
            let Ok(ready) = self.ensure(&name).await else {
                continue;
            };
            if !was_ready {
                // Connecting just probed it, versions and all.
                continue;
            }
            match self.probe_with(&host, &ready.remote_exe, versions).await {
                Ok(mut probe) => {
                    if let Ok(mut status) = host.status.lock() {
                        if !versions && let Some(earlier) = &status.probe {
                            probe.engines = earlier.engines.clone();
                        }
                        status.probe = Some(probe);
                        status.last_seen = Some(self.inner.clock.timestamp());
                    }
                }
                Err(reason) => {
                    if let Ok(mut status) = host.status.lock() {
                        status.state = RunnerState::Unreachable;
                        status.reason = Some(reason);
                        status.ready = None;
                    }
                }
            }
        }
    }

    /// Every runner as `GET /runners` shows it. `sessions` counts running
    /// sessions by runner name.
    pub fn list(&self, sessions: &BTreeMap<String, u32>, local: LocalFacts) -> Vec<RunnerInfo> {
        let count = |name: &str| sessions.get(name).copied().unwrap_or(0);
        let mut list = vec![RunnerInfo {
            name: config::LOCAL.to_owned(),
            kind: RunnerKind::Local,
            state: RunnerState::Connected,
            reason: None,
            sessions: count(config::LOCAL),
            max_sessions: None,
            load: local.load,
            memory: local.memory,
            engines: local.engines,
            sandbox: local.sandbox,
            switchboard_version: Some(self.inner.version.clone()),
            labels: Vec::new(),
            destination: None,
            last_seen: Some(self.inner.clock.timestamp()),
        }];
        let Ok(file) = self.inner.file.read() else {
            return list;
        };
        for runner in &file.runners {
            let host = self.host(&runner.name);
            let status = host.as_ref().and_then(|h| {
                h.status.lock().ok().map(|s| {
                    (
                        s.state,
                        s.reason.clone(),
                        s.probe.clone(),
                        s.last_seen.clone(),
                    )
                })
            });
            let (state, reason, probe, last_seen) =
                status.unwrap_or((RunnerState::Connecting, None, None, None));
            list.push(RunnerInfo {
                name: runner.name.clone(),
                kind: RunnerKind::Ssh,
                state,
                reason,
                sessions: count(&runner.name),
                max_sessions: runner.max_sessions,
                load: probe.as_ref().and_then(|p| p.load),
                memory: probe.as_ref().and_then(|p| {
                    Some(Memory {
                        total_mb: p.total_mb?,
                        available_mb: p.available_mb?,
                    })
                }),
                engines: probe
                    .as_ref()
                    .map(|p| p.engines.clone())
                    .unwrap_or_default(),
                sandbox: probe.as_ref().map(|p| p.sandbox.clone()),
                switchboard_version: probe.as_ref().map(|p| p.version.clone()),
                labels: runner.labels.clone(),
                destination: Some(runner.destination.clone()),
                last_seen,
            });
        }
        list.extend(self.pool_list(&count));
        for invalid in &file.invalid {
            list.push(RunnerInfo {
                sessions: count(&invalid.name),
                ..RunnerInfo::unreached(&invalid.name, RunnerState::Invalid, &invalid.reason)
            });
        }
        list
    }

    /// `auto`: the connected runner with room whose available memory is
    /// largest once its running sessions' share is set aside, `local` among
    /// them; `None` when none has room.
    pub fn place(&self, sessions: &BTreeMap<String, u32>, local: &LocalFacts) -> Option<String> {
        best_placed(self.list(sessions, local.clone()))
    }

    /// What `engine`'s `--version` printed on `name`, as its helper last
    /// reported it.
    pub fn engine_version(&self, name: &str, engine: &str) -> Option<String> {
        let host = self.host(name)?;
        let status = host.status.lock().ok()?;
        let probe = status.probe.as_ref()?;
        probe
            .engines
            .iter()
            .find(|e| e.name == engine)
            .and_then(|e| e.version.clone())
    }

    /// `name`'s memory, as its helper last reported it.
    pub fn memory(&self, name: &str) -> Option<Memory> {
        let host = self.host(name)?;
        let status = host.status.lock().ok()?;
        let probe = status.probe.as_ref()?;
        Some(Memory {
            total_mb: probe.total_mb?,
            available_mb: probe.available_mb?,
        })
    }

    /// The remote user's home on `name`, as its helper last reported it.
    pub fn home(&self, name: &str) -> Option<String> {
        let host = self.host(name)?;
        let status = host.status.lock().ok()?;
        status.probe.as_ref().map(|probe| probe.home.clone())
    }

    /// Whether `name` has room for one more running session.
    pub fn has_room(&self, name: &str, running: u32) -> bool {
        self.declared(name)
            .and_then(|r| r.max_sessions)
            .or_else(|| self.pool_max_sessions(name))
            .is_none_or(|max| running < max)
    }

    /// Makes session `session_id`'s worktree on `name`, of the repository
    /// `cwd` (a path there) is in.
    pub async fn add_worktree(
        &self,
        name: &str,
        session_id: &str,
        cwd: &str,
    ) -> Result<wire::MadeWorktree, String> {
        let request = Request::AddWorktree {
            session_id: session_id.to_owned(),
            cwd: cwd.to_owned(),
        };
        self.ask(name, &request).await
    }

    /// Removes a worktree on `name` unless it has uncommitted changes.
    pub async fn remove_worktree(
        &self,
        name: &str,
        repository: &str,
        path: &str,
    ) -> Result<wire::Removal, String> {
        let request = Request::RemoveWorktree {
            repository: repository.to_owned(),
            path: path.to_owned(),
        };
        self.ask(name, &request).await
    }

    /// One request answered by one reply.
    pub(crate) async fn ask<T: for<'de> serde::Deserialize<'de>>(
        &self,
        name: &str,
        request: &Request,
    ) -> Result<T, String> {
        self.open_channel(name, request).await?.reply().await
    }

    /// A channel to `name`'s helper carrying `request`, connecting first.
    pub(crate) async fn open_channel(
        &self,
        name: &str,
        request: &Request,
    ) -> Result<Channel, String> {
        let ready = self.ensure(name).await?;
        let host = self.host(name).ok_or_else(|| self.invalid_reason(name))?;
        Channel::open(&host, &ready.remote_exe, request).await
    }

    /// Session `session_id` ended: what the runner kept for it alone (a
    /// hardened session's home) goes.
    pub async fn end_session(&self, name: &str, session_id: &str) -> Result<(), String> {
        let request = Request::EndSession {
            session_id: session_id.to_owned(),
        };
        let _removed: bool = self.ask(name, &request).await?;
        Ok(())
    }

    /// Kills what still runs on `name` for these sessions (a server that
    /// restarted while they ran there).
    pub async fn kill_leftovers(&self, name: &str, sessions: Vec<String>) -> Result<(), String> {
        let _killed: usize = self.ask(name, &Request::KillLeftovers { sessions }).await?;
        Ok(())
    }

    /// Closes every master connection (the server is stopping).
    pub async fn shutdown(&self) {
        let hosts: Vec<Arc<Host>> = self
            .inner
            .hosts
            .read()
            .map(|h| h.values().cloned().collect())
            .unwrap_or_default();
        for host in hosts {
            let Some(link) = host.ssh() else {
                continue;
            };
            let slots = link.leases.lock().map(|l| l.len()).unwrap_or(1);
            for slot in 0..slots {
                link.ssh.slot(slot).exit().await;
            }
        }
    }

    pub(crate) fn lost(&self, name: &str, reason: &str) {
        if let Some(host) = self.host(name)
            && let Ok(mut status) = host.status.lock()
        {
            status.state = RunnerState::Unreachable;
            status.reason = Some(reason.to_owned());
            status.ready = None;
        }
    }
}

/// What one running session is taken to use (a Claude turn's peak RSS,
/// docs/scale.md). A host's memory is read every 15 s, so sessions placed
/// in a burst would all see the same figure and land on one host; setting
/// their share aside spreads them as they will fill it.
pub const MB_PER_SESSION: u64 = 180;

fn best_placed(runners: Vec<RunnerInfo>) -> Option<String> {
    runners
        .into_iter()
        .filter(|r| r.state == RunnerState::Connected)
        .filter(|r| r.max_sessions.is_none_or(|max| r.sessions < max))
        .max_by_key(|r| {
            let available = r.memory.map_or(0, |m| m.available_mb);
            let share = u64::from(r.sessions) * MB_PER_SESSION;
            (
                available.saturating_sub(share),
                std::cmp::Reverse(r.sessions),
            )
        })
        .map(|r| r.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn connected(name: &str, available_mb: u64, sessions: u32) -> RunnerInfo {
        RunnerInfo {
            state: RunnerState::Connected,
            reason: None,
            sessions,
            memory: Some(Memory {
                total_mb: 16_000,
                available_mb,
            }),
            ..RunnerInfo::unreached(name, RunnerState::Connected, "")
        }
    }

    #[test]
    fn auto_takes_the_most_memory_left_once_running_sessions_have_their_share() {
        let runners = |counts: [u32; 3]| {
            vec![
                connected("a", 2400, counts[0]),
                connected("b", 2200, counts[1]),
                connected("c", 2000, counts[2]),
            ]
        };
        assert_eq!(best_placed(runners([0, 0, 0])).as_deref(), Some("a"));
        assert_eq!(best_placed(runners([1, 0, 0])).as_deref(), Some("a"));
        assert_eq!(best_placed(runners([2, 0, 0])).as_deref(), Some("b"));
        assert_eq!(best_placed(runners([3, 2, 0])).as_deref(), Some("c"));
        let mut full = runners([0, 0, 0]);
        full[0].max_sessions = Some(0);
        full[1].state = RunnerState::Unreachable;
        assert_eq!(best_placed(full).as_deref(), Some("c"));
    }
}
