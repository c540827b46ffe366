//! What can go wrong syncing an account, acting on its mail or reading its
//! store.

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error(transparent)]
    Mail(#[from] mail::MailError),
    #[error("IMAP: {0}")]
    Imap(#[from] async_imap::error::Error),
    #[error("IMAP server {server}: {detail}")]
    Protocol { server: String, detail: String },
    /// The server answered NO or BAD; `detail` is its words.
    #[error("IMAP server {server} refused {command}: {detail}")]
    Refused {
        server: String,
        command: String,
        detail: String,
    },
    #[error("no message {uid} in {folder}")]
    NoSuchMessage { folder: String, uid: u32 },
    #[error("no thread {0}")]
    NoSuchThread(String),
    #[error("the account has no {0} folder")]
    NoFolder(String),
    #[error("not a thread list cursor: {0:?}")]
    BadCursor(String),
    #[error("{0}")]
    BadAction(String),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for ClientError {
    fn from(e: store::rusqlite::Error) -> Self {
        ClientError::Store(e.into())
    }
}
