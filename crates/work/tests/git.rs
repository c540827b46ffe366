//! The states and actions against real git: repositories made here, a
//! bare repository as their remote, worktrees as sessions make them, and
//! landings by merge, rebase and squash (and a squash edited over since).

use std::path::{Path, PathBuf};
use std::process::Command;

use work::{Action, Index, Landing, Source, State};

fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

struct Repo {
    _dir: tempfile::TempDir,
    root: PathBuf,
    remote: PathBuf,
    worktrees: PathBuf,
}

fn repo() -> Repo {
    let dir = tempfile::tempdir().unwrap();
    let remote = dir.path().join("remote.git");
    let root = dir.path().join("app");
    std::fs::create_dir_all(&root).unwrap();
    git(
        dir.path(),
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            remote.to_str().unwrap(),
        ],
    );
    git(&root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join("README.md"), "one\ntwo\nthree\n").unwrap();
    git(&root, &["add", "."]);
    git(&root, &["commit", "-q", "-m", "start"]);
    git(
        &root,
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    git(&root, &["push", "-q", "-u", "origin", "main"]);
    git(&root, &["remote", "set-head", "origin", "main"]);
    Repo {
        worktrees: dir.path().join("worktrees"),
        _dir: dir,
        root,
        remote,
    }
}

impl Repo {
    /// A session's worktree on `switchboard/<name>` from main, with
    /// `commits` commits, each adding a file.
    fn session(&self, name: &str, commits: usize) -> Source {
        let path = self.worktrees.join(name);
        let branch = format!("switchboard/{name}");
        let base = git(&self.root, &["rev-parse", "HEAD"]);
        git(
            &self.root,
            &[
                "worktree",
                "add",
                "-q",
                "-b",
                &branch,
                path.to_str().unwrap(),
                "HEAD",
            ],
        );
        for n in 0..commits {
            std::fs::write(
                path.join(format!("{name}-{n}.txt")),
                format!("{name} {n}\n"),
            )
            .unwrap();
            git(&path, &["add", "."]);
            git(&path, &["commit", "-q", "-m", &format!("{name} {n}")]);
        }
        Source {
            session_id: format!("session-{name}"),
            account_id: "acc".into(),
            title: Some(format!("Work on {name}")),
            active: false,
            updated_at: "2026-11-25T10:00:00Z".into(),
            repository: self.root.clone(),
            branch,
            base,
            checkout: Some(path),
            own_worktree: true,
        }
    }
}

fn entry(sources: &[Source]) -> work::Entry {
    let entries = Index::default().entries(sources.to_vec(), 0, &Default::default(), &[]);
    assert_eq!(entries.len(), 1, "{entries:?}");
    entries.into_iter().next().unwrap()
}

fn group(source: &Source) -> work::Group {
    work::group(vec![source.clone()])
        .into_iter()
        .next()
        .unwrap()
}

#[test]
fn running_work_is_in_progress_and_ended_work_with_changes_is_stranded() {
    let repo = repo();
    let mut source = repo.session("a1", 1);
    std::fs::write(
        source.checkout.as_ref().unwrap().join("wip.txt"),
        "1\n2\n3\n",
    )
    .unwrap();
    source.active = true;
    assert_eq!(
        entry(std::slice::from_ref(&source)).state,
        State::InProgress
    );
    source.active = false;
    let stranded = entry(std::slice::from_ref(&source));
    assert_eq!(stranded.state, State::Stranded);
    let uncommitted = stranded.uncommitted.unwrap();
    assert_eq!((uncommitted.files, uncommitted.lines), (1, 3));
    assert_eq!(
        (stranded.ahead, stranded.commits, stranded.unpushed),
        (1, 1, 1)
    );
    assert!(stranded.actions.contains(&Action::Discard));
    assert!(!stranded.actions.contains(&Action::Prune));
}

#[test]
fn committed_but_unpushed_is_stranded_pushed_waits_on_review_and_deleted_unmerged_is_turned_down() {
    let repo = repo();
    let source = repo.session("b2", 2);
    let stranded = entry(std::slice::from_ref(&source));
    assert_eq!(stranded.state, State::Stranded);
    assert_eq!(stranded.reason.as_deref(), Some("2 commits on no remote"));

    work::act::push(&group(&source)).unwrap();
    let pushed = entry(std::slice::from_ref(&source));
    assert_eq!(pushed.state, State::WaitingOnReview, "{pushed:?}");
    assert_eq!(pushed.upstream.as_deref(), Some("origin/switchboard/b2"));
    assert_eq!(pushed.unpushed, 0);
    // A remote on a folder is on no code host: no pull request to offer.
    assert_eq!(pushed.pull_request_host, None);
    assert!(!pushed.actions.contains(&Action::PullRequest));
    git(
        &repo.root,
        &["remote", "set-url", "origin", "git@github.com:acme/app.git"],
    );
    let on_github = entry(std::slice::from_ref(&source));
    assert_eq!(on_github.pull_request_host.as_deref(), Some("github.com"));
    assert!(on_github.actions.contains(&Action::PullRequest));
    git(
        &repo.root,
        &["remote", "set-url", "origin", repo.remote.to_str().unwrap()],
    );

    // Closed on the code host: the remote branch deleted, seen by a fetch.
    git(&repo.remote, &["branch", "-D", "switchboard/b2"]);
    git(&repo.root, &["fetch", "-q", "--prune"]);
    assert_eq!(entry(&[source]).state, State::TurnedDown);
}

fn land(repo: &Repo, how: &str, branch: &str) {
    let root = &repo.root;
    match how {
        "merge" => git(root, &["merge", "-q", "--no-ff", "-m", "merge", branch]),
        "squash" => {
            git(root, &["merge", "-q", "--squash", branch]);
            git(root, &["commit", "-q", "-m", "squashed"])
        }
        "rebase" => {
            // Main moves on first, so the rebased commits are new ones.
            std::fs::write(root.join("other.txt"), "other\n").unwrap();
            git(root, &["add", "."]);
            git(root, &["commit", "-q", "-m", "other"]);
            let tip = git(root, &["rev-parse", branch]);
            for sha in git(root, &["rev-list", "--reverse", &format!("main..{tip}")]).lines() {
                git(root, &["cherry-pick", sha]);
            }
            String::new()
        }
        _ => unreachable!(),
    };
    git(root, &["push", "-q", "origin", "main"]);
}

#[test]
fn landings_by_merge_rebase_and_squash_are_each_seen() {
    for (how, landing) in [
        ("merge", Landing::Merge),
        ("rebase", Landing::Rebase),
        ("squash", Landing::Squash),
    ] {
        let repo = repo();
        let source = repo.session("c3", 2);
        land(&repo, how, &source.branch);
        let landed = entry(&[source]);
        assert_eq!(landed.state, State::Landed, "{how}: {landed:?}");
        assert_eq!(landed.landed_by, Some(landing), "{how}");
        assert!(landed.actions.contains(&Action::Prune), "{how}");
    }
}

#[test]
fn a_squash_that_later_commits_edited_over_is_still_landed() {
    let repo = repo();
    let source = repo.session("d4", 0);
    let checkout = source.checkout.clone().unwrap();
    std::fs::write(checkout.join("README.md"), "one\nTWO\nthree\n").unwrap();
    git(&checkout, &["commit", "-q", "-am", "shout"]);
    std::fs::write(checkout.join("notes.txt"), "why\n").unwrap();
    git(&checkout, &["add", "."]);
    git(&checkout, &["commit", "-q", "-m", "notes"]);
    land(&repo, "squash", &source.branch);
    std::fs::write(repo.root.join("README.md"), "one\nTwo!\nthree\n").unwrap();
    git(&repo.root, &["commit", "-q", "-am", "edited since"]);
    git(&repo.root, &["push", "-q", "origin", "main"]);
    let landed = entry(&[source]);
    assert_eq!(landed.state, State::Landed, "{landed:?}");
    assert_eq!(landed.landed_by, Some(Landing::Squash));
}

#[test]
fn prune_removes_landed_work_and_refuses_everything_else() {
    let repo = repo();
    let stranded = repo.session("e5", 1);
    let refused = work::act::prune(&group(&stranded), None).unwrap_err();
    assert!(refused.to_string().contains("stranded"), "{refused}");
    assert!(stranded.checkout.as_ref().unwrap().is_dir());

    let landed = repo.session("f6", 1);
    land(&repo, "squash", &landed.branch);
    // Dirty after landing: stranded again, and never pruned.
    let wip = landed.checkout.as_ref().unwrap().join("wip.txt");
    std::fs::write(&wip, "x\n").unwrap();
    assert!(work::act::prune(&group(&landed), None).is_err());
    std::fs::remove_file(&wip).unwrap();
    work::act::prune(&group(&landed), None).unwrap();
    assert!(!landed.checkout.as_ref().unwrap().exists());
    let branches = git(&repo.root, &["branch", "--list", "switchboard/f6"]);
    assert!(branches.is_empty(), "{branches}");
    assert!(
        Index::default()
            .entries(vec![landed], 0, &Default::default(), &[])
            .is_empty()
    );

    // Work in the user's own working tree is never removed.
    let mut own = repo.session("g7", 0);
    own.own_worktree = false;
    assert!(
        !entry(std::slice::from_ref(&own))
            .actions
            .contains(&Action::Prune)
    );
    assert!(work::act::prune(&group(&own), None).is_err());
    assert!(own.checkout.unwrap().is_dir());
}

#[test]
fn discard_needs_the_branch_typed_and_stranded_work() {
    let repo = repo();
    let source = repo.session("h8", 1);
    let g = group(&source);
    assert!(work::act::discard(&g, None).is_err());
    assert!(work::act::discard(&g, Some("main")).is_err());
    assert!(source.checkout.as_ref().unwrap().is_dir());
    work::act::discard(&g, Some("switchboard/h8")).unwrap();
    assert!(!source.checkout.as_ref().unwrap().exists());

    let pushed = repo.session("i9", 1);
    work::act::push(&group(&pushed)).unwrap();
    let refused = work::act::discard(&group(&pushed), Some("switchboard/i9")).unwrap_err();
    assert!(
        refused.to_string().contains("waiting on review"),
        "{refused}"
    );
}

#[test]
fn a_renamed_branch_a_detached_head_and_a_deleted_repository() {
    let repo = repo();
    let renamed = repo.session("j1", 1);
    git(
        renamed.checkout.as_ref().unwrap(),
        &["branch", "-m", "feature/by-hand"],
    );
    let entry_renamed = entry(&[renamed]);
    assert_eq!(entry_renamed.branch, "feature/by-hand");
    assert_eq!(entry_renamed.state, State::Stranded);

    let detached = repo.session("k2", 1);
    let checkout = detached.checkout.clone().unwrap();
    git(&checkout, &["checkout", "-q", "--detach"]);
    git(&repo.root, &["branch", "-D", "switchboard/k2"]);
    let entry_detached = entry(&[detached]);
    assert_eq!(entry_detached.state, State::Stranded, "{entry_detached:?}");
    assert!(!entry_detached.actions.contains(&Action::Push));

    let gone = repo.session("l3", 1);
    std::fs::remove_dir_all(repo.root.join(".git")).unwrap();
    let entry_gone = entry(&[gone]);
    assert_eq!(entry_gone.state, State::Unknown);
    assert!(
        entry_gone
            .reason
            .unwrap()
            .contains("no longer a git repository")
    );
}

#[test]
fn two_sessions_on_one_branch_are_one_piece_of_work() {
    let repo = repo();
    let first = repo.session("m4", 1);
    let mut follow_up = first.clone();
    follow_up.session_id = "session-follow-up".into();
    follow_up.own_worktree = false;
    follow_up.active = true;
    follow_up.title = Some("Continue the work".into());
    let entry = entry(&[follow_up, first]);
    assert_eq!(entry.sessions, vec!["session-follow-up", "session-m4"]);
    assert_eq!(entry.session_id, "session-follow-up");
    assert_eq!(entry.state, State::InProgress);
    // Named by the session that started it, not the follow-up.
    assert_eq!(entry.title.as_deref(), Some("Work on m4"));
}

#[test]
fn old_facts_are_answered_at_once_and_read_again_behind_the_answer() {
    let repo = repo();
    let source = repo.session("r1", 1);
    let index = Index::default();
    let read = |now: i64| {
        index
            .entries(vec![source.clone()], now, &Default::default(), &[])
            .remove(0)
    };
    assert_eq!(read(0).uncommitted.map(|u| u.files), Some(0));
    // An edit of a tracked file touches no ref, no index and no folder
    // listing: the fingerprint cannot see it.
    let checkout = source.checkout.clone().unwrap();
    std::fs::write(checkout.join("r1-0.txt"), "edited\n").unwrap();
    assert_eq!(read(10).uncommitted.map(|u| u.files), Some(0));
    // Past RECHECK_AFTER the old facts still answer, and a thread re-reads.
    let later = work::RECHECK_AFTER + 1;
    assert_eq!(read(later).uncommitted.map(|u| u.files), Some(0));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while index.refreshing() {
        assert!(
            std::time::Instant::now() < deadline,
            "the re-read never ended"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(read(later + 1).uncommitted.map(|u| u.files), Some(1));
}
