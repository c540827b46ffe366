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
    stopped_after_a_turn(
        rig,
        &json!({"engine": "commit", "prompt": "work", "cwd": root, "isolation": "worktree"}),
    )
}

/// The session `body` spawns, stopped after its first turn.
fn stopped_after_a_turn(rig: &Rig, body: &Value) -> String {
    let reply = rig.server.call("POST", "/sessions", Some(body));
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

/// A repository in the runner user's home, with one commit.
fn repository_on(sshd: &crate::sshd::Sshd) -> String {
    sshd.as_user(
        "r=$(mktemp -d \"$HOME/repo-XXXXXX\") && cd \"$r\" && git init -q && echo hello > README.md && \
         git add . && git -c user.name=t -c user.email=t@t commit -qm first && echo \"$r\"",
    )
    .trim()
    .to_owned()
}

/// A stopped session of the `commit` engine in a worktree of `repository`
/// on the runner `devbox`.
fn committed_and_stopped_on_runner(rig: &Rig, repository: &str) -> String {
    stopped_after_a_turn(
        rig,
        &json!({"engine": "commit", "prompt": "work", "runner": "devbox",
                "cwd": repository, "isolation": "worktree"}),
    )
}

#[test]
fn work_on_a_runner_is_read_there_reviewed_when_its_session_ends_and_kept_while_it_is_away() {
    let Some(rig) = Rig::start(Api::Anthropic, &["--manual-clock"]) else {
        return;
    };
    let Some(mut sshd) = crate::sshd::Sshd::start("sbrunner") else {
        return;
    };
    let rig = rig.on_runner(&sshd);
    with_reviewer(&rig);
    let repository = repository_on(&sshd);

    // Off: the runner's work is listed, read there, and nobody reviews it.
    rig.server
        .set_setting("cloudSessionReviewsEnabled", json!(false));
    let quiet = committed_and_stopped_on_runner(&rig, &repository);
    let entry = entry_of(&rig, &quiet);
    assert_eq!(entry["runner"], "devbox", "{entry}");
    assert_eq!(entry["repository"], repository.as_str());
    assert_eq!(entry["commits"], 1, "{entry}");
    assert_eq!(entry["state"], "stranded", "{entry}");
    assert!(
        entry["reason"].as_str().unwrap().contains("on no remote"),
        "{entry}"
    );
    assert!(entry["lastRead"].is_null(), "{entry}");
    // Acting on it would run git here, where its checkout is not.
    assert_eq!(entry["actions"], json!(["open"]), "{entry}");
    let id = entry["id"].as_str().unwrap();
    let push = rig.server.call("POST", &format!("/work/{id}/push"), None);
    assert_eq!(push.status, 409, "{}", push.text());
    assert!(push.text().contains("runner `devbox`"), "{}", push.text());
    std::thread::sleep(Duration::from_secs(2));
    assert!(rig.standin.answered(PHRASE).is_empty());

    // On: the diff is read on the runner and reviewed here.
    rig.server
        .set_setting("cloudSessionReviewsEnabled", json!(true));
    rig.standin.answer(
        PHRASE,
        Message::text(
            json!({"findings": [{"file": "agent.txt", "line": 1, "severity": "medium", "text": "Unused."}]})
                .to_string(),
        ),
    );
    let session = committed_and_stopped_on_runner(&rig, &repository);
    let entry = wait_reviewed(&rig, &session);
    assert_eq!(entry["runner"], "devbox", "{entry}");
    assert_eq!(
        entry["reviews"][0]["head"], entry["lastCommit"]["sha"],
        "{entry}"
    );
    assert_eq!(entry["reviews"][0]["findings"][0]["severity"], "medium");
    let asked = rig.standin.answered(PHRASE);
    assert_eq!(asked.len(), 1);
    let text = asked[0].body_text();
    assert!(text.contains("+++ b/agent-"), "{text}");
    assert!(text.contains(entry["branch"].as_str().unwrap()), "{text}");

    // The runner away: what it said last, with when, and no wait.
    sshd.kill();
    rig.advance_clock(60_000);
    let started = Instant::now();
    let away = entry_of(&rig, &session);
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_eq!(away["commits"], entry["commits"], "{away}");
    assert_eq!(away["lastCommit"], entry["lastCommit"], "{away}");
    assert!(away["lastRead"].is_string(), "{away}");
}
