//! Why a URL could not be imported, in words the composer shows as they are.

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{0} is not a URL to import: give an http:// or https:// address.")]
    InvalidUrl(String),
    #[error("Only http:// and https:// URLs are imported, not {0}.")]
    UnsupportedScheme(String),
    #[error("{url} did not answer within {seconds} s.")]
    TimedOut { url: String, seconds: u64 },
    #[error("{url} is larger than the import limit of {limit_mib} MiB.")]
    TooLarge { url: String, limit_mib: u64 },
    #[error("{url} is not a text document (its type is {content_type}).")]
    NotText { url: String, content_type: String },
    #[error("{url} answered HTTP {status}.")]
    Status { url: String, status: u16 },
    #[error("{url} could not be reached: {reason}.")]
    Unreachable { url: String, reason: String },
    #[error("{url} is a PDF whose text could not be read: {reason}.")]
    UnreadablePdf { url: String, reason: String },
    #[error("{url} did not answer with a GitHub issue: {reason}.")]
    UnreadableIssue { url: String, reason: String },
}
