//! Why the tutor's docs could not be laid out.

/// Why the tutor could not be made ready.
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    #[error("the bundled docs could not be written to {path}: {source}")]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("the bundled docs could not be committed: {0}")]
    Git(#[from] worktrees::WorktreeError),
}
