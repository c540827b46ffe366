//! What can go wrong reading the configuration, calling the Bot API or
//! keeping the bot's state. No message here ever holds the bot token: the
//! client redacts it before it builds one.

#[derive(Debug, thiserror::Error)]
pub enum MessengerError {
    #[error("the messenger bot is not set up: {0}")]
    NotConfigured(String),
    #[error("{path} is not a valid messenger bot configuration: {detail}")]
    BadConfig { path: String, detail: String },
    /// `{"ok": false}`: the service's own code and description.
    #[error("the Bot API refused ({code}): {description}")]
    Api { code: i64, description: String },
    /// HTTP 429: the caller waits `retry_after` seconds before the next call.
    #[error("the Bot API asks to wait {retry_after} s: {description}")]
    RateLimited {
        retry_after: u64,
        description: String,
    },
    #[error("cannot reach the Bot API: {0}")]
    Unreachable(String),
    #[error("the Bot API answered something that is not its reply: {0}")]
    BadReply(String),
    #[error("{0}")]
    InvalidInput(String),
    #[error("no pending pairing request has this code")]
    UnknownPairing,
    #[error("the pairing request has expired; ask for a new code")]
    PairingExpired,
    #[error("cannot draw a random code from the operating system")]
    Random(#[source] std::io::Error),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for MessengerError {
    fn from(e: store::rusqlite::Error) -> Self {
        MessengerError::Store(e.into())
    }
}
