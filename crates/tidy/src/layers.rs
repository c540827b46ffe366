//! Which crate may know what: the web framework only in `server` (and in the
//! model-API stand-ins, test support no crate depends on outside its tests),
//! the command-line parser only in `cli`, no background work in `server`
//! (the application's loops live in `app`), and the domain crates free of
//! the layers above them.

use std::path::Path;

use crate::tree::{code_of, crate_sources, crates, dependencies, read, relative};

/// HTTP servers of their own for tests: no crate may depend on them
/// outside its tests.
pub const HTTP_TEST_SUPPORT: &str = "standins";

/// The libraries of the web framework, by package name and by the path a
/// source file names them with.
const WEB_FRAMEWORK: [(&str, &str); 4] = [
    ("axum", "axum::"),
    ("tower", "tower::"),
    ("tower-http", "tower_http::"),
    ("rmcp", "rmcp::"),
];

const COMMAND_LINE: [(&str, &str); 3] = [
    ("clap", "clap::"),
    ("clap_complete", "clap_complete::"),
    ("clap_mangen", "clap_mangen::"),
];

/// The crates above the domain: the domain crates depend on none of them.
const LAYERS_ABOVE_THE_DOMAIN: [&str; 3] = ["app", "server", "switchboard"];

/// The crates that are not the domain: the layers, test support, and the
/// checks themselves.
const NOT_DOMAIN: [&str; 5] = ["app", "server", "cli", "standins", "tidy"];

/// The crates that may know some libraries, and those libraries.
type OnlyIn = (
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

/// Every crate that depends on, or names in its code, a library only
/// another crate may know.
pub fn who_knows_what(root: &Path) -> Vec<String> {
    let rules: [OnlyIn; 2] = [
        (&["server", HTTP_TEST_SUPPORT], &WEB_FRAMEWORK),
        (&["cli"], &COMMAND_LINE),
    ];
    let mut wrong = Vec::new();
    for (folder, manifest) in crates(root) {
        let depends = dependencies(&manifest);
        if depends.iter().any(|d| d == HTTP_TEST_SUPPORT) {
            wrong.push(format!(
                "crates/{folder} depends on {HTTP_TEST_SUPPORT} outside its tests"
            ));
        }
        // The checks name what they look for.
        let code: String = if folder == "tidy" {
            String::new()
        } else {
            crate_sources(root, &folder)
                .iter()
                .map(|path| code_of(&read(path)))
                .collect()
        };
        for (owners, libraries) in rules {
            if owners.contains(&folder.as_str()) {
                continue;
            }
            for (package, path) in libraries {
                if depends.iter().any(|d| d == package) {
                    wrong.push(format!("crates/{folder} depends on {package}"));
                } else if code.contains(path) {
                    wrong.push(format!("crates/{folder} names {path} in its code"));
                }
            }
        }
        if !NOT_DOMAIN.contains(&folder.as_str()) {
            for layer in LAYERS_ABOVE_THE_DOMAIN {
                if depends.iter().any(|d| d == layer) {
                    wrong.push(format!(
                        "crates/{folder}, a domain crate, depends on {layer}"
                    ));
                }
            }
        }
    }
    wrong
}

/// Every workspace crate: no dependency on any of them.
const ANY_CRATE: &str = "*";

/// What each domain crate knows nothing of, in the words of its section of
/// ARCHITECTURE.md, as the packages its `[dependencies]` may not name
/// (beside the web framework and the command line, which
/// [`who_knows_what`] checks for every crate).
const KNOWS_NOTHING_OF: [(&str, &[&str]); 30] = [
    ("store", &[ANY_CRATE]),
    ("clock", &[ANY_CRATE]),
    ("events", &[ANY_CRATE]),
    ("metrics", &[ANY_CRATE]),
    ("settings", &["accounts"]),
    ("accounts", &["boards"]),
    ("sessions", &["settings", "accounts"]),
    ("sandbox", &["sessions"]),
    ("worktrees", &["sessions"]),
    ("inbox", &["settings", "sessions"]),
    ("permissions", &["settings", "sessions", "inbox"]),
    ("secrets", &["settings", "sessions", "inbox"]),
    ("governor", &["settings"]),
    ("bookmarks", &["settings"]),
    ("coaching", &["settings"]),
    ("teamchat", &["settings", "accounts", "secrets"]),
    ("navigation", &["settings", "inbox"]),
    ("webhooks", &["settings", "inbox"]),
    ("mail", &["settings", "sessions", "utility", "secrets"]),
    ("messenger", &["settings", "sessions", "secrets"]),
    ("bugintake", &["settings", "sessions"]),
    ("instructions", &["settings", "inbox"]),
    ("alarms", &["settings", "inbox"]),
    ("pm_inbox", &["settings", "sessions"]),
    (
        "resilience",
        &["settings", "store", "rusqlite", "sessions", "tokio"],
    ),
    ("attention", &["settings", "store", "accounts", "boards"]),
    ("codehosts", &[ANY_CRATE]),
    ("automations", &["settings", "sessions", "inbox"]),
    ("drips", &["settings", "sessions", "inbox"]),
    ("work", &["settings", "sessions", "inbox", "secrets"]),
];

/// Every domain crate that depends on what ARCHITECTURE.md says it knows
/// nothing of; a crate the table names that no longer exists is reported
/// too, so the table cannot drift from the tree.
pub fn knows_nothing_of(root: &Path) -> Vec<String> {
    let all = crates(root);
    let workspace: Vec<String> = all
        .values()
        .filter_map(|manifest| manifest.get("package")?.get("name")?.as_str())
        .map(str::to_owned)
        .collect();
    let mut wrong = Vec::new();
    for (folder, unknown) in KNOWS_NOTHING_OF {
        let Some(manifest) = all.get(folder) else {
            wrong.push(format!(
                "crates/{folder} is in the table but not in the tree"
            ));
            continue;
        };
        for dependency in dependencies(manifest) {
            let forbidden = if unknown.contains(&ANY_CRATE) {
                workspace.contains(&dependency)
            } else {
                unknown.contains(&dependency.as_str())
            };
            if forbidden {
                wrong.push(format!(
                    "crates/{folder} depends on {dependency}, which it is said to know nothing of"
                ));
            }
        }
    }
    wrong
}

/// What starts work that outlives the call that started it: a task or a
/// thread. A request's own blocking call (`spawn_blocking`, awaited by the
/// request) is not on the list.
const STARTS_BACKGROUND_WORK: [&str; 6] = [
    "tokio::spawn",
    "task::spawn(",
    "spawn_local(",
    "thread::spawn",
    "thread::Builder",
    "JoinSet",
];

/// Every place in `server`'s code (its tests aside) that starts a task or a
/// thread: background loops belong to the application layer, and even the
/// listeners are run by the caller of `server::serve`.
pub fn background_work_in_server(root: &Path) -> Vec<String> {
    let mut wrong = Vec::new();
    for path in crate_sources(root, "server") {
        let code = code_of(&read(&path));
        for (number, line) in code.lines().enumerate() {
            let bare_spawn = line.match_indices("spawn(").any(|(at, _)| {
                line[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.' || c == ':'))
                    && !line[..at].trim_end().ends_with("fn")
            });
            if bare_spawn
                || STARTS_BACKGROUND_WORK
                    .iter()
                    .any(|marker| line.contains(marker))
            {
                wrong.push(format!(
                    "{}:{}: {}",
                    relative(root, &path),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    wrong
}
