//! Where's my work with a code host, through a real server on a manual
//! clock: a piece of agent work pushed to a bare repository that
//! `codehosts.toml` puts on a GitHub (or GitLab) stand-in, with the token
//! saved as a key. The pull request is opened through the API, polled
//! every two minutes with its ETag (an unchanged poll is a 304), shown as
//! unknown while the host fails, landed once merged (and then prunable,
//! though git alone cannot see the squash), with one inbox row; closed
//! unmerged it is turned down. With no token saved nothing is asked.

mod common;

use std::path::{Path, PathBuf};

use common::{TestServer, git};
use serde_json::{Value, json};
use standins::codehost::{CodeHost, Flavor, PullState};

const TOKEN: &str = "ghp_standin0123456789";

fn server(hosts: &Path, host: &CodeHost, kind: &str) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let script = "[ \"$0\" = --version ] && exit 0; echo \"$$\" > \"agent-$$.txt\"; git add . && git commit -qm 'agent work' && echo committed";
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.commit]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}]\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("codehosts.toml"),
        format!(
            "[hosts.standin]\nkind = {kind:?}\nremote = {:?}\napi = {:?}\ntoken_key = \"STANDIN_TOKEN\"\n",
            hosts.display().to_string(),
            host.url()
        ),
    )
    .unwrap();
    TestServer::start_in_with(dir, &["--manual-clock"])
}

/// A repository whose `origin` is the bare `HOSTS/acme/app.git`.
fn repository(hosts: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    let remote = hosts.join("acme/app.git");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&remote).unwrap();
    git(&remote, &["init", "--quiet", "--bare"]);
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
    (dir, root)
}

/// Work of a stopped session, not pushed: its id.
fn stopped_work(server: &TestServer, root: &Path) -> String {
    let body = json!({"engine": "commit", "prompt": "work", "cwd": root, "isolation": "worktree"});
    let reply = server.browser_spawn(&server.browser_cookie(), &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let session = reply.json()["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&session, "waiting_for_input");
    let reply = server.call("POST", &format!("/sessions/{session}/stop"), None);
    assert!(reply.status < 300, "{}", reply.text());
    server.wait_for_status(&session, "stopped");
    let work = server.call("GET", "/work", None).json();
    work["work"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["sessionId"] == session.as_str())
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Pushed work of a stopped session: its entry.
fn pushed_work(server: &TestServer, root: &Path) -> Value {
    let id = stopped_work(server, root);
    let reply = server.call("POST", &format!("/work/{id}/push"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

fn entry(server: &TestServer, id: &str) -> Value {
    let reply = server.call("GET", &format!("/work/{id}"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

/// Two minutes on: the poll runs; waits until `done` holds of the entry.
fn after_a_poll(server: &TestServer, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let reply = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 120_000})));
    assert_eq!(reply.status, 204, "{}", reply.text());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let entry = entry(server, id);
        if done(&entry) {
            return entry;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the poll never showed it: {entry}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

fn save_token(server: &TestServer) {
    let reply = server.call("PUT", "/keys/STANDIN_TOKEN", Some(&json!({"value": TOKEN})));
    assert!(reply.status < 300, "{}", reply.text());
}

fn pull_request_rows(server: &TestServer) -> Vec<Value> {
    let rows = server.call("GET", "/inbox", None).json();
    rows.as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["title"]
                .as_str()
                .is_some_and(|t| t.contains("Pull request"))
        })
        .cloned()
        .collect()
}

fn opened_polled_failed_merged_and_pruned(flavor: Flavor, kind: &str) {
    let hosts = tempfile::tempdir().unwrap();
    let host = CodeHost::start(flavor).unwrap().with_token(TOKEN);
    let server = server(hosts.path(), &host, kind);
    let (_dir, root) = repository(hosts.path());

    // No token saved: git alone decides, and the host hears nothing.
    let pushed = pushed_work(&server, &root);
    let id = pushed["id"].as_str().unwrap().to_owned();
    let branch = pushed["branch"].as_str().unwrap().to_owned();
    assert_eq!(pushed["state"], "waiting_on_review", "{pushed}");
    assert!(pushed["codeHost"].is_null(), "{pushed}");
    assert!(host.requests().is_empty());
    // Its remote is on a host with no token saved, and on no public one: no
    // pull request is offered, as one would only be refused.
    assert!(pushed["pullRequestHost"].is_null(), "{pushed}");
    assert!(
        !pushed["actions"]
            .as_array()
            .unwrap()
            .contains(&json!("pull-request"))
    );

    save_token(&server);
    let offered = entry(&server, &id);
    assert_eq!(offered["pullRequestHost"], "standin", "{offered}");
    assert!(
        offered["actions"]
            .as_array()
            .unwrap()
            .contains(&json!("pull-request"))
    );
    // Unpushed work is refused before the host is asked anything.
    let unpushed = stopped_work(&server, &root);
    let refused = server.call("POST", &format!("/work/{unpushed}/pull-request"), None);
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert!(
        refused.text().contains("push it first"),
        "{}",
        refused.text()
    );
    assert!(host.requests().is_empty(), "{:?}", host.requests());
    let opened = server.call("POST", &format!("/work/{id}/pull-request"), None);
    assert_eq!(opened.status, 200, "{}", opened.text());
    assert_eq!(opened.json()["opened"], true);
    let pulls = host.pull_requests("acme/app");
    assert_eq!(pulls.len(), 1, "{pulls:?}");
    assert_eq!(pulls[0].1, branch);
    let open = entry(&server, &id);
    assert_eq!(open["state"], "waiting_on_review", "{open}");
    assert_eq!(open["codeHost"], "standin");
    assert_eq!(open["pullRequest"]["state"], "open");
    assert_eq!(open["pullRequest"]["url"], opened.json()["url"]);
    assert!(
        !open["actions"]
            .as_array()
            .unwrap()
            .contains(&json!("pull-request"))
    );
    let again = server.call("POST", &format!("/work/{id}/pull-request"), None);
    assert_eq!(again.status, 409, "{}", again.text());

    // Nothing changed: the poll carries the ETag and costs a 304.
    let before = host.requests().len();
    after_a_poll(&server, &id, |_| host.requests().len() > before);
    let poll = host.requests().last().unwrap().clone();
    assert!(poll.if_none_match.is_some(), "{poll:?}");
    assert!(poll.not_modified, "{poll:?}");
    assert!(poll.authorized);

    // The host fails: unknown, with the reason, never landed.
    host.fail_next(500);
    let failed = after_a_poll(&server, &id, |e| e["state"] == "unknown");
    assert!(
        failed["reason"].as_str().unwrap().contains("500"),
        "{failed}"
    );
    assert!(!failed.to_string().contains(TOKEN));

    host.set_state("acme/app", pulls[0].0, PullState::Merged);
    let merged = after_a_poll(&server, &id, |e| e["state"] == "landed");
    assert_eq!(merged["pullRequest"]["state"], "merged", "{merged}");
    assert!(
        merged["landedBy"].is_null(),
        "git alone cannot see it: {merged}"
    );
    let rows = pull_request_rows(&server);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(
        rows[0]["title"].as_str().unwrap().contains("merged"),
        "{rows:?}"
    );
    // Said once: the next poll of a merged pull request asks nothing.
    let before = host.requests().len();
    server.call("POST", "/test/clock", Some(&json!({"advanceMs": 120_000})));
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(host.requests().len(), before);
    assert_eq!(pull_request_rows(&server).len(), 1);

    let checkout = PathBuf::from(merged["checkout"].as_str().unwrap());
    let pruned = server.call("POST", &format!("/work/{id}/prune"), None);
    assert_eq!(pruned.status, 204, "{}", pruned.text());
    assert!(!checkout.exists());
    assert!(git(&root, &["branch", "--list", &branch]).is_empty());

    // Closed unmerged: turned down.
    let second = pushed_work(&server, &root);
    let second_id = second["id"].as_str().unwrap().to_owned();
    let number = host.add_pull_request(
        "acme/app",
        second["branch"].as_str().unwrap(),
        PullState::Closed,
        "Nope",
    );
    let down = after_a_poll(&server, &second_id, |e| e["state"] == "turned_down");
    assert_eq!(down["pullRequest"]["number"], number, "{down}");
    assert!(down["reason"].as_str().unwrap().contains("closed unmerged"));
    let pruned = server.call("POST", &format!("/work/{second_id}/prune"), None);
    assert_eq!(pruned.status, 409, "{}", pruned.text());
}

#[test]
fn github_pull_requests_are_opened_polled_with_etags_and_decide_the_state() {
    opened_polled_failed_merged_and_pruned(Flavor::GitHub, "github");
}

#[test]
fn gitlab_merge_requests_are_opened_polled_with_etags_and_decide_the_state() {
    opened_polled_failed_merged_and_pruned(Flavor::GitLab, "gitlab");
}
