//! The menu's entries and the question asked: what the other files share.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

/// One entry of the `/` menu.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct Skill {
    /// What the engine calls it (`deploy`, `plugin:skill`); empty on the
    /// one entry that says why the engine could not list.
    pub name: String,
    pub description: String,
    /// What it takes after its name (`[file] [--fix]`); often empty.
    pub argument_hint: String,
    pub scope: Scope,
    /// The text the composer puts in: `/name` for Claude Code, `$name` for
    /// Codex; empty on the reason entry.
    pub insert: String,
    /// Why its skill file is broken, or why the engine could not list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// Where a skill comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "SkillScope")]
#[schema(as = SkillScope)]
pub enum Scope {
    /// The user's own (`~/.claude/skills`, `~/.agents/skills`).
    User,
    /// The folder's (`.claude/skills`, `.agents/skills`).
    Project,
    Plugin,
    /// The engine's own, and those installed for the whole machine.
    Builtin,
}

/// Which engine is asked: the two whose CLIs can list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineKind {
    Claude,
    Codex,
}

/// One question: which skills engine `engine` offers in `cwd`.
#[derive(Debug, Clone)]
pub struct Ask {
    /// The engine's name in engines.toml.
    pub engine: String,
    pub kind: EngineKind,
    pub cwd: PathBuf,
    /// The home folder the engine sees (its `env`'s `HOME`, else the
    /// server's), where user skills live.
    pub home: Option<PathBuf>,
    /// Codex's own folder (`CODEX_HOME`, else `~/.codex`).
    pub codex_home: Option<PathBuf>,
    /// The engine's version now; a new version is asked again.
    pub version: Option<String>,
}

/// The entry that stands for a whole list the engine could not give.
pub fn reason(why: impl Into<String>) -> Skill {
    let why = why.into();
    Skill {
        name: String::new(),
        description: why.clone(),
        argument_hint: String::new(),
        scope: Scope::Builtin,
        insert: String::new(),
        error: Some(why),
    }
}

/// The folder's and the user's own first, then plugins', then built-ins,
/// each in the engine's order.
pub(crate) fn by_scope(skills: &mut [Skill]) {
    skills.sort_by_key(|skill| match skill.scope {
        Scope::Project => 0,
        Scope::User => 1,
        Scope::Plugin => 2,
        Scope::Builtin => 3,
    });
}
