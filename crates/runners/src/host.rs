//! One runner host as the server keeps it: how it is reached (its SSH
//! transport, or the connection a pool runner opened), what it last said
//! of itself, and the channels open on it.

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
    pub(crate) link: Link,
    pub(crate) status: Mutex<Status>,
    /// One connection attempt at a time per host.
    pub(crate) connecting: tokio::sync::Mutex<()>,
}

pub(crate) enum Link {
    Ssh(SshLink),
    Pool(PoolLink),
}

/// An SSH runner: the server dials it.
pub(crate) struct SshLink {
    pub(crate) ssh: SshHost,
    /// Open channels on each master connection, slot 0 the main one.
    pub(crate) leases: Mutex<Vec<usize>>,
    /// The masters of slots 1 and up, started as channels need them.
    pub(crate) extra_masters: tokio::sync::Mutex<Vec<Option<Child>>>,
}

/// A pool runner: it dialled the server, and is reachable while its
/// connection lasts.
#[derive(Default)]
pub(crate) struct PoolLink {
    pub(crate) conn: Mutex<Option<PoolConn>>,
}

/// What a pool runner said of itself when it connected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    pub name: String,
    pub labels: Vec<String>,
    pub max_sessions: Option<u32>,
    pub tunnel_port: u16,
    pub exe: String,
    /// Where it connected from, as the listener saw it.
    pub peer: String,
}

pub(crate) struct PoolConn {
    pub(crate) send: h2::client::SendRequest<bytes::Bytes>,
    pub(crate) hello: Hello,
    /// The runner token it connected with: revoking it ends the connection.
    pub(crate) token_id: String,
    /// Tells this connection from the runner's earlier and later ones.
    pub(crate) generation: u64,
    pub(crate) driver: tokio::task::AbortHandle,
}

impl Host {
    pub(crate) fn ssh(&self) -> Option<&SshLink> {
        match &self.link {
            Link::Ssh(link) => Some(link),
            Link::Pool(_) => None,
        }
    }

    pub(crate) fn pool(&self) -> Option<&PoolLink> {
        match &self.link {
            Link::Pool(link) => Some(link),
            Link::Ssh(_) => None,
        }
    }
}

pub(crate) struct Status {
    pub(crate) state: RunnerState,
    pub(crate) reason: Option<String>,
    pub(crate) probe: Option<ProbeReply>,
    pub(crate) last_seen: Option<String>,
    pub(crate) ready: Option<Ready>,
    pub(crate) master: Option<Child>,
}

impl Status {
    pub(crate) fn connecting() -> Status {
        Status {
            state: RunnerState::Connecting,
            reason: None,
            probe: None,
            last_seen: None,
            ready: None,
            master: None,
        }
    }
}
