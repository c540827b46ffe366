//! Whether the folders skills come from changed since a list was asked: a
//! hash of every path below them with its modification time, so adding,
//! removing or editing a skill asks the engine again.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::model::{Ask, EngineKind};

/// How deep and how much of a folder is walked: skill folders are small,
/// and a huge one must not slow every `/`.
const MAX_DEPTH: usize = 6;
const MAX_ENTRIES: usize = 5_000;

/// The folders whose changes can change what `ask`'s engine lists.
pub(crate) fn watched(ask: &Ask) -> Vec<PathBuf> {
    let mut folders = match ask.kind {
        // Settings, commands and plugins there change the list too.
        EngineKind::Claude => vec![ask.cwd.join(".claude")],
        EngineKind::Codex => Vec::new(),
    };
    if ask.kind == EngineKind::Claude
        && let Some(home) = &ask.home
    {
        folders.extend(
            ["skills", "commands", "plugins", "settings.json"]
                .map(|name| home.join(".claude").join(name)),
        );
    }
    folders.extend(
        crate::scan::skill_folders(ask)
            .into_iter()
            .map(|(folder, _)| folder),
    );
    folders
}

/// The state of `folders` now, as one number.
pub(crate) fn of(folders: &[PathBuf]) -> u64 {
    let mut hasher = DefaultHasher::new();
    let mut budget = MAX_ENTRIES;
    for folder in folders {
        walk(folder, 0, &mut budget, &mut hasher);
    }
    hasher.finish()
}

fn walk(path: &Path, depth: usize, budget: &mut usize, hasher: &mut DefaultHasher) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let Ok(metadata) = std::fs::metadata(path) else {
        return;
    };
    path.hash(hasher);
    metadata.modified().ok().hash(hasher);
    metadata.len().hash(hasher);
    if !metadata.is_dir() || depth >= MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries.flatten().map(|entry| entry.path()).collect();
    children.sort();
    for child in children {
        walk(&child, depth + 1, budget, hasher);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_or_edited_skill_changes_the_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        let skills = dir.path().join(".claude/skills");
        std::fs::create_dir_all(&skills).unwrap();
        let folders = vec![dir.path().join(".claude")];
        let empty = of(&folders);
        assert_eq!(of(&folders), empty, "nothing changed");

        std::fs::create_dir(skills.join("greet")).unwrap();
        std::fs::write(skills.join("greet/SKILL.md"), "---\ndescription: a\n---\n").unwrap();
        let added = of(&folders);
        assert_ne!(added, empty);

        std::fs::write(
            skills.join("greet/SKILL.md"),
            "---\ndescription: longer\n---\n",
        )
        .unwrap();
        assert_ne!(of(&folders), added, "an edit that changes the size");
    }
}
