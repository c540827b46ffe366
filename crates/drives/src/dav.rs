//! HTTP for drives: one WebDAV request through ureq (rustls), with Basic
//! credentials sent to the account's own origin only, no global time limit
//! (a 2 GB transfer takes what it takes) but a limit on every read and
//! write so a silent server ends the request, and the answers' statuses
//! turned into [`DriveError`]s.

use std::io::Read;
use std::time::Duration;

use base64::Engine;
use ureq::http::{self, Response};

use crate::error::{DriveError, Result};

/// How long one read or write on the socket may wait: a server that stops
/// mid-transfer ends it after this, rather than hanging the caller.
const IDLE_LIMIT: Duration = Duration::from_secs(60);
const CONNECT_LIMIT: Duration = Duration::from_secs(15);

pub(crate) struct Dav {
    agent: ureq::Agent,
    authorization: String,
    /// `scheme://host[:port]` of the account URL: the one origin the
    /// credentials go to.
    origin: String,
}

/// A request's body: nothing, bytes held in memory (small XML, a small
/// file), or a reader streamed with its length when known (chunked
/// otherwise).
pub(crate) enum Body<'a> {
    None,
    Bytes(&'a [u8]),
    Reader(&'a mut dyn Read, Option<u64>),
}

impl Dav {
    pub fn new(account_url: &str, username: &str, password: &str) -> Dav {
        let pair = format!("{username}:{password}");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .allow_non_standard_methods(true)
            .max_redirects(0)
            .timeout_connect(Some(CONNECT_LIMIT))
            .timeout_per_read(Some(IDLE_LIMIT))
            .timeout_per_write(Some(IDLE_LIMIT))
            .user_agent("switchboard")
            .build()
            .into();
        Dav {
            agent,
            authorization: format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(pair)
            ),
            origin: origin(account_url).to_ascii_lowercase(),
        }
    }

    /// Sends one request and returns the answer whatever its status;
    /// `Err` only when no answer came.
    pub fn send(
        &self,
        method: &str,
        url: &str,
        headers: &[(&str, &str)],
        body: Body<'_>,
    ) -> Result<Response<ureq::Body>> {
        let method_value = http::Method::from_bytes(method.as_bytes())
            .map_err(|_| DriveError::Remote(format!("{method} is not an HTTP method")))?;
        let mut request = http::Request::builder().method(method_value).uri(url);
        if origin(url).eq_ignore_ascii_case(&self.origin) {
            request = request.header("Authorization", &self.authorization);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let unusable =
            |e: http::Error| DriveError::Remote(format!("{url} is not a usable URL: {e}"));
        let sent = match body {
            Body::None => self.agent.run(request.body(()).map_err(unusable)?),
            Body::Bytes(bytes) => self.agent.run(request.body(bytes).map_err(unusable)?),
            Body::Reader(reader, length) => {
                if let Some(length) = length {
                    request = request.header("Content-Length", length.to_string());
                }
                let body = ureq::SendBody::from_reader(reader);
                self.agent.run(request.body(body).map_err(unusable)?)
            }
        };
        sent.map_err(|e| transport(url, e))
    }
}

/// Why no answer came, in words; an I/O error of the caller's own reader
/// (an upload's source) stays an I/O error.
pub(crate) fn transport(url: &str, error: ureq::Error) -> DriveError {
    let why = match error {
        ureq::Error::Timeout(_) => format!("no answer within {} s", IDLE_LIMIT.as_secs()),
        ureq::Error::HostNotFound => "its host name does not resolve".to_owned(),
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            "the connection was refused".to_owned()
        }
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::Other => {
            return DriveError::Io(e);
        }
        other => other.to_string(),
    };
    DriveError::Remote(format!("{}: {why}", origin(url)))
}

/// The error a status other than success means for `path`.
pub(crate) fn refusal(status: u16, path: &str) -> DriveError {
    match status {
        401 | 403 => DriveError::Refused {
            status,
            path: path.to_owned(),
        },
        404 | 410 => DriveError::NotFound(path.to_owned()),
        409 => DriveError::Conflict(format!(
            "{path}: the folder it would be in does not exist (409)"
        )),
        412 => DriveError::Conflict(format!(
            "{path} changed on the drive since it was read (412)"
        )),
        413 | 507 => {
            DriveError::Remote(format!("{path}: the server has no room for it ({status})"))
        }
        s if s >= 500 => DriveError::Remote(format!("{path}: the server failed ({s})")),
        s => DriveError::Remote(format!("{path}: the server answered {s} unexpectedly")),
    }
}

/// `scheme://host[:port]` of a URL.
pub(crate) fn origin(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let end = url[after_scheme..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| i + after_scheme);
    &url[..end]
}

/// The path part of an href or URL (what follows the origin, without a
/// query), `/` when empty.
pub(crate) fn path_of(url: &str) -> &str {
    let rest = if url.starts_with('/') {
        url
    } else {
        &url[origin(url).len()..]
    };
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    if rest.is_empty() { "/" } else { rest }
}

/// A response header's value, when it is text.
pub(crate) fn header<'a>(response: &'a Response<ureq::Body>, name: &str) -> Option<&'a str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}
