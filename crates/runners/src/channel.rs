//! A channel to a runner's helper: one request, framed both ways, either
//! on a place leased on one of an SSH host's master connections (`ssh …
//! switchboard runner --stdio`) or as one stream of a pool runner's
//! connection. After a `Connect` reply the channel becomes a
//! [`RunnerStream`]: raw bytes to a port on the runner host.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::process::Child;

use crate::host::{CHANNELS_PER_MASTER, Host, Link, PoolLink, SshLink};
use crate::pool::mux;
use crate::wire::{self, Frame, Kind, Request};

pub(crate) struct Channel {
    pub(crate) reader: Box<dyn AsyncRead + Send + Unpin>,
    pub(crate) writer: Box<dyn AsyncWrite + Send + Unpin>,
    /// The ssh client carrying an SSH channel; its stderr says why a
    /// channel ended.
    child: Option<Child>,
    _lease: Option<Lease>,
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
    async fn take(host: &Arc<Host>, link: &SshLink) -> Result<Lease, String> {
        let slot = {
            let mut leases = link
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
            let mut masters = link.extra_masters.lock().await;
            if masters.len() < slot {
                masters.resize_with(slot, || None);
            }
            let ssh = link.ssh.slot(slot);
            if masters[slot - 1].is_none() || !ssh.check().await {
                masters[slot - 1] = Some(ssh.connect().await?);
            }
        }
        Ok(lease)
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(link) = self.host.ssh()
            && let Ok(mut leases) = link.leases.lock()
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
        let mut channel = match &host.link {
            Link::Ssh(link) => Channel::over_ssh(host, link, remote_exe).await?,
            Link::Pool(link) => Channel::over_pool(link).await?,
        };
        let frame = Frame::json(Kind::Request, request).map_err(|e| e.to_string())?;
        wire::write_frame(&mut channel.writer, &frame)
            .await
            .map_err(|e| format!("the runner channel closed: {e}"))?;
        Ok(channel)
    }

    async fn over_ssh(
        host: &Arc<Host>,
        link: &SshLink,
        remote_exe: &str,
    ) -> Result<Channel, String> {
        let lease = Lease::take(host, link).await?;
        let mut child = link.ssh.slot(lease.slot).helper(remote_exe)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the ssh client's pipes could not be opened".to_owned());
        };
        Ok(Channel {
            reader: Box::new(stdout),
            writer: Box::new(stdin),
            child: Some(child),
            _lease: Some(lease),
        })
    }

    async fn over_pool(link: &PoolLink) -> Result<Channel, String> {
        let send = link
            .conn
            .lock()
            .ok()
            .and_then(|conn| conn.as_ref().map(|c| c.send.clone()))
            .ok_or_else(|| "the pool runner is not connected".to_owned())?;
        let gone = |e: h2::Error| format!("the pool runner's connection closed: {e}");
        let mut send = send.ready().await.map_err(gone)?;
        let request = http::Request::post("/channel")
            .body(())
            .map_err(|e| e.to_string())?;
        let (response, stream) = send.send_request(request, false).map_err(gone)?;
        let (near, far) = mux::pipe();
        tokio::spawn(async move {
            if let Ok(response) = response.await {
                mux::bridge(stream, response.into_body(), far).await;
            }
        });
        let (reader, writer) = tokio::io::split(near);
        Ok(Channel {
            reader: Box::new(reader),
            writer: Box::new(writer),
            child: None,
            _lease: None,
        })
    }

    /// The helper's answer to the channel's request: its reply, its own
    /// refusal, or the transport's words when the channel closed with neither.
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
        wire::read_frame(&mut self.reader)
            .await
            .map_err(|e| format!("the runner channel broke: {e}"))
    }

    pub(crate) async fn send(&mut self, frame: &Frame) -> std::io::Result<()> {
        wire::write_frame(&mut self.writer, frame).await
    }

    /// Says the channel is done and waits a little for its far end to go.
    pub(crate) async fn close(&mut self) {
        let _ = self.writer.shutdown().await;
        if let Some(child) = &mut self.child {
            let _ = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
        }
    }

    /// Why the channel ended with no answer: ssh's own words, or that the
    /// pool runner's connection went.
    pub(crate) async fn failure(&mut self) -> String {
        let Some(child) = &mut self.child else {
            return "the pool runner's connection closed".to_owned();
        };
        let mut stderr = String::new();
        if let Some(mut err) = child.stderr.take() {
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

impl Channel {
    /// The channel as a byte stream, once its helper has answered a
    /// `Connect`.
    pub(crate) fn into_stream(self) -> RunnerStream {
        RunnerStream {
            reader: self.reader,
            writer: Some(self.writer),
            _child: self.child,
            _lease: self._lease,
        }
    }
}

/// One TCP connection to a port on a runner host's loopback, through a
/// channel to its helper (`Runners::connect`). Holds the channel's ssh
/// client and its place on the master connection until dropped; shutting
/// it down ends only the writing side, as a TCP half-close does.
pub struct RunnerStream {
    reader: Box<dyn AsyncRead + Send + Unpin>,
    writer: Option<Box<dyn AsyncWrite + Send + Unpin>>,
    _child: Option<Child>,
    _lease: Option<Lease>,
}

impl AsyncRead for RunnerStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.reader).poll_read(cx, buf)
    }
}

impl AsyncWrite for RunnerStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match &mut self.writer {
            Some(writer) => Pin::new(writer).poll_write(cx, buf),
            None => Poll::Ready(Err(io::ErrorKind::BrokenPipe.into())),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.writer {
            Some(writer) => Pin::new(writer).poll_flush(cx),
            None => Poll::Ready(Ok(())),
        }
    }

    /// Ends the writing side: an ssh client's stdin only closes when
    /// dropped, so it is, after its own shutdown.
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let Some(writer) = &mut self.writer else {
            return Poll::Ready(Ok(()));
        };
        let result = ready!(Pin::new(writer).poll_shutdown(cx));
        self.writer = None;
        Poll::Ready(result)
    }
}
