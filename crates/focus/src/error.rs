//! What can go wrong with focus mode or a pomodoro run, and which request
//! field a bad input is about, so the server's 400 can name it.

/// Every error of this crate.
#[derive(Debug, thiserror::Error)]
pub enum FocusError {
    /// A field of a request is malformed or out of range.
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// A move the run's state does not allow (starting while one runs,
    /// skipping with none).
    #[error("{0}")]
    WrongState(&'static str),
    /// A stored row this crate wrote can no longer be read.
    #[error("the stored focus state is unreadable: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Db(#[from] store::rusqlite::Error),
}

impl FocusError {
    /// The request field a bad input is about (`None` for a wrong state or
    /// storage).
    pub fn field(&self) -> Option<&'static str> {
        match self {
            FocusError::Invalid { field, .. } => Some(field),
            _ => None,
        }
    }
}
