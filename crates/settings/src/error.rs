//! What a settings operation can fail with.

/// Why a settings operation failed. The server maps `UnknownSetting` to 404
/// `unknown_setting` and `InvalidValue` to 400 `invalid_value`.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("there is no setting {key}")]
    UnknownSetting { key: String },
    /// `message` names what the key accepts, e.g. "sessionCpuCapPercent takes
    /// an integer from 25 to 90 in steps of 5".
    #[error("{message}")]
    InvalidValue { key: &'static str, message: String },
    #[error(transparent)]
    Store(#[from] ::store::StoreError),
}

impl From<::store::rusqlite::Error> for SettingsError {
    fn from(error: ::store::rusqlite::Error) -> Self {
        SettingsError::Store(error.into())
    }
}
