//! A channel to a runner host's helper (`switchboard runner --stdio`):
//! one request, framed both ways, on a place leased on one of the host's
//! master connections.

use std::sync::Arc;
use std::time::Duration;

use tokio::process::Child;

use crate::host::{CHANNELS_PER_MASTER, Host};
use crate::wire::{self, Frame, Kind, Request};

pub(crate) struct Channel {
    pub(crate) child: Child,
    pub(crate) stdout: tokio::process::ChildStdout,
    pub(crate) stdin: tokio::process::ChildStdin,
    pub(crate) _lease: Lease,
}

/// A channel's place on one of its host's master connections, given back
/// when the channel goes.
pub(crate) struct Lease {
    pub(crate) host: Arc<Host>,
    pub(crate) slot: usize,
}

impl Lease {
    /// A place on the first master with room, starting a new master when
    /// every one is full.
    async fn take(host: &Arc<Host>) -> Result<Lease, String> {
        let slot = {
            let mut leases = host
                .leases
                .lock()
                .map_err(|_| "the runner's channel count is poisoned".to_owned())?;
            let slot = match leases.iter().position(|open| *open < CHANNELS_PER_MASTER) {
                Some(slot) => slot,
                None => {
                    leases.push(0);
                    leases.len() - 1
                }
            };
            leases[slot] += 1;
            slot
        };
        let lease = Lease {
            host: Arc::clone(host),
            slot,
        };
        if slot > 0 {
            let mut masters = host.extra_masters.lock().await;
            if masters.len() < slot {
                masters.resize_with(slot, || None);
            }
            let ssh = host.ssh.slot(slot);
            if masters[slot - 1].is_none() || !ssh.check().await {
                masters[slot - 1] = Some(ssh.connect().await?);
            }
        }
        Ok(lease)
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Ok(mut leases) = self.host.leases.lock()
            && let Some(open) = leases.get_mut(self.slot)
        {
            *open = open.saturating_sub(1);
        }
    }
}

impl Channel {
    pub(crate) async fn open(
        host: &Arc<Host>,
        remote_exe: &str,
        request: &Request,
    ) -> Result<Channel, String> {
        let lease = Lease::take(host).await?;
        let mut child = host.ssh.slot(lease.slot).helper(remote_exe)?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the ssh client's pipes could not be opened".to_owned());
        };
        let frame = Frame::json(Kind::Request, request).map_err(|e| e.to_string())?;
        wire::write_frame(&mut stdin, &frame)
            .await
            .map_err(|e| format!("the runner channel closed: {e}"))?;
        Ok(Channel {
            child,
            stdout,
            stdin,
            _lease: lease,
        })
    }

    /// The helper's answer to the channel's request: its reply, its own
    /// refusal, or ssh's words when the channel closed with neither.
    pub(crate) async fn reply<T: for<'de> serde::Deserialize<'de>>(&mut self) -> Result<T, String> {
        match self.next().await? {
            Some(frame) if frame.kind == Kind::Reply => frame
                .parse()
                .map_err(|e| format!("the helper's answer is unreadable: {e}")),
            Some(frame) if frame.kind == Kind::Error => {
                Err(String::from_utf8_lossy(&frame.payload).into_owned())
            }
            _ => Err(self.failure().await),
        }
    }

    pub(crate) async fn next(&mut self) -> Result<Option<Frame>, String> {
        wire::read_frame(&mut self.stdout)
            .await
            .map_err(|e| format!("the runner channel broke: {e}"))
    }

    /// Why the channel ended with no answer: ssh's own words.
    pub(crate) async fn failure(&mut self) -> String {
        let mut stderr = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = tokio::time::timeout(
                Duration::from_secs(2),
                tokio::io::AsyncReadExt::read_to_string(&mut err, &mut stderr),
            )
            .await;
        }
        let last = stderr.lines().map(str::trim).rfind(|l| !l.is_empty());
        last.map_or_else(
            || "the runner channel closed without an answer".to_owned(),
            str::to_owned,
        )
    }
}
