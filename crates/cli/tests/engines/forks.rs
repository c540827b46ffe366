//! Forks on the real CLIs: Claude Code's `--resume <id> --fork-session` and
//! Codex's `exec fork <id>` start a new conversation holding a copy of the
//! source's, which stays as it was; the fork's later turns resume the copy.

use std::path::Path;

use serde_json::json;
use standins::{Api, Message};

use crate::common::git;
use crate::rig::Rig;

/// The conversation the stand-in was sent in its `n`-th request (from 0).
fn sent(rig: &Rig, n: usize) -> String {
    let request = &rig.standin.main_requests()[n];
    match rig.standin.api() {
        Api::Anthropic => request.body["messages"].to_string(),
        Api::OpenAi => request.body["input"].to_string(),
    }
}

/// Each turn's own cost.
fn costs(rig: &Rig, id: &str) -> Vec<f64> {
    rig.transcript(id)["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|turn| turn["costUsd"].as_f64().unwrap())
        .collect()
}

/// The usage the stand-in reports for reply `n` (from 0): `n + 1` times the first's.
fn usage(n: u64) -> standins::Usage {
    standins::Usage {
        input: 1000 * (n + 1),
        cache_read: 0,
        cache_write: 0,
        output: 10 * (n + 1),
    }
}

/// A source with one turn, a fork of it with two, then one more turn of
/// the source: the fork's first request carries the source's turn, its
/// second the fork's own first, and the source's next request holds
/// nothing of the fork.
fn fork_and_go_on(api: Api, cwd: Option<&Path>) {
    let Some(rig) = Rig::start(api, &[]) else {
        return;
    };
    let replies = ["Source one.", "Fork one.", "Fork two.", "Source two."];
    for (n, reply) in (0..).zip(replies) {
        rig.standin.push(Message::text(reply).usage(usage(n)));
    }
    let source = match cwd {
        Some(cwd) => {
            let body = json!({"engine": rig.engine(), "prompt": "alpha", "cwd": cwd,
                              "isolation": "worktree"});
            let reply = rig.server.call("POST", "/sessions", Some(&body));
            assert_eq!(reply.status, 201, "{}", reply.text());
            reply.json()["id"].as_str().unwrap().to_owned()
        }
        None => rig.spawn("alpha"),
    };
    let first = rig.wait_turn(&source, 1);
    assert_eq!(first["status"], "waiting_for_input", "{first}");
    let conversation = first["engineSessionId"].as_str().unwrap().to_owned();

    let forked = rig.fork(&source, "bravo");
    let fork = forked["id"].as_str().unwrap().to_owned();
    assert_eq!(forked["forkedFrom"], source.as_str());
    assert_eq!(forked["engine"], rig.engine());
    let session = rig.wait_turn(&fork, 1);
    assert_eq!(
        session["status"],
        "waiting_for_input",
        "{session}\n{}",
        rig.transcript(&fork)
    );
    let copy = session["engineSessionId"].as_str().unwrap().to_owned();
    assert_ne!(copy, conversation);
    let request = sent(&rig, 1);
    for said in ["alpha", "Source one.", "bravo"] {
        assert!(
            request.contains(said),
            "{said} missing from the fork's first request {request}"
        );
    }

    rig.send(&fork, "charlie");
    let session = rig.wait_turn(&fork, 2);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert_eq!(session["engineSessionId"], copy.as_str());
    let request = sent(&rig, 2);
    for said in ["alpha", "bravo", "Fork one.", "charlie"] {
        assert!(
            request.contains(said),
            "{said} missing from the fork's second request {request}"
        );
    }

    rig.send(&source, "delta");
    let session = rig.wait_turn(&source, 2);
    assert_eq!(session["engineSessionId"], conversation.as_str());
    let request = sent(&rig, 3);
    assert!(request.contains("Source one."), "{request}");
    for forked in ["bravo", "Fork one.", "charlie"] {
        assert!(
            !request.contains(forked),
            "the source saw the fork's {forked}: {request}"
        );
    }
    // Both engines restate the copied conversation's totals in the copy's
    // first report; the fork counts only what it spent itself.
    let fork = rig
        .server
        .call("GET", &format!("/sessions/{fork}"), None)
        .json();
    match api {
        Api::Anthropic => {
            // Cost is linear in the scripted usage: reply n costs n + 1 times the first.
            let unit = costs(&rig, &source)[0];
            let own = costs(&rig, fork["id"].as_str().unwrap());
            assert!((own[0] - 2.0 * unit).abs() < 1e-9, "{own:?} against {unit}");
            assert!((own[1] - 3.0 * unit).abs() < 1e-9, "{own:?} against {unit}");
            let total = fork["costUsd"].as_f64().unwrap();
            assert!((total - 5.0 * unit).abs() < 1e-9, "{fork}");
        }
        Api::OpenAi => {
            assert_eq!(fork["tokens"]["input"], 2000 + 3000, "{fork}");
            assert_eq!(fork["tokens"]["output"], 20 + 30, "{fork}");
            assert_eq!(session["tokens"]["input"], 1000 + 4000, "{session}");
        }
    }
}

#[test]
fn a_claude_fork_copies_the_conversation_and_leaves_the_source_alone() {
    fork_and_go_on(Api::Anthropic, None);
}

#[test]
fn a_codex_fork_copies_the_thread_and_leaves_the_source_alone() {
    fork_and_go_on(Api::OpenAi, None);
}

/// A repository in a fresh folder, with one commit.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "--quiet"]);
    std::fs::write(dir.path().join("README.md"), "hello\n").unwrap();
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "--quiet", "-m", "first"]);
    dir
}

/// A worktree session's fork runs in a worktree of its own, another folder
/// than the source's: the engine still finds the conversation to copy.
#[test]
fn a_claude_fork_of_a_worktree_session_finds_the_conversation_from_its_own_worktree() {
    let repo = repository();
    fork_and_go_on(Api::Anthropic, Some(repo.path()));
}

#[test]
fn a_codex_fork_of_a_worktree_session_finds_the_thread_from_its_own_worktree() {
    let repo = repository();
    fork_and_go_on(Api::OpenAi, Some(repo.path()));
}
