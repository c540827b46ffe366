//! `GET /stream`: the live event stream as Server-Sent Events. Any caller,
//! agent tokens included, reads its own account's events; `Last-Event-ID`
//! resumes. The rules (ids, the ring, dropping a stalled reader with `reset`)
//! are the events crate's; this only frames them. An agent token dies with its
//! session, so its stream ends at the first event after that.

use std::convert::Infallible;

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use tokio_stream::{Stream, StreamExt};

use crate::auth::Caller;
use crate::state::AppState;

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
async fn stream(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
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
    let events = state
        .events
        .subscribe(caller.account_id(), last_event_id)
        .take_while(move |_| {
            agent_session
                .as_deref()
                .is_none_or(|id| sessions.is_live(id))
        })
        .map(|event| {
            Ok(Event::default()
                .id(&event.id)
                .event(event.name.as_str())
                .data(&event.data))
        });
    Sse::new(events).keep_alive(
        KeepAlive::new()
            .interval(state.stream_keep_alive)
            .text("keep-alive"),
    )
}
