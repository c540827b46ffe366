//! A drip's folder on disk: the check that makes one a drip's source, the
//! files that are its items (in natural name order, so `2-…` comes before
//! `10-…`), and reading one item's content.
//!
//! An item is a regular file directly in the folder whose name does not
//! start with `.` and whose extension names a kind (`.md`, `.markdown`,
//! `.html`, `.htm`, `.txt`, `.text`); a link counts when it leads to such a
//! file inside the folder, never to one outside it. Each read follows the
//! folder's own path again and refuses it once it leads into a protected
//! folder (Switchboard's data directory). An item's content is read when it
//! is released (or previewed), at most [`MAX_ITEM_BYTES`], not-UTF-8 bytes
//! replaced.

use std::cmp::Ordering;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::DripError;
use crate::item::{ItemKind, MAX_ITEM_BYTES};

/// One file of a folder that is an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub name: String,
    pub kind: ItemKind,
}

/// The folder a new drip reads: an absolute path to a directory that
/// exists and can be read, outside every `protected` folder (canonical
/// paths: Switchboard's data directory). Its canonical form.
pub(crate) fn check(text: &str, protected: &[PathBuf]) -> Result<PathBuf, DripError> {
    let said = |message: String| {
        DripError::Fields(vec![automations::FieldProblem {
            field: "folder",
            message,
        }])
    };
    // `resolve`'s reasons are a drip's problem later ("its folder …"); as
    // a refusal of the form each is a sentence of its own.
    let invalid = |message: String| {
        let mut chars = message.chars();
        let first: String = chars
            .next()
            .into_iter()
            .flat_map(char::to_uppercase)
            .collect();
        said(format!("{first}{}.", chars.as_str()))
    };
    let text = text.trim();
    let path = Path::new(text);
    if !path.is_absolute() {
        return Err(said(format!(
            "Give the folder as an absolute path, such as /home/me/drip; {text} is not one."
        )));
    }
    if let Some(problem) = automations::folder_here(text) {
        return Err(said(problem));
    }
    let canonical = resolve(path, protected).map_err(invalid)?;
    list(&canonical).map_err(invalid)?;
    Ok(canonical)
}

/// Why a file or folder could not be opened, in words rather than the
/// system's ("Permission denied (os error 13)"); empty when the plain
/// "cannot be read" says it all.
fn why(error: &std::io::Error) -> &'static str {
    match error.kind() {
        std::io::ErrorKind::PermissionDenied => ": Switchboard is not allowed to open it",
        std::io::ErrorKind::NotFound => ": it is gone",
        _ => "",
    }
}

/// Where `folder` leads now, links followed: a directory outside every
/// `protected` folder (only the folder's own files are items, so a parent
/// of the data directory shows none of it). Why not, when not.
fn resolve(folder: &Path, protected: &[PathBuf]) -> Result<PathBuf, String> {
    let shown = folder.display();
    let canonical = folder.canonicalize().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{shown} does not exist"),
        _ => format!("{shown} cannot be reached{}", why(&e)),
    })?;
    if !canonical.is_dir() {
        return Err(format!("{shown} is not a folder"));
    }
    if protected
        .iter()
        .any(|guarded| canonical.starts_with(guarded))
    {
        return Err(format!("{shown} is inside Switchboard's data directory"));
    }
    Ok(canonical)
}

/// The folder's items in release order; why it cannot be read, when it
/// cannot.
pub(crate) fn scan(folder: &Path, protected: &[PathBuf]) -> Result<Vec<Entry>, String> {
    list(&resolve(folder, protected)?)
}

/// The items of a folder already resolved.
fn list(folder: &Path) -> Result<Vec<Entry>, String> {
    let listing = std::fs::read_dir(folder)
        .map_err(|e| format!("its folder {} cannot be read{}", folder.display(), why(&e)))?;
    let mut entries: Vec<Entry> = listing
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            if name.starts_with('.') {
                return None;
            }
            let kind = ItemKind::of_name(&name)?;
            // The listing says what an entry is without a look at it: only
            // a link costs one, to where it leads.
            let file_type = entry.file_type().ok()?;
            let item = file_type.is_file()
                || (file_type.is_symlink() && inside(folder, &entry.path()).is_some());
            item.then_some(Entry { name, kind })
        })
        .collect();
    entries.sort_by(|a, b| natural_cmp(&a.name, &b.name));
    Ok(entries)
}

/// Where `path` leads, links followed, when that is a regular file inside
/// the (resolved) `folder`.
fn inside(folder: &Path, path: &Path) -> Option<PathBuf> {
    let target = path.canonicalize().ok()?;
    (target.starts_with(folder) && target.is_file()).then_some(target)
}

/// The content of the item `name` of `folder`, or why it cannot be read.
pub(crate) fn read_item(
    folder: &Path,
    name: &str,
    kind: ItemKind,
    protected: &[PathBuf],
) -> Result<String, String> {
    // Names come from the folder's own listing; one naming another folder
    // is refused all the same.
    if name.contains('/') || name.starts_with('.') {
        return Err(format!("{name:?} is not a file of the folder"));
    }
    let folder = resolve(folder, protected)?;
    let path = folder
        .join(name)
        .canonicalize()
        .map_err(|e| format!("{name} cannot be read{}", why(&e)))?;
    if !path.starts_with(&folder) {
        return Err(format!("{name} leads out of its folder"));
    }
    let file =
        std::fs::File::open(&path).map_err(|e| format!("{name} cannot be read{}", why(&e)))?;
    let mut bytes = Vec::new();
    let limit = u64::try_from(MAX_ITEM_BYTES).unwrap_or(u64::MAX);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name} cannot be read{}", why(&e)))?;
    let cut = bytes.len() > MAX_ITEM_BYTES;
    bytes.truncate(MAX_ITEM_BYTES);
    let mut content = String::from_utf8_lossy(&bytes).into_owned();
    if cut && kind != ItemKind::Html {
        content.push_str(&format!("\n\n… (cut at {} KiB)", MAX_ITEM_BYTES / 1024));
    }
    Ok(content)
}

/// Names compared with their runs of digits as numbers (`2` before `10`),
/// the rest by character; equal numbers with more leading zeros first.
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a, b);
    loop {
        match (a.chars().next(), b.chars().next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let (digits_a, rest_a) = split_digits(a);
                let (digits_b, rest_b) = split_digits(b);
                let (short_a, short_b) = (
                    digits_a.trim_start_matches('0'),
                    digits_b.trim_start_matches('0'),
                );
                let order = short_a
                    .len()
                    .cmp(&short_b.len())
                    .then_with(|| short_a.cmp(short_b))
                    .then_with(|| digits_b.len().cmp(&digits_a.len()));
                if order != Ordering::Equal {
                    return order;
                }
                (a, b) = (rest_a, rest_b);
            }
            (Some(x), Some(y)) => {
                let order = x.cmp(&y);
                if order != Ordering::Equal {
                    return order;
                }
                (a, b) = (&a[x.len_utf8()..], &b[y.len_utf8()..]);
            }
        }
    }
}

fn split_digits(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    text.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_names_sort_as_numbers() {
        let mut names = vec![
            "10-end.md",
            "2-middle.md",
            "1-start.md",
            "02-b.md",
            "b.md",
            "a.md",
        ];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            [
                "1-start.md",
                "02-b.md",
                "2-middle.md",
                "10-end.md",
                "a.md",
                "b.md"
            ]
        );
        assert_eq!(natural_cmp("x", "x"), Ordering::Equal);
        assert_eq!(natural_cmp("é1", "é01"), Ordering::Greater);
    }

    #[test]
    fn a_folder_lists_its_items_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (name, text) in [
            ("10-last.md", "# Last"),
            ("2-second.html", "<p>2</p>"),
            ("1-first.txt", "one"),
            (".hidden.md", "no"),
            ("picture.png", "no"),
        ] {
            std::fs::write(root.join(name), text).unwrap();
        }
        std::fs::create_dir(root.join("folder.md")).unwrap();
        let entries = scan(root, &[]).unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["1-first.txt", "2-second.html", "10-last.md"]);
        assert_eq!(entries[1].kind, ItemKind::Html);
        assert_eq!(
            read_item(root, "1-first.txt", ItemKind::Text, &[]).unwrap(),
            "one"
        );
        assert!(read_item(root, "../etc/passwd", ItemKind::Text, &[]).is_err());
        assert!(read_item(root, "gone.md", ItemKind::Markdown, &[]).is_err());
        assert!(scan(&root.join("nowhere"), &[]).is_err());
    }

    #[test]
    fn a_link_counts_only_while_it_stays_inside_the_folder() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let (folder, data) = (dir.path().join("course"), dir.path().join("data"));
        std::fs::create_dir(&folder).unwrap();
        std::fs::create_dir(&data).unwrap();
        std::fs::write(folder.join("1-real.md"), "mine").unwrap();
        std::fs::write(data.join("secret.key"), "key").unwrap();
        symlink(folder.join("1-real.md"), folder.join("2-again.md")).unwrap();
        symlink(data.join("secret.key"), folder.join("3-secret.txt")).unwrap();
        let protected = [data.canonicalize().unwrap()];
        let names: Vec<String> = scan(&folder, &protected)
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["1-real.md", "2-again.md"]);
        assert_eq!(
            read_item(&folder, "2-again.md", ItemKind::Markdown, &protected).unwrap(),
            "mine"
        );
        let out = read_item(&folder, "3-secret.txt", ItemKind::Text, &protected).unwrap_err();
        assert!(out.contains("out of its folder"), "{out}");
        // The folder itself swapped for a link into the data directory.
        let swapped = dir.path().join("swapped");
        symlink(&data, &swapped).unwrap();
        assert!(scan(&swapped, &protected).is_err());
        assert!(read_item(&swapped, "secret.key", ItemKind::Text, &protected).is_err());
    }

    #[test]
    fn a_large_file_is_cut_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("big.md"), "x".repeat(MAX_ITEM_BYTES + 10)).unwrap();
        let content = read_item(dir.path(), "big.md", ItemKind::Markdown, &[]).unwrap();
        assert!(content.starts_with(&"x".repeat(MAX_ITEM_BYTES)));
        assert!(content.ends_with("(cut at 256 KiB)"));
    }

    #[test]
    fn a_drip_folder_must_exist_be_absolute_and_not_hold_the_data() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        let file = dir.path().join("file.md");
        std::fs::write(&file, "x").unwrap();
        let protected = [data.canonicalize().unwrap()];
        assert!(check(&dir.path().join("ok").display().to_string(), &protected).is_err());
        std::fs::create_dir(dir.path().join("ok")).unwrap();
        assert!(check(&dir.path().join("ok").display().to_string(), &protected).is_ok());
        assert!(check(&dir.path().display().to_string(), &protected).is_ok());
        for bad in [
            "relative/path".to_owned(),
            dir.path().join("missing").display().to_string(),
            file.display().to_string(),
            data.display().to_string(),
            data.join(".").display().to_string(),
        ] {
            let error = check(&bad, &protected).unwrap_err();
            assert_eq!(error.field(), Some("folder"), "{bad}: {error}");
        }
    }
}
