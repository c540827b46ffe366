//! Closes a connection whose client has stopped reading: a write that makes
//! no progress for the limit fails, and hyper drops the connection with what
//! it held. Without it, an event-stream client that never reads keeps its
//! socket and its last buffered events forever, even after the event hub has
//! dropped it. Reads are not limited: an idle keep-alive connection is fine.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::serve::Listener;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// A listener whose connections fail a write stalled for `limit`.
pub struct StallGuarded<L> {
    pub listener: L,
    pub limit: Duration,
}

impl<L: Listener> Listener for StallGuarded<L> {
    type Io = StallGuard<L::Io>;
    type Addr = L::Addr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (io, addr) = self.listener.accept().await;
        (
            StallGuard {
                io,
                limit: self.limit,
                stalled: None,
            },
            addr,
        )
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.listener.local_addr()
    }
}

pub struct StallGuard<T> {
    io: T,
    limit: Duration,
    /// Running while a write waits; reset by any progress.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<T> StallGuard<T> {
    fn watch<R>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let limit = self.limit;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for StallGuard<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for StallGuard<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write(cx, buf);
        self.watch(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.watch(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_flush(cx);
        self.watch(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::StallGuard;

    fn guard<T>(io: T) -> StallGuard<T> {
        StallGuard {
            io,
            limit: Duration::from_millis(50),
            stalled: None,
        }
    }

    #[tokio::test]
    async fn a_write_nobody_reads_fails_after_the_limit() {
        let (ours, _theirs) = tokio::io::duplex(16);
        let mut ours = guard(ours);
        let written = tokio::time::timeout(Duration::from_secs(10), ours.write_all(&[0; 64])).await;
        let error = written.ok().and_then(Result::err);
        assert_eq!(error.map(|e| e.kind()), Some(std::io::ErrorKind::TimedOut));
    }

    #[tokio::test]
    async fn a_reader_that_keeps_up_never_trips_it() {
        let (ours, mut theirs) = tokio::io::duplex(16);
        let reader = tokio::spawn(async move {
            let mut all = Vec::new();
            let _ = theirs.read_to_end(&mut all).await;
            all.len()
        });
        let mut ours = guard(ours);
        for _ in 0..100 {
            ours.write_all(&[1; 64]).await.ok();
        }
        ours.shutdown().await.ok();
        drop(ours);
        assert_eq!(reader.await.ok(), Some(6400));
    }
}
