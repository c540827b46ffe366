//! What can go wrong with a drive: the caller's input, the account's
//! configuration, and the server's answers, each its own variant so the
//! server can pick the status (a refused password is not a missing file).

#[derive(Debug, thiserror::Error)]
pub enum DriveError {
    /// A path with `..`, `.`, a control character or a backslash, or
    /// otherwise not one a drive can name; refused before any request.
    #[error("{path:?} is not a usable path on a drive: {reason}")]
    BadPath { path: String, reason: &'static str },
    /// Bad input for an account (a URL, a kind, a slot), and the field it
    /// is about, so the server's 400 can name it.
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error("no such drive")]
    NoSuchDrive,
    /// The drive is turned off; the sentence (the caller's) says by what.
    #[error("{0}")]
    Disabled(String),
    /// The slot already has an account (or all three are taken).
    #[error("{0}")]
    SlotTaken(String),
    /// The server answered 401 or 403: the user name or password is wrong,
    /// or the account may not do this.
    #[error("the WebDAV server refused the credentials ({status} {path})")]
    Refused { status: u16, path: String },
    #[error("nothing at {0} on the drive")]
    NotFound(String),
    /// The file changed since the ETag the caller gave (412), or a folder
    /// exists where one is to be made (405 on MKCOL).
    #[error("{0}")]
    Conflict(String),
    /// An upload larger than the limit, or a listing larger than the cap.
    #[error("{what} is larger than the limit of {limit} bytes")]
    TooLarge { what: &'static str, limit: u64 },
    /// The server failed, answered something unreadable, or could not be
    /// reached: the words say which.
    #[error("{0}")]
    Remote(String),
    /// Reading the caller's data (an upload's source) or writing a
    /// download to its destination failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// `drives.toml` cannot be read or written.
    #[error("{0}")]
    Config(String),
    #[error(transparent)]
    Secrets(#[from] secrets::SecretsError),
}

pub type Result<T, E = DriveError> = std::result::Result<T, E>;
