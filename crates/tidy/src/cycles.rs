//! Import loops between the files of a crate. Each target's module tree is
//! read from its root (`src/lib.rs`, `src/main.rs`, each file of `tests/`,
//! `benches/` and `examples/`) by following `mod` declarations, `#[path]`
//! included, so a path resolves the way the compiler resolves it. A file
//! imports another when it names an item of that file: by `crate::`,
//! `super::` or `self::`, or a module it declares itself by its name (the
//! parent that wires its children depends on them). Declaring a module or
//! re-exporting a child's item is the parent's job, not a dependency. Any
//! loop in those imports is reported, however long.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::tree::{code_of, files, read, relative};

/// One file of a module tree: its module path, the children it declares
/// (name → file), and the items it defines itself.
struct Module {
    path: Vec<String>,
    children: BTreeMap<String, PathBuf>,
    defines: BTreeSet<String>,
    /// What it re-exports: name → the path it names, from this module.
    re_exports: BTreeMap<String, Vec<String>>,
}

/// A target's module tree: file → module.
type Tree = BTreeMap<PathBuf, Module>;

/// Every loop of imports between files, in every target of every crate
/// below `root/crates`, as "a → b → a".
pub fn file_cycles(root: &Path) -> Vec<String> {
    let mut loops = Vec::new();
    for target_root in target_roots(root) {
        let tree = module_tree(&target_root);
        let graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = tree
            .keys()
            .map(|file| (file.clone(), imports(&tree, file)))
            .collect();
        for cycle in cycles(&graph) {
            let names: Vec<String> = cycle.iter().map(|path| relative(root, path)).collect();
            let described = names.join(" → ");
            if !loops.contains(&described) {
                loops.push(described);
            }
        }
    }
    loops
}

/// The root file of every target: the library, the binaries, and each test,
/// bench and example that is a crate of its own.
fn target_roots(root: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    for krate in files(&root.join("crates"), &["Cargo.toml"]) {
        let Some(dir) = krate.parent() else { continue };
        for main in ["src/lib.rs", "src/main.rs"] {
            if dir.join(main).exists() {
                roots.push(dir.join(main));
            }
        }
        for folder in ["tests", "benches", "examples"] {
            let Ok(entries) = std::fs::read_dir(dir.join(folder)) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "rs") {
                    roots.push(path);
                } else if path.join("main.rs").exists() {
                    roots.push(path.join("main.rs"));
                }
            }
        }
    }
    roots.sort();
    roots
}

/// The `mod name;` declarations of a file's code, with the `#[path]` each
/// one may carry.
fn declared_modules(code: &str) -> Vec<(String, Option<String>)> {
    let mut declared = Vec::new();
    let mut path_attribute = None;
    for line in code.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("#[path = \"") {
            path_attribute = rest.strip_suffix("\"]").map(str::to_owned);
            continue;
        }
        let declaration = line
            .strip_prefix("pub(crate) mod ")
            .or_else(|| line.strip_prefix("pub mod "))
            .or_else(|| line.strip_prefix("mod "));
        if let Some(name) = declaration.and_then(|rest| rest.strip_suffix(';')) {
            declared.push((name.trim().to_owned(), path_attribute.take()));
        } else if !line.starts_with("#[") {
            path_attribute = None;
        }
    }
    declared
}

fn module_tree(root_file: &Path) -> Tree {
    let mut tree = Tree::new();
    let Some(root_dir) = root_file.parent() else {
        return tree;
    };
    let mut pending = vec![(root_file.to_path_buf(), Vec::new(), root_dir.to_path_buf())];
    while let Some((file, path, children_dir)) = pending.pop() {
        if tree.contains_key(&file) || !file.exists() {
            continue;
        }
        let mut children = BTreeMap::new();
        let code = code_of(&read(&file));
        for (name, attribute) in declared_modules(&code) {
            let child = match attribute {
                Some(relative) => file.parent().unwrap_or(root_dir).join(relative),
                None if children_dir.join(format!("{name}.rs")).exists() => {
                    children_dir.join(format!("{name}.rs"))
                }
                None => children_dir.join(&name).join("mod.rs"),
            };
            let grandchildren_dir = if child.ends_with("mod.rs") {
                child.parent().unwrap_or(root_dir).to_path_buf()
            } else {
                child.with_extension("")
            };
            let mut child_path = path.clone();
            child_path.push(name.clone());
            pending.push((child.clone(), child_path, grandchildren_dir));
            children.insert(name, child);
        }
        tree.insert(
            file,
            Module {
                path,
                children,
                defines: defined_items(&code),
                re_exports: re_exports(&code),
            },
        );
    }
    tree
}

/// What a file defines itself (not what it declares as modules or re-exports).
fn defined_items(code: &str) -> BTreeSet<String> {
    let mut items = BTreeSet::new();
    for line in code.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            if matches!(
                *word,
                "struct" | "enum" | "fn" | "type" | "const" | "static" | "trait" | "macro_rules!"
            ) && let Some(name) = words.get(i + 1)
            {
                items.insert(
                    name.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect(),
                );
            }
        }
    }
    items
}

/// The names a file re-exports (`pub use a::b::{C, D as E};`), each with
/// the path it stands for.
fn re_exports(code: &str) -> BTreeMap<String, Vec<String>> {
    let mut found = BTreeMap::new();
    for line in code.lines() {
        let line = line.trim();
        let Some(used) = line
            .strip_prefix("pub use ")
            .or_else(|| line.strip_prefix("pub(crate) use "))
            .and_then(|rest| rest.strip_suffix(';'))
        else {
            continue;
        };
        let (prefix, group) = match used.split_once("::{") {
            Some((prefix, group)) => (prefix, group.trim_end_matches('}')),
            None => match used.rsplit_once("::") {
                Some((prefix, last)) => (prefix, last),
                None => continue,
            },
        };
        for item in group.split(',') {
            let item = item.trim();
            let (original, name) = item.split_once(" as ").unwrap_or((item, item));
            if original.is_empty() || original.contains('{') {
                continue;
            }
            let mut path: Vec<String> = prefix.split("::").map(str::to_owned).collect();
            path.extend(original.split("::").map(str::to_owned));
            found.insert(name.trim().to_owned(), path);
        }
    }
    found
}

/// The file a module path ends in, and the segments after it: the deepest
/// module of the tree the path names.
fn resolve<'a>(
    tree: &Tree,
    segments: &'a [&'a str],
    base: &[String],
) -> Option<(PathBuf, &'a [&'a str])> {
    let by_path: BTreeMap<&[String], &PathBuf> = tree
        .iter()
        .map(|(file, m)| (m.path.as_slice(), file))
        .collect();
    let mut full: Vec<String> = base.to_vec();
    let mut best = by_path
        .get(full.as_slice())
        .map(|file| ((*file).clone(), segments));
    for (i, segment) in segments.iter().enumerate() {
        full.push((*segment).to_owned());
        match by_path.get(full.as_slice()) {
            Some(file) => best = Some(((*file).clone(), &segments[i + 1..])),
            None => break,
        }
    }
    best
}

/// The identifier path that starts at `text`: `a::b::c` → ["a", "b", "c"].
fn path_at(text: &str) -> Vec<&str> {
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        segments.push(&rest[..end]);
        match rest[end..].strip_prefix("::") {
            Some(next) => rest = next,
            None => break,
        }
    }
    segments
}

/// The paths named at `text`: one, or each of a `{a::b, c}` group.
fn paths_at(text: &str) -> Vec<Vec<&str>> {
    let Some(group) = text.strip_prefix('{') else {
        return vec![path_at(text)];
    };
    let mut depth = 0;
    let mut paths = Vec::new();
    let mut start = 0;
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                paths.push(path_at(group[start..at].trim()));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                paths.push(path_at(group[start..at].trim()));
                start = at + 1;
            }
            _ => {}
        }
    }
    paths.retain(|path| !path.is_empty());
    paths
}

/// The files `file` imports from.
fn imports(tree: &Tree, file: &Path) -> BTreeSet<PathBuf> {
    let Some(module) = tree.get(file) else {
        return BTreeSet::new();
    };
    let code: String = code_of(&read(file))
        .lines()
        .filter(|line| {
            let line = line.trim_start();
            declared_modules(line).is_empty()
                && !line.starts_with("pub use ")
                && !line.starts_with("pub(crate) use ")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut edges = BTreeSet::new();
    let mut add = |target: Option<(PathBuf, &[&str])>| {
        if let Some((target, rest)) = target
            && let Some(defining) = defining_file(tree, &target, rest.first().copied(), 0)
        {
            edges.insert(defining);
        }
    };
    for (prefix, base) in [
        ("crate::", Vec::new()),
        ("self::", module.path.clone()),
        ("super::", parent_path(&module.path)),
    ] {
        for (at, _) in code.match_indices(prefix) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            for path in paths_at(&code[at + prefix.len()..]) {
                let mut base = base.clone();
                let mut segments = path.as_slice();
                // `super::super::x`
                while segments.first() == Some(&"super") {
                    base = parent_path(&base);
                    segments = &segments[1..];
                }
                add(resolve(tree, segments, &base));
            }
        }
    }
    for (name, child) in &module.children {
        let named = code.match_indices(&format!("{name}::")).any(|(at, _)| {
            code[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'))
        });
        if named {
            edges.insert(child.clone());
        }
    }
    edges.remove(file);
    edges
}

/// The file that defines `item` as `module` names it: `module` itself, or,
/// when it only re-exports the name, the file the re-export leads to. A
/// path naming the module alone (`item` is `None`) is the module's file.
fn defining_file(tree: &Tree, module: &Path, item: Option<&str>, depth: u8) -> Option<PathBuf> {
    let Some(item) = item else {
        return Some(module.to_path_buf());
    };
    let found = tree.get(module)?;
    if found.defines.contains(item) {
        return Some(module.to_path_buf());
    }
    let path = found.re_exports.get(item)?;
    if depth > 4 {
        return None;
    }
    let segments: Vec<&str> = path.iter().map(String::as_str).collect();
    let (base, segments) = match segments.split_first() {
        Some((&"crate", rest)) => (Vec::new(), rest),
        Some((&"self", rest)) => (found.path.clone(), rest),
        Some((&"super", rest)) => (parent_path(&found.path), rest),
        // A child module's item (or another crate's, which resolves to nothing).
        _ => (found.path.clone(), segments.as_slice()),
    };
    let (target, rest) = resolve(tree, segments, &base)?;
    if target == module && rest.first() == Some(&item) {
        return None;
    }
    defining_file(tree, &target, rest.first().copied(), depth + 1)
}

fn parent_path(path: &[String]) -> Vec<String> {
    path[..path.len().saturating_sub(1)].to_vec()
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
