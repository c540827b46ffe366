//! Instruction-file sync against a real server, real git repositories and a
//! manual clock: the canonical file is mirrored when a session's turn starts
//! in a folder of the repository, again when it changes while the session
//! runs (the server looks every 5 s of its clock), kept out of git in `local`
//! mode and left to git in `committed` mode; a mirror edited by hand is not
//! overwritten and the user gets one inbox note about it.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{TestServer, git};
use serde_json::json;

fn repo(parent: &Path, name: &str) -> PathBuf {
    let repo = parent.join(name);
    std::fs::create_dir_all(repo.join("src/deep")).unwrap();
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("CLAUDE.md"), "Use tabs.\n").unwrap();
    repo
}

fn server() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"exec sleep 300\"]\n",
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &["--manual-clock"]).keeping(scratch);
    server.set_setting("agentInstructionsSyncEnabled", json!(true));
    server.set_setting("agentInstructionsSyncCanonical", json!("PRIMARY.md"));
    server.set_setting(
        "agentInstructionsSyncMirrors",
        json!(["AGENTS.md", "ALT1.md", "PRIMARY.md"]),
    );
    server
}

fn start_in(server: &TestServer, folder: &Path) -> String {
    let body = json!({"engine": "holder", "prompt": "work", "cwd": folder});
    let reply = server.browser_spawn(&server.browser_cookie(), &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "running");
    id
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(Instant::now() < deadline, "timed out: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn poll(server: &TestServer) {
    let moved = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 5_000})));
    assert_eq!(moved.status, 204);
}

#[test]
fn mirrors_follow_the_canonical_file_and_stay_out_of_git_in_local_mode() {
    let server = server();
    let repo = repo(server.scratch(), "local");
    start_in(&server, &repo.join("src/deep"));
    // Written before the engine's first turn, at the repository's top.
    assert_eq!(read(&repo.join("AGENTS.md")), "Use tabs.\n");
    assert_eq!(read(&repo.join("GEMINI.md")), "Use tabs.\n");
    let exclude = read(&repo.join(".git/info/exclude"));
    assert_eq!(exclude.matches("/AGENTS.md").count(), 1, "{exclude}");
    assert_eq!(exclude.matches("/GEMINI.md").count(), 1, "{exclude}");
    assert!(
        !exclude.contains("/CLAUDE.md"),
        "the canonical is never its own mirror"
    );
    assert_eq!(git(&repo, &["status", "--porcelain"]), "?? CLAUDE.md");

    // A change while the session runs reaches the mirrors at the next look.
    std::fs::write(repo.join("CLAUDE.md"), "Use spaces.\n").unwrap();
    poll(&server);
    // Both, before a hand edit: an edit made while a sync is writing is the
    // sync's to win.
    wait_for("the change mirrored", || {
        read(&repo.join("AGENTS.md")) == "Use spaces.\n"
            && read(&repo.join("GEMINI.md")) == "Use spaces.\n"
    });

    // A hand edit is kept, and told once.
    std::fs::write(repo.join("GEMINI.md"), "My own rules.\n").unwrap();
    std::fs::write(repo.join("CLAUDE.md"), "Use both.\n").unwrap();
    poll(&server);
    wait_for("the untouched mirror followed", || {
        read(&repo.join("AGENTS.md")) == "Use both.\n"
    });
    assert_eq!(read(&repo.join("GEMINI.md")), "My own rules.\n");
    // The engine here is a `command` one, so the utility model's features
    // say once that they are idle: those notes are not this test's.
    let notes = || {
        let all = server.call("GET", "/inbox?category=note", None).json();
        all.as_array()
            .unwrap()
            .iter()
            .filter(|note| {
                note["title"]
                    .as_str()
                    .is_some_and(|t| t.contains("edited by hand"))
            })
            .cloned()
            .collect::<Vec<_>>()
    };
    wait_for("a note about the hand edit", || notes().len() == 1);
    let note = &notes()[0];
    assert!(
        note["title"]
            .as_str()
            .unwrap()
            .starts_with("GEMINI.md was edited by hand"),
        "{note}"
    );
    // Another change: a sync that sees the hand edit again does not tell again.
    std::fs::write(repo.join("CLAUDE.md"), "Use all.\n").unwrap();
    poll(&server);
    wait_for("the next change mirrored", || {
        read(&repo.join("AGENTS.md")) == "Use all.\n"
    });
    assert_eq!(read(&repo.join("GEMINI.md")), "My own rules.\n");
    assert_eq!(notes().len(), 1);
    assert_eq!(notes()[0]["count"], 1, "told once, not at every sync");
    let exclude = read(&repo.join(".git/info/exclude"));
    assert_eq!(exclude.matches("/AGENTS.md").count(), 1, "{exclude}");
}

#[test]
fn committed_mode_leaves_the_mirrors_to_git_and_off_writes_nothing() {
    let server = server();
    server.set_setting("agentInstructionsSyncGitMode", json!("committed"));
    let repo = repo(server.scratch(), "committed");
    start_in(&server, &repo);
    assert_eq!(read(&repo.join("AGENTS.md")), "Use tabs.\n");
    assert!(!read(&repo.join(".git/info/exclude")).contains("AGENTS.md"));
    let status = git(&repo, &["status", "--porcelain"]);
    assert!(
        status.contains("?? AGENTS.md") && status.contains("?? GEMINI.md"),
        "{status}"
    );

    server.set_setting("agentInstructionsSyncEnabled", json!(false));
    let other = repo.parent().unwrap().join("off");
    std::fs::create_dir_all(&other).unwrap();
    git(&other, &["init", "-q"]);
    std::fs::write(other.join("CLAUDE.md"), "x\n").unwrap();
    start_in(&server, &other);
    poll(&server);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!other.join("AGENTS.md").exists());
}
