//! Where's my work through a real server: sessions whose engine commits in
//! a worktree or in a plain folder of a real repository with a bare
//! repository as its remote; stranded work that no route removes, pushed,
//! landed by a squash and then pruned; the user's own working tree never
//! touched; a follow-up session joining the same piece of work.

mod common;

use std::path::{Path, PathBuf};

use common::{TestServer, git};
use serde_json::{Value, json};

/// A server whose `commit` engine commits a file where it runs, and whose
/// `busy` engine keeps running.
fn server() -> TestServer {
    server_with(&[])
}

fn server_with(args: &[&str]) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let script = "[ \"$0\" = --version ] && exit 0; echo \"$$\" > \"agent-$$.txt\"; git add . && git commit -qm 'agent work' && echo committed";
    let busy = "[ \"$0\" = --version ] && exit 0; echo started; exec sleep 300";
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.commit]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}]\n\
             [engines.busy]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {busy:?}]\n"
        ),
    )
    .unwrap();
    TestServer::start_in_with(dir, args)
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
    assert!(actions(&stranded).contains(&"diff"), "{stranded}");

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
    // A local remote is no code host (not offered, and refused); a GitHub
    // one gives its own page.
    assert!(pushed["pullRequestHost"].is_null(), "{pushed}");
    assert!(!actions(&pushed).contains(&"pull-request"), "{pushed}");
    let refused = act(&server, &id, "pull-request", None);
    assert_eq!(refused.status, 409, "{}", refused.text());
    let remote = git(&root, &["remote", "get-url", "origin"]);
    git(
        &root,
        &["remote", "set-url", "origin", "git@github.com:acme/app.git"],
    );
    let on_github = entry_of(&server, &session);
    assert_eq!(on_github["pullRequestHost"], "github.com", "{on_github}");
    assert!(actions(&on_github).contains(&"pull-request"), "{on_github}");
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
    // The changes view is a worktree session's: a plain folder offers none.
    assert!(!actions(&stranded).contains(&"diff"), "{stranded}");
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
    let continued = browser_post(
        &server,
        &format!("/work/{id}/continue"),
        &json!({"prompt": "finish it"}),
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

/// The CPU weight of the cgroup that session `id`'s engine runs in, with
/// the even weight of this hierarchy (`cpu.shares` on v1, `cpu.weight` on
/// v2), or `None` where no cgroup holds it.
fn cpu_weight(id: &str) -> Option<(u64, u64)> {
    let wanted = format!("APP_SESSION_ID={id}");
    let pid = std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .find(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == wanted.as_bytes()))
        })?;
    let cgroups = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).ok()?;
    let (file, even) = cgroups.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        if controllers.split(',').any(|c| c == "cpu") {
            Some((format!("/sys/fs/cgroup/cpu{path}/cpu.shares"), 1024))
        } else if controllers.is_empty() {
            Some((format!("/sys/fs/cgroup{path}/cpu.weight"), 100))
        } else {
            None
        }
    })?;
    let weight = std::fs::read_to_string(file).ok()?.trim().parse().ok()?;
    Some((weight, even))
}

/// The user's own request, from the web app.
fn browser_post(server: &TestServer, path: &str, body: &Value) -> common::Reply {
    common::request(
        &server.ui,
        "POST",
        &format!("/api{path}"),
        &[
            ("Cookie", server.browser_cookie().as_str()),
            ("Content-Type", "application/json"),
        ],
        Some(body.to_string().as_bytes()),
    )
}

fn advance(server: &TestServer, ms: u64) {
    let moved = server.call("POST", "/test/clock", Some(&json!({ "advanceMs": ms })));
    assert!(matches!(moved.status, 200 | 204), "{}", moved.text());
}

/// Waits (moving the manual clock a second at a time, so the fair share
/// loop looks again) until session `id`'s weight is `times` the even
/// weight (a fraction for less).
fn weight_becomes(server: &TestServer, id: &str, times: f64) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let weight = cpu_weight(id);
        if let Some((weight, even)) = weight
            && (weight as f64 - even as f64 * times).abs() < 1.0
        {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{id}: {weight:?}, wanted {times} times even"
        );
        advance(server, 1000);
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_merge_of_ready_branches_is_put_first_for_the_cpu_while_it_runs_and_not_after() {
    let (mode, why) = resources::Trees::probe();
    if mode == resources::Mode::Nice {
        eprintln!("skipped: no writable cgroup here ({why})");
        return;
    }
    let server = server_with(&["--manual-clock"]);
    let (_dir, root, _remote) = repository();
    let worked = spawn(&server, &root, Some("worktree"));
    stop(&server, &worked);
    let entry = entry_of(&server, &worked);
    let branch = entry["branch"].as_str().unwrap().to_owned();
    let refused = server.call("POST", "/work/merge", Some(&json!({"repository": root})));
    assert_eq!(
        refused.status,
        409,
        "nothing pushed yet: {}",
        refused.text()
    );
    act(&server, entry["id"].as_str().unwrap(), "push", None);

    let other = server.browser_session("busy", "other work")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let merge = browser_post(
        &server,
        "/work/merge",
        &json!({"repository": root, "engine": "busy"}),
    );
    assert_eq!(merge.status, 201, "{}", merge.text());
    let session = merge.json()["session"].clone();
    let merging = session["id"].as_str().unwrap().to_owned();
    assert!(
        session["prompt"].as_str().unwrap().contains(&branch),
        "{session}"
    );
    assert_eq!(session["cwd"], root.to_str().unwrap());
    server.wait_for_status(&merging, "running");

    // Off by default: every tree weighs the same.
    weight_becomes(&server, &merging, 1.0);
    weight_becomes(&server, &other, 1.0);
    server.set_setting("mergePriorityBoostEnabled", json!(true));
    weight_becomes(&server, &merging, 4.0);
    weight_becomes(&server, &other, 0.25);
    server.set_setting("mergePriorityBoostEnabled", json!(false));
    weight_becomes(&server, &merging, 1.0);
    weight_becomes(&server, &other, 1.0);
    server.set_setting("mergePriorityBoostEnabled", json!(true));
    weight_becomes(&server, &merging, 4.0);
    // Thirty minutes on, the boost ends even though the merge runs on.
    advance(&server, 30 * 60 * 1000);
    weight_becomes(&server, &merging, 1.0);
    weight_becomes(&server, &other, 1.0);

    // A new merge is boosted until it ends.
    let again = browser_post(
        &server,
        "/work/merge",
        &json!({"repository": root, "engine": "busy"}),
    );
    assert_eq!(again.status, 201, "{}", again.text());
    let second = again.json()["session"]["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&second, "running");
    weight_becomes(&server, &second, 4.0);
    weight_becomes(&server, &other, 0.25);
    let reply = server.call("POST", &format!("/sessions/{second}/stop"), None);
    assert!(matches!(reply.status, 200 | 202), "{}", reply.text());
    weight_becomes(&server, &other, 1.0);
}

/// The inbox rows about stranded work.
fn stranded_rows(server: &TestServer) -> Vec<Value> {
    let reply = server.call("GET", "/inbox?category=session&state=all&hidden=true", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
        .json()
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| {
            row["title"]
                .as_str()
                .unwrap_or_default()
                .contains("stranded")
        })
        .cloned()
        .collect()
}

#[test]
fn work_stranded_for_a_day_makes_one_inbox_row_per_repository_once() {
    let server = server_with(&["--manual-clock"]);
    let (_dir, root, _remote) = repository();
    for _ in 0..2 {
        let session = spawn(&server, &root, Some("worktree"));
        stop(&server, &session);
    }
    assert_eq!(work(&server).len(), 2);
    advance(&server, 23 * 3600 * 1000);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(
        stranded_rows(&server).is_empty(),
        "{:?}",
        stranded_rows(&server)
    );

    advance(&server, 2 * 3600 * 1000);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while stranded_rows(&server).is_empty() {
        assert!(std::time::Instant::now() < deadline, "no stranded row");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let rows = stranded_rows(&server);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(
        rows[0]["title"]
            .as_str()
            .unwrap()
            .starts_with("2 pieces of agent work stranded in "),
        "{rows:?}"
    );
    assert!(rows[0]["body"].as_str().unwrap().contains("switchboard/"));

    // Said once: a day later there is nothing new to say.
    advance(&server, 25 * 3600 * 1000);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let again = stranded_rows(&server);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0]["count"], rows[0]["count"], "{again:?}");
}
