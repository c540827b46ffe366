//! The invariants ARCHITECTURE.md states, checked over the real tree: which
//! crates may know the web framework and the command line, that the HTTP
//! crate starts no background work, where domain errors become statuses, who
//! reads settings and how, no import loops between files, and no source file
//! too long to read. `catches.rs` shows on made-up trees that the checks of
//! the `tidy` library fail when they should.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use tidy::tree::{code_of, crate_sources, crates, files, is_generated, read};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn relative(path: &Path) -> String {
    tidy::tree::relative(&root(), path)
}

#[test]
fn only_the_server_knows_the_web_framework_and_only_the_cli_knows_clap() {
    let wrong = tidy::layers::who_knows_what(&root());
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_http_crate_starts_no_background_work() {
    let wrong = tidy::layers::background_work_in_server(&root());
    assert!(
        wrong.is_empty(),
        "tasks or threads started in crates/server (they belong in crates/app): {wrong:#?}"
    );
}

#[test]
fn no_two_files_import_each_other() {
    let loops = tidy::cycles::file_cycles(&root());
    assert!(loops.is_empty(), "files that import each other: {loops:#?}");
}

#[test]
fn domain_errors_become_statuses_only_in_error_rs() {
    let mut wrong = Vec::new();
    for path in crate_sources(&root(), "server") {
        let in_error_module = path.parent().is_some_and(|p| p.ends_with("src/error"));
        if in_error_module
            || path.ends_with("error.rs") && path.parent().is_some_and(|p| p.ends_with("src"))
        {
            continue;
        }
        let code = code_of(&read(&path));
        if code.contains("for ApiError") {
            wrong.push(relative(&path));
        }
    }
    assert!(
        wrong.is_empty(),
        "impls for ApiError outside crates/server/src/error.rs and error/: {wrong:#?}"
    );
}

/// A setting's key as a string literal in code outside the settings crate is
/// a read by string key (tests, which set values over the API, aside).
#[test]
fn no_setting_is_read_by_a_string_key_outside_the_settings_crate() {
    let keys: BTreeSet<String> = settings::definitions()
        .iter()
        .map(|def| format!("\"{}\"", def.key))
        .collect();
    let mut wrong = Vec::new();
    for folder in crates(&root())
        .keys()
        .filter(|folder| *folder != "settings")
    {
        for path in crate_sources(&root(), folder) {
            let code = code_of(&read(&path));
            for key in &keys {
                if code.contains(key.as_str()) {
                    wrong.push(format!("{}: {key}", relative(&path)));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The catalog says which keys this version acts on; each must be read by
/// the server (through its accessor, called or passed as
/// `SettingsStore::accessor`) or by the web app (through its key).
/// Whether `code` holds `path` not followed by more of an identifier (so
/// one accessor's name is not found inside a longer one's).
fn names_whole(code: &str, path: &str) -> bool {
    code.match_indices(path).any(|(at, _)| {
        code[at + path.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
    })
}

#[test]
fn every_key_said_to_be_in_effect_is_read() {
    let mut rust = String::new();
    for folder in crates(&root())
        .keys()
        .filter(|folder| *folder != "settings")
    {
        for path in crate_sources(&root(), folder) {
            rust.push_str(&code_of(&read(&path)));
        }
    }
    let mut web = String::new();
    for path in files(&root().join("web/src"), &[".ts", ".tsx"]) {
        let name = path.to_string_lossy();
        if !name.contains(".generated.") && !name.contains(".test.") {
            web.push_str(&read(&path));
        }
    }
    let unread: Vec<&str> = settings::definitions()
        .iter()
        .filter(|def| def.in_effect)
        .filter(|def| {
            let accessor = def.accessor_name();
            !rust.contains(&format!(".{accessor}()"))
                && !names_whole(&rust, &format!("SettingsStore::{accessor}"))
                && !web.contains(def.key)
        })
        .map(|def| def.key)
        .collect();
    assert!(
        unread.is_empty(),
        "said to take effect, but nothing reads them: {unread:?}"
    );
}

#[test]
fn no_source_file_is_over_800_lines() {
    let mut sources = files(&root().join("crates"), &[".rs"]);
    sources.retain(|path| path.components().any(|c| c.as_os_str() == "src"));
    for path in files(&root().join("web/src"), &[".ts", ".tsx"]) {
        let name = path.to_string_lossy();
        if !name.contains(".test.") && !name.contains(".generated.") {
            sources.push(path);
        }
    }
    let long: Vec<String> = sources
        .iter()
        .filter_map(|path| {
            let text = read(path);
            let lines = text.lines().count();
            (lines > 800 && !is_generated(&text)).then(|| format!("{}: {lines}", relative(path)))
        })
        .collect();
    assert!(long.is_empty(), "over 800 lines: {long:#?}");
}

#[test]
fn every_rust_file_says_what_it_is_for_and_leaves_no_debugging_behind() {
    let mut wrong = Vec::new();
    for path in files(&root().join("crates"), &[".rs"]) {
        let text = read(&path);
        if !text.trim_start().starts_with("//!") {
            wrong.push(format!(
                "{}: does not open with a //! line",
                relative(&path)
            ));
        }
        // Spelt in two, so this file does not find itself.
        for marker in [
            concat!("dbg", "!("),
            concat!("todo", "!("),
            concat!("unimplemented", "!("),
        ] {
            if code_of(&text).contains(marker) {
                wrong.push(format!("{}: {marker}", relative(&path)));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The tests ARCHITECTURE.md's "Invariants and their checks" names: each
/// file named in backquotes, and the test names in backquotes after it.
#[test]
fn every_check_this_document_names_exists() {
    let document = read(&root().join("ARCHITECTURE.md"));
    let section = document
        .split("## Invariants and their checks")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("ARCHITECTURE.md has an \"Invariants and their checks\" section");
    let mut missing = Vec::new();
    let mut checked = 0;
    // Each bullet is one rule: the names after a file in it are that file's tests.
    for rule in section.split("\n- ").skip(1) {
        let mut file: Option<String> = None;
        for (at, quoted) in rule.split('`').enumerate() {
            if at % 2 == 0 {
                continue;
            }
            if quoted.contains('/') && (quoted.ends_with(".rs") || quoted.ends_with(".ts")) {
                file = Some(read(&root().join(quoted)));
                continue;
            }
            let Some(text) = &file else { continue };
            checked += 1;
            if !text.contains(&format!("fn {quoted}(")) && !text.contains(&format!("\"{quoted}\""))
            {
                missing.push(quoted.to_owned());
            }
        }
    }
    assert!(checked >= 10, "only {checked} checks found in the section");
    assert!(missing.is_empty(), "named but not found: {missing:#?}");
}

#[test]
fn each_crate_knows_nothing_of_what_this_document_says() {
    let wrong = tidy::layers::knows_nothing_of(&root());
    assert!(wrong.is_empty(), "{wrong:#?}");
}
