//! The spec's neutral instruction-file names and the real files the tools
//! read, in one table.

use crate::error::SyncError;

/// Neutral name (as the settings and the spec say it) → the file written,
/// relative to the root being synced.
pub const FILE_NAMES: &[(&str, &str)] = &[
    ("PRIMARY.md", "CLAUDE.md"),
    ("AGENTS.md", "AGENTS.md"),
    ("ALT1.md", "GEMINI.md"),
    (".altrules2", ".cursorrules"),
    (".altrules3/base.md", ".clinerules/base.md"),
    (
        ".github/alt4-instructions.md",
        ".github/copilot-instructions.md",
    ),
    (".altrules5", ".windsurfrules"),
];

/// The real file a neutral name stands for.
pub fn real_name(neutral: &str) -> Result<&'static str, SyncError> {
    FILE_NAMES
        .iter()
        .find(|(name, _)| *name == neutral)
        .map(|(_, real)| *real)
        .ok_or_else(|| SyncError::UnknownName {
            name: neutral.to_owned(),
        })
}
