//! The guards every request passes on both listeners before any route runs:
//! an exact Host allowlist (DNS rebinding), an Origin check (drive-by pages),
//! JSON-only bodies on writes, and the 1 MiB body ceiling. A last layer turns
//! any error the framework produced on its own into the contract's shape.
//!
//! A drive upload (`PUT /drives/{id}/files`) is a file's raw bytes, of any
//! size the drives crate allows, streamed: neither rule applies to it.
//!
//! The other exception: webhook deliveries (`/hooks/...`, control server only)
//! come from services that post JSON, text or forms, so they may be any of
//! those, and are held to a smaller ceiling, 256 KiB.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use crate::error::ApiError;

pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// A webhook delivery's ceiling: ample for CI and alerting payloads.
pub const MAX_HOOK_BODY_BYTES: usize = 256 * 1024;
const HOOKS_PREFIX: &str = "/hooks/";
/// The image upload's path on the control server and under the UI's `/api`.
const ATTACHMENT_PATHS: [&str; 2] = ["/attachments", "/api/attachments"];

/// What one listener accepts as `Host` and `Origin`.
#[derive(Debug, Clone)]
pub struct Allowlist {
    hosts: Vec<String>,
    origins: Vec<String>,
    /// This listener serves webhook deliveries (the control server).
    hooks: bool,
    /// The remote ports of the runners' reverse tunnels: an engine on a
    /// runner host reaches this listener as `127.0.0.1:<tunnel port>`.
    tunnels: Option<runners::TunnelPorts>,
}

impl Allowlist {
    /// `port` is the listener's own port; `ui_port` the UI server's, whose
    /// pages are the only origin allowed to call either listener.
    pub fn new(port: u16, ui_port: u16) -> Self {
        let authorities = |p: u16| {
            [
                format!("127.0.0.1:{p}"),
                format!("localhost:{p}"),
                format!("[::1]:{p}"),
            ]
        };
        Self {
            hosts: authorities(port).to_vec(),
            origins: authorities(ui_port).map(|a| format!("http://{a}")).to_vec(),
            hooks: false,
            tunnels: None,
        }
    }

    /// This listener is also reached through the runners' tunnels, as
    /// `127.0.0.1` at each tunnel's remote port (a literal address, so no
    /// rebound name can pass).
    pub fn with_tunnels(mut self, tunnels: runners::TunnelPorts) -> Self {
        self.tunnels = Some(tunnels);
        self
    }

    /// This listener is also reached by these exact names (`DIR/hosts.toml`:
    /// a tunnel, Tailscale Serve or an SSH forward), and its pages there
    /// call it from that name's `https` or `http` origin.
    pub fn with_names(mut self, names: &[String]) -> Self {
        for name in names {
            self.hosts.push(name.clone());
            self.origins.push(format!("https://{name}"));
            self.origins.push(format!("http://{name}"));
        }
        self
    }

    /// This listener also takes webhook deliveries under `/hooks/`.
    pub fn with_hooks(mut self) -> Self {
        self.hooks = true;
        self
    }

    fn host_allowed(&self, headers: &HeaderMap) -> bool {
        let mut values = headers.get_all(header::HOST).iter();
        let (Some(host), None) = (values.next(), values.next()) else {
            return false;
        };
        let Ok(host) = host.to_str() else {
            return false;
        };
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
            || self.tunnels.as_ref().is_some_and(|tunnels| {
                host.strip_prefix("127.0.0.1:")
                    .and_then(|port| port.parse().ok())
                    .is_some_and(|port| tunnels.contains(port))
            })
    }

    fn origin_allowed(&self, headers: &HeaderMap) -> bool {
        let mut values = headers.get_all(header::ORIGIN).iter();
        match (values.next(), values.next()) {
            (None, _) => true,
            (Some(origin), None) => origin.to_str().is_ok_and(|o| {
                self.origins
                    .iter()
                    .any(|allowed| allowed.eq_ignore_ascii_case(o))
            }),
            _ => false,
        }
    }
}

pub async fn check_request(
    State(allow): State<Allowlist>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    if !allow.host_allowed(headers) {
        return ApiError::forbidden(
            "forbidden_host",
            "The Host header must name this server on the loopback address.",
        )
        .into_response();
    }
    if !allow.origin_allowed(headers) {
        return ApiError::forbidden(
            "forbidden_origin",
            "Requests from other web origins are refused.",
        )
        .into_response();
    }
    let hook = allow.hooks && request.uri().path().starts_with(HOOKS_PREFIX);
    if request.method() == Method::PUT && is_drive_upload(request.uri().path()) {
        return next.run(request).await;
    }
    if request.method() == Method::POST && ATTACHMENT_PATHS.contains(&request.uri().path()) {
        return match upload_refusal(headers) {
            Some(refusal) => refusal.into_response(),
            None => next.run(request).await,
        };
    }
    match body_refusal(request.method(), headers, hook) {
        None => next.run(request).await,
        Some(Refusal::Now(refusal)) => refusal.into_response(),
        Some(Refusal::UnlessEmpty(refusal)) => {
            let (mut parts, body) = request.into_parts();
            match is_empty(body).await {
                Ok(true) => {
                    parts.headers.remove(header::TRANSFER_ENCODING);
                    parts
                        .headers
                        .insert(header::CONTENT_LENGTH, HeaderValue::from_static("0"));
                    next.run(Request::from_parts(parts, Body::empty())).await
                }
                Ok(false) => refusal.into_response(),
                Err(_) => ApiError::bad_request(
                    "invalid_request",
                    "The request's chunked body could not be read.",
                )
                .into_response(),
            }
        }
    }
}

/// Why the headers alone refuse a request.
enum Refusal {
    Now(ApiError),
    /// A chunked write that is not JSON: the contract asks for JSON only when
    /// there is a body, and an HTTP client may frame no body at all as one
    /// empty last chunk (ureq does, for a POST), which only reading shows.
    UnlessEmpty(ApiError),
}

/// Reads a chunked body up to its first byte: whether it has none.
async fn is_empty(mut body: Body) -> Result<bool, axum::Error> {
    while let Some(frame) = body.frame().await {
        if frame?.data_ref().is_some_and(|data| !data.is_empty()) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn body_refusal(method: &Method, headers: &HeaderMap, hook: bool) -> Option<Refusal> {
    let declared_length = match headers.get(header::CONTENT_LENGTH) {
        None => None,
        Some(value) => match value
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
        {
            Some(length) => Some(length),
            None => {
                return Some(Refusal::Now(ApiError::bad_request(
                    "invalid_request",
                    "The Content-Length header is not a number.",
                )));
            }
        },
    };
    if hook && declared_length.is_some_and(|l| l > MAX_HOOK_BODY_BYTES as u64) {
        return Some(Refusal::Now(hook_too_large()));
    }
    if declared_length.is_some_and(|l| l > MAX_BODY_BYTES as u64) {
        return Some(Refusal::Now(ApiError::for_status(
            StatusCode::PAYLOAD_TOO_LARGE,
        )));
    }
    let chunked = headers.contains_key(header::TRANSFER_ENCODING);
    let has_body = declared_length.is_some_and(|l| l > 0) || chunked;
    let changes_state = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    if hook && has_body && !is_hook_payload(headers) {
        return Some(Refusal::Now(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "A webhook delivery must be sent as JSON, text or a form.",
        )));
    }
    if changes_state && has_body && !hook && !is_json(headers) {
        let refusal = ApiError::for_status(StatusCode::UNSUPPORTED_MEDIA_TYPE);
        return Some(if chunked && declared_length.is_none() {
            Refusal::UnlessEmpty(refusal)
        } else {
            Refusal::Now(refusal)
        });
    }
    None
}

/// How long a request may take to be answered: past it, 408.
const ANSWER_WITHIN: std::time::Duration = std::time::Duration::from_secs(30);

/// Answers 408 for a request not answered within [`ANSWER_WITHIN`], but a
/// drive upload, whose body takes as long as the file is large to arrive
/// (its own socket limits end one that stalls).
pub async fn time_limit(request: Request, next: Next) -> Response {
    if request.method() == Method::PUT && is_drive_upload(request.uri().path()) {
        return next.run(request).await;
    }
    match tokio::time::timeout(ANSWER_WITHIN, next.run(request)).await {
        Ok(response) => response,
        Err(_) => StatusCode::REQUEST_TIMEOUT.into_response(),
    }
}

/// `PUT /drives/{id}/files` (or under `/api`): a file streamed to a drive,
/// any type and size (the drives crate holds it to its own limit).
pub fn is_drive_upload(path: &str) -> bool {
    let path = path.strip_prefix("/api").unwrap_or(path);
    path.strip_prefix("/drives/")
        .and_then(|rest| rest.strip_suffix("/files"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

/// An image upload's headers: an image type (the route checks which one
/// against the bytes) and a declared length within the ceiling; a chunked
/// body that outgrows it is the route's 413.
fn upload_refusal(headers: &HeaderMap) -> Option<ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|l| l > attachments::MAX_BYTES as u64) {
        return Some(attachment_too_large());
    }
    let image = content_type(headers).is_some_and(|essence| essence.starts_with("image/"));
    (!image).then(|| {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "An attachment is sent as its raw bytes with Content-Type image/png, image/jpeg, \
             image/gif or image/webp.",
        )
    })
}

/// The 413 of an image over the attachments' ceiling.
pub fn attachment_too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        "An attached image may be at most 10 MiB.",
    )
}

/// The 413 of a webhook delivery over [`MAX_HOOK_BODY_BYTES`] (the route
/// answers the same when a chunked body outgrows it).
pub fn hook_too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        "A webhook delivery may be at most 256 KiB.",
    )
}

fn content_type(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|essence| essence.trim().to_ascii_lowercase())
}

/// JSON, any text, a form (GitHub's default), or no type at all.
fn is_hook_payload(headers: &HeaderMap) -> bool {
    match content_type(headers) {
        None => !headers.contains_key(header::CONTENT_TYPE),
        Some(essence) => {
            essence == "application/json"
                || essence == "application/x-www-form-urlencoded"
                || essence.starts_with("text/")
        }
    }
}

pub fn is_json(headers: &HeaderMap) -> bool {
    content_type(headers).is_some_and(|essence| essence == "application/json")
}

/// Rewrites error responses that did not come from our handlers (an unknown
/// route, a wrong method, a timeout) into the contract's JSON error shape.
/// Longer plain-text error bodies are not anyone's sentence: the generic one is used instead.
const MAX_REJECTION_BYTES: usize = 4 * 1024;

pub async fn error_shape(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    // JSON is the error shape already; HTML is a page a route drew on purpose for a browser that
    // asked for one (the login link's refusal).
    let drawn = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| {
            v.as_bytes().starts_with(b"application/json") || v.as_bytes().starts_with(b"text/html")
        });
    if drawn {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // axum's own rejections (a malformed query string or path) say what was wrong in plain text.
    let error = match axum::body::to_bytes(body, MAX_REJECTION_BYTES).await {
        Ok(text) if status == StatusCode::BAD_REQUEST && !text.trim_ascii().is_empty() => {
            ApiError::bad_request(
                "invalid_request",
                String::from_utf8_lossy(text.trim_ascii()).into_owned(),
            )
        }
        _ => ApiError::for_status(status),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_ENCODING);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(error.body()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        map
    }

    /// The status of a refusal the headers alone decide.
    fn refused_now(refusal: Option<Refusal>) -> StatusCode {
        match refusal {
            Some(Refusal::Now(error)) => error.status,
            Some(Refusal::UnlessEmpty(_)) => panic!("refused only if the body is not empty"),
            None => panic!("not refused"),
        }
    }

    #[test]
    fn an_added_name_is_admitted_and_no_other() {
        let names = ["laptop.tail1234.ts.net".to_owned()];
        let allow = Allowlist::new(19519, 19519).with_names(&names);
        for good in [
            "laptop.tail1234.ts.net",
            "LAPTOP.tail1234.ts.net",
            "127.0.0.1:19519",
        ] {
            assert!(allow.host_allowed(&headers(&[("host", good)])), "{good}");
        }
        for bad in [
            "evil.example",
            "laptop.tail1234.ts.net:8080",
            "x.laptop.tail1234.ts.net",
            "laptop.tail1234.ts.net.evil.example",
        ] {
            assert!(!allow.host_allowed(&headers(&[("host", bad)])), "{bad}");
        }
        let origin = |o: &str| headers(&[("origin", o)]);
        assert!(allow.origin_allowed(&origin("https://laptop.tail1234.ts.net")));
        assert!(!allow.origin_allowed(&origin("https://evil.example")));
        assert!(
            !Allowlist::new(19519, 19519)
                .host_allowed(&headers(&[("host", "laptop.tail1234.ts.net")]))
        );
    }

    #[test]
    fn hosts_are_matched_exactly_and_case_insensitively() {
        let allow = Allowlist::new(19519, 19520);
        for good in ["127.0.0.1:19519", "LOCALHOST:19519", "[::1]:19519"] {
            assert!(allow.host_allowed(&headers(&[("host", good)])), "{good}");
        }
        for bad in [
            "evil.example",
            "localhost.evil.example:19519",
            "127.0.0.1:1",
            "0.0.0.0:19519",
            "127.0.0.1",
            "",
            "127.0.0.1:19519.evil",
        ] {
            assert!(!allow.host_allowed(&headers(&[("host", bad)])), "{bad}");
        }
        assert!(!allow.host_allowed(&HeaderMap::new()));
        assert!(!allow.host_allowed(&headers(&[
            ("host", "127.0.0.1:19519"),
            ("host", "evil.example")
        ])));
    }

    #[test]
    fn only_the_ui_origin_may_call() {
        let allow = Allowlist::new(19519, 19520);
        assert!(allow.origin_allowed(&HeaderMap::new()));
        assert!(allow.origin_allowed(&headers(&[("origin", "http://127.0.0.1:19520")])));
        for bad in [
            "null",
            "http://evil.example",
            "http://127.0.0.1:19519",
            "https://127.0.0.1:19520",
            "http://127.0.0.1:19520/",
        ] {
            assert!(!allow.origin_allowed(&headers(&[("origin", bad)])), "{bad}");
        }
    }

    #[test]
    fn writes_with_bodies_must_be_json() {
        let json = headers(&[
            ("content-length", "2"),
            ("content-type", "application/json; charset=utf-8"),
        ]);
        assert!(body_refusal(&Method::PATCH, &json, false).is_none());
        let text = headers(&[("content-length", "2"), ("content-type", "text/plain")]);
        assert_eq!(
            refused_now(body_refusal(&Method::POST, &text, false)),
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        assert!(body_refusal(&Method::GET, &text, false).is_none());
        let empty = headers(&[("content-length", "0")]);
        assert!(body_refusal(&Method::DELETE, &empty, false).is_none());
        let huge = headers(&[
            ("content-length", "2097152"),
            ("content-type", "application/json"),
        ]);
        assert_eq!(
            refused_now(body_refusal(&Method::POST, &huge, false)),
            StatusCode::PAYLOAD_TOO_LARGE
        );
    }

    /// A POST through the guard with `Transfer-Encoding: chunked`, no type.
    async fn chunked_post(body: Body) -> StatusCode {
        use tower::ServiceExt;
        let app = axum::Router::new().fallback(|| async { "done" }).layer(
            axum::middleware::from_fn_with_state(Allowlist::new(19519, 19520), check_request),
        );
        let request = Request::post("/x")
            .header(header::HOST, "127.0.0.1:19519")
            .header(header::TRANSFER_ENCODING, "chunked")
            .body(body)
            .unwrap();
        app.oneshot(request).await.unwrap().status()
    }

    /// ureq frames a POST without a body as one empty last chunk: no body,
    /// so no type is needed; a chunked body with bytes still must be JSON.
    #[tokio::test]
    async fn an_empty_chunked_write_needs_no_type() {
        assert_eq!(chunked_post(Body::empty()).await, StatusCode::OK);
        let parts = chunks(&["", ""]);
        assert_eq!(chunked_post(parts).await, StatusCode::OK);
        let parts = chunks(&["", "{}"]);
        assert_eq!(
            chunked_post(parts).await,
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
    }

    /// A body that arrives as these chunks.
    fn chunks(chunks: &[&'static str]) -> Body {
        let frames = chunks
            .iter()
            .map(|c| Ok::<_, std::convert::Infallible>(bytes::Bytes::from_static(c.as_bytes())));
        Body::from_stream(tokio_stream::iter(frames.collect::<Vec<_>>()))
    }

    #[test]
    fn webhook_deliveries_may_be_text_up_to_256_kib() {
        let text = headers(&[("content-length", "2"), ("content-type", "text/plain")]);
        assert!(body_refusal(&Method::POST, &text, true).is_none());
        let form = headers(&[
            ("content-length", "2"),
            ("content-type", "application/x-www-form-urlencoded"),
        ]);
        assert!(body_refusal(&Method::POST, &form, true).is_none());
        let untyped = headers(&[("content-length", "2")]);
        assert!(body_refusal(&Method::POST, &untyped, true).is_none());
        let binary = headers(&[
            ("content-length", "2"),
            ("content-type", "application/octet-stream"),
        ]);
        assert_eq!(
            refused_now(body_refusal(&Method::POST, &binary, true)),
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        let big = headers(&[
            ("content-length", "262145"),
            ("content-type", "application/json"),
        ]);
        assert_eq!(
            refused_now(body_refusal(&Method::POST, &big, true)),
            StatusCode::PAYLOAD_TOO_LARGE
        );
        assert!(body_refusal(&Method::POST, &big, false).is_none());
    }
}
