//! `apps.toml`: the repository's and the user's declared apps, the
//! repository's winning, and the errors a person is shown for a bad file.

use std::fs;
use std::path::{Path, PathBuf};

use apps::{AppsError, Declared, read_declared};

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

struct Dirs {
    _root: tempfile::TempDir,
    data: PathBuf,
    repo: PathBuf,
}

fn dirs() -> Dirs {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let repo = root.path().join("repo");
    fs::create_dir_all(&data).unwrap();
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    Dirs {
        data,
        repo,
        _root: root,
    }
}

#[test]
fn no_file_is_no_apps() {
    let dirs = dirs();
    assert!(read_declared(&dirs.data, &dirs.repo).unwrap().is_empty());
}

#[test]
fn the_repositorys_file_wins_over_the_users_on_the_same_name() {
    let dirs = dirs();
    write(
        &dirs.data.join("apps.toml"),
        "[apps.web]\ncommand = \"python3 -m http.server\"\n\n[apps.docs]\ncommand = \"mkdocs serve\"\n",
    );
    write(
        &dirs.repo.join(".switchboard/apps.toml"),
        "[apps.web]\ncommand = \"npm run dev\"\ncwd = \"web\"\nenv = { DEBUG = \"1\" }\n",
    );
    // Found from a folder deep inside the repository.
    let inside = dirs.repo.join("crates/server");
    fs::create_dir_all(&inside).unwrap();
    let declared = read_declared(&dirs.data, &inside).unwrap();
    assert_eq!(
        declared,
        [
            Declared {
                name: "docs".into(),
                command: "mkdocs serve".into(),
                cwd: None,
                env: Default::default(),
            },
            Declared {
                name: "web".into(),
                command: "npm run dev".into(),
                cwd: Some("web".into()),
                env: [("DEBUG".to_owned(), "1".to_owned())].into(),
            },
        ]
    );
}

#[test]
fn a_file_above_the_repository_is_not_the_repositorys() {
    let dirs = dirs();
    // The folder holding the repository has a .switchboard of its own (as a
    // home folder might): it is not read for the repository.
    write(
        &dirs.repo.parent().unwrap().join(".switchboard/apps.toml"),
        "[apps.stray]\ncommand = \"x\"\n",
    );
    assert!(read_declared(&dirs.data, &dirs.repo).unwrap().is_empty());
}

#[test]
fn a_syntax_error_says_where() {
    let dirs = dirs();
    let path = dirs.repo.join(".switchboard/apps.toml");
    write(&path, "[apps.web]\ncommand = \"npm run dev\ncwd = 3\n");
    let error = read_declared(&dirs.data, &dirs.repo).unwrap_err();
    let AppsError::Config { path: at, message } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(at, &path);
    assert!(message.starts_with("line 2, column "), "{message}");
    assert!(error.to_string().contains("apps.toml: line 2"), "{error}");
}

#[test]
fn an_unknown_key_is_an_error() {
    let dirs = dirs();
    write(
        &dirs.data.join("apps.toml"),
        "[apps.web]\ncommand = \"npm run dev\"\nport = 3000\n",
    );
    let error = read_declared(&dirs.data, &dirs.repo).unwrap_err();
    let AppsError::Config { message, .. } = &error else {
        panic!("{error:?}");
    };
    assert!(
        message.contains("line 3") && message.contains("port"),
        "{message}"
    );
}

#[test]
fn an_invalid_name_is_refused_with_its_file() {
    let dirs = dirs();
    let path = dirs.data.join("apps.toml");
    write(&path, "[apps.My_Web]\ncommand = \"npm run dev\"\n");
    let error = read_declared(&dirs.data, &dirs.repo).unwrap_err();
    assert!(
        matches!(&error, AppsError::InvalidName { name, path: at } if name == "My_Web" && at == &path),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .contains("`My_Web` is not a valid app name")
    );
}

#[test]
fn a_cwd_outside_the_folder_is_refused() {
    let dirs = dirs();
    for cwd in ["../elsewhere", "/etc"] {
        write(
            &dirs.data.join("apps.toml"),
            &format!("[apps.web]\ncommand = \"npm run dev\"\ncwd = \"{cwd}\"\n"),
        );
        let error = read_declared(&dirs.data, &dirs.repo).unwrap_err();
        assert!(
            error.to_string().contains("inside the session's folder"),
            "{error}"
        );
    }
}
