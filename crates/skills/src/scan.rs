//! The skill files themselves: where each engine looks for them, read
//! here to check their front matter and, when the engine cannot answer,
//! to list them without it.

use std::path::{Path, PathBuf};

use crate::front_matter::{self, FrontMatter};
use crate::model::{Ask, EngineKind, Scope, Skill};

/// One `<folder>/<name>/SKILL.md`.
pub(crate) struct SkillFile {
    /// The folder it is in, the name when the front matter gives none.
    pub folder: String,
    pub path: PathBuf,
    pub scope: Scope,
    pub front: Result<FrontMatter, String>,
}

/// The folders `ask`'s engine reads skills from, with their scope, nearest
/// first.
pub(crate) fn skill_folders(ask: &Ask) -> Vec<(PathBuf, Scope)> {
    let mut folders = Vec::new();
    match ask.kind {
        EngineKind::Claude => {
            folders.push((ask.cwd.join(".claude/skills"), Scope::Project));
            if let Some(home) = &ask.home {
                folders.push((home.join(".claude/skills"), Scope::User));
            }
        }
        EngineKind::Codex => {
            folders.extend(
                up_to_repository_root(&ask.cwd)
                    .into_iter()
                    .map(|dir| (dir.join(".agents/skills"), Scope::Project)),
            );
            if let Some(home) = &ask.home {
                folders.push((home.join(".agents/skills"), Scope::User));
            }
            if let Some(codex_home) = &ask.codex_home {
                folders.push((codex_home.join("skills"), Scope::User));
            }
            folders.push((PathBuf::from("/etc/codex/skills"), Scope::Builtin));
        }
    }
    folders
}

/// `cwd` and its parents up to the one holding `.git`; `cwd` alone outside
/// a repository.
fn up_to_repository_root(cwd: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for dir in cwd.ancestors() {
        dirs.push(dir.to_owned());
        if dir.join(".git").exists() {
            return dirs;
        }
    }
    vec![cwd.to_owned()]
}

/// Every skill file in `ask`'s engine's folders (hidden folders, such as
/// Codex's `.system`, belong to the engine and are skipped).
pub(crate) fn skill_files(ask: &Ask) -> Vec<SkillFile> {
    let mut files = Vec::new();
    for (folder, scope) in skill_folders(ask) {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut found: Vec<(String, PathBuf)> = entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                let path = entry.path().join("SKILL.md");
                (!name.starts_with('.') && path.is_file()).then_some((name, path))
            })
            .collect();
        found.sort();
        files.extend(found.into_iter().map(|(folder, path)| SkillFile {
            front: front_matter::read(&path),
            folder,
            path,
            scope,
        }));
    }
    files
}

/// The text the composer puts in for skill `name`.
pub(crate) fn insert(kind: EngineKind, name: &str) -> String {
    match kind {
        EngineKind::Claude => format!("/{name}"),
        EngineKind::Codex => format!("${name}"),
    }
}

/// The menu entry for a skill file; `None` for one hidden from the menu.
pub(crate) fn entry(kind: EngineKind, file: &SkillFile) -> Option<Skill> {
    match &file.front {
        Ok(front) if front.hidden => None,
        Ok(front) => {
            let name = front.name.clone().unwrap_or_else(|| file.folder.clone());
            Some(Skill {
                insert: insert(kind, &name),
                name,
                description: front.description.clone().unwrap_or_default(),
                argument_hint: front.argument_hint.clone().unwrap_or_default(),
                scope: file.scope,
                error: None,
            })
        }
        Err(error) => Some(broken(kind, file, error)),
    }
}

/// The entry for a skill file whose front matter is broken: its folder's
/// name, and what is wrong.
pub(crate) fn broken(kind: EngineKind, file: &SkillFile, error: &str) -> Skill {
    Skill {
        name: file.folder.clone(),
        description: String::new(),
        argument_hint: String::new(),
        scope: file.scope,
        insert: insert(kind, &file.folder),
        error: Some(format!("{}: {error}", file.path.display())),
    }
}

/// What is listed when the engine could not be asked: the skill files it
/// would read, and one entry saying why the rest is missing.
pub(crate) fn fallback(ask: &Ask, why: &str) -> Vec<Skill> {
    let engine = match ask.kind {
        EngineKind::Claude => "Claude Code",
        EngineKind::Codex => "Codex",
    };
    let mut skills: Vec<Skill> = skill_files(ask)
        .iter()
        .filter_map(|file| entry(ask.kind, file))
        .collect();
    skills.push(crate::model::reason(format!(
        "{engine} could not be asked for its skills ({why}); only its skill files are listed"
    )));
    skills
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn codex_reads_up_to_the_repository_root_and_the_homes() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let cwd = repo.join("apps/web");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(&cwd).unwrap();
        write(
            &cwd.join(".agents/skills/near/SKILL.md"),
            "---\ndescription: Near\n---\n",
        );
        write(
            &repo.join(".agents/skills/root/SKILL.md"),
            "---\ndescription: Root\n---\n",
        );
        // Above the repository: not read.
        write(
            &dir.path().join(".agents/skills/above/SKILL.md"),
            "---\ndescription: Above\n---\n",
        );
        let home = dir.path().join("home");
        write(
            &home.join(".agents/skills/mine/SKILL.md"),
            "---\ndescription: Mine\n---\n",
        );
        write(
            &home.join(".codex/skills/.system/own/SKILL.md"),
            "---\ndescription: Own\n---\n",
        );
        write(
            &home.join(".agents/skills/quiet/SKILL.md"),
            "---\ndescription: Quiet\nuser-invocable: false\n---\n",
        );
        let ask = Ask {
            engine: "second".into(),
            kind: EngineKind::Codex,
            cwd,
            home: Some(home.clone()),
            codex_home: Some(home.join(".codex")),
            version: None,
        };
        let listed: Vec<(String, Scope, String)> = skill_files(&ask)
            .iter()
            .filter_map(|file| entry(EngineKind::Codex, file))
            .map(|s| (s.name, s.scope, s.insert))
            .collect();
        assert_eq!(
            listed,
            vec![
                ("near".to_owned(), Scope::Project, "$near".to_owned()),
                ("root".to_owned(), Scope::Project, "$root".to_owned()),
                ("mine".to_owned(), Scope::User, "$mine".to_owned()),
            ]
        );
    }

    #[test]
    fn the_fallback_lists_the_files_and_says_why() {
        let dir = tempfile::tempdir().unwrap();
        write(
            &dir.path().join(".claude/skills/deploy/SKILL.md"),
            "---\ndescription: Deploys\nargument-hint: \"[env]\"\n---\n",
        );
        write(
            &dir.path().join(".claude/skills/bad/SKILL.md"),
            "---\nname: x\n",
        );
        let ask = Ask {
            engine: "primary".into(),
            kind: EngineKind::Claude,
            cwd: dir.path().to_owned(),
            home: None,
            codex_home: None,
            version: None,
        };
        let listed = fallback(&ask, "it could not be started: No such file");
        assert_eq!(listed.len(), 3, "{listed:?}");
        assert_eq!(listed[0].name, "bad");
        assert!(
            listed[0]
                .error
                .as_deref()
                .is_some_and(|e| e.ends_with("no closing `---` line"))
        );
        assert_eq!(
            (
                listed[1].name.as_str(),
                listed[1].argument_hint.as_str(),
                listed[1].insert.as_str()
            ),
            ("deploy", "[env]", "/deploy")
        );
        assert_eq!(
            listed[2].error.as_deref(),
            Some(
                "Claude Code could not be asked for its skills (it could not be started: No such file); only its skill files are listed"
            )
        );
    }
}
