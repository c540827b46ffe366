//! The crate's error: a template that is not a usable `.docx` is the
//! caller's input (4xx), a writer failure is ours (5xx).

#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error("the template is not a usable .docx: {0}")]
    BadTemplate(String),
    #[error("the Markdown is {size} bytes, over the limit of {limit}")]
    TooLarge { size: u64, limit: u64 },
    #[error("the document could not be written: {0}")]
    Write(String),
}
