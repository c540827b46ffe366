//! One GET for an import: a time limit on the whole exchange (a server that
//! dribbles its body is cut off too), a size limit on the body, no cookies
//! (this client keeps none, so a fetch never carries anyone's session) and
//! a few redirects.

use std::time::Duration;

use ureq::Agent;

use crate::error::ImportError;

/// Enough for a short link or an http → https hop, never a loop.
const MAX_REDIRECTS: u32 = 5;

/// How much a fetch may read and for how long.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_bytes: u64,
    pub timeout: Duration,
}

impl Default for Limits {
    /// Large enough for a long document or a slide deck's PDF, small enough
    /// that a composer never waits long or holds a video in memory.
    fn default() -> Self {
        Self {
            max_bytes: 5 * 1024 * 1024,
            timeout: Duration::from_secs(10),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Fetched {
    pub url: String,
    /// The media type without parameters, lower case (`text/html`).
    pub content_type: Option<String>,
    /// The name `Content-Disposition` gives (Google's exports name the
    /// document there).
    pub file_name: Option<String>,
    pub body: Vec<u8>,
}

pub fn get(url: &str, accept: &str, limits: Limits) -> Result<Fetched, ImportError> {
    let agent: Agent = Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(limits.timeout))
        .max_redirects(MAX_REDIRECTS)
        .user_agent("switchboard-import")
        .build()
        .into();
    let transport = |error: ureq::Error| transport_error(url, limits, error);
    let mut response = agent
        .get(url)
        .header("Accept", accept)
        .call()
        .map_err(transport)?;
    let status = response.status().as_u16();
    if status >= 400 {
        return Err(ImportError::Status {
            url: url.to_owned(),
            status,
        });
    }
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(|media| media.trim().to_ascii_lowercase())
        .filter(|media| !media.is_empty());
    let file_name = response
        .headers()
        .get("content-disposition")
        .and_then(|value| value.to_str().ok())
        .and_then(disposition_file_name);
    let declared_too_large = response
        .headers()
        .get("content-length")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok())
        .is_some_and(|length| length > limits.max_bytes);
    if declared_too_large {
        return Err(too_large(url, limits));
    }
    let body = response
        .body_mut()
        .with_config()
        .limit(limits.max_bytes)
        .read_to_vec()
        .map_err(transport)?;
    Ok(Fetched {
        url: url.to_owned(),
        content_type,
        file_name,
        body,
    })
}

/// The `filename="…"` of a `Content-Disposition`, without its quotes.
fn disposition_file_name(disposition: &str) -> Option<String> {
    disposition.split(';').find_map(|part| {
        let (key, value) = part.split_once('=')?;
        (key.trim().eq_ignore_ascii_case("filename"))
            .then(|| value.trim().trim_matches('"').to_owned())
            .filter(|name| !name.is_empty())
    })
}

fn too_large(url: &str, limits: Limits) -> ImportError {
    ImportError::TooLarge {
        url: url.to_owned(),
        limit_mib: limits.max_bytes.div_ceil(1024 * 1024),
    }
}

fn transport_error(url: &str, limits: Limits, error: ureq::Error) -> ImportError {
    let reason = match error {
        ureq::Error::Timeout(_) => {
            return ImportError::TimedOut {
                url: url.to_owned(),
                seconds: limits.timeout.as_secs().max(1),
            };
        }
        ureq::Error::BodyExceedsLimit(_) => return too_large(url, limits),
        ureq::Error::HostNotFound => "its host name does not resolve".to_owned(),
        ureq::Error::TooManyRedirects => format!("it redirects more than {MAX_REDIRECTS} times"),
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            "the connection was refused".to_owned()
        }
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => {
            return ImportError::TimedOut {
                url: url.to_owned(),
                seconds: limits.timeout.as_secs().max(1),
            };
        }
        other => other.to_string(),
    };
    ImportError::Unreachable {
        url: url.to_owned(),
        reason,
    }
}
