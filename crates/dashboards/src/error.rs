//! What every function of the crate fails with.

use store::rusqlite;

/// What every function of this crate can fail with. The server maps
/// `NotFound` to 404, `Invalid` to 400, `Stale` to 412 and the rest to 500.
#[derive(Debug, thiserror::Error)]
pub enum DashboardsError {
    /// Missing, or belonging to another account: the two are indistinguishable.
    #[error("The {what} does not exist.")]
    NotFound { what: &'static str },
    /// Malformed or invalid input; nothing was stored.
    #[error("{message}")]
    Invalid { message: String },
    /// `If-Match` named a version other than the current one; nothing was stored.
    #[error("The dashboard was changed since you read it; reload it and apply your change again.")]
    Stale,
    /// The operating system's random source failed, so no token was made.
    #[error("cannot read the system random source")]
    Random(#[from] std::io::Error),
    #[error("database error")]
    Database(#[from] rusqlite::Error),
    /// A failure of the boards module other than a missing board.
    #[error(transparent)]
    Boards(boards::BoardsError),
}

/// A board or workspace the boards module did not find is missing here too.
impl From<boards::BoardsError> for DashboardsError {
    fn from(error: boards::BoardsError) -> Self {
        match error {
            boards::BoardsError::NotFound { what } => DashboardsError::NotFound { what },
            other => DashboardsError::Boards(other),
        }
    }
}

pub type Result<T, E = DashboardsError> = std::result::Result<T, E>;

pub(crate) fn invalid(message: impl Into<String>) -> DashboardsError {
    DashboardsError::Invalid {
        message: message.into(),
    }
}

pub(crate) fn not_found(what: &'static str) -> DashboardsError {
    DashboardsError::NotFound { what }
}
