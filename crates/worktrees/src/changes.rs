//! What a worktree changed against the commit it started from: committed,
//! staged, unstaged and untracked work alike, read without touching the
//! index (no `git add --intent-to-add`), and one file's unified diff.
//!
//! Tracked files come from one `git diff --raw --numstat -z -M <base>`
//! (the working tree against the base); untracked files, which that diff
//! cannot see, from `git ls-files --others --exclude-standard`, with their
//! lines counted here. Every git run has a time limit and a diff a size
//! limit, and pathspecs are literal (`--literal-pathspecs`), so a file named
//! `:(glob)*` is that file and nothing more.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Component, Path};
use std::time::Duration;

use crate::error::{Result, WorktreeError};
use crate::git;

/// The longest a git read of a worktree may take.
pub const GIT_TIMEOUT: Duration = Duration::from_secs(20);

/// The most diff text one file's diff returns; the rest is cut off.
pub const MAX_DIFF_BYTES: usize = 1 << 20;

/// The most a change list's git output may be: about a hundred thousand
/// changed files. Past it the list would be cut, so it is refused instead.
const MAX_LIST_BYTES: usize = 16 << 20;

/// How git sees a changed file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
    Renamed,
}

/// One file the worktree changed against its base.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Relative to the worktree's root, `/`-separated as git writes it.
    pub path: String,
    pub kind: ChangeKind,
    /// Lines added and removed; both 0 for a binary file.
    pub additions: u64,
    pub deletions: u64,
    /// Where a renamed file was.
    pub old_path: Option<String>,
    pub binary: bool,
    /// Not in git's index at all: its diff is against nothing.
    pub untracked: bool,
}

/// One file's unified diff against the base.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDiff {
    pub path: String,
    pub diff: String,
    /// The diff was longer than [`MAX_DIFF_BYTES`] and ends early (at a line's end).
    pub truncated: bool,
}

/// Options every read here gives git before its subcommand: pathspecs are
/// plain paths, and no file-system monitor hook (a program the repository's
/// config could name) runs for a read.
const READ: [&str; 3] = ["--literal-pathspecs", "-c", "core.fsmonitor=false"];

/// Options of every diff: no external diff program or text conversion
/// filter (programs the repository's config could name), no colour.
const DIFF: [&str; 4] = ["diff", "--no-ext-diff", "--no-textconv", "--no-color"];

/// Every file `worktree` changed against commit `base`, by path.
pub fn changes(worktree: &Path, base: &str) -> Result<Vec<Change>> {
    let mut args: Vec<&str> = READ.iter().chain(DIFF.iter()).copied().collect();
    args.extend([
        "--raw",
        "--numstat",
        "-z",
        "-M",
        "--end-of-options",
        base,
        "--",
    ]);
    let tracked = read_all(worktree, &args)?;
    let mut changes = parse_diff(&tracked);
    let mut args: Vec<&str> = READ.to_vec();
    args.extend(["ls-files", "--others", "--exclude-standard", "-z"]);
    let untracked = read_all(worktree, &args)?;
    let tracked: HashSet<String> = changes.iter().map(|c| c.path.clone()).collect();
    for path in untracked.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let path = String::from_utf8_lossy(path).into_owned();
        // A nested repository is listed as its folder: no file to diff. A
        // file removed from the index but left on disk is already listed
        // (as deleted), and one path must name one change.
        if path.ends_with('/') || tracked.contains(&path) {
            continue;
        }
        let (additions, binary) = count_lines(&worktree.join(&path));
        changes.push(Change {
            path,
            kind: ChangeKind::Added,
            additions,
            deletions: 0,
            old_path: None,
            binary,
            untracked: true,
        });
    }
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(changes)
}

/// The unified diff of `path`, one of [`changes`]' files, against `base`.
/// A path that is absolute, reaches out with `..`, or is not among the
/// changed files is [`WorktreeError::NotAChangedFile`].
pub fn file_diff(worktree: &Path, base: &str, path: &str) -> Result<FileDiff> {
    let refuse = |reason: &str| WorktreeError::NotAChangedFile {
        path: path.to_owned(),
        reason: reason.to_owned(),
    };
    let as_path = Path::new(path);
    if path.is_empty() || as_path.is_absolute() {
        return Err(refuse("a path relative to the worktree's root is needed"));
    }
    if as_path.components().any(|c| c == Component::ParentDir) {
        return Err(refuse(
            "a path may not reach outside the worktree with `..`",
        ));
    }
    let change = changes(worktree, base)?
        .into_iter()
        .find(|c| c.path == path)
        .ok_or_else(|| refuse("not among the files this worktree changed"))?;
    let mut args: Vec<&str> = READ.iter().chain(DIFF.iter()).copied().collect();
    if change.untracked {
        // Against nothing: the whole file is added.
        args.extend(["--no-index", "--", "/dev/null", &change.path]);
    } else {
        args.extend(["-M", "--end-of-options", base, "--"]);
        args.extend(change.old_path.as_deref());
        args.push(&change.path);
    }
    let run = git::bounded(worktree, &args, MAX_DIFF_BYTES, GIT_TIMEOUT)?;
    // `--no-index` exits 1 when the files differ, which they always do here;
    // a cut-off read ended git with SIGPIPE, which is no failure either.
    let code = run.status.code();
    if !(run.truncated || code == Some(0) || (change.untracked && code == Some(1))) {
        return Err(git::bounded_failure(&args, &run));
    }
    let mut diff = run.stdout;
    if run.truncated {
        // Whole lines only, so the text still parses as a diff.
        let end = diff.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        diff.truncate(end);
    }
    Ok(FileDiff {
        path: change.path,
        diff: String::from_utf8_lossy(&diff).into_owned(),
        truncated: run.truncated,
    })
}

/// stdout of a git read that must be whole.
fn read_all(worktree: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let run = git::bounded(worktree, args, MAX_LIST_BYTES, GIT_TIMEOUT)?;
    if run.truncated {
        return Err(WorktreeError::Git {
            args: args.join(" "),
            status: "stopped".to_owned(),
            stderr: format!("more than {MAX_LIST_BYTES} bytes of output"),
        });
    }
    if !run.status.success() {
        return Err(git::bounded_failure(args, &run));
    }
    Ok(run.stdout)
}

/// Parses `git diff --raw --numstat -z -M`: first one raw record per file
/// (`:modes shas STATUS\0path\0`, or `\0old\0new\0` for a rename), then one
/// numstat record per file (`added\tdeleted\tpath\0`, or `\t\0old\0new\0`
/// for a rename; `-` counts for a binary file).
fn parse_diff(output: &[u8]) -> Vec<Change> {
    let mut fields = output
        .split(|b| *b == 0)
        .map(|f| String::from_utf8_lossy(f).into_owned());
    let mut changes: Vec<Change> = Vec::new();
    let mut counts: Vec<(String, Option<(u64, u64)>)> = Vec::new();
    while let Some(field) = fields.next() {
        if let Some(raw) = field.strip_prefix(':') {
            let status = raw.rsplit(' ').next().unwrap_or_default();
            let (kind, old_path) = match status.chars().next() {
                Some('A' | 'C') => (ChangeKind::Added, None),
                Some('D') => (ChangeKind::Deleted, None),
                Some('R') => (ChangeKind::Renamed, fields.next()),
                _ => (ChangeKind::Modified, None),
            };
            // A copy names its source first, as a rename does.
            if status.starts_with('C') {
                fields.next();
            }
            let Some(path) = fields.next() else { break };
            changes.push(Change {
                path,
                kind,
                additions: 0,
                deletions: 0,
                old_path,
                binary: false,
                untracked: false,
            });
        } else if !field.is_empty() {
            let mut parts = field.splitn(3, '\t');
            let (added, deleted) = (parts.next(), parts.next());
            let mut path = parts.next().unwrap_or_default().to_owned();
            if path.is_empty() {
                // A rename: the old path, then the new one.
                fields.next();
                path = fields.next().unwrap_or_default();
            }
            let numbers = added
                .and_then(|a| a.parse().ok())
                .zip(deleted.and_then(|d| d.parse().ok()));
            counts.push((path, numbers));
        }
    }
    let by_path: HashMap<String, usize> = changes
        .iter()
        .enumerate()
        .map(|(index, c)| (c.path.clone(), index))
        .collect();
    for (path, numbers) in counts {
        if let Some(change) = by_path.get(&path).and_then(|i| changes.get_mut(*i)) {
            match numbers {
                Some((added, deleted)) => (change.additions, change.deletions) = (added, deleted),
                None => change.binary = true,
            }
        }
    }
    changes
}

/// An untracked file's line count and whether git would call it binary (a
/// NUL byte in its first 8000 bytes, git's own test). A symbolic link is
/// one line, its target, as git diffs it.
fn count_lines(path: &Path) -> (u64, bool) {
    const SNIFF: usize = 8000;
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return (1, false);
    }
    // A file that vanished or cannot be read since git listed it counts as
    // empty rather than failing the whole list.
    let Ok(mut file) = std::fs::File::open(path) else {
        return (0, false);
    };
    let mut buffer = vec![0; 64 << 10];
    let (mut lines, mut seen, mut last) = (0u64, 0usize, b'\n');
    loop {
        let read = match file.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        let chunk = &buffer[..read];
        if seen < SNIFF && chunk[..read.min(SNIFF - seen)].contains(&0) {
            return (0, true);
        }
        seen += read;
        lines += chunk.iter().filter(|b| **b == b'\n').count() as u64;
        last = chunk[read - 1];
    }
    // A last line without its newline still counts.
    (lines + u64::from(last != b'\n'), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test compares of a change: path, kind, counts, old path, binary.
    type Summary<'a> = (&'a str, ChangeKind, u64, u64, Option<&'a str>, bool);

    fn summary(c: &Change) -> Summary<'_> {
        (
            c.path.as_str(),
            c.kind,
            c.additions,
            c.deletions,
            c.old_path.as_deref(),
            c.binary,
        )
    }

    #[test]
    fn raw_and_numstat_records_make_one_change_each() {
        let output = b":100644 100644 aaa bbb M\0src/a.rs\0\
            :000000 100644 000 ccc A\0new.txt\0\
            :100644 000000 ddd 000 D\0gone.txt\0\
            :100644 100644 eee fff R090\0old name.rs\0new name.rs\0\
            :100644 100644 111 222 M\0logo.png\0\
            3\t1\tsrc/a.rs\0\
            2\t0\tnew.txt\0\
            0\t5\tgone.txt\0\
            1\t1\t\0old name.rs\0new name.rs\0\
            -\t-\tlogo.png\0";
        let changes = parse_diff(output);
        let summary: Vec<Summary<'_>> = changes.iter().map(summary).collect();
        assert_eq!(
            summary,
            [
                ("src/a.rs", ChangeKind::Modified, 3, 1, None, false),
                ("new.txt", ChangeKind::Added, 2, 0, None, false),
                ("gone.txt", ChangeKind::Deleted, 0, 5, None, false),
                (
                    "new name.rs",
                    ChangeKind::Renamed,
                    1,
                    1,
                    Some("old name.rs"),
                    false
                ),
                ("logo.png", ChangeKind::Modified, 0, 0, None, true),
            ]
        );
        assert!(parse_diff(b"").is_empty());
    }

    #[test]
    fn lines_are_counted_with_a_last_line_missing_its_newline() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            count_lines(&path)
        };
        assert_eq!(file("empty", b""), (0, false));
        assert_eq!(file("two", b"a\nb\n"), (2, false));
        assert_eq!(file("open", b"a\nb"), (2, false));
        assert_eq!(file("nul", b"a\0b\n"), (0, true));
        assert_eq!(count_lines(&dir.path().join("missing")), (0, false));
    }
}
