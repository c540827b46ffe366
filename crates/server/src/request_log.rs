//! `RUST_LOG=debug` shows each request (method, path, status, time). Only
//! the path is logged, never the query (a login link carries the token
//! there) nor a body, and paths whose last part is a secret (a webhook's
//! address, a published dashboard's link) are logged without it.

use axum::http::Request;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::{DefaultOnResponse, MakeSpan, TraceLayer};
use tracing::{Level, Span};

/// Paths (on either listener) whose remainder is a secret.
const SECRET_PATHS: [&str; 5] = [
    "/hooks/",
    "/public/dashboards/",
    "/api/hooks/",
    "/api/public/dashboards/",
    "/api/messenger/webhook/",
];

#[derive(Clone, Copy)]
pub struct RedactedSpan;

impl<B> MakeSpan<B> for RedactedSpan {
    fn make_span(&mut self, request: &Request<B>) -> Span {
        let path = redacted(request.uri().path());
        tracing::debug_span!("request", method = %request.method(), path = %path)
    }
}

fn redacted(path: &str) -> String {
    match SECRET_PATHS.iter().find(|p| path.starts_with(*p)) {
        Some(prefix) => format!("{prefix}…"),
        None => path.to_owned(),
    }
}

pub fn layer() -> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, RedactedSpan> {
    TraceLayer::new_for_http()
        .make_span_with(RedactedSpan)
        .on_response(DefaultOnResponse::new().level(Level::DEBUG))
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn secrets_in_paths_are_left_out() {
        assert_eq!(redacted("/hooks/abc123"), "/hooks/…");
        assert_eq!(
            redacted("/api/public/dashboards/t0k3n"),
            "/api/public/dashboards/…"
        );
        assert_eq!(redacted("/sessions/42"), "/sessions/42");
    }
}
