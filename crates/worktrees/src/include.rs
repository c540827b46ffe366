//! `.switchboard/worktree-include`: the files git ignores but a project needs
//! (a `.env`, say), copied from the repository into each new worktree.
//!
//! One glob pattern a line, relative to the repository's root; blank lines
//! and `#` comments are ignored. Patterns are expanded with the `glob` crate,
//! which reads only the folders a pattern can reach, so `.env` costs one
//! lookup even in a repository with a huge `node_modules`.

use std::path::{Component, Path, PathBuf};

use crate::error::{Result, WorktreeError};

/// Where the list lives, relative to the repository's root.
pub const INCLUDE_FILE: &str = ".switchboard/worktree-include";

/// The patterns of an include file, each with its line number (1-based).
pub fn patterns(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

/// Why a pattern may not be used, if it may not: it must stay inside the
/// repository, so no absolute paths and no `..`.
fn refusal(pattern: &str) -> Option<String> {
    let path = Path::new(pattern);
    if path.is_absolute() {
        return Some(format!(
            "`{pattern}` is absolute; patterns are relative to the repository's root"
        ));
    }
    if path.components().any(|c| c == Component::ParentDir) {
        return Some(format!(
            "`{pattern}` reaches outside the repository with `..`"
        ));
    }
    glob::Pattern::new(pattern)
        .err()
        .map(|e| format!("`{pattern}`: {e}"))
}

/// Copies every file the include file of `root` lists into `worktree`, at the
/// same relative path, and returns those paths. A file the worktree already
/// has (a tracked one, checked out) is left as checked out, so copying never
/// makes a change git would see. No include file: nothing to copy.
pub fn copy_included(root: &Path, worktree: &Path) -> Result<Vec<PathBuf>> {
    let file = root.join(INCLUDE_FILE);
    let Ok(text) = std::fs::read_to_string(&file) else {
        return Ok(Vec::new());
    };
    let mut copied = Vec::new();
    for (line, pattern) in patterns(&text) {
        if let Some(reason) = refusal(pattern) {
            return Err(WorktreeError::InvalidInclude { file, line, reason });
        }
        let full = format!(
            "{}/{pattern}",
            glob::Pattern::escape(&root.to_string_lossy())
        );
        let options = glob::MatchOptions {
            // `*.local` should find `.env.local`: dotfiles are the point here.
            require_literal_leading_dot: false,
            ..glob::MatchOptions::new()
        };
        let matches =
            glob::glob_with(&full, options).map_err(|e| WorktreeError::InvalidInclude {
                file: file.clone(),
                line,
                reason: e.to_string(),
            })?;
        // An entry that cannot be read (permissions) is skipped, like a missing file.
        for found in matches.flatten() {
            let Ok(relative) = found.strip_prefix(root) else {
                continue;
            };
            let in_git_dir = relative
                .components()
                .next()
                .is_some_and(|c| c.as_os_str() == ".git");
            let target = worktree.join(relative);
            if in_git_dir || !found.is_file() || target.symlink_metadata().is_ok() {
                continue;
            }
            let copy = |source: std::io::Error| WorktreeError::Copy {
                path: relative.to_path_buf(),
                source,
            };
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(copy)?;
            }
            std::fs::copy(&found, &target).map_err(copy)?;
            copied.push(relative.to_path_buf());
        }
    }
    Ok(copied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_and_comments_are_not_patterns() {
        let text = "# secrets the build needs\n.env\n\n  config/*.local  \n   # indented comment\n";
        assert_eq!(patterns(text), vec![(2, ".env"), (4, "config/*.local")]);
    }

    #[test]
    fn patterns_stay_inside_the_repository() {
        assert!(refusal(".env").is_none());
        assert!(refusal("apps/**/.env*").is_none());
        assert!(refusal("/etc/passwd").is_some());
        assert!(refusal("../other/.env").is_some());
        assert!(refusal("a/../../b").is_some());
        assert!(refusal("[unclosed").is_some());
    }

    #[test]
    fn listed_files_are_copied_and_checked_out_ones_are_left_alone() {
        let root = tempfile::tempdir().unwrap();
        let worktree = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join(".switchboard")).unwrap();
        std::fs::create_dir_all(root.path().join("config")).unwrap();
        std::fs::write(
            root.path().join(INCLUDE_FILE),
            "# comment\n.env\nconfig/*.local\nmissing.txt\n",
        )
        .unwrap();
        std::fs::write(root.path().join(".env"), "SECRET=1\n").unwrap();
        std::fs::write(root.path().join("config/db.local"), "db\n").unwrap();
        std::fs::write(root.path().join("config/app.local"), "working copy\n").unwrap();
        std::fs::create_dir_all(worktree.path().join("config")).unwrap();
        std::fs::write(worktree.path().join("config/app.local"), "checked out\n").unwrap();

        let mut copied = copy_included(root.path(), worktree.path()).unwrap();
        copied.sort();
        assert_eq!(
            copied,
            vec![PathBuf::from(".env"), PathBuf::from("config/db.local")]
        );
        let read = |p: &str| std::fs::read_to_string(worktree.path().join(p)).unwrap();
        assert_eq!(read(".env"), "SECRET=1\n");
        assert_eq!(read("config/app.local"), "checked out\n");
    }

    #[test]
    fn a_bad_line_is_reported_with_its_number() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join(".switchboard")).unwrap();
        std::fs::write(root.path().join(INCLUDE_FILE), ".env\n../escape\n").unwrap();
        let error = copy_included(root.path(), root.path()).unwrap_err();
        assert!(
            matches!(error, WorktreeError::InvalidInclude { line: 2, .. }),
            "{error}"
        );
    }
}
