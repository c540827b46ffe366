//! Why an SMS call failed, in words shown to the person as they are.

#[derive(Debug, thiserror::Error)]
pub enum SmsError {
    /// Bad input: an empty or too long text, a number that is not one.
    #[error("{0}")]
    Invalid(String),
    /// `DIR/sms.toml` is missing, or has no section for the chosen provider.
    #[error("text messages are not set up: {0}")]
    NotConfigured(String),
    #[error("{path} cannot be used: {detail}")]
    BadConfig { path: String, detail: String },
    /// An incoming delivery whose signature or timestamp does not check out.
    #[error("the delivery's signature does not match")]
    BadSignature,
    #[error("no such conversation")]
    NotFound,
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for SmsError {
    fn from(e: store::rusqlite::Error) -> Self {
        SmsError::Store(e.into())
    }
}
