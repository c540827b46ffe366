//! What an engine offers on `/` in the composer (docs/skills.md): Claude
//! Code's commands and skills, asked of the CLI itself with its `initialize`
//! control request (no turn, no tokens), and Codex's skills, asked of
//! `codex app-server` with `skills/list`, each checked against its skill
//! file so a broken one is listed with what is wrong, never dropped.
//!
//! The crate runs no process on its own terms: the caller hands in the
//! engine's command, built and sandboxed as the engine's sessions are, and
//! [`Catalog`] keeps each answer per engine, folder and version until the
//! skill folders change.

mod catalog;
mod claude;
mod codex;
mod fingerprint;
pub mod front_matter;
mod model;
mod process;
mod scan;

pub use catalog::{Catalog, ask_now, list_args};
pub use model::{Ask, EngineKind, Scope, Skill, reason};
