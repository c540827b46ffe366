//! Where's my work through a real server: sessions whose engine commits in
//! a worktree or in a plain folder of a real repository with a bare
//! repository as its remote; stranded work that no route removes, pushed,
//! landed by a squash and then pruned; the user's own working tree never
//! touched; a follow-up session joining the same piece of work.

mod common;

use std::path::{Path, PathBuf};

use common::{TestServer, git};
use serde_json::{Value, json};

/// A server whose `commit` engine commits a file where it runs.
fn server() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let script = "[ \"$0\" = --version ] && exit 0; echo \"$$\" > \"agent-$$.txt\"; git add . && git commit -qm 'agent work' && echo committed";
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.commit]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}]\n"
        ),
    )
    .unwrap();
    TestServer::start_in(dir)
}

/// A repository on `main` with one commit pushed to a bare remote, and an
/// identity for the engine's commits.
fn repository() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    let remote = dir.path().join("remote.git");
    std::fs::create_dir_all(&root).unwrap();
    git(
        dir.path(),
        &["init", "--quiet", "--bare", remote.to_str().unwrap()],
    );
    git(&root, &["init", "--quiet"]);
    git(&root, &["config", "user.name", "Agent"]);
    git(&root, &["config", "user.email", "agent@example.com"]);
    std::fs::write(root.join("README.md"), "hello\n").unwrap();
    git(&root, &["add", "."]);
    git(&root, &["commit", "--quiet", "-m", "first"]);
    git(
        &root,
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    git(&root, &["push", "--quiet", "-u", "origin", "main"]);
    (dir, root, remote)
}

fn spawn(server: &TestServer, cwd: &Path, isolation: Option<&str>) -> String {
    let mut body = json!({"engine": "commit", "prompt": "work", "cwd": cwd});
    if let Some(isolation) = isolation {
        body["isolation"] = json!(isolation);
    }
    let reply = server.browser_spawn(&server.browser_cookie(), &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");
    id
}

fn stop(server: &TestServer, id: &str) {
    let reply = server.call("POST", &format!("/sessions/{id}/stop"), None);
    assert!(matches!(reply.status, 200 | 202), "{}", reply.text());
    server.wait_for_status(id, "stopped");
}

fn work(server: &TestServer) -> Vec<Value> {
    let reply = server.call("GET", "/work", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["work"].as_array().unwrap().clone()
}

fn entry_of(server: &TestServer, session: &str) -> Value {
    work(server)
        .into_iter()
        .find(|e| {
            e["sessions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s == session)
        })
        .unwrap_or_else(|| panic!("no work of {session}: {:?}", work(server)))
}

fn act(server: &TestServer, id: &str, action: &str, body: Option<&Value>) -> common::Reply {
    server.call("POST", &format!("/work/{id}/{action}"), body)
}

fn actions(entry: &Value) -> Vec<&str> {
    entry["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect()
}

#[test]
fn stranded_work_survives_every_removing_route_then_is_pushed_landed_by_squash_and_pruned() {
    let server = server();
    let (_dir, root, _remote) = repository();
    let session = spawn(&server, &root, Some("worktree"));
    let running = entry_of(&server, &session);
    assert_eq!(running["state"], "in_progress", "{running}");
    assert_eq!(running["sessionId"], session.as_str());
    assert_eq!(running["repository"], root.to_str().unwrap());

    stop(&server, &session);
    let stranded = entry_of(&server, &session);
    let id = stranded["id"].as_str().unwrap().to_owned();
    let branch = stranded["branch"].as_str().unwrap().to_owned();
    let checkout = PathBuf::from(stranded["checkout"].as_str().unwrap());
    assert_eq!(stranded["state"], "stranded", "{stranded}");
    assert_eq!(stranded["reason"], "1 commit on no remote");
    assert_eq!(
        (stranded["ahead"].as_u64(), stranded["unpushed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(stranded["lastCommit"]["subject"], "agent work");
    assert!(!actions(&stranded).contains(&"prune"), "{stranded}");

    // Nothing removes stranded work but a discard with its branch typed.
    let refused = act(&server, &id, "prune", None);
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert_eq!(refused.json()["error"]["code"], "action_refused");
    for body in [None, Some(json!({"confirm": "main"}))] {
        let refused = act(&server, &id, "discard", body.as_ref());
        assert_eq!(refused.status, 409, "{}", refused.text());
        assert!(refused.text().contains(&branch), "{}", refused.text());
    }
    let refused = act(&server, &id, "pull-request", None);
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert!(checkout.is_dir());
    assert!(!git(&root, &["branch", "--list", &branch]).is_empty());

    let pushed = act(&server, &id, "push", None);
    assert_eq!(pushed.status, 200, "{}", pushed.text());
    let pushed = pushed.json();
    assert_eq!(pushed["state"], "waiting_on_review", "{pushed}");
    assert_eq!(pushed["upstream"], format!("origin/{branch}"));
    // A local remote is no code host; a GitHub one gives its own page.
    let refused = act(&server, &id, "pull-request", None);
    assert_eq!(refused.status, 409, "{}", refused.text());
    let remote = git(&root, &["remote", "get-url", "origin"]);
    git(
        &root,
        &["remote", "set-url", "origin", "git@github.com:acme/app.git"],
    );
    let link = act(&server, &id, "pull-request", None);
    assert_eq!(link.status, 200, "{}", link.text());
    assert_eq!(
        link.json()["url"],
        format!("https://github.com/acme/app/compare/main...{branch}?expand=1")
    );
    git(&root, &["remote", "set-url", "origin", &remote]);

    git(&root, &["merge", "--quiet", "--squash", &branch]);
    git(&root, &["commit", "--quiet", "-m", "squashed"]);
    git(&root, &["push", "--quiet", "origin", "main"]);
    let landed = entry_of(&server, &session);
    assert_eq!(landed["state"], "landed", "{landed}");
    assert!(actions(&landed).contains(&"prune"), "{landed}");

    let pruned = act(&server, &id, "prune", None);
    assert_eq!(pruned.status, 204, "{}", pruned.text());
    assert!(!checkout.exists());
    assert!(git(&root, &["branch", "--list", &branch]).is_empty());
    assert!(work(&server).is_empty(), "{:?}", work(&server));
    assert_eq!(server.call("GET", &format!("/work/{id}"), None).status, 404);
}

#[test]
fn a_plain_folders_commits_are_work_its_tree_is_never_removed_and_a_follow_up_joins_it() {
    let server = server();
    let (_dir, root, _remote) = repository();
    let first = spawn(&server, &root, None);
    stop(&server, &first);
    let stranded = entry_of(&server, &first);
    let id = stranded["id"].as_str().unwrap().to_owned();
    assert_eq!(stranded["branch"], "main");
    assert_eq!(stranded["state"], "stranded", "{stranded}");
    assert_eq!(stranded["commits"], 1);
    assert!(!actions(&stranded).contains(&"discard"), "{stranded}");
    let refused = act(&server, &id, "discard", Some(&json!({"confirm": "main"})));
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert!(root.join("README.md").exists());

    // Over the control server a follow-up is agent-driven (off by
    // default); the user's own, from the web app, is not.
    let refused = act(&server, &id, "continue", None);
    assert_eq!(
        refused.json()["error"]["code"],
        "agent_driven_sessions_disabled"
    );
    let continued = common::request(
        &server.ui,
        "POST",
        &format!("/api/work/{id}/continue"),
        &[
            ("Cookie", server.browser_cookie().as_str()),
            ("Content-Type", "application/json"),
        ],
        Some(json!({"prompt": "finish it"}).to_string().as_bytes()),
    );
    assert_eq!(continued.status, 201, "{}", continued.text());
    let follow_up = continued.json()["session"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    server.wait_for_status(&follow_up, "waiting_for_input");
    let joined = entry_of(&server, &follow_up);
    assert_eq!(joined["id"], id.as_str());
    assert_eq!(joined["sessions"], json!([follow_up, first]));
    assert_eq!(joined["state"], "in_progress");
    assert_eq!(joined["commits"], 2);
    let refused = act(&server, &id, "continue", None);
    assert_eq!(refused.status, 409, "{}", refused.text());
}

#[test]
fn unknown_work_is_404_and_bad_bodies_are_400() {
    let server = server();
    let missing = act(&server, "0123456789abcdef", "prune", None);
    assert_eq!(missing.status, 404, "{}", missing.text());
    let (_dir, root, _remote) = repository();
    let session = spawn(&server, &root, Some("worktree"));
    stop(&server, &session);
    let id = entry_of(&server, &session)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let bad = act(&server, &id, "discard", Some(&json!({"confirm": 3})));
    assert_eq!(bad.status, 400, "{}", bad.text());
    let bad = act(&server, &id, "discard", Some(&json!({"branch": "x"})));
    assert_eq!(bad.status, 400, "{}", bad.text());
    assert_eq!(entry_of(&server, &session)["state"], "stranded");
}
