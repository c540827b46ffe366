//! Forks against the fake Claude and Codex executables: the first turn
//! copies the source's conversation (`--resume <id> --fork-session`, `exec
//! fork <id>`), later turns resume the copy, the source is left alone, a
//! worktree source's fork gets a worktree of its own, and the refusals.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;
use sessions::{Isolation, PromptSettings, SessionError, SpawnRequest, Status};

fn fork(source: &str, prompt: &str) -> SpawnRequest {
    SpawnRequest {
        prompt: prompt.to_owned(),
        fork_from: Some(source.to_owned()),
        ..SpawnRequest::default()
    }
}

async fn spawn(h: &Harness, request: SpawnRequest) -> Result<sessions::Session, SessionError> {
    h.sup
        .spawn(
            &ui("a"),
            &open_policy(),
            &PromptSettings::default(),
            request,
        )
        .await
        .map(|spawned| spawned.session)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claude_fork_copies_the_conversation_once_then_resumes_its_own() {
    let h = Harness::new().await;
    let work = h.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let mut first = request("primary", "hi");
    first.cwd = Some(work.to_string_lossy().into_owned());
    let source = spawn(&h, first).await.unwrap().id;
    h.wait_status("a", &source, Status::WaitingForInput).await;

    let forked = spawn(&h, fork(&source, "branch off")).await.unwrap();
    assert_eq!(forked.engine, "primary");
    assert_eq!(forked.cwd, work.to_string_lossy());
    assert_eq!(forked.forked_from.as_deref(), Some(source.as_str()));
    assert_eq!(forked.parent_id, None);
    let turns = wait_turns(&h.sup, "a", &forked.id, 1).await;
    assert_eq!(turns[0].output, "Forked c-1");
    let session = h.sup.get("a", &forked.id).await.unwrap();
    assert_eq!(session.engine_session_id.as_deref(), Some("fork-of-c-1"));
    // The copy restated the source's 0.25 in its 0.5: its own cost is the rest.
    assert_eq!(session.cost_usd, Some(0.25));
    assert_eq!(turns[0].cost_usd, Some(0.25));

    h.sup
        .send(&ui("a"), &open_policy(), &forked.id, "more")
        .await
        .unwrap();
    let turns = wait_turns(&h.sup, "a", &forked.id, 2).await;
    assert_eq!(turns[1].output, "Resumed fork-of-c-1");
    // The follow-up answered under a new id: its 0.25 is a conversation of its own.
    assert_eq!(
        h.sup.get("a", &forked.id).await.unwrap().cost_usd,
        Some(0.5)
    );
    let log = std::fs::read_to_string(h.path().join("claude.log")).unwrap();
    assert_eq!(log, "resume=\nresume=c-1 fork\nresume=fork-of-c-1\n");
    let source = h.sup.get("a", &source).await.unwrap();
    assert_eq!(source.engine_session_id.as_deref(), Some("c-1"));
    assert_eq!(source.turns, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_codex_fork_starts_a_new_thread_from_the_sources() {
    let h = Harness::new().await;
    let source = h.spawn_ui("a", "second", "go").await.id;
    h.wait_status("a", &source, Status::WaitingForInput).await;
    let forked = spawn(&h, fork(&source, "try another way")).await.unwrap();
    assert_eq!(forked.engine, "second");
    let turns = wait_turns(&h.sup, "a", &forked.id, 1).await;
    assert_eq!(turns[0].output, "Forked x-1");
    // The copy's first report restated the source thread's tokens: they stay the source's.
    let (source_tokens, fork_tokens) = (
        h.sup.get("a", &source).await.unwrap().tokens,
        h.sup.get("a", &forked.id).await.unwrap().tokens,
    );
    assert_eq!((source_tokens.input, fork_tokens.input), (24763, 24763));
    assert_eq!((source_tokens.output, fork_tokens.output), (122, 122));
    h.sup
        .send(&ui("a"), &open_policy(), &forked.id, "again")
        .await
        .unwrap();
    let turns = wait_turns(&h.sup, "a", &forked.id, 2).await;
    assert_eq!(turns[1].output, "Continued fork-of-x-1");
    let session = h.sup.get("a", &forked.id).await.unwrap();
    assert_eq!(session.engine_session_id.as_deref(), Some("fork-of-x-1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forks_that_cannot_be_made_are_refused_before_anything_starts() {
    let h = Harness::new().await;
    let command = h.spawn_ui("a", "echo", "hi").await.id;
    let claude = h.spawn_ui("a", "primary", "hi").await.id;
    h.wait_status("a", &command, Status::WaitingForInput).await;
    h.wait_status("a", &claude, Status::WaitingForInput).await;
    let before = h.sup.list("a").await.unwrap().len();

    let error = spawn(&h, fork(&command, "x")).await.unwrap_err();
    assert!(
        matches!(&error, SessionError::ForkUnsupported { engine, kind } if engine == "echo" && kind == "command"),
        "{error}"
    );
    for missing in ["no-such-session", &claude] {
        let other_account = h
            .sup
            .spawn(
                &ui("b"),
                &open_policy(),
                &PromptSettings::default(),
                fork(missing, "x"),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(other_account, SessionError::ForkSourceNotFound { .. }),
            "{other_account}"
        );
    }
    let mut other_kind = fork(&claude, "x");
    other_kind.engine = Some("second".into());
    let error = spawn(&h, other_kind).await.unwrap_err();
    assert!(matches!(error, SessionError::InvalidInput(_)), "{error}");
    let mut to_command = fork(&claude, "x");
    to_command.engine = Some("echo".into());
    let error = spawn(&h, to_command).await.unwrap_err();
    assert!(
        matches!(error, SessionError::ForkUnsupported { .. }),
        "{error}"
    );

    // A session whose engine has not started yet has no conversation to copy.
    let mut spaced = open_policy();
    spaced.cli_spawn_spacing_seconds = 3600;
    let later = || request("primary", "later");
    let settings = PromptSettings::default();
    let (caller, spaced) = (cli("a", None), &spaced);
    let spawn_cli = |request| h.sup.spawn(&caller, spaced, &settings, request);
    spawn_cli(later()).await.unwrap();
    let queued = spawn_cli(later()).await.unwrap();
    assert!(queued.queued.is_some());
    let error = spawn(&h, fork(&queued.session.id, "x")).await.unwrap_err();
    assert!(
        matches!(error, SessionError::ForkNotReady { .. }),
        "{error}"
    );
    assert_eq!(h.sup.list("a").await.unwrap().len(), before + 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engines_say_which_can_fork() {
    let h = Harness::new().await;
    let engines = h.sup.engines().unwrap();
    let can_fork = |name: &str| engines.iter().find(|e| e.name == name).unwrap().can_fork;
    assert!(can_fork("primary"));
    assert!(can_fork("second"));
    assert!(!can_fork("echo"));
}

fn git(dir: &Path, args: &[&str]) {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_of_a_worktree_session_gets_a_worktree_of_its_own_in_the_same_folder() {
    let h = Harness::new().await;
    let repo = h.path().join("repo");
    std::fs::create_dir_all(repo.join("web")).unwrap();
    git(&repo, &["init", "--quiet"]);
    std::fs::write(repo.join("web/main.ts"), "export {};\n").unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "first"]);
    let mut first = request("primary", "hi");
    first.cwd = Some(repo.join("web").to_string_lossy().into_owned());
    first.isolation = Some(Isolation::Worktree);
    let source = spawn(&h, first).await.unwrap();
    h.wait_status("a", &source.id, Status::WaitingForInput)
        .await;

    let forked = spawn(&h, fork(&source.id, "branch off")).await.unwrap();
    let (mine, theirs) = (
        forked.worktree.clone().unwrap(),
        source.worktree.clone().unwrap(),
    );
    assert_ne!(mine.path, theirs.path);
    assert_eq!(mine.repository, theirs.repository);
    assert_eq!(
        forked.cwd,
        Path::new(&mine.path).join("web").to_string_lossy()
    );
    h.wait_status("a", &forked.id, Status::WaitingForInput)
        .await;

    // Asked for a folder of its own, it runs there, unisolated.
    let plain = h.path().join("plain");
    std::fs::create_dir(&plain).unwrap();
    let mut elsewhere = fork(&source.id, "here instead");
    elsewhere.cwd = Some(plain.to_string_lossy().into_owned());
    let forked = spawn(&h, elsewhere).await.unwrap();
    assert_eq!(forked.worktree, None);
    assert_eq!(forked.cwd, plain.to_string_lossy());
}
