//! Why a Matrix call failed, in words shown to the person as they are.

use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum MatrixError {
    #[error("{0}")]
    Invalid(String),
    /// `DIR/matrix.toml` is missing, or the account has no token yet.
    #[error("the messenger is not set up: {0}")]
    NotConfigured(String),
    #[error("{path} cannot be used: {detail}")]
    BadConfig { path: String, detail: String },
    /// 401 `M_UNKNOWN_TOKEN`: the token was revoked (signed out elsewhere,
    /// password changed); a new login is needed.
    #[error("the homeserver signed this device out; sign in again")]
    TokenRevoked,
    /// Still 429 after waiting as told, [`crate::MAX_RATE_RETRIES`] times.
    #[error("the homeserver is rate limiting; try again in {0:?}")]
    RateLimited(Duration),
    /// 403 `M_FORBIDDEN` on login: wrong user or password.
    #[error("the homeserver refused the user or password")]
    LoginRefused,
    #[error("the homeserver cannot be reached: {0}")]
    Unreachable(String),
    /// Any other error answer, with the spec's error code.
    #[error("the homeserver answered HTTP {status} {errcode}: {message}")]
    Api {
        status: u16,
        errcode: String,
        message: String,
    },
    #[error("no such room")]
    NotFound,
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for MatrixError {
    fn from(e: store::rusqlite::Error) -> Self {
        MatrixError::Store(e.into())
    }
}
