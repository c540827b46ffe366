//! What can go wrong managing hooks or taking a delivery.

pub const MAX_NAME_CHARS: usize = 100;
pub const MAX_SIGNING_SECRET_CHARS: usize = 200;

#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    #[error("name must be 1 to {MAX_NAME_CHARS} characters")]
    InvalidName,
    #[error("signingSecret must be 1 to {MAX_SIGNING_SECRET_CHARS} characters")]
    InvalidSigningSecret,
    #[error("no such webhook")]
    NotFound,
    /// No hook has this secret. Said the same way as a turned-off feature.
    #[error("no webhook has this address")]
    UnknownHook,
    #[error("this webhook took {per_minute} deliveries in the last minute; try again later")]
    RateLimited { per_minute: usize },
    #[error("the X-Hub-Signature-256 header does not match the body and the signing secret")]
    InvalidSignature,
    #[error("cannot draw a secret from the operating system")]
    Random(#[source] std::io::Error),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for WebhookError {
    fn from(e: store::rusqlite::Error) -> Self {
        WebhookError::Store(e.into())
    }
}
