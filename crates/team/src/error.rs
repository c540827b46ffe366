//! The one error of the team crate, so people and rooms answer alike.

#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    #[error("no such person or room")]
    NotFound,
    #[error("{0}")]
    Invalid(String),
    #[error("a workspace member is always listed and cannot be removed")]
    Member,
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for TeamError {
    fn from(e: store::rusqlite::Error) -> Self {
        TeamError::Store(e.into())
    }
}

pub(crate) fn invalid(message: &str) -> TeamError {
    TeamError::Invalid(message.to_owned())
}
