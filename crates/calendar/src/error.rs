//! What can go wrong with calendar accounts, their servers and their data.

#[derive(Debug, thiserror::Error)]
pub enum CalendarError {
    /// Bad input from the caller (a URL, a kind, a missing password), and
    /// the request field it is about, so the server's 400 can name it.
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// What was looked for and is not there, in words ("calendar
    /// account", "invitation in the trash").
    #[error("no such {0}")]
    NotFound(&'static str),
    /// The server or the network failed the sync; the account is marked
    /// failing with this reason and keeps the events it had.
    #[error("{0}")]
    Remote(String),
    /// iCalendar text that cannot be read.
    #[error("the calendar data cannot be read: {0}")]
    Ics(String),
    #[error(transparent)]
    Secrets(#[from] secrets::SecretsError),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for CalendarError {
    fn from(e: store::rusqlite::Error) -> Self {
        CalendarError::Store(e.into())
    }
}

impl CalendarError {
    pub(crate) fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        CalendarError::Invalid {
            field,
            message: message.into(),
        }
    }
}

pub type Result<T, E = CalendarError> = std::result::Result<T, E>;
