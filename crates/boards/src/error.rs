//! What every function of the crate fails with, and the checks whose
//! refusals every module words the same way.

use store::rusqlite;

/// What every function of this crate can fail with. The server maps
/// `NotFound` to 404, `Invalid` to 400, `Conflict` to 409, and `Database`,
/// `Compression` and `KeptBody` to 500.
#[derive(Debug, thiserror::Error)]
pub enum BoardsError {
    /// Missing, or belonging to another account: the two are indistinguishable.
    #[error("The {what} does not exist.")]
    NotFound { what: &'static str },
    /// Malformed or invalid input; nothing was stored.
    #[error("{message}")]
    Invalid { message: String },
    /// A client-chosen id is already taken within the board.
    #[error("{message}")]
    Conflict { message: String },
    #[error("database error")]
    Database(#[from] rusqlite::Error),
    /// A built board's body could not be compressed or expanded.
    #[error("compression error")]
    Compression(#[source] std::io::Error),
    /// A kept columns-form body could not be read back (see `shared_dicts`).
    #[error("a kept board body could not be read: {0}")]
    KeptBody(String),
}

pub type Result<T, E = BoardsError> = std::result::Result<T, E>;

pub(crate) fn invalid(message: impl Into<String>) -> BoardsError {
    BoardsError::Invalid {
        message: message.into(),
    }
}

pub(crate) fn not_found(what: &'static str) -> BoardsError {
    BoardsError::NotFound { what }
}

/// A trimmed name of 1 to 500 characters; `what` names the field in a refusal.
pub(crate) fn check_name(what: &str, name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(invalid(format!("{what} must not be empty")));
    }
    if name.chars().count() > 500 {
        return Err(invalid(format!("{what} must be at most 500 characters")));
    }
    Ok(name.to_owned())
}
