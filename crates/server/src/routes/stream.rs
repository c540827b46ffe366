//! `GET /stream`: the live event stream as Server-Sent Events. Any caller,
//! agent tokens included, reads its own account's events; `Last-Event-ID`
//! resumes. The rules (ids, the ring, dropping a stalled reader with `reset`)
//! are the events crate's; this only frames them. Every event ready when the
//! stream is read goes out in one write (a busy session's burst of `output`
//! events costs one chunk of the body, not one per line). An agent token dies
//! with its session, so its stream ends at the first events after that.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use bytes::{BufMut, Bytes, BytesMut};
use tokio::time::{Instant, Sleep, sleep};
use tokio_stream::{Stream, StreamExt};

use crate::auth::Caller;
use crate::state::AppState;

/// The most events one write carries.
const MAX_BATCH: usize = 1024;

pub fn routes() -> Router<AppState> {
    Router::new().route("/stream", get(stream))
}

/// The live event stream (Server-Sent Events), open until the server stops.
///
/// Each event is `id: <opaque>`, `event: <name>`, `data: <one JSON
/// object>`. Send the last id seen as `Last-Event-ID` to resume; `reset`
/// comes first when it is no longer held. An idle stream gets a comment
/// line every 15 s. An account receives only its own events (and every
/// account `settings`). Names and data: docs/api.md, "Event stream". Agent
/// tokens read their account's events until their session ends.
#[utoipa::path(get, path = "/stream",
    params(("Last-Event-ID" = Option<String>, Header, description = "The last event id seen.")),
    responses((status = 200, description = "The events.", content_type = "text/event-stream", body = String)))]
async fn stream(caller: Caller, State(state): State<AppState>, headers: HeaderMap) -> Response {
    let last_event_id = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty());
    let agent_session = caller
        .is_agent()
        .then(|| caller.0.session_id.clone())
        .flatten();
    let sessions = state.sessions.clone();
    let batches = state
        .events
        .subscribe(caller.account_id(), last_event_id)
        .batches(MAX_BATCH)
        .take_while(move |_| {
            agent_session
                .as_deref()
                .is_none_or(|id| sessions.is_live(id))
        })
        .map(|batch| frame(&batch));
    let body = KeepAlive::new(batches, state.stream_keep_alive);
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/event-stream"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        Body::from_stream(body),
    )
        .into_response()
}

/// The events as one piece of the body, each in the SSE form: `id:`,
/// `event:`, one `data:` line (the hub's data is one line of JSON), a blank line.
fn frame(batch: &[Arc<events::Event>]) -> Bytes {
    let size = batch.iter().map(|e| e.id.len() + e.data.len() + 32).sum();
    let mut out = BytesMut::with_capacity(size);
    for event in batch {
        for part in [
            "id: ",
            event.id.as_str(),
            "\nevent: ",
            event.name.as_str(),
            "\ndata: ",
            event.data.as_str(),
            "\n\n",
        ] {
            out.put_slice(part.as_bytes());
        }
    }
    out.freeze()
}

/// The body: the events' pieces, and a `:keep-alive` comment after every
/// `interval` without one, so proxies and clients know the stream is alive.
struct KeepAlive<S> {
    pieces: S,
    interval: Duration,
    timer: Pin<Box<Sleep>>,
}

impl<S> KeepAlive<S> {
    fn new(pieces: S, interval: Duration) -> Self {
        KeepAlive {
            pieces,
            interval,
            timer: Box::pin(sleep(interval)),
        }
    }
}

impl<S: Stream<Item = Bytes> + Unpin> Stream for KeepAlive<S> {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let next = Instant::now() + self.interval;
        match Pin::new(&mut self.pieces).poll_next(cx) {
            Poll::Ready(Some(piece)) => {
                self.timer.as_mut().reset(next);
                Poll::Ready(Some(Ok(piece)))
            }
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => match self.timer.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    self.timer.as_mut().reset(next);
                    Poll::Ready(Some(Ok(Bytes::from_static(b":keep-alive\n\n"))))
                }
                Poll::Pending => Poll::Pending,
            },
        }
    }
}
