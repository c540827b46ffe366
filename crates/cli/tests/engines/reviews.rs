//! Reviews on return with the real Claude Code CLI as the reviewer: a
//! session whose engine commits in a worktree is stopped, the reviewer
//! named in `engines.toml` is asked once over the branch's diff (tool-less,
//! on the stand-in API, which answers the review question by its phrase),
//! and its findings land on the work entry, a high one in the inbox. With
//! `cloudSessionReviewsEnabled` off nobody is asked.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use standins::{Api, Message, Usage};

use crate::common::git;
use crate::rig::Rig;

const PHRASE: &str = work::reviews::REVIEW_PHRASE;

/// The rig's `engines.toml` with a `commit` engine that commits a file
/// where it runs, and the Claude Code engine `primary` as the reviewer.
fn with_reviewer(rig: &Rig) {
    let path = rig.server.data_dir().join("engines.toml");
    let engines = std::fs::read_to_string(&path).unwrap();
    let script = "echo \"$$\" > \"agent-$$.txt\"; git add . && git -c user.name=Agent -c user.email=agent@example.com commit -qm 'agent work' && echo committed";
    std::fs::write(
        &path,
        format!(
            "reviewers = [\"primary\"]\n{engines}\n[engines.commit]\nkind = \"command\"\n\
             command = [\"/bin/sh\", \"-c\", {script:?}]\n"
        ),
    )
    .unwrap();
}

fn repository() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "--quiet"]);
    std::fs::write(root.join("README.md"), "hello\n").unwrap();
    git(&root, &["add", "."]);
    git(&root, &["commit", "--quiet", "-m", "first"]);
    (dir, root)
}

/// A stopped session of the `commit` engine in a worktree of `root`.
fn committed_and_stopped(rig: &Rig, root: &Path) -> String {
    let body = json!({"engine": "commit", "prompt": "work", "cwd": root, "isolation": "worktree"});
    let reply = rig.server.call("POST", "/sessions", Some(&body));
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    rig.server.wait_for_status(&id, "waiting_for_input");
    let reply = rig
        .server
        .call("POST", &format!("/sessions/{id}/stop"), None);
    assert!(reply.status < 300, "{}", reply.text());
    rig.server.wait_for_status(&id, "stopped");
    id
}

fn entry_of(rig: &Rig, session: &str) -> Value {
    let work = rig.server.call("GET", "/work", None).json();
    work["work"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| {
            e["sessions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s == session)
        })
        .cloned()
        .unwrap_or_else(|| panic!("no work of {session}: {work}"))
}

fn wait_reviewed(rig: &Rig, session: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let entry = entry_of(rig, session);
        if entry["reviews"].as_array().is_some_and(|r| !r.is_empty()) {
            return entry;
        }
        assert!(
            Instant::now() < deadline,
            "never reviewed: {entry}\ncalls: {}",
            rig.server.call("GET", "/utility/calls", None).text()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_stopped_session_with_commits_is_reviewed_once_and_a_high_finding_reaches_the_inbox() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    with_reviewer(&rig);
    let (_dir, root) = repository();

    // Off: the session's work is left alone.
    rig.server
        .set_setting("cloudSessionReviewsEnabled", json!(false));
    let quiet = committed_and_stopped(&rig, &root);
    std::thread::sleep(Duration::from_secs(2));
    assert!(rig.standin.answered(PHRASE).is_empty());
    assert_eq!(entry_of(&rig, &quiet)["reviews"], json!([]));

    rig.server
        .set_setting("cloudSessionReviewsEnabled", json!(true));
    let findings = json!({"findings": [
        {"file": "agent.txt", "line": 1, "severity": "high", "text": "Writes the process id where a secret belongs."},
        {"file": "agent.txt", "severity": "low", "text": "No trailing context."}
    ]});
    rig.standin.answer(
        PHRASE,
        Message::text(findings.to_string()).usage(Usage {
            input: 900,
            output: 60,
            ..Usage::default()
        }),
    );
    let session = committed_and_stopped(&rig, &root);
    let entry = wait_reviewed(&rig, &session);
    let reviews = entry["reviews"].as_array().unwrap();
    assert_eq!(reviews.len(), 1, "{entry}");
    let review = &reviews[0];
    assert_eq!(review["reviewer"], "primary");
    assert_eq!(review["head"], entry["lastCommit"]["sha"], "{entry}");
    assert!(review["error"].is_null(), "{review}");
    assert_eq!(review["findings"][0]["severity"], "high");
    assert_eq!(review["findings"][0]["line"], 1);
    assert_eq!(review["findings"][1]["line"], Value::Null);

    // One question, tool-less, over the branch's diff.
    let asked = rig.standin.answered(PHRASE);
    assert_eq!(asked.len(), 1);
    let body = &asked[0].body;
    assert!(body["tools"].as_array().is_none_or(Vec::is_empty), "{body}");
    let text = asked[0].body_text();
    assert!(text.contains("+++ b/agent-"), "{text}");
    assert!(text.contains(entry["branch"].as_str().unwrap()));
    let calls = rig
        .server
        .call("GET", "/utility/calls?feature=review", None)
        .json();
    assert_eq!(calls["calls"].as_array().unwrap().len(), 1, "{calls}");
    assert_eq!(calls["calls"][0]["outcome"], "ok");
    assert_eq!(calls["calls"][0]["engine"], "primary");

    let inbox = rig.server.call("GET", "/inbox", None).json();
    let rows: Vec<&Value> = inbox
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["title"]
                .as_str()
                .is_some_and(|t| t.contains("high-severity"))
        })
        .collect();
    assert_eq!(rows.len(), 1, "{inbox}");
    assert!(rows[0]["body"].as_str().unwrap().contains("agent.txt:1"));
}
