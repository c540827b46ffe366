//! Worktrees on real repositories made in temporary folders: the branch and
//! path, the base commit, the include file, and removal only when clean.
//! Every commit names its author in the command, so no global git config is read.

mod common;

use std::path::{Path, PathBuf};

use common::git;

use worktrees::{Removal, WorktreeError};

const ID: &str = "019a8f3c5d2e7b41a3c4d5e6f708192a";

/// A repository with one commit: a tracked file, a tracked subfolder, an
/// ignored `.env` and an include file that lists it.
fn repository() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join("crates/api")).unwrap();
    git(&root, &["init", "--quiet"]);
    std::fs::write(root.join("README.md"), "hello\n").unwrap();
    std::fs::write(root.join("crates/api/lib.rs"), "// api\n").unwrap();
    std::fs::write(root.join(".gitignore"), ".env\n").unwrap();
    std::fs::create_dir_all(root.join(".switchboard")).unwrap();
    std::fs::write(root.join(worktrees::INCLUDE_FILE), "# secrets\n.env\n").unwrap();
    git(&root, &["add", "."]);
    git(&root, &["commit", "--quiet", "-m", "first"]);
    std::fs::write(root.join(".env"), "TOKEN=secret\n").unwrap();
    (dir, root)
}

fn add(dir: &Path, folder: &Path) -> worktrees::Worktree {
    let checkout = worktrees::find_repository(folder).unwrap();
    let path = dir.join("data/worktrees").join(ID);
    worktrees::add(&checkout, &path, &worktrees::branch_for(ID)).unwrap()
}

#[test]
fn a_worktree_is_on_its_own_branch_from_head_with_the_included_files() {
    let (dir, root) = repository();
    let head = git(&root, &["rev-parse", "HEAD"]);
    let made = add(dir.path(), &root);

    assert_eq!(made.path, dir.path().join("data/worktrees").join(ID));
    assert_eq!(made.branch, "switchboard/f708192a");
    assert_eq!(made.base, head);
    assert_eq!(
        made.repository.canonicalize().unwrap(),
        root.canonicalize().unwrap()
    );
    assert_eq!(made.cwd, made.path);
    assert_eq!(
        git(&made.path, &["rev-parse", "--abbrev-ref", "HEAD"]),
        "switchboard/f708192a"
    );
    assert_eq!(git(&made.path, &["rev-parse", "HEAD"]), head);
    assert!(made.path.join("README.md").is_file());
    assert_eq!(made.copied, vec![PathBuf::from(".env")]);
    assert_eq!(
        std::fs::read_to_string(made.path.join(".env")).unwrap(),
        "TOKEN=secret\n"
    );
    // The copied file is ignored there too: the new worktree counts as clean.
    assert_eq!(git(&made.path, &["status", "--porcelain"]), "");
}

#[test]
fn a_subfolder_runs_in_the_same_subfolder_of_the_worktree() {
    let (dir, root) = repository();
    let made = add(dir.path(), &root.join("crates/api"));
    assert_eq!(made.cwd, made.path.join("crates/api"));
    assert!(made.cwd.join("lib.rs").is_file());
}

#[test]
fn an_ignored_subfolder_is_made_in_the_worktree_without_dirtying_it() {
    let (dir, root) = repository();
    std::fs::create_dir_all(root.join("build/out")).unwrap();
    std::fs::write(root.join(".gitignore"), ".env\nbuild/\n").unwrap();
    git(&root, &["commit", "--quiet", "-am", "ignore build"]);
    let made = add(dir.path(), &root.join("build/out"));
    assert_eq!(made.cwd, made.path.join("build/out"));
    assert!(made.cwd.is_dir());
    assert_eq!(git(&made.path, &["status", "--porcelain"]), "");
}

#[test]
fn a_worktree_with_changes_is_kept_and_a_clean_one_removed_and_the_branch_stays() {
    let (dir, root) = repository();
    let made = add(dir.path(), &root);

    std::fs::write(made.path.join("README.md"), "changed\n").unwrap();
    let outcome = worktrees::remove_if_clean(&made.repository, &made.path).unwrap();
    assert_eq!(outcome, Removal::Kept { changes: 1 });
    assert!(made.path.is_dir());

    // An untracked file is a change too.
    git(&made.path, &["checkout", "--quiet", "README.md"]);
    std::fs::write(made.path.join("notes.txt"), "draft\n").unwrap();
    let outcome = worktrees::remove_if_clean(&made.repository, &made.path).unwrap();
    assert_eq!(outcome, Removal::Kept { changes: 1 });

    // Committed work is not lost with the folder: it is on the branch.
    git(&made.path, &["add", "notes.txt"]);
    git(&made.path, &["commit", "--quiet", "-m", "notes"]);
    let outcome = worktrees::remove_if_clean(&made.repository, &made.path).unwrap();
    assert_eq!(outcome, Removal::Removed);
    assert!(!made.path.exists());
    assert_eq!(
        git(&root, &["branch", "--list", "switchboard/*"]),
        "switchboard/f708192a"
    );
    assert_eq!(
        git(&root, &["show", "switchboard/f708192a:notes.txt"]),
        "draft"
    );
    assert_eq!(
        git(&root, &["worktree", "list", "--porcelain"])
            .matches("worktree ")
            .count(),
        1
    );
}

#[test]
fn a_worktree_deleted_by_hand_counts_as_removed() {
    let (dir, root) = repository();
    let made = add(dir.path(), &root);
    std::fs::remove_dir_all(&made.path).unwrap();
    let outcome = worktrees::remove_if_clean(&made.repository, &made.path).unwrap();
    assert_eq!(outcome, Removal::Removed);
    assert_eq!(
        git(&root, &["worktree", "list", "--porcelain"])
            .matches("worktree ")
            .count(),
        1
    );
}

#[test]
fn discarding_takes_the_folder_and_the_branch() {
    let (dir, root) = repository();
    let made = add(dir.path(), &root);
    worktrees::discard(&made).unwrap();
    assert!(!made.path.exists());
    assert_eq!(git(&root, &["branch", "--list", "switchboard/*"]), "");
}

#[test]
fn folders_outside_a_repository_and_missing_folders_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let error = worktrees::find_repository(dir.path()).unwrap_err();
    assert!(
        matches!(error, WorktreeError::NotARepository { .. }),
        "{error}"
    );
    let error = worktrees::find_repository(&dir.path().join("missing")).unwrap_err();
    assert!(
        matches!(error, WorktreeError::NoSuchFolder { .. }),
        "{error}"
    );

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    git(&empty, &["init", "--quiet"]);
    let error = worktrees::find_repository(&empty).unwrap_err();
    assert!(matches!(error, WorktreeError::NoCommit { .. }), "{error}");
}

#[test]
fn worktrees_added_at_once_in_one_repository_all_succeed() {
    let (dir, root) = repository();
    let checkout = worktrees::find_repository(&root).unwrap();
    let made: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..48)
            .map(|i| {
                let (checkout, dir) = (&checkout, dir.path());
                scope.spawn(move || {
                    let id = format!("019a8f3c5d2e7b41a3c4d5e6f70819{i:02x}");
                    let path = dir.join("data/worktrees").join(&id);
                    worktrees::add(checkout, &path, &worktrees::branch_for(&id))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for worktree in made {
        let worktree = worktree.unwrap();
        assert!(worktree.path.join("README.md").exists());
    }
}
