//! One conditional GET of a feed, on ureq as URL import fetches
//! (crates/imports): a time limit on the whole exchange (a server that never
//! answers, or dribbles, is cut off), a cap on the body (read as far as the
//! cap and no further), a few redirects (a loop is a failure), no cookies.
//! The validators of the last answer go out as `If-None-Match` and
//! `If-Modified-Since`; the answer's own validators and pace hints
//! (`Cache-Control`, `Expires`, `Retry-After`) come back with it.

use std::time::Duration;

use time::OffsetDateTime;
use ureq::{Agent, ResponseExt};

use crate::policy::{self, Hints};

/// How much a fetch may read and for how long.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_bytes: u64,
    pub timeout: Duration,
    pub max_redirects: u32,
}

impl Default for Limits {
    /// URL import's limits: a feed is text, and a big one is a few hundred
    /// kilobytes; 5 MiB leaves room for a podcast's long history.
    fn default() -> Self {
        Self {
            max_bytes: 5 * 1024 * 1024,
            timeout: Duration::from_secs(10),
            max_redirects: 5,
        }
    }
}

/// The validators of the last answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Validators {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// What the server answered.
#[derive(Debug, Clone)]
pub enum Answer {
    /// 304: nothing new.
    NotModified {
        validators: Validators,
        hints: Hints,
    },
    /// 2xx with a body.
    Body {
        /// Where the body came from, after redirects.
        url: String,
        /// The media type without parameters, lower case.
        content_type: Option<String>,
        body: Vec<u8>,
        validators: Validators,
        hints: Hints,
    },
    /// Any other status.
    Refused {
        status: u16,
        retry_after: Option<time::Duration>,
    },
}

/// A client for many fetches (its connections are kept between them).
pub fn agent(limits: Limits) -> Agent {
    Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(limits.timeout))
        .max_redirects(limits.max_redirects)
        .user_agent("switchboard-feeds")
        .build()
        .into()
}

/// GETs `url` with `validators`; `Err` holds why it could not be read, in
/// words shown on the feed.
pub fn get(
    agent: &Agent,
    url: &str,
    validators: &Validators,
    limits: Limits,
    now: OffsetDateTime,
) -> Result<Answer, String> {
    let mut request = agent.get(url).header(
        "Accept",
        "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5",
    );
    if let Some(etag) = &validators.etag {
        request = request.header("If-None-Match", etag);
    }
    if let Some(since) = &validators.last_modified {
        request = request.header("If-Modified-Since", since);
    }
    let transport = |error: ureq::Error| transport_error(error, limits);
    let mut response = request.call().map_err(transport)?;
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    };
    let status = response.status().as_u16();
    let answered = Validators {
        etag: header("etag"),
        last_modified: header("last-modified"),
    };
    let hints = Hints {
        ttl_minutes: None,
        max_age: header("cache-control").as_deref().and_then(policy::max_age),
        expires: header("expires").as_deref().and_then(policy::http_date),
    };
    if status == 304 {
        return Ok(Answer::NotModified {
            validators: answered,
            hints,
        });
    }
    if !(200..300).contains(&status) {
        return Ok(Answer::Refused {
            status,
            retry_after: header("retry-after")
                .as_deref()
                .and_then(|value| policy::retry_after(value, now)),
        });
    }
    let content_type = header("content-type")
        .and_then(|value| value.split(';').next().map(str::to_owned))
        .map(|media| media.trim().to_ascii_lowercase())
        .filter(|media| !media.is_empty());
    let declared_too_large = header("content-length")
        .and_then(|value| value.trim().parse::<u64>().ok())
        .is_some_and(|length| length > limits.max_bytes);
    if declared_too_large {
        return Err(too_large(limits));
    }
    let final_url = response.get_uri().to_string();
    let body = response
        .body_mut()
        .with_config()
        .limit(limits.max_bytes)
        .read_to_vec()
        .map_err(transport)?;
    Ok(Answer::Body {
        url: final_url,
        content_type,
        body,
        validators: answered,
        hints,
    })
}

fn too_large(limits: Limits) -> String {
    format!(
        "too large: more than {} MiB",
        limits.max_bytes.div_ceil(1024 * 1024)
    )
}

fn transport_error(error: ureq::Error, limits: Limits) -> String {
    let timed_out = || {
        format!(
            "timed out: no whole answer within {} s",
            limits.timeout.as_secs().max(1)
        )
    };
    match error {
        ureq::Error::Timeout(_) => timed_out(),
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => timed_out(),
        ureq::Error::BodyExceedsLimit(_) => too_large(limits),
        ureq::Error::HostNotFound => "its host name does not resolve".to_owned(),
        ureq::Error::TooManyRedirects => format!(
            "redirects more than {} times (a redirect loop?)",
            limits.max_redirects
        ),
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            "the connection was refused".to_owned()
        }
        other => other.to_string(),
    }
}
