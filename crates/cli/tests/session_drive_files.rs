//! Files between a session's folder and a drive (docs/files.md), through
//! the real binary against a real WebDAV server (WsgiDAV): a drive file
//! attached twice lands under its own name, then numbered; a file of the
//! folder is saved to the drive, refused over an existing file unless
//! asked to overwrite; paths that leave the folder (`..`, absolute, a link)
//! and drive paths that are folders or absent are refused with the reason,
//! and nothing is written.

mod common;

use common::TestServer;
use serde_json::json;

const USER: &str = "ada";
const PASSWORD: &str = "dav-session-secret-31";

#[test]
fn a_drive_file_is_attached_to_a_session_and_its_file_saved_back() {
    let dav_dir = tempfile::tempdir().unwrap();
    let Some(dav) = test_servers::serve_webdav(dav_dir.path(), USER, PASSWORD) else {
        return;
    };
    let share = dav_dir.path().join("root");
    std::fs::create_dir_all(share.join("Plans")).unwrap();
    std::fs::write(share.join("Plans/budget.csv"), "item,cost\ndesk,120\n").unwrap();

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.primary]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo ready\"]\n",
    )
    .unwrap();
    let server = TestServer::start_in(dir);
    server.add_webdav_drive(&dav.url(""), USER, PASSWORD);

    let scratch = tempfile::tempdir().unwrap();
    let folder = scratch.path().join("work");
    std::fs::create_dir(&folder).unwrap();
    let cookie = server.browser_cookie();
    let spawned = server.browser_spawn(
        &cookie,
        &json!({"engine": "primary", "prompt": "work", "cwd": folder}),
    );
    assert_eq!(spawned.status, 201, "{}", spawned.text());
    let id = spawned.json()["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");
    let attach = format!("/sessions/{id}/attach-drive-file");
    let save = format!("/sessions/{id}/save-to-drive");

    // Attached twice: its own name, then a numbered one; nothing overwritten.
    for (expected, round) in [("budget.csv", 1), ("budget (2).csv", 2)] {
        let reply = server.call(
            "POST",
            &attach,
            Some(&json!({"drive": "main", "path": "/Plans/budget.csv"})),
        );
        assert_eq!(reply.status, 201, "round {round}: {}", reply.text());
        assert_eq!(reply.json()["path"], expected);
        assert_eq!(reply.json()["size"], 19);
        assert_eq!(
            std::fs::read_to_string(folder.join(expected)).unwrap(),
            "item,cost\ndesk,120\n"
        );
    }
    for (body, status) in [
        (json!({"drive": "main", "path": "/Plans"}), 400),
        (
            json!({"drive": "main", "path": "/Plans/../etc/passwd"}),
            400,
        ),
        (json!({"drive": "main", "path": "/Plans/missing.csv"}), 404),
        (
            json!({"drive": "filesync-a", "path": "/Plans/budget.csv"}),
            403,
        ),
        (json!({"drive": "nope", "path": "/Plans/budget.csv"}), 404),
        (json!({"drive": "main"}), 400),
    ] {
        let reply = server.call("POST", &attach, Some(&body));
        assert_eq!(reply.status, status, "{body}: {}", reply.text());
    }
    let unknown = server.call(
        "POST",
        "/sessions/nope/attach-drive-file",
        Some(&json!({"drive": "main", "path": "/Plans/budget.csv"})),
    );
    assert_eq!(unknown.status, 404, "{}", unknown.text());
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["budget (2).csv", "budget.csv"]);

    // Saved back: a new file; then refused over it unless overwriting.
    std::fs::write(folder.join("report.md"), "# Report\n").unwrap();
    let body = json!({"file": "report.md", "drive": "main", "path": "/Plans/report.md"});
    let saved = server.call("POST", &save, Some(&body));
    assert_eq!(saved.status, 201, "{}", saved.text());
    assert_eq!(saved.json()["path"], "/Plans/report.md");
    assert_eq!(
        std::fs::read_to_string(share.join("Plans/report.md")).unwrap(),
        "# Report\n"
    );
    std::fs::write(folder.join("report.md"), "# Report, second draft\n").unwrap();
    let again = server.call("POST", &save, Some(&body));
    assert_eq!(again.status, 409, "{}", again.text());
    assert_eq!(
        std::fs::read_to_string(share.join("Plans/report.md")).unwrap(),
        "# Report\n"
    );
    let mut replace = body.clone();
    replace["overwrite"] = json!(true);
    let replaced = server.call("POST", &save, Some(&replace));
    assert_eq!(replaced.status, 201, "{}", replaced.text());
    assert_eq!(
        std::fs::read_to_string(share.join("Plans/report.md")).unwrap(),
        "# Report, second draft\n"
    );

    // Nothing outside the folder leaves it.
    std::fs::write(scratch.path().join("secret.txt"), "not yours").unwrap();
    std::os::unix::fs::symlink(scratch.path().join("secret.txt"), folder.join("link.txt")).unwrap();
    for file in ["../secret.txt", "/etc/passwd", "link.txt", "missing.md", ""] {
        let reply = server.call(
            "POST",
            &save,
            Some(&json!({"file": file, "drive": "main", "path": "/leak.txt"})),
        );
        assert_eq!(reply.status, 400, "{file}: {}", reply.text());
        assert_eq!(reply.json()["error"]["field"], "file", "{}", reply.text());
    }
    assert!(!share.join("leak.txt").exists());
}
