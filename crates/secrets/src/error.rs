//! What can go wrong with input requests, proposals and saved keys.

use std::path::PathBuf;

pub const MAX_NAME_CHARS: usize = 128;
pub const MAX_PROMPT_CHARS: usize = 2_000;
pub const MAX_VALUE_BYTES: usize = 16 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    #[error(
        "name must be a variable name: a letter or `_`, then letters, digits or `_`, at most {MAX_NAME_CHARS} characters"
    )]
    InvalidName,
    #[error("prompt must be 1 to {MAX_PROMPT_CHARS} characters")]
    InvalidPrompt,
    #[error(
        "the value must be 1 to {MAX_VALUE_BYTES} bytes on one line (a line break would start another variable in the file)"
    )]
    InvalidValue,
    #[error("`{file}` is not inside the session's folder {}", folder.display())]
    FileOutsideFolder { file: String, folder: PathBuf },
    #[error("cannot write {}: {source}", path.display())]
    FileWrite {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no such input request")]
    RequestNotFound,
    #[error("no such key proposal")]
    ProposalNotFound,
    #[error("no saved key is named {0}")]
    KeyNotFound(String),
    #[error("this was already answered: it is {0}")]
    AlreadyAnswered(&'static str),
    #[error("the key file {} cannot be used: {source}", path.display())]
    KeyFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("a saved key cannot be sealed or opened with this data directory's key file")]
    Crypto,
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for SecretsError {
    fn from(e: store::rusqlite::Error) -> Self {
        SecretsError::Store(e.into())
    }
}

/// A variable name a dotenv file and a shell both take.
pub fn check_name(name: &str) -> Result<(), SecretsError> {
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if first_ok && rest_ok && name.len() <= MAX_NAME_CHARS {
        Ok(())
    } else {
        Err(SecretsError::InvalidName)
    }
}

pub fn check_value(value: &str) -> Result<(), SecretsError> {
    let one_line = !value.contains(['\n', '\r', '\0']);
    if one_line && !value.is_empty() && value.len() <= MAX_VALUE_BYTES {
        Ok(())
    } else {
        Err(SecretsError::InvalidValue)
    }
}
