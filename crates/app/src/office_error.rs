//! The one error of the sheets and documents routes (`sheet_edits.rs`,
//! `documents_publish.rs`, `message_publish.rs`, `board_sheets.rs`): a switch that is off, or what the drive, the
//! spreadsheet or the document writer refused, kept apart so the server
//! maps each to its status.

#[derive(Debug, thiserror::Error)]
pub enum OfficeError {
    #[error("Spreadsheets are turned off (setting sheetsEnabled).")]
    SheetsOff,
    #[error("Publishing documents is turned off (setting docsExportEnabled).")]
    DocsOff,
    #[error(transparent)]
    Drive(#[from] drives::DriveError),
    #[error(transparent)]
    Sheet(#[from] sheets::SheetError),
    #[error(transparent)]
    Document(#[from] documents::DocumentError),
    /// A board read or written for a sheet import or export.
    #[error(transparent)]
    Board(#[from] boards::BoardsError),
    /// A request field that cannot be used (which, and why).
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// What a request names is not there (a transcript entry).
    #[error("no {0}")]
    NotFound(String),
    /// The session a message is published from.
    #[error(transparent)]
    Session(#[from] sessions::SessionError),
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Task(#[from] tokio::task::JoinError),
}
