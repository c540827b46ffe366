//! What can go wrong reading the configuration, watching a mailbox or sending
//! a reply.

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// `DIR/email.toml` is missing: email is not set up.
    #[error("email is not set up: {0}")]
    NotConfigured(String),
    #[error("{path}: {detail}")]
    BadConfig { path: String, detail: String },
    /// `emailInboundInboxId` names no account of `email.toml`, or is malformed.
    #[error("emailInboundInboxId {id:?}: {detail}")]
    UnknownInbox { id: String, detail: String },
    #[error("cannot read the CA file {path}: {detail}")]
    CaFile { path: String, detail: String },
    #[error("cannot reach {server}: {source}")]
    Connect {
        server: String,
        #[source]
        source: std::io::Error,
    },
    #[error("TLS with {server} failed: {source}")]
    Tls {
        server: String,
        #[source]
        source: std::io::Error,
    },
    #[error("IMAP: {0}")]
    Imap(#[from] async_imap::error::Error),
    #[error("IMAP server {server} refused the login: {detail}")]
    Login { server: String, detail: String },
    #[error("IMAP server {server}: {detail}")]
    Protocol { server: String, detail: String },
    #[error("not a mail message")]
    NotAMessage,
    #[error("cannot build the reply: {0}")]
    Build(String),
    #[error("SMTP: {0}")]
    Smtp(#[from] lettre::transport::smtp::Error),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for MailError {
    fn from(e: store::rusqlite::Error) -> Self {
        MailError::Store(e.into())
    }
}
