//! The invariants ARCHITECTURE.md states, checked over the source tree: which
//! crates may know the web framework and the command line, where domain errors
//! become statuses, who reads settings and how, no import loops between the
//! files of a crate, and no source file too long to read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file below `dir` whose name ends with one of `endings`, sorted.
fn files(dir: &Path, endings: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !matches!(name.as_str(), "node_modules" | "target" | "dist" | ".out") {
                    pending.push(path);
                }
            } else if endings.iter().any(|ending| name.ends_with(ending)) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn relative(path: &Path) -> String {
    let root = root().canonicalize().unwrap();
    let path = path.canonicalize().unwrap();
    path.strip_prefix(&root)
        .unwrap_or(&path)
        .display()
        .to_string()
}

/// The workspace's crates: folder name → parsed Cargo.toml.
fn crates() -> BTreeMap<String, toml::Table> {
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("crates")).unwrap().flatten() {
        let manifest = entry.path().join("Cargo.toml");
        if manifest.exists() {
            let table: toml::Table = read(&manifest).parse().unwrap();
            found.insert(entry.file_name().to_string_lossy().into_owned(), table);
        }
    }
    found
}

/// The Rust sources of a crate's library or binary (not its tests or benches).
fn crate_sources(name: &str) -> Vec<PathBuf> {
    files(&root().join("crates").join(name).join("src"), &[".rs"])
}

fn is_generated(text: &str) -> bool {
    text.lines()
        .next()
        .is_some_and(|first| first.contains("Generated"))
}

/// Code lines only: `#[cfg(test)]` modules at the end of a file are cut off,
/// and comments dropped, so a check reads what the program does.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .filter(|line| {
            let line = line.trim_start();
            !line.starts_with("//")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The stand-ins of the model APIs are HTTP servers themselves: test support
/// that no crate may depend on outside its tests.
const HTTP_TEST_SUPPORT: &str = "standins";

#[test]
fn only_the_server_knows_the_web_framework_and_only_the_cli_knows_clap() {
    let rules: [(&str, &[&str]); 2] = [
        ("server", &["axum", "tower", "tower-http"]),
        ("cli", &["clap", "clap_complete"]),
    ];
    let mut wrong = Vec::new();
    for (folder, manifest) in crates() {
        let Some(dependencies) = manifest.get("dependencies").and_then(|d| d.as_table()) else {
            continue;
        };
        if dependencies.contains_key(HTTP_TEST_SUPPORT) {
            wrong.push(format!(
                "crates/{folder} depends on {HTTP_TEST_SUPPORT} outside its tests"
            ));
        }
        for (owner, names) in rules {
            let allowed = folder == owner || (owner == "server" && folder == HTTP_TEST_SUPPORT);
            for name in names {
                if !allowed && dependencies.contains_key(*name) {
                    wrong.push(format!("crates/{folder} depends on {name}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn domain_errors_become_statuses_only_in_error_rs() {
    let mut wrong = Vec::new();
    for path in crate_sources("server") {
        if path.ends_with("error.rs") && path.parent().is_some_and(|p| p.ends_with("src")) {
            continue;
        }
        let code = code_of(&read(&path));
        if code.contains("for ApiError") {
            wrong.push(relative(&path));
        }
    }
    assert!(
        wrong.is_empty(),
        "impls for ApiError outside crates/server/src/error.rs: {wrong:#?}"
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
    for folder in crates().keys().filter(|folder| *folder != "settings") {
        for path in crate_sources(folder) {
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
    for folder in crates().keys().filter(|folder| *folder != "settings") {
        for path in crate_sources(folder) {
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
        for marker in ["dbg!(", "todo!(", "unimplemented!("] {
            if code_of(&text).contains(marker) {
                wrong.push(format!("{}: {marker}", relative(&path)));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The modules of a crate's `src` a file refers to through `crate::` (and
/// `super::` inside a folder module), as files.
fn module_edges(src: &Path, file: &Path, text: &str) -> BTreeSet<PathBuf> {
    let module_file = |segments: &[&str]| -> Option<PathBuf> {
        let mut best = None;
        let mut dir = src.to_path_buf();
        for segment in segments {
            let flat = dir.join(format!("{segment}.rs"));
            let folder = dir.join(segment).join("mod.rs");
            if flat.exists() {
                best = Some(flat);
            } else if folder.exists() {
                best = Some(folder);
            } else {
                break;
            }
            dir = dir.join(segment);
        }
        best
    };
    let lib_items = lib_items(src);
    let mut edges = BTreeSet::new();
    for prefix in ["crate::", "super::"] {
        for (at, _) in text.match_indices(prefix) {
            let rest = &text[at + prefix.len()..];
            let mut segments: Vec<&str> = Vec::new();
            let mut path = rest;
            loop {
                let end = path
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(path.len());
                if end == 0 {
                    break;
                }
                segments.push(&path[..end]);
                match path[end..].strip_prefix("::") {
                    Some(next) => path = next,
                    None => break,
                }
            }
            let Some(first) = segments.first() else {
                continue;
            };
            let base = if prefix == "super::" {
                let parent = file.parent().unwrap_or(src);
                let mut owned: Vec<String> = parent
                    .strip_prefix(src)
                    .unwrap_or(Path::new(""))
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if file.ends_with("mod.rs") {
                    owned.pop();
                }
                owned
            } else {
                Vec::new()
            };
            let mut full: Vec<&str> = base.iter().map(String::as_str).collect();
            full.extend(segments.iter().copied());
            match module_file(&full) {
                Some(target) => {
                    edges.insert(target);
                }
                None if base.is_empty() && lib_items.contains(*first) => {
                    edges.insert(src.join("lib.rs"));
                }
                None => {}
            }
        }
    }
    edges.remove(file);
    edges
}

/// What `lib.rs` itself defines (not what it declares as modules or re-exports).
fn lib_items(src: &Path) -> BTreeSet<String> {
    let Ok(text) = std::fs::read_to_string(src.join("lib.rs")) else {
        return BTreeSet::new();
    };
    let mut items = BTreeSet::new();
    for line in code_of(&text).lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            if matches!(
                *word,
                "struct" | "enum" | "fn" | "type" | "const" | "static" | "trait"
            ) && let Some(name) = words.get(i + 1)
            {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                items.insert(name);
            }
        }
    }
    items
}

#[test]
fn no_two_files_of_a_crate_import_each_other() {
    let mut loops = Vec::new();
    for folder in crates().keys() {
        let src = root().join("crates").join(folder).join("src");
        let sources = crate_sources(folder);
        let graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = sources
            .iter()
            .map(|file| {
                let mut text = code_of(&read(file));
                if file.ends_with("lib.rs") || file.ends_with("main.rs") {
                    // Declaring and re-exporting modules is the root's job, not a dependency.
                    text = text
                        .lines()
                        .filter(|line| {
                            let line = line.trim_start();
                            !(line.starts_with("mod ")
                                || line.starts_with("pub mod ")
                                || line.starts_with("pub use ")
                                || line.starts_with("pub(crate) use "))
                        })
                        .collect::<Vec<_>>()
                        .join("\n");
                }
                (file.clone(), module_edges(&src, file, &text))
            })
            .collect();
        for cycle in cycles(&graph) {
            let names: Vec<String> = cycle.iter().map(|path| relative(path)).collect();
            loops.push(names.join(" → "));
        }
    }
    assert!(loops.is_empty(), "files that import each other: {loops:#?}");
}

/// One cycle through each strongly connected group of files, if any.
fn cycles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut reported: BTreeSet<PathBuf> = BTreeSet::new();
    for start in graph.keys() {
        if reported.contains(start) {
            continue;
        }
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((node, path)) = stack.pop() {
            for next in graph.get(&node).into_iter().flatten() {
                if next == start {
                    reported.extend(path.iter().cloned());
                    let mut cycle = path.clone();
                    cycle.push(start.clone());
                    found.push(cycle);
                    stack.clear();
                    break;
                }
                if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    found
}
