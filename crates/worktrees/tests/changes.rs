//! A worktree's changes against its base on a real repository made in a
//! temporary folder: a commit on the branch, staged and unstaged edits, an
//! untracked file, a deletion, a rename and a binary file, each file's diff,
//! a diff cut at its limit, and the paths that are refused. The index is
//! never touched. Commits name their author in the command, so no global
//! git config is read.

mod common;

use std::path::{Path, PathBuf};

use common::git;

use worktrees::{Change, ChangeKind, WorktreeError};

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

/// A worktree on its own branch from a repository with five files, and the
/// commit it started from.
fn worktree() -> (tempfile::TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join("src")).unwrap();
    git(&root, &["init", "--quiet"]);
    std::fs::write(root.join("README.md"), "hello\n").unwrap();
    std::fs::write(root.join("src/lib.rs"), "fn a() {}\nfn b() {}\n").unwrap();
    std::fs::write(root.join("gone.txt"), "one\ntwo\nthree\n").unwrap();
    let moved: String = (1..=20).map(|n| format!("line {n}\n")).collect();
    std::fs::write(root.join("old-name.txt"), moved).unwrap();
    std::fs::write(root.join(".gitignore"), "*.log\n").unwrap();
    git(&root, &["add", "."]);
    git(&root, &["commit", "--quiet", "-m", "first"]);
    let checkout = worktrees::find_repository(&root).unwrap();
    let id = "019a8f3c5d2e7b41a3c4d5e6f708192a";
    let path = dir.path().join("worktrees").join(id);
    let made = worktrees::add(&checkout, &path, &worktrees::branch_for(id)).unwrap();
    (dir, made.path, made.base)
}

/// Every kind of change: committed on the branch, staged, unstaged,
/// untracked (one in a new folder, one binary), deleted and renamed; an
/// ignored file is left out.
fn change_everything(path: &Path) {
    std::fs::write(path.join("README.md"), "hello\nworld\n").unwrap();
    git(path, &["commit", "--quiet", "-am", "committed"]);
    std::fs::write(path.join("src/lib.rs"), "fn a() {}\nfn c() {}\n").unwrap();
    git(path, &["rm", "--quiet", "gone.txt"]);
    git(path, &["mv", "old-name.txt", "new-name.txt"]);
    std::fs::create_dir_all(path.join("docs/new")).unwrap();
    std::fs::write(path.join("docs/new/notes.md"), "a\nb\nc").unwrap();
    std::fs::write(path.join("logo.bin"), b"\x89PNG\0\0\x01").unwrap();
    std::fs::write(path.join("debug.log"), "ignored\n").unwrap();
}

#[test]
fn committed_uncommitted_untracked_deleted_and_renamed_files_are_all_listed() {
    let (_dir, path, base) = worktree();
    change_everything(&path);
    let status_before = git(&path, &["status", "--porcelain"]);
    let index = path.join(git(&path, &["rev-parse", "--git-path", "index"]));
    let index_before = std::fs::read(&index).unwrap();

    let changes = worktrees::changes(&path, &base).unwrap();
    let summary: Vec<Summary<'_>> = changes.iter().map(summary).collect();
    assert_eq!(
        summary,
        [
            ("README.md", ChangeKind::Modified, 1, 0, None, false),
            ("docs/new/notes.md", ChangeKind::Added, 3, 0, None, false),
            ("gone.txt", ChangeKind::Deleted, 0, 3, None, false),
            ("logo.bin", ChangeKind::Added, 0, 0, None, true),
            (
                "new-name.txt",
                ChangeKind::Renamed,
                0,
                0,
                Some("old-name.txt"),
                false
            ),
            ("src/lib.rs", ChangeKind::Modified, 1, 1, None, false),
        ]
    );
    let untracked: Vec<&str> = changes
        .iter()
        .filter(|c| c.untracked)
        .map(|c| c.path.as_str())
        .collect();
    assert_eq!(untracked, ["docs/new/notes.md", "logo.bin"]);
    // Read only: the index was not written, the untracked files are still untracked.
    assert_eq!(std::fs::read(&index).unwrap(), index_before);
    assert_eq!(git(&path, &["status", "--porcelain"]), status_before);
}

#[test]
fn a_clean_worktree_has_no_changes() {
    let (_dir, path, base) = worktree();
    assert_eq!(worktrees::changes(&path, &base).unwrap(), []);
}

#[test]
fn each_kind_of_file_has_its_unified_diff() {
    let (_dir, path, base) = worktree();
    change_everything(&path);
    let diff = |file: &str| {
        let diff = worktrees::file_diff(&path, &base, file).unwrap();
        assert_eq!(diff.path, file);
        assert!(!diff.truncated);
        diff.diff
    };

    let committed = diff("README.md");
    assert!(
        committed.contains("--- a/README.md\n+++ b/README.md\n"),
        "{committed}"
    );
    assert!(committed.contains(" hello\n+world\n"), "{committed}");
    let edited = diff("src/lib.rs");
    assert!(edited.contains("-fn b() {}\n+fn c() {}\n"), "{edited}");
    let deleted = diff("gone.txt");
    assert!(deleted.contains("deleted file mode"), "{deleted}");
    assert!(deleted.contains("-three\n"), "{deleted}");
    let renamed = diff("new-name.txt");
    assert!(
        renamed.contains("rename from old-name.txt\nrename to new-name.txt"),
        "{renamed}"
    );
    let untracked = diff("docs/new/notes.md");
    assert!(untracked.contains("new file mode"), "{untracked}");
    assert!(untracked.contains("+++ b/docs/new/notes.md"), "{untracked}");
    assert!(
        untracked.contains("+a\n+b\n+c\n\\ No newline at end of file"),
        "{untracked}"
    );
    let binary = diff("logo.bin");
    assert!(binary.contains("Binary files"), "{binary}");
}

#[test]
fn a_long_diff_is_cut_at_a_line_end_and_says_so() {
    let (_dir, path, base) = worktree();
    let line = format!("{}\n", "x".repeat(99));
    let lines = worktrees::MAX_DIFF_BYTES / line.len() + 1000;
    std::fs::write(path.join("big.txt"), line.repeat(lines)).unwrap();
    let diff = worktrees::file_diff(&path, &base, "big.txt").unwrap();
    assert!(diff.truncated);
    assert!(diff.diff.len() <= worktrees::MAX_DIFF_BYTES);
    assert!(diff.diff.len() > worktrees::MAX_DIFF_BYTES - line.len() - 2);
    assert!(diff.diff.ends_with(&format!("+{line}")), "ends mid-line");
}

#[test]
fn paths_outside_the_changes_are_refused_and_never_reach_git_as_options() {
    let (_dir, path, base) = worktree();
    change_everything(&path);
    std::fs::write(path.join("-rf"), "x\n").unwrap();
    for refused in [
        "/etc/passwd",
        "../repo/README.md",
        "src/../README.md",
        "",
        "unchanged.txt",
        "debug.log",
        "src",
        ":(glob)*",
    ] {
        let error = worktrees::file_diff(&path, &base, refused).unwrap_err();
        assert!(
            matches!(error, WorktreeError::NotAChangedFile { .. }),
            "{refused}: {error}"
        );
    }
    // A file named like an option is a file.
    let diff = worktrees::file_diff(&path, &base, "-rf").unwrap();
    assert!(diff.diff.contains("+++ b/-rf"), "{}", diff.diff);
}

#[test]
fn a_file_named_like_a_pathspec_is_only_itself() {
    let (_dir, path, base) = worktree();
    std::fs::write(path.join(":(glob)*"), "literal\n").unwrap();
    git(&path, &["--literal-pathspecs", "add", ":(glob)*"]);
    std::fs::write(path.join("README.md"), "changed\n").unwrap();
    let diff = worktrees::file_diff(&path, &base, ":(glob)*").unwrap();
    assert!(diff.diff.contains("+literal"), "{}", diff.diff);
    assert!(!diff.diff.contains("README"), "{}", diff.diff);
}
