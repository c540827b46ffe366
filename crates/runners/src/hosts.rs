//! The runners in force and their connections: which are reachable, what
//! each host has, placing a session, and running a turn there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::Child;
use tokio::sync::mpsc;

use crate::channel::Channel;
use crate::config::{self, RunnersFile, SshRunner};
use crate::host::{Host, Ready, Status};
use crate::info::{EngineVersion, Memory, RunnerInfo, RunnerKind, RunnerState};
use crate::ssh::SshHost;
use crate::wire::{self, Exit, Frame, Kind, ProbeEngine, ProbeReply, Request, Started, TurnHeader};

/// How long a turn whose host went away is waited for: the helper keeps
/// the engine running meanwhile, and a host back within it loses nothing.
pub const RECONNECT_GRACE: Duration = Duration::from_secs(120);

const RECONNECT_EVERY: Duration = Duration::from_secs(2);

/// The remote ports the control server must accept as its own `Host`: each
/// runner's reverse tunnel ends on one.
#[derive(Debug, Clone, Default)]
pub struct TunnelPorts(Arc<RwLock<BTreeSet<u16>>>);

impl TunnelPorts {
    pub fn contains(&self, port: u16) -> bool {
        self.0.read().is_ok_and(|ports| ports.contains(&port))
    }

    fn add(&self, port: u16) {
        if let Ok(mut ports) = self.0.write() {
            ports.insert(port);
        }
    }
}

struct Inner {
    data_dir: PathBuf,
    version: String,
    clock: Arc<dyn clock::Clock>,
    control_port: std::sync::atomic::AtomicU16,
    file: RwLock<RunnersFile>,
    hosts: RwLock<BTreeMap<String, Arc<Host>>>,
    engines: RwLock<Vec<ProbeEngine>>,
    tunnel_ports: TunnelPorts,
    exe: tokio::sync::OnceCell<(PathBuf, String)>,
}

/// The runners of one server. Cheap to clone.
#[derive(Clone)]
pub struct Runners {
    inner: Arc<Inner>,
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
            hosts.retain(|name, host| {
                file.runner(name)
                    .is_some_and(|r| *r == host.ssh.runner && file.ssh_config == host.ssh.config)
            });
            for runner in &file.runners {
                hosts.entry(runner.name.clone()).or_insert_with(|| {
                    Arc::new(Host {
                        ssh: SshHost {
                            runner: runner.clone(),
                            config: file.ssh_config.clone(),
                            control_path: run_dir.join(format!("{}.sock", runner.name)),
                        },
                        status: Mutex::new(Status {
                            state: RunnerState::Connecting,
                            reason: None,
                            probe: None,
                            last_seen: None,
                            ready: None,
                            master: None,
                        }),
                        connecting: tokio::sync::Mutex::new(()),
                        leases: Mutex::new(vec![0]),
                        extra_masters: tokio::sync::Mutex::new(Vec::new()),
                    })
                });
            }
        }
        if let Ok(mut slot) = self.inner.file.write() {
            *slot = file;
        }
    }

    /// Every runner's name, `local` first.
    pub fn names(&self) -> Vec<String> {
        self.inner
            .file
            .read()
            .map(|f| f.names().into_iter().map(str::to_owned).collect())
            .unwrap_or_else(|_| vec![config::LOCAL.to_owned()])
    }

    /// Whether `name` is `local` or a runner declared (valid or not).
    pub fn knows(&self, name: &str) -> bool {
        self.names().iter().any(|n| n == name)
    }

    fn host(&self, name: &str) -> Option<Arc<Host>> {
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
        match self.connect(&host).await {
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

    async fn connect(&self, host: &Arc<Host>) -> Result<(Ready, ProbeReply, Child), String> {
        let master = host.ssh.connect().await?;
        let (exe, hash) = self.exe().await?;
        let remote_exe = host.ssh.install(&exe, &hash).await?;
        let port = self
            .inner
            .control_port
            .load(std::sync::atomic::Ordering::Relaxed);
        let tunnel_port = host.ssh.forward_back(port).await?;
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
    async fn probe_with(
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
        for invalid in &file.invalid {
            list.push(RunnerInfo {
                sessions: count(&invalid.name),
                ..RunnerInfo::unreached(&invalid.name, RunnerState::Invalid, &invalid.reason)
            });
        }
        list
    }

    /// `auto`: the connected runner with room whose available memory is
    /// largest, `local` among them; `None` when none has room.
    pub fn place(&self, sessions: &BTreeMap<String, u32>, local: &LocalFacts) -> Option<String> {
        self.list(sessions, local.clone())
            .into_iter()
            .filter(|r| r.state == RunnerState::Connected)
            .filter(|r| r.max_sessions.is_none_or(|max| r.sessions < max))
            .max_by_key(|r| r.memory.map_or(0, |m| m.available_mb))
            .map(|r| r.name)
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
            .is_none_or(|max| running < max)
    }

    /// Starts a turn on `name` and streams it back. The stream survives
    /// the connection dropping: it attaches again from the last frame it
    /// passed on, for up to [`RECONNECT_GRACE`].
    pub async fn start_turn(&self, name: &str, header: TurnHeader) -> Result<RemoteTurn, String> {
        let key = header.key.clone();
        let mut channel = self
            .open_channel(name, &Request::Run(Box::new(header)))
            .await?;
        let started: Started = channel.reply().await?;
        Ok(self.stream(name, key, started, channel))
    }

    /// The turn's output as a [`RemoteTurn`], driven by a task that attaches
    /// again when the channel drops.
    fn stream(&self, name: &str, key: String, started: Started, channel: Channel) -> RemoteTurn {
        let (output_tx, output) = mpsc::channel(32);
        let (signals, signals_rx) = mpsc::unbounded_channel();
        tokio::spawn(drive(
            self.clone(),
            name.to_owned(),
            key,
            channel,
            output_tx,
            signals_rx,
        ));
        RemoteTurn {
            pgid: started.pgid,
            output,
            signals,
        }
    }

    /// Streams turn `key` on `name` again from its start: a server that
    /// restarted while the turn ran there reads its whole output anew.
    pub async fn attach_turn(&self, name: &str, key: &str) -> Result<RemoteTurn, String> {
        let request = Request::Attach {
            key: key.to_owned(),
            offset: 0,
        };
        let mut channel = self.open_channel(name, &request).await?;
        let started: Started = channel.reply().await?;
        Ok(self.stream(name, key.to_owned(), started, channel))
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
    async fn ask<T: for<'de> serde::Deserialize<'de>>(
        &self,
        name: &str,
        request: &Request,
    ) -> Result<T, String> {
        self.open_channel(name, request).await?.reply().await
    }

    /// A channel to `name`'s helper carrying `request`, connecting first.
    async fn open_channel(&self, name: &str, request: &Request) -> Result<Channel, String> {
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
            let slots = host.leases.lock().map(|l| l.len()).unwrap_or(1);
            for slot in 0..slots {
                host.ssh.slot(slot).exit().await;
            }
        }
    }

    fn lost(&self, name: &str, reason: &str) {
        if let Some(host) = self.host(name)
            && let Ok(mut status) = host.status.lock()
        {
            status.state = RunnerState::Unreachable;
            status.reason = Some(reason.to_owned());
            status.ready = None;
        }
    }
}

/// One turn on a runner, as the session's turn sees it.
pub struct RemoteTurn {
    /// The engine's process group on the runner host.
    pub pgid: u32,
    pub output: mpsc::Receiver<Output>,
    signals: mpsc::UnboundedSender<u8>,
}

impl RemoteTurn {
    /// Signals the engine's process group on its host (queued while the
    /// connection is away).
    pub fn signal(&self, signal: libc::c_int) {
        if let Ok(signal) = u8::try_from(signal) {
            let _ = self.signals.send(signal);
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    Stdout(Vec<u8>),
    Stderr(Vec<u8>),
    Exit(Exit),
    /// The host stayed away past the grace period; the turn's end is unknown.
    Lost(String),
}

async fn drive(
    runners: Runners,
    name: String,
    key: String,
    mut channel: Channel,
    output: mpsc::Sender<Output>,
    mut signals: mpsc::UnboundedReceiver<u8>,
) {
    let mut offset: u64 = 0;
    loop {
        let outcome = pass_on(&mut channel, &output, &mut signals, &mut offset).await;
        match outcome {
            Passed::Exited => {
                let _ =
                    wire::write_frame(&mut channel.stdin, &Frame::new(Kind::Release, Vec::new()))
                        .await;
                let _ = channel.stdin.shutdown().await;
                let _ = tokio::time::timeout(Duration::from_secs(5), channel.child.wait()).await;
                return;
            }
            Passed::Abandoned => return,
            Passed::Dropped(reason) => {
                runners.lost(&name, &reason);
                tracing::warn!(
                    runner = name,
                    turn = key,
                    "runner channel dropped: {reason}"
                );
                match reattach(&runners, &name, &key, offset).await {
                    Ok(next) => channel = next,
                    Err(reason) => {
                        let _ = output.send(Output::Lost(reason)).await;
                        return;
                    }
                }
            }
        }
    }
}

enum Passed {
    Exited,
    /// Nobody reads the turn any more.
    Abandoned,
    Dropped(String),
}

async fn pass_on(
    channel: &mut Channel,
    output: &mpsc::Sender<Output>,
    signals: &mut mpsc::UnboundedReceiver<u8>,
    offset: &mut u64,
) -> Passed {
    let mut signals_open = true;
    loop {
        tokio::select! {
            frame = wire::read_frame(&mut channel.stdout) => {
                let frame = match frame {
                    Ok(Some(frame)) => frame,
                    Ok(None) => return Passed::Dropped(channel.failure().await),
                    Err(e) => return Passed::Dropped(e.to_string()),
                };
                let size = frame.wire_len();
                let item = match frame.kind {
                    Kind::Stdout => Output::Stdout(frame.payload),
                    Kind::Stderr => Output::Stderr(frame.payload),
                    Kind::Exit => match frame.parse() {
                        Ok(exit) => Output::Exit(exit),
                        Err(e) => return Passed::Dropped(format!("an unreadable exit: {e}")),
                    },
                    Kind::Error => {
                        return Passed::Dropped(String::from_utf8_lossy(&frame.payload).into_owned());
                    }
                    _ => continue,
                };
                let exited = matches!(item, Output::Exit(_));
                if output.send(item).await.is_err() {
                    return Passed::Abandoned;
                }
                *offset += size;
                if exited {
                    return Passed::Exited;
                }
            }
            signal = signals.recv(), if signals_open => match signal {
                Some(signal) => {
                    let frame = Frame::new(Kind::Signal, vec![signal]);
                    if let Err(e) = wire::write_frame(&mut channel.stdin, &frame).await {
                        return Passed::Dropped(e.to_string());
                    }
                }
                None => signals_open = false,
            },
        }
    }
}

async fn reattach(
    runners: &Runners,
    name: &str,
    key: &str,
    offset: u64,
) -> Result<Channel, String> {
    // On the application's clock, so tests move time instead of waiting.
    let clock = &runners.inner.clock;
    let span = |d: Duration| time::Duration::try_from(d).unwrap_or(time::Duration::ZERO);
    let deadline = clock.now() + span(RECONNECT_GRACE);
    let mut last = String::new();
    while clock.now() < deadline {
        clock.sleep(span(RECONNECT_EVERY)).await;
        let ready = match runners.ensure(name).await {
            Ok(ready) => ready,
            Err(reason) => {
                last = reason;
                continue;
            }
        };
        let Some(host) = runners.host(name) else {
            return Err(format!("the runner `{name}` is no longer declared"));
        };
        let request = Request::Attach {
            key: key.to_owned(),
            offset,
        };
        let mut channel = match Channel::open(&host, &ready.remote_exe, &request).await {
            Ok(channel) => channel,
            Err(reason) => {
                last = reason;
                continue;
            }
        };
        match channel.next().await {
            Ok(Some(frame)) if frame.kind == Kind::Reply => return Ok(channel),
            Ok(Some(frame)) if frame.kind == Kind::Error => {
                return Err(String::from_utf8_lossy(&frame.payload).into_owned());
            }
            Ok(_) => last = channel.failure().await,
            Err(reason) => last = reason,
        }
    }
    Err(format!(
        "the runner `{name}` stayed unreachable for {} s: {last}",
        RECONNECT_GRACE.as_secs()
    ))
}
