//! What the mail client's application layer fails with, kept apart from
//! `AppError` so the HTTP layer can tell a field the person got wrong
//! (400) from a mail server's refusal (502, with the server's words).

#[derive(Debug, thiserror::Error)]
pub enum MailClientError {
    /// A field of the request is wrong; nothing was changed.
    #[error("{field} {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error("{0}")]
    NotFound(String),
    /// An `email.toml` account, which only that file changes.
    #[error("{0}")]
    ReadOnly(String),
    /// The account's servers cannot be reached or refused: their words.
    #[error("{0}")]
    Unreachable(String),
    #[error(transparent)]
    Client(#[from] mailclient::ClientError),
    #[error(transparent)]
    Mail(#[from] mail::MailError),
    #[error(transparent)]
    Secrets(#[from] secrets::SecretsError),
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Inbox(#[from] inbox::InboxError),
    /// The utility model did not write a summary (none set up, the day's
    /// cap reached, or it failed).
    #[error(transparent)]
    Summary(#[from] utility::UtilityError),
    /// A blocking task panicked or was cancelled: a bug.
    #[error("a background task did not finish")]
    Task(#[from] tokio::task::JoinError),
}

impl MailClientError {
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        MailClientError::Invalid {
            field,
            message: message.into(),
        }
    }
}

impl From<store::rusqlite::Error> for MailClientError {
    fn from(e: store::rusqlite::Error) -> Self {
        MailClientError::Store(e.into())
    }
}

/// Runs a synchronous store call off the async workers.
pub async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, MailClientError> + Send + 'static,
) -> Result<T, MailClientError> {
    tokio::task::spawn_blocking(work).await?
}
