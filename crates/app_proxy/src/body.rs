//! The bodies the proxy answers with: an app's, streamed as it comes, or a
//! page of its own.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame, Incoming, SizeHint};

use crate::pool::Reuse;

/// A response body from the proxy.
pub struct ProxyBody(Kind);

enum Kind {
    Upstream(Upstream),
    Whole(Option<Bytes>),
}

struct Upstream {
    body: Incoming,
    ended: bool,
    /// The app connection the body came on, kept alive for the next request
    /// once the body has been read to the end (not if the client left early:
    /// the rest of the body would still be on the wire).
    reuse: Option<Reuse>,
}

impl ProxyBody {
    pub(crate) fn upstream(body: Incoming, reuse: Option<Reuse>) -> Self {
        Self(Kind::Upstream(Upstream {
            body,
            ended: false,
            reuse,
        }))
    }

    pub(crate) fn whole(bytes: impl Into<Bytes>) -> Self {
        Self(Kind::Whole(Some(bytes.into())))
    }

    pub(crate) fn empty() -> Self {
        Self(Kind::Whole(None))
    }
}

impl Body for ProxyBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        match &mut self.get_mut().0 {
            Kind::Upstream(upstream) => {
                let polled = Pin::new(&mut upstream.body).poll_frame(cx);
                match &polled {
                    Poll::Ready(None) => upstream.ended = true,
                    Poll::Ready(Some(Ok(_))) => upstream.ended = upstream.body.is_end_stream(),
                    Poll::Ready(Some(Err(_))) | Poll::Pending => {}
                }
                // Handed back before the last bytes reach the client, so a
                // client that asks again at once finds the connection free.
                if upstream.ended
                    && let Some(reuse) = upstream.reuse.take()
                {
                    reuse.give_back();
                }
                polled
            }
            Kind::Whole(bytes) => Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.0 {
            Kind::Upstream(upstream) => upstream.ended || upstream.body.is_end_stream(),
            Kind::Whole(bytes) => bytes.is_none(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.0 {
            Kind::Upstream(upstream) => upstream.body.size_hint(),
            Kind::Whole(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
        }
    }
}

impl Drop for Upstream {
    fn drop(&mut self) {
        if (self.ended || self.body.is_end_stream())
            && let Some(reuse) = self.reuse.take()
        {
            reuse.give_back();
        }
    }
}
