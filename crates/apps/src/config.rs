//! `apps.toml`: the commands a folder's apps are started with, declared by
//! the repository (`.switchboard/apps.toml`) or by the user (in the data
//! folder), the repository's winning on the same name.
//!
//! ```toml
//! [apps.web]
//! command = "npm run dev"
//! cwd = "web"            # optional, inside the session's folder
//! env = { DEBUG = "1" }  # optional
//! ```

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

use crate::error::AppsError;
use crate::names::app_name_valid;

/// The file's name, in the data folder and in a repository's `.switchboard`.
const FILE_NAME: &str = "apps.toml";

/// One app a file declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub name: String,
    pub command: String,
    /// Relative to the session's folder.
    pub cwd: Option<PathBuf>,
    pub env: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AppsFile {
    #[serde(default)]
    apps: BTreeMap<String, AppEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AppEntry {
    command: String,
    cwd: Option<PathBuf>,
    #[serde(default)]
    env: BTreeMap<String, String>,
}

/// The apps declared for `folder`: the repository's `.switchboard/apps.toml`
/// (the nearest from `folder` up to the repository's root) and
/// `<data_dir>/apps.toml`, sorted by name. No file is no apps.
pub fn read_declared(data_dir: &Path, folder: &Path) -> Result<Vec<Declared>, AppsError> {
    let mut apps: BTreeMap<String, Declared> = BTreeMap::new();
    for path in [Some(data_dir.join(FILE_NAME)), repository_file(folder)]
        .into_iter()
        .flatten()
    {
        for declared in read_file(&path)? {
            apps.insert(declared.name.clone(), declared);
        }
    }
    Ok(apps.into_values().collect())
}

/// The repository's file for `folder`: looked for in `folder` and each
/// folder above it up to the one holding `.git`. Outside a repository only
/// `folder` itself is looked in, so a home folder's `.switchboard` is never
/// taken for a repository's.
fn repository_file(folder: &Path) -> Option<PathBuf> {
    let in_folder = |dir: &Path| dir.join(".switchboard").join(FILE_NAME);
    let Some(root) = git_root(folder) else {
        let path = in_folder(folder);
        return path.is_file().then_some(path);
    };
    folder
        .ancestors()
        .take_while(|dir| dir.starts_with(root))
        .map(in_folder)
        .find(|path| path.is_file())
}

/// The folder of the git checkout `folder` is in: the nearest one holding
/// a `.git` file (a linked worktree) or a `.git` folder with a `HEAD` (an
/// empty `.git` folder, as one left in `/tmp`, is no repository to git
/// either).
pub fn git_root(folder: &Path) -> Option<&Path> {
    folder.ancestors().find(|dir| {
        let dot_git = dir.join(".git");
        dot_git.is_file() || dot_git.join("HEAD").is_file()
    })
}

fn read_file(path: &Path) -> Result<Vec<Declared>, AppsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(config_error(path, error.to_string())),
    };
    let file: AppsFile = toml::from_str(&text).map_err(|error| {
        let message = match error.span() {
            Some(span) => {
                let (line, column) = line_and_column(&text, span.start);
                format!("line {line}, column {column}: {}", error.message())
            }
            None => error.message().to_owned(),
        };
        config_error(path, message)
    })?;
    file.apps
        .into_iter()
        .map(|(name, entry)| {
            if !app_name_valid(&name) {
                return Err(AppsError::InvalidName {
                    name,
                    path: path.to_owned(),
                });
            }
            if entry.command.trim().is_empty() {
                return Err(config_error(
                    path,
                    format!("app `{name}` has an empty command"),
                ));
            }
            if let Some(cwd) = &entry.cwd
                && !stays_inside(cwd)
            {
                return Err(config_error(
                    path,
                    format!(
                        "app `{name}`: cwd `{}` must be a folder inside the session's folder",
                        cwd.display()
                    ),
                ));
            }
            Ok(Declared {
                name,
                command: entry.command,
                cwd: entry.cwd,
                env: entry.env,
            })
        })
        .collect()
}

fn config_error(path: &Path, message: String) -> AppsError {
    AppsError::Config {
        path: path.to_owned(),
        message,
    }
}

/// Whether `cwd` names a folder below the one it is joined to: relative,
/// and never `..`.
fn stays_inside(cwd: &Path) -> bool {
    cwd.components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// The 1-based line and column of byte `at` of `text`.
fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..at.min(text.len())];
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |newline| newline + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}
