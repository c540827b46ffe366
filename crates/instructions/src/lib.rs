//! Instruction-file sync: a folder's canonical agent instructions copied into
//! the files other AI coding tools read, so every engine a session runs on
//! follows the same rules.
//!
//! The settings and the spec name files neutrally; [`FILE_NAMES`] is the one
//! table of what is written:
//!
//! | Neutral name                   | File written                      | Read by                       |
//! |--------------------------------|-----------------------------------|-------------------------------|
//! | `PRIMARY.md`                   | `CLAUDE.md`                       | Claude Code (primary engine)  |
//! | `AGENTS.md`                    | `AGENTS.md`                       | Codex and others              |
//! | `ALT1.md`                      | `GEMINI.md`                       | Gemini CLI                    |
//! | `.altrules2`                   | `.cursorrules`                    | Cursor                        |
//! | `.altrules3/base.md`           | `.clinerules/base.md`             | Cline                         |
//! | `.github/alt4-instructions.md` | `.github/copilot-instructions.md` | GitHub Copilot                |
//! | `.altrules5`                   | `.windsurfrules`                  | Windsurf                      |
//!
//! A name outside the table is refused ([`SyncError::UnknownName`]).
//!
//! [`sync`] works at the top level of the git repository holding the folder
//! (a worktree's own top level included), or in the folder itself outside
//! one. It reads the canonical file there and writes it (temp file, then
//! rename) to each mirror that is missing or still holds what Switchboard
//! last wrote, as remembered by a [`Ledger`] ([`SqliteLedger`] over
//! [`MIGRATIONS`], or [`MemoryLedger`]). A mirror whose content changed since
//! is a hand edit: it is left alone and listed in
//! [`SyncReport::hand_edited`]. The canonical file is never its own mirror.
//! With [`GitMode::Local`] the mirrors Switchboard holds are listed under
//! [`EXCLUDE_HEADER`] in the repository's `info/exclude` (the common git
//! directory's, for a worktree), each line once; [`GitMode::Committed`]
//! leaves that file alone. [`fingerprint`] is a cheap check, for a caller
//! polling on its clock, of whether the canonical file changed.
//!
//! Knows nothing of HTTP, settings or the inbox: the server decides when to
//! sync and turns a hand edit into an inbox note.

mod atomic;
mod error;
mod git;
mod ledger;
mod names;
mod sync;

pub use error::{LedgerError, SyncError};
pub use git::EXCLUDE_HEADER;
pub use ledger::{Ledger, MIGRATIONS, MemoryLedger, SqliteLedger};
pub use names::{FILE_NAMES, real_name};
pub use sync::{GitMode, SyncReport, SyncRequest, fingerprint, sync};

#[cfg(test)]
mod tests;
