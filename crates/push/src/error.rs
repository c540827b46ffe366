//! Why a push call failed, in words the settings page shows as they are.

#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error("no such device subscription")]
    NotFound,
    /// Bad input: an endpoint that is not https (nor http on loopback), keys
    /// that are not a P-256 point and a 16-byte secret, an empty name.
    #[error("{field}: {reason}")]
    Invalid { field: &'static str, reason: String },
    /// The saved VAPID key does not read as one: the person replaced it
    /// among the saved keys, which the saved keys' API allows.
    #[error(
        "The saved key {} is not a Web Push key any more (it was replaced). Delete it from the \
         saved keys and a new one is made; every device then subscribes again.",
        crate::VAPID_KEY_NAME
    )]
    DamagedKey,
    /// The machine gave no randomness for a new key.
    #[error("no randomness for a new VAPID key: {0}")]
    NoRandomness(String),
    #[error("payload encryption failed: {0}")]
    Encrypt(String),
    #[error(transparent)]
    Secrets(#[from] secrets::SecretsError),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl PushError {
    pub(crate) fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        PushError::Invalid {
            field,
            reason: reason.into(),
        }
    }
}

impl From<store::rusqlite::Error> for PushError {
    fn from(e: store::rusqlite::Error) -> Self {
        PushError::Store(e.into())
    }
}
