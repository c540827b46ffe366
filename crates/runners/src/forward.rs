//! The helper's side of `Connect`: one TCP connection to a port on the
//! runner host's loopback (an app's dev server), relayed as raw bytes over
//! the channel so the server's app proxy reaches it as if it were local.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::wire::{self, Frame, Kind};

/// Opens the port, says so (a `{}` reply, or an error frame naming the
/// port), then copies both ways until both sides have ended; each side's
/// end is passed on as the other's half-close.
pub(crate) async fn forward(
    port: u16,
    mut input: impl AsyncRead + Unpin,
    mut output: impl AsyncWrite + Unpin,
) -> io::Result<()> {
    let tcp = match dial(port).await {
        Ok(tcp) => tcp,
        Err(e) => {
            let message = format!("{} {port} on the runner host ({e})", wire::NOTHING_LISTENS);
            return wire::write_frame(&mut output, &Frame::new(Kind::Error, message)).await;
        }
    };
    let _ = tcp.set_nodelay(true);
    wire::write_frame(&mut output, &Frame::new(Kind::Reply, b"{}".to_vec())).await?;
    let (mut from_app, mut to_app) = tcp.into_split();
    let upstream = async {
        tokio::io::copy(&mut input, &mut to_app).await?;
        to_app.shutdown().await
    };
    let downstream = async {
        tokio::io::copy(&mut from_app, &mut output).await?;
        output.shutdown().await
    };
    tokio::try_join!(upstream, downstream)?;
    Ok(())
}

/// The port on IPv4 loopback, else on IPv6's: a dev server that listens
/// on `localhost` may have taken only `::1`.
async fn dial(port: u16) -> io::Result<TcpStream> {
    match TcpStream::connect(("127.0.0.1", port)).await {
        Ok(tcp) => Ok(tcp),
        Err(v4) => TcpStream::connect(("::1", port)).await.map_err(|_| v4),
    }
}

/// The helper's stdout, whose shutdown really ends it: the ssh client sees
/// the end of the channel's output (the app closed its side) while the
/// channel's input may still flow. sshd sends that end only once stdout and
/// stderr are both closed, so both go; `tokio::io::Stdout` only flushes
/// there, and closing a descriptor outright would let the next file opened
/// take its number.
pub(crate) struct ClosingStdout {
    inner: tokio::io::Stdout,
    closed: bool,
}

impl ClosingStdout {
    pub(crate) fn new() -> ClosingStdout {
        ClosingStdout {
            inner: tokio::io::stdout(),
            closed: false,
        }
    }
}

impl AsyncWrite for ClosingStdout {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.closed {
            return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.closed {
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.closed {
            return Poll::Ready(Ok(()));
        }
        ready!(Pin::new(&mut self.inner).poll_flush(cx))?;
        let null = std::fs::OpenOptions::new().write(true).open("/dev/null")?;
        for descriptor in [1, 2] {
            // SAFETY: dup2 only reads its two descriptors; each is swapped
            // for /dev/null in one step, so it never dangles.
            if unsafe { libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&null), descriptor) } < 0 {
                return Poll::Ready(Err(io::Error::last_os_error()));
            }
        }
        self.closed = true;
        Poll::Ready(Ok(()))
    }
}
