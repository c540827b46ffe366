//! Sync in real git repositories (made with the `git` binary): both git
//! modes, worktrees, hand edits, changes of the canonical file, and the
//! refusals.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use crate::{
    EXCLUDE_HEADER, GitMode, Ledger, MIGRATIONS, MemoryLedger, SqliteLedger, SyncError, SyncReport,
    SyncRequest, fingerprint, sync,
};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args(["-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A fresh repository holding `CLAUDE.md`, and its canonical path.
fn repo() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    git(&root, &["init", "-q"]);
    fs::write(root.join("CLAUDE.md"), "Be kind.\n").unwrap();
    (dir, root)
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn run(
    folder: &Path,
    canonical: &str,
    mirrors: &[String],
    git_mode: GitMode,
    ledger: &mut impl Ledger,
) -> SyncReport {
    let request = SyncRequest {
        folder: folder.to_owned(),
        canonical,
        mirrors,
        git_mode,
    };
    sync(&request, ledger).unwrap()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap()
}

#[test]
fn local_mode_lists_each_mirror_in_the_exclude_file_once() {
    let (_dir, root) = repo();
    let mirrors = names(&[
        "AGENTS.md",
        ".github/alt4-instructions.md",
        ".altrules3/base.md",
    ]);
    let mut ledger = MemoryLedger::default();
    let first = run(&root, "PRIMARY.md", &mirrors, GitMode::Local, &mut ledger);
    assert_eq!(
        first.written,
        vec![
            root.join("AGENTS.md"),
            root.join(".github/copilot-instructions.md"),
            root.join(".clinerules/base.md"),
        ]
    );
    assert_eq!(read(&root.join(".clinerules/base.md")), "Be kind.\n");
    let second = run(&root, "PRIMARY.md", &mirrors, GitMode::Local, &mut ledger);
    assert!(second.written.is_empty());
    assert_eq!(second.unchanged, first.written);

    let exclude = read(&root.join(".git/info/exclude"));
    for line in [
        EXCLUDE_HEADER,
        "/AGENTS.md",
        "/.github/copilot-instructions.md",
        "/.clinerules/base.md",
    ] {
        assert_eq!(
            exclude.lines().filter(|l| *l == line).count(),
            1,
            "{exclude}"
        );
    }
    // Only the canonical file is left for git to see.
    assert_eq!(git(&root, &["status", "--porcelain"]), "?? CLAUDE.md\n");
}

#[test]
fn committed_mode_leaves_the_exclude_file_alone() {
    let (_dir, root) = repo();
    let exclude = root.join(".git/info/exclude");
    let before = fs::read(&exclude).ok();
    let mirrors = names(&["AGENTS.md", ".github/alt4-instructions.md"]);
    let report = run(
        &root,
        "PRIMARY.md",
        &mirrors,
        GitMode::Committed,
        &mut MemoryLedger::default(),
    );
    assert_eq!(report.written.len(), 2);
    assert_eq!(fs::read(&exclude).ok(), before);
    let status = git(&root, &["status", "--porcelain"]);
    assert_eq!(status, "?? .github/\n?? AGENTS.md\n?? CLAUDE.md\n");
}

#[test]
fn a_folder_deep_in_the_repository_syncs_at_its_top_level() {
    let (_dir, root) = repo();
    let deep = root.join("src/a/b");
    fs::create_dir_all(&deep).unwrap();
    let mirrors = names(&["ALT1.md"]);
    let report = run(
        &deep,
        "PRIMARY.md",
        &mirrors,
        GitMode::Local,
        &mut MemoryLedger::default(),
    );
    assert_eq!(report.root, root);
    assert_eq!(report.written, vec![root.join("GEMINI.md")]);
    assert!(!deep.join("GEMINI.md").exists());
}

#[test]
fn a_worktree_syncs_at_its_own_top_level_and_excludes_through_the_common_dir() {
    let (_dir, main) = repo();
    git(&main, &["commit", "-q", "--allow-empty", "-m", "start"]);
    let outer = tempfile::tempdir().unwrap();
    let tree = fs::canonicalize(outer.path()).unwrap().join("tree");
    git(
        &main,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature",
            tree.to_str().unwrap(),
        ],
    );
    assert!(tree.join(".git").is_file());
    fs::write(tree.join("CLAUDE.md"), "Tree rules.\n").unwrap();
    fs::create_dir_all(tree.join("sub")).unwrap();
    let mirrors = names(&["AGENTS.md"]);
    let report = run(
        &tree.join("sub"),
        "PRIMARY.md",
        &mirrors,
        GitMode::Local,
        &mut MemoryLedger::default(),
    );
    assert_eq!(report.root, tree);
    assert_eq!(read(&tree.join("AGENTS.md")), "Tree rules.\n");
    assert!(!main.join("AGENTS.md").exists());
    let exclude = read(&main.join(".git/info/exclude"));
    assert_eq!(exclude.lines().filter(|l| *l == "/AGENTS.md").count(), 1);
    assert_eq!(git(&tree, &["status", "--porcelain"]), "?? CLAUDE.md\n");
}

#[test]
fn the_canonical_file_is_never_its_own_mirror() {
    let (_dir, root) = repo();
    fs::write(root.join("AGENTS.md"), "Shared rules.\n").unwrap();
    let mirrors = names(&["AGENTS.md", "PRIMARY.md", "AGENTS.md"]);
    let report = run(
        &root,
        "AGENTS.md",
        &mirrors,
        GitMode::Local,
        &mut MemoryLedger::default(),
    );
    // CLAUDE.md existed with other content and no record: a person's file.
    assert_eq!(report.hand_edited, vec![root.join("CLAUDE.md")]);
    assert!(report.written.is_empty() && report.unchanged.is_empty());
    fs::remove_file(root.join("CLAUDE.md")).unwrap();
    let report = run(
        &root,
        "AGENTS.md",
        &mirrors,
        GitMode::Local,
        &mut MemoryLedger::default(),
    );
    assert_eq!(report.written, vec![root.join("CLAUDE.md")]);
    assert_eq!(read(&root.join("AGENTS.md")), "Shared rules.\n");
    let exclude = read(&root.join(".git/info/exclude"));
    assert!(!exclude.contains("/AGENTS.md"), "{exclude}");
}

#[test]
fn a_hand_edited_mirror_keeps_its_edit_while_the_others_follow() {
    let (_dir, root) = repo();
    let mirrors = names(&["AGENTS.md", "ALT1.md"]);
    let mut ledger = MemoryLedger::default();
    run(&root, "PRIMARY.md", &mirrors, GitMode::Local, &mut ledger);
    fs::write(root.join("GEMINI.md"), "My own Gemini rules.\n").unwrap();
    fs::write(root.join("CLAUDE.md"), "Be kind and brief.\n").unwrap();
    let report = run(&root, "PRIMARY.md", &mirrors, GitMode::Local, &mut ledger);
    assert_eq!(report.written, vec![root.join("AGENTS.md")]);
    assert_eq!(report.hand_edited, vec![root.join("GEMINI.md")]);
    assert_eq!(read(&root.join("AGENTS.md")), "Be kind and brief.\n");
    assert_eq!(read(&root.join("GEMINI.md")), "My own Gemini rules.\n");
    // Still the person's on the next sync.
    let again = run(&root, "PRIMARY.md", &mirrors, GitMode::Local, &mut ledger);
    assert_eq!(again.hand_edited, vec![root.join("GEMINI.md")]);
}

#[test]
fn a_change_of_the_canonical_file_reaches_the_mirrors_across_restarts() {
    let (_dir, root) = repo();
    let db_dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&db_dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock = Arc::new(clock::ManualClock::starting_now());
    let mirrors = names(&["AGENTS.md", ".altrules2"]);
    let request = SyncRequest {
        folder: root.clone(),
        canonical: "PRIMARY.md",
        mirrors: &mirrors,
        git_mode: GitMode::Committed,
    };
    let before = fingerprint(&root, "PRIMARY.md").unwrap();
    sync(&request, &mut SqliteLedger::new(db.clone(), clock.clone())).unwrap();
    assert_eq!(fingerprint(&root, "PRIMARY.md"), Some(before));

    fs::write(root.join("CLAUDE.md"), "Rules, second edition.\n").unwrap();
    assert_ne!(fingerprint(&root, "PRIMARY.md"), Some(before));
    // A new ledger over the same database: what was written is remembered.
    let report = sync(&request, &mut SqliteLedger::new(db, clock)).unwrap();
    assert_eq!(
        report.written,
        vec![root.join("AGENTS.md"), root.join(".cursorrules")]
    );
    assert_eq!(read(&root.join(".cursorrules")), "Rules, second edition.\n");
}

#[test]
fn a_missing_canonical_file_means_nothing_to_do() {
    let (_dir, root) = repo();
    fs::remove_file(root.join("CLAUDE.md")).unwrap();
    let report = run(
        &root,
        "PRIMARY.md",
        &names(&["AGENTS.md"]),
        GitMode::Local,
        &mut MemoryLedger::default(),
    );
    assert!(report.canonical_missing);
    assert!(report.written.is_empty());
    assert!(!root.join("AGENTS.md").exists());
    assert_eq!(fingerprint(&root, "PRIMARY.md"), None);
}

#[test]
fn an_unknown_name_is_refused_before_anything_is_written() {
    let (_dir, root) = repo();
    let mut ledger = MemoryLedger::default();
    for (canonical, mirrors) in [
        ("README.md", names(&["AGENTS.md"])),
        ("PRIMARY.md", names(&["AGENTS.md", "CLAUDE.md"])),
    ] {
        let request = SyncRequest {
            folder: root.clone(),
            canonical,
            mirrors: &mirrors,
            git_mode: GitMode::Local,
        };
        let err = sync(&request, &mut ledger).unwrap_err();
        assert!(matches!(err, SyncError::UnknownName { .. }), "{err}");
    }
    assert!(!root.join("AGENTS.md").exists());
    assert_eq!(fingerprint(&root, "README.md"), None);
}

#[test]
fn outside_a_repository_the_folder_itself_is_synced_and_git_mode_does_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let folder = fs::canonicalize(dir.path()).unwrap();
    fs::write(folder.join("CLAUDE.md"), "Loose rules.\n").unwrap();
    let report = run(
        &folder,
        "PRIMARY.md",
        &names(&["AGENTS.md", ".altrules5"]),
        GitMode::Local,
        &mut MemoryLedger::default(),
    );
    assert_eq!(report.root, folder);
    assert_eq!(report.written.len(), 2);
    assert_eq!(read(&folder.join(".windsurfrules")), "Loose rules.\n");
    assert!(!folder.join(".git").exists());
}

#[test]
fn an_empty_git_folder_above_is_no_repository() {
    let dir = tempfile::tempdir().unwrap();
    let above = fs::canonicalize(dir.path()).unwrap();
    fs::create_dir(above.join(".git")).unwrap();
    let folder = above.join("project");
    fs::create_dir(&folder).unwrap();
    fs::write(folder.join("CLAUDE.md"), "Loose rules.\n").unwrap();
    let report = run(
        &folder,
        "PRIMARY.md",
        &names(&["AGENTS.md"]),
        GitMode::Local,
        &mut MemoryLedger::default(),
    );
    assert_eq!(report.root, folder);
    assert_eq!(read(&folder.join("AGENTS.md")), "Loose rules.\n");
}

#[test]
fn a_file_in_the_way_of_a_mirror_folder_is_left_alone() {
    let (_dir, root) = repo();
    // Cline's older form: a single `.clinerules` file.
    fs::write(root.join(".clinerules"), "Old Cline rules.\n").unwrap();
    let report = run(
        &root,
        "PRIMARY.md",
        &names(&[".altrules3/base.md", "AGENTS.md"]),
        GitMode::Local,
        &mut MemoryLedger::default(),
    );
    assert_eq!(report.hand_edited, vec![root.join(".clinerules/base.md")]);
    assert_eq!(report.written, vec![root.join("AGENTS.md")]);
    assert_eq!(read(&root.join(".clinerules")), "Old Cline rules.\n");
}

#[test]
fn the_ledger_forgets_folders_that_no_longer_exist() {
    let (_kept_dir, kept) = repo();
    let (gone_dir, gone) = repo();
    let db_dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&db_dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock = Arc::new(clock::ManualClock::starting_now());
    let mut sqlite = SqliteLedger::new(db, clock);
    let mut memory = MemoryLedger::default();
    let mirrors = names(&["AGENTS.md"]);
    for root in [&kept, &gone] {
        run(root, "PRIMARY.md", &mirrors, GitMode::Local, &mut sqlite);
        run(root, "PRIMARY.md", &mirrors, GitMode::Local, &mut memory);
    }
    drop(gone_dir);
    assert!(!gone.exists());
    for ledger in [&mut sqlite as &mut dyn Ledger, &mut memory] {
        assert_eq!(ledger.forget_missing().unwrap(), 1);
        assert!(
            ledger
                .last_written(&kept.join("AGENTS.md"))
                .unwrap()
                .is_some()
        );
        assert!(
            ledger
                .last_written(&gone.join("AGENTS.md"))
                .unwrap()
                .is_none()
        );
        assert_eq!(ledger.forget_missing().unwrap(), 0);
    }
}
