//! One pool runner connection carries many channels: after an HTTP/1.1
//! upgrade (so a refusal is a plain status a person can read) the
//! connection speaks HTTP/2 with the roles turned round: the server, which
//! opens channels, is the HTTP/2 client; the runner, which answers them,
//! the HTTP/2 server. Each channel is one stream, its bytes the runner
//! protocol's frames both ways, with HTTP/2's flow control keeping a slow
//! reader from filling memory.

use std::time::Duration;

use bytes::Bytes;
use h2::{RecvStream, SendStream};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, DuplexStream};

/// The protocol named in `Upgrade`.
pub const UPGRADE: &str = "switchboard-runner";
/// The runner protocol version the runner speaks.
pub const PROTOCOL_HEADER: &str = "switchboard-protocol";
pub const NAME_HEADER: &str = "switchboard-runner";
pub const LABELS_HEADER: &str = "switchboard-labels";
pub const MAX_SESSIONS_HEADER: &str = "switchboard-max-sessions";
/// The loopback port on the runner whose connections reach the control
/// server (the engines' `APP_CONTROL_URL`).
pub const TUNNEL_PORT_HEADER: &str = "switchboard-tunnel-port";
/// The runner's own binary: the engines' permission hook there.
pub const EXE_HEADER: &str = "switchboard-exe";

/// The path a runner connects on, and the one a tunnel opens on.
pub const CONNECT_PATH: &str = "/connect";
pub const TUNNEL_PATH: &str = "/tunnel";

/// Bytes a channel buffers between its stream and its reader.
pub const CHANNEL_BUFFER: usize = 256 << 10;

/// The longest a channel waits for the peer to open its window: a peer
/// that answers pings but never reads (a window that never opens) gets its
/// stream reset, rather than holding the channel's task and buffer forever.
pub const WINDOW_WITHIN: Duration = Duration::from_secs(60);

/// A fresh pipe for one channel: the near end for the caller, the far end
/// for [`bridge`].
pub fn pipe() -> (DuplexStream, DuplexStream) {
    tokio::io::duplex(CHANNEL_BUFFER)
}

/// Moves one channel's bytes between its HTTP/2 stream and a local pipe
/// until both directions end; a broken direction resets the stream.
pub async fn bridge(send: SendStream<Bytes>, recv: RecvStream, local: DuplexStream) {
    let (local_read, local_write) = tokio::io::split(local);
    let (up, ()) = tokio::join!(upstream(send, local_read), downstream(recv, local_write));
    if let Err(mut send) = up {
        send.send_reset(h2::Reason::CANCEL);
    }
}

/// The local side's bytes onto the stream, as the peer's window allows.
async fn upstream(
    mut send: SendStream<Bytes>,
    mut local: impl AsyncRead + Unpin,
) -> Result<(), SendStream<Bytes>> {
    let mut buffer = vec![0u8; 64 << 10];
    loop {
        let n = match local.read(&mut buffer).await {
            Ok(n) => n,
            Err(_) => return Err(send),
        };
        if n == 0 {
            return send.send_data(Bytes::new(), true).map_err(|_| send);
        }
        let mut rest = Bytes::copy_from_slice(&buffer[..n]);
        while !rest.is_empty() {
            send.reserve_capacity(rest.len());
            let capacity = std::future::poll_fn(|cx| send.poll_capacity(cx));
            let granted = match tokio::time::timeout(WINDOW_WITHIN, capacity).await {
                Ok(Some(Ok(granted))) => granted,
                _ => return Err(send),
            };
            if granted == 0 {
                continue;
            }
            let piece = rest.split_to(granted.min(rest.len()));
            if send.send_data(piece, false).is_err() {
                return Err(send);
            }
        }
    }
}

/// The stream's bytes into the local side, giving the window back as they
/// are written; the local side is told the end however the stream ends, so
/// its reader never waits on a connection that is gone.
async fn downstream(mut recv: RecvStream, mut local: impl AsyncWrite + Unpin) {
    while let Some(Ok(chunk)) = recv.data().await {
        let _ = recv.flow_control().release_capacity(chunk.len());
        if local.write_all(&chunk).await.is_err() {
            break;
        }
    }
    let _ = local.shutdown().await;
}

/// How often each end pings the other, and how long a pong may take: a
/// peer gone without a word (a pulled cable, a frozen VM) is noticed
/// within this, as the kernel would not.
const PING_EVERY: Duration = Duration::from_secs(15);
const PONG_WITHIN: Duration = Duration::from_secs(20);

/// Pings the peer until a pong does not come; then says so.
pub async fn keep_alive(ping: Option<h2::PingPong>) -> String {
    let Some(mut ping) = ping else {
        return std::future::pending().await;
    };
    loop {
        tokio::time::sleep(PING_EVERY).await;
        match tokio::time::timeout(PONG_WITHIN, ping.ping(h2::Ping::opaque())).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => return format!("the peer did not answer a ping: {e}"),
            Err(_) => {
                return format!(
                    "the peer did not answer a ping within {} s",
                    PONG_WITHIN.as_secs()
                );
            }
        }
    }
}
