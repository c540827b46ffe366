//! One runner host as the server keeps it: its SSH transport, what it last
//! said of itself, and the channels open on each of its master connections.

use std::sync::Mutex;

use tokio::process::Child;

use crate::info::RunnerState;
use crate::ssh::SshHost;
use crate::wire::ProbeReply;

/// A connected runner's facts a turn needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ready {
    /// The helper's path there, `$HOME` unexpanded.
    pub remote_exe: String,
    /// The remote port whose tunnel reaches the control server.
    pub tunnel_port: u16,
    pub home: String,
}

/// Channels one master connection carries at most: under sshd's default
/// `MaxSessions` (10), with room for a probe.
pub(crate) const CHANNELS_PER_MASTER: usize = 8;

pub(crate) struct Host {
    pub(crate) ssh: SshHost,
    /// Open channels on each master connection, slot 0 the main one.
    pub(crate) leases: Mutex<Vec<usize>>,
    /// The masters of slots 1 and up, started as channels need them.
    pub(crate) extra_masters: tokio::sync::Mutex<Vec<Option<Child>>>,
    pub(crate) status: Mutex<Status>,
    /// One connection attempt at a time per host.
    pub(crate) connecting: tokio::sync::Mutex<()>,
}

pub(crate) struct Status {
    pub(crate) state: RunnerState,
    pub(crate) reason: Option<String>,
    pub(crate) probe: Option<ProbeReply>,
    pub(crate) last_seen: Option<String>,
    pub(crate) ready: Option<Ready>,
    pub(crate) master: Option<Child>,
}
