//! The one error type of the crate, so the application can map each kind to
//! its status (a refused column to 403, a corrupt file to 422) without
//! reading messages.

use crate::Format;

#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    #[error("{0}: not a spreadsheet (.xlsx, .ods or .csv)")]
    UnknownFormat(String),
    #[error("the spreadsheet could not be read: {0}")]
    Corrupt(String),
    #[error("no sheet named {0:?}")]
    SheetNotFound(String),
    #[error("the file is {size} bytes, over the limit of {limit}")]
    TooLarge { size: u64, limit: u64 },
    #[error("{0}")]
    Invalid(String),
    #[error(".{} files are read-only here: edit them as .xlsx or .csv", .0.as_str())]
    ReadOnlyFormat(Format),
    #[error("spreadsheet {0} is not trusted for edits (trustedSheets)")]
    Untrusted(String),
    #[error("column {letters} (index {column}) is not editable in this spreadsheet")]
    ColumnNotEditable { column: u32, letters: String },
}

impl SheetError {
    pub(crate) fn corrupt(e: impl std::fmt::Display) -> Self {
        Self::Corrupt(e.to_string())
    }
}
