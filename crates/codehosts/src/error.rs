//! What can go wrong reading `codehosts.toml` or calling a code host, said
//! so a user knows what to do. `host` is the host's name and address, e.g.
//! "github (api.github.com)". No message ever holds a token: the client
//! redacts it from everything it quotes.

use std::path::PathBuf;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeHostError {
    #[error("{} is not a valid code host configuration: {detail}", path.display())]
    Config { path: PathBuf, detail: String },
    /// The revealed token cannot go into a header as it is; nothing was sent.
    #[error(
        "the saved key {token_key} does not hold a token for {host}: it is empty or has spaces or control characters"
    )]
    BadToken { host: String, token_key: String },
    /// A project path the host cannot have; nothing was sent.
    #[error("{project:?} is not a project on {host}: {detail}")]
    BadProject {
        host: String,
        project: String,
        detail: String,
    },
    /// 401, or a GitHub 403 that is not a rate limit (and GitLab's 403): the
    /// token is refused, or may not do this.
    #[error("{host} answered {detail}")]
    Unauthorized { host: String, detail: String },
    /// 404 (GitHub's answer for a private repository the token cannot see
    /// too), or a project that moved (a redirect, which is not followed).
    #[error("{host} answered {detail}")]
    NotFound { host: String, detail: String },
    /// No request before `until` (seconds since the epoch); the client
    /// refuses calls before then without sending them.
    #[error("{host} limits this token's requests until {}; nothing is sent before then", moment(*until))]
    RateLimited { host: String, until: i64 },
    #[error("{host} answered {status}, a fault on its side; try again later")]
    Server { host: String, status: u16 },
    /// A 4xx the request caused (400, 409, 422), with the host's message,
    /// e.g. a pull request for the branch already exists.
    #[error("{host} answered {detail}")]
    Refused { host: String, detail: String },
    /// No answer: refused connection, unknown name, TLS, the 15 s timeout.
    #[error("cannot reach {host}: {detail}")]
    Transport { host: String, detail: String },
    /// An answer that is not what the host's API documents.
    #[error("{host} answered something its API does not document: {detail}")]
    Invalid { host: String, detail: String },
}

/// RFC 3339 in UTC, or the bare number when it is no moment `time` knows.
fn moment(epoch: i64) -> String {
    OffsetDateTime::from_unix_timestamp(epoch)
        .ok()
        .and_then(|at| at.format(&Rfc3339).ok())
        .unwrap_or_else(|| format!("{epoch} (seconds since the epoch)"))
}
