//! `switchboard_http_request_duration_seconds`: each request's time from its
//! arrival to its response's head, labelled by the route's template
//! (`/sessions/{id}`, from axum's `MatchedPath`), never the path a client
//! sent, so ids and secrets neither reach a scraper nor grow a series each.
//! The layer wraps every other one, so a request the guards refuse or the
//! timeout ends is timed too. A streamed body (an event stream, a board read)
//! is timed to its head: its length is the client's, not the server's work.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;

/// The metrics to record into, and the listener's name as its label.
pub type Recorder = (Arc<metrics::Metrics>, &'static str);

pub async fn record(
    State((metrics, listener)): State<Recorder>,
    request: Request,
    next: Next,
) -> Response {
    let arrived = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|path| path.as_str().to_owned());
    let method = request.method().clone();
    let response = next.run(request).await;
    metrics.http_request(
        route.as_deref(),
        method.as_str(),
        listener,
        arrived.elapsed(),
    );
    response
}
