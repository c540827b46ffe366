//! Why a feed call failed, in words the reader shows as they are.

#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    #[error("no such feed")]
    NotFound,
    #[error("no such entry")]
    EntryNotFound,
    /// Bad input: a URL that is not http(s), a page with no feed, an OPML
    /// document that cannot be read.
    #[error("{0}")]
    Invalid(String),
    #[error("{0} is already subscribed")]
    Exists(String),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for FeedError {
    fn from(e: store::rusqlite::Error) -> Self {
        FeedError::Store(e.into())
    }
}
