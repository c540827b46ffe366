//! What can go wrong reading a report, reading `bugintake.toml`, or moving a
//! stored report from one state to another.

use crate::limits::{MAX_BODY_BYTES, MAX_FIELD_CHARS, MAX_LABELS, MAX_TITLE_CHARS};

/// A delivery or a form that is not a report we can take: the sender can
/// fix it, so each message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("the body is not JSON: {0}")]
    NotJson(String),
    #[error("the payload does not have the expected shape: {0}")]
    Shape(String),
    #[error("a form-encoded GitHub delivery must carry its JSON in a `payload` field")]
    NoFormPayload,
    #[error("{field} is missing")]
    Missing { field: &'static str },
    #[error("title is required")]
    TitleRequired,
    #[error("title is {chars} characters; at most {MAX_TITLE_CHARS} are allowed")]
    TitleTooLong { chars: usize },
    #[error("body is {bytes} bytes; at most {MAX_BODY_BYTES} are allowed")]
    BodyTooLong { bytes: usize },
    #[error("url must be an http:// or https:// link of at most {MAX_FIELD_CHARS} characters")]
    InvalidUrl,
    #[error("{field} must be at most {MAX_FIELD_CHARS} characters")]
    FieldTooLong { field: &'static str },
    #[error("at most {MAX_LABELS} labels are allowed")]
    TooManyLabels,
}

/// `DIR/bugintake.toml` exists but cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {detail}")]
pub struct ConfigError {
    pub path: String,
    pub detail: String,
}
