//! Reading the source tree: the workspace's crates and their manifests, the
//! files below a folder, and a file's code with its comments and test
//! modules cut away, so a check reads what the program does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file below `dir` whose name ends with one of `endings`, sorted;
/// build output and installed packages are skipped.
pub fn files(dir: &Path, endings: &[&str]) -> Vec<PathBuf> {
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

/// The file's text; an unreadable file is a broken tree, which the check
/// reports by failing.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `path` as it is named from `root`, for messages.
pub fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The workspace's crates below `root/crates`: folder name → parsed Cargo.toml.
pub fn crates(root: &Path) -> BTreeMap<String, toml::Table> {
    let mut found = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(root.join("crates")) else {
        return found;
    };
    for entry in entries.flatten() {
        let manifest = entry.path().join("Cargo.toml");
        if manifest.exists() {
            let table: toml::Table = read(&manifest)
                .parse()
                .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
            found.insert(entry.file_name().to_string_lossy().into_owned(), table);
        }
    }
    found
}

/// The names a manifest depends on in its `[dependencies]` (not its tests'
/// or benches').
pub fn dependencies(manifest: &toml::Table) -> Vec<String> {
    manifest
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|table| table.keys().cloned().collect())
        .unwrap_or_default()
}

/// The Rust sources of a crate's library or binary (not its tests or benches).
pub fn crate_sources(root: &Path, name: &str) -> Vec<PathBuf> {
    files(&root.join("crates").join(name).join("src"), &[".rs"])
}

/// Whether a file says on its first line that a program wrote it.
pub fn is_generated(text: &str) -> bool {
    text.lines()
        .next()
        .is_some_and(|first| first.contains("Generated"))
}

/// Code only: each `#[cfg(test)]` item (a test module, inline or in a file
/// of its own, or a test-only function) is blanked, and so are comment
/// lines; blanked, not dropped, so line numbers stay the file's.
pub fn code_of(text: &str) -> String {
    let mut code = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            code.push(if line.trim_start().starts_with("//") {
                ""
            } else {
                line
            });
            continue;
        }
        code.push("");
        // The item the attribute is on: through its other attributes, to the
        // `;` that ends a declaration or the brace that closes its body.
        let mut depth = 0usize;
        let mut opened = false;
        for item_line in lines.by_ref() {
            code.push("");
            let trimmed = item_line.trim();
            if !opened && (trimmed.starts_with("#[") || trimmed.is_empty()) {
                continue;
            }
            for c in item_line.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            if (opened && depth == 0) || (!opened && trimmed.ends_with(';')) {
                break;
            }
        }
    }
    code.join("\n")
}
