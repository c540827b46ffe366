//! Sessions isolated in git worktrees, through a real server and a real git
//! repository made in a temporary folder: where the engine runs, what the
//! session reports, archiving (removed when clean, kept with changes, the
//! branch staying), the CLI's `--worktree`, and the 400s.

mod common;

use std::path::PathBuf;

use common::{TestServer, git};
use serde_json::{Value, json};

/// A server whose `pwd` engine prints where it runs, and whose `scribble`
/// engine also leaves an uncommitted file there.
fn server() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let toml = "[engines.pwd]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"pwd\"]\n\n\
                [engines.scribble]\nkind = \"command\"\n\
                command = [\"/bin/sh\", \"-c\", \"pwd; echo draft > notes.txt\"]\n";
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in(dir)
}

/// A repository with one commit, a subfolder, an ignored `.env` and the
/// include file that lists it.
fn repository() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    std::fs::create_dir_all(root.join("web/src")).unwrap();
    git(&root, &["init", "--quiet"]);
    std::fs::write(root.join("web/src/main.ts"), "export {};\n").unwrap();
    std::fs::write(root.join(".gitignore"), ".env\n").unwrap();
    std::fs::create_dir_all(root.join(".switchboard")).unwrap();
    std::fs::write(root.join(".switchboard/worktree-include"), ".env\n").unwrap();
    git(&root, &["add", "."]);
    git(&root, &["commit", "--quiet", "-m", "first"]);
    std::fs::write(root.join(".env"), "KEY=1\n").unwrap();
    (dir, root)
}

fn output_of(server: &TestServer, id: &str) -> String {
    let transcript = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json();
    transcript["turns"][0]["output"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn archive(server: &TestServer, id: &str) -> Value {
    let reply = server.call("POST", &format!("/sessions/{id}/archive"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

#[test]
fn an_isolated_session_runs_in_its_worktree_which_archiving_removes_when_clean() {
    let server = server();
    let cookie = server.browser_cookie();
    let (_repo_dir, root) = repository();
    let head = git(&root, &["rev-parse", "HEAD"]);
    let cwd = root.join("web");
    let body = json!({"engine": "pwd", "prompt": "where?", "cwd": cwd, "isolation": "worktree"});
    let reply = server.browser_spawn(&cookie, &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let session = reply.json();
    let id = session["id"].as_str().unwrap().to_owned();

    let path = server.data_dir().join("worktrees").join(&id);
    let worktree = &session["worktree"];
    assert_eq!(worktree["path"], path.to_string_lossy().as_ref());
    assert_eq!(
        worktree["branch"],
        format!("switchboard/{}", &id[id.len() - 8..])
    );
    assert_eq!(worktree["base"], head);
    assert_eq!(worktree["repository"], root.to_string_lossy().as_ref());
    assert_eq!(worktree["removed"], false);
    assert_eq!(session["cwd"], path.join("web").to_string_lossy().as_ref());
    assert_eq!(
        std::fs::read_to_string(path.join(".env")).unwrap(),
        "KEY=1\n"
    );

    server.wait_for_status(&id, "waiting_for_input");
    assert_eq!(
        output_of(&server, &id).trim(),
        path.join("web").to_string_lossy()
    );
    let listed = server.call("GET", "/sessions", None).json();
    assert_eq!(listed[0]["worktree"]["path"], worktree["path"]);

    let archived = archive(&server, &id);
    assert_eq!(archived["archived"], true);
    assert_eq!(archived["worktree"]["removed"], true);
    assert_eq!(archived["worktree"]["keptReason"], Value::Null);
    assert!(!path.exists());
    let branch = worktree["branch"].as_str().unwrap();
    assert_eq!(git(&root, &["branch", "--list", branch]), branch);
}

#[test]
fn a_worktree_with_uncommitted_changes_is_kept_on_archive_and_says_so() {
    let server = server();
    let cookie = server.browser_cookie();
    let (_repo_dir, root) = repository();
    let body =
        json!({"engine": "scribble", "prompt": "write", "cwd": root, "isolation": "worktree"});
    let reply = server.browser_spawn(&cookie, &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");

    let archived = archive(&server, &id);
    let path = server.data_dir().join("worktrees").join(&id);
    assert_eq!(archived["worktree"]["removed"], false);
    let reason = archived["worktree"]["keptReason"].as_str().unwrap();
    assert!(reason.contains("uncommitted changes"), "{reason}");
    assert_eq!(
        std::fs::read_to_string(path.join("notes.txt")).unwrap(),
        "draft\n"
    );

    // Once the work is committed, archiving again removes the folder; the branch stays.
    git(&path, &["add", "notes.txt"]);
    git(&path, &["commit", "--quiet", "-m", "notes"]);
    let archived = archive(&server, &id);
    assert_eq!(archived["worktree"]["removed"], true);
    assert!(!path.exists());
    let branch = archived["worktree"]["branch"].as_str().unwrap();
    assert_eq!(
        git(&root, &["show", &format!("{branch}:notes.txt")]),
        "draft"
    );
}

#[test]
fn isolation_outside_a_repository_or_of_an_unknown_kind_is_a_400() {
    let server = server();
    let cookie = server.browser_cookie();
    let outside = tempfile::tempdir().unwrap();
    let body =
        json!({"engine": "pwd", "prompt": "hi", "cwd": outside.path(), "isolation": "worktree"});
    let reply = server.browser_spawn(&cookie, &body);
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(reply.json()["error"]["code"], "not_a_git_repository");

    let (_repo_dir, root) = repository();
    let body = json!({"engine": "pwd", "prompt": "hi", "cwd": root, "isolation": "container"});
    let reply = server.browser_spawn(&cookie, &body);
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(reply.json()["error"]["code"], "invalid_request");

    // A spawn refused after its worktree was made leaves neither folder nor branch.
    let body = json!({"engine": "missing", "prompt": "hi", "cwd": root, "isolation": "worktree"});
    let reply = server.browser_spawn(&cookie, &body);
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(reply.json()["error"]["code"], "unknown_engine");
    assert_eq!(git(&root, &["branch", "--list", "switchboard/*"]), "");
    let left = std::fs::read_dir(server.data_dir().join("worktrees"))
        .map(|entries| entries.count())
        .unwrap_or(0);
    assert_eq!(left, 0);

    // No isolation: the session runs in the folder itself, with no worktree.
    let body = json!({"engine": "pwd", "prompt": "hi", "cwd": root});
    let reply = server.browser_spawn(&cookie, &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    assert_eq!(reply.json()["worktree"], Value::Null);
}

#[test]
fn the_cli_spawns_into_a_worktree_with_dash_dash_worktree() {
    let server = server();
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("requireSpawnSourceSession", json!(false));
    let (_repo_dir, root) = repository();
    let output = server.cli(&[
        "spawn",
        "--engine",
        "pwd",
        "--cwd",
        &root.to_string_lossy(),
        "--worktree",
        "--json",
        "where?",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let session: Value = serde_json::from_slice(&output.stdout).unwrap();
    let id = session["id"].as_str().unwrap();
    let path = server.data_dir().join("worktrees").join(id);
    assert_eq!(session["worktree"]["path"], path.to_string_lossy().as_ref());
    server.wait_for_status(id, "waiting_for_input");
    assert_eq!(output_of(&server, id).trim(), path.to_string_lossy());
}

#[test]
fn a_repository_without_commits_or_with_a_bad_include_file_is_the_callers_400() {
    let server = server();
    let cookie = server.browser_cookie();
    let empty = tempfile::tempdir().unwrap();
    git(empty.path(), &["init", "--quiet"]);
    let body =
        json!({"engine": "pwd", "prompt": "hi", "cwd": empty.path(), "isolation": "worktree"});
    let reply = server.browser_spawn(&cookie, &body);
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(reply.json()["error"]["code"], "invalid_request");
    assert!(reply.text().contains("no commit"), "{}", reply.text());

    let (_repo_dir, root) = repository();
    std::fs::write(
        root.join(".switchboard/worktree-include"),
        ".env\n../secrets\n",
    )
    .unwrap();
    let body = json!({"engine": "pwd", "prompt": "hi", "cwd": root, "isolation": "worktree"});
    let reply = server.browser_spawn(&cookie, &body);
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(reply.json()["error"]["code"], "invalid_request");
    assert!(reply.text().contains("Line 2"), "{}", reply.text());
    // The half-made worktree was taken back with its branch.
    assert_eq!(
        git(&root, &["worktree", "list", "--porcelain"])
            .matches("worktree ")
            .count(),
        1
    );
    assert_eq!(git(&root, &["branch", "--list", "switchboard/*"]), "");
}

fn get(server: &TestServer, path: &str) -> common::Reply {
    server.call("GET", path, None)
}

/// What the session changed, read over HTTP: a commit on its branch, an
/// uncommitted edit and the engine's untracked file, each file's diff, the
/// paths refused, and the 409s of a session without a worktree or whose
/// worktree archiving removed.
#[test]
fn an_isolated_sessions_changes_and_diffs_are_read_against_its_base() {
    let server = server();
    let cookie = server.browser_cookie();
    let (_repo_dir, root) = repository();
    let head = git(&root, &["rev-parse", "HEAD"]);
    let body =
        json!({"engine": "scribble", "prompt": "write", "cwd": root, "isolation": "worktree"});
    let reply = server.browser_spawn(&cookie, &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");
    let path = server.data_dir().join("worktrees").join(&id);
    std::fs::write(
        path.join("web/src/main.ts"),
        "export {};\nexport const a = 1;\n",
    )
    .unwrap();
    git(
        &path,
        &["commit", "--quiet", "-am", "committed on the branch"],
    );
    std::fs::write(path.join("web/src/main.ts"), "export const a = 2;\n").unwrap();

    let reply = get(&server, &format!("/sessions/{id}/changes"));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let file = |path: &str, status: &str, additions: u64, deletions: u64| {
        json!({"path": path, "status": status, "additions": additions, "deletions": deletions,
               "oldPath": null, "binary": false})
    };
    assert_eq!(
        reply.json(),
        json!({"base": head, "files": [
            file("notes.txt", "added", 1, 0),
            file("web/src/main.ts", "modified", 1, 1),
        ]})
    );

    let diff = |file: &str| get(&server, &format!("/sessions/{id}/changes/file?path={file}"));
    let notes = diff("notes.txt");
    assert_eq!(notes.status, 200, "{}", notes.text());
    assert_eq!(notes.json()["path"], "notes.txt");
    assert_eq!(notes.json()["truncated"], false);
    assert!(notes.json()["diff"].as_str().unwrap().contains("+draft\n"));
    let main = diff("web/src/main.ts").json();
    let text = main["diff"].as_str().unwrap();
    assert!(
        text.contains("-export {};\n+export const a = 2;\n"),
        "{main}"
    );
    // The browser reads the same through the UI server.
    let ui = common::request(
        &server.ui,
        "GET",
        &format!("/api/sessions/{id}/changes"),
        &[("Cookie", cookie.as_str())],
        None,
    );
    assert_eq!(ui.status, 200, "{}", ui.text());

    for refused in ["%2Fetc%2Fpasswd", "..%2Fapp%2F.env", "README.md", ""] {
        let reply = diff(refused);
        assert_eq!(reply.status, 400, "{refused}: {}", reply.text());
        assert_eq!(reply.error_code(), "invalid_request");
    }
    let reply = get(&server, &format!("/sessions/{id}/changes/file"));
    assert_eq!(
        (reply.status, reply.error_code()),
        (400, "invalid_request".into())
    );
    let reply = get(&server, "/sessions/no-such-session/changes");
    assert_eq!(
        (reply.status, reply.error_code()),
        (404, "not_found".into())
    );

    let plain = server.browser_spawn(
        &cookie,
        &json!({"engine": "pwd", "prompt": "hi", "cwd": root}),
    );
    let plain = plain.json()["id"].as_str().unwrap().to_owned();
    let reply = get(&server, &format!("/sessions/{plain}/changes"));
    assert_eq!(
        (reply.status, reply.error_code()),
        (409, "not_isolated".into())
    );

    git(&path, &["add", "."]);
    git(&path, &["commit", "--quiet", "-m", "notes"]);
    assert_eq!(archive(&server, &id)["worktree"]["removed"], true);
    for route in ["changes", "changes/file?path=notes.txt"] {
        let reply = get(&server, &format!("/sessions/{id}/{route}"));
        assert_eq!(
            (reply.status, reply.error_code()),
            (409, "worktree_removed".into()),
            "{route}"
        );
    }
}
