//! Drives through the real binary against a real WebDAV server (WsgiDAV
//! with a password, from crates/test_servers): an account added over the
//! API lands in drives.toml with its password only in the saved keys; a
//! folder made, a 3 MiB file uploaded as raw bytes (neither JSON nor under
//! 1 MiB: the one write the guards let through), listed with its folder's
//! ETag (then 304), downloaded byte for byte, moved and deleted; `../` →
//! 400; a refused password → a failing account and 409 on use; each slot
//! answers 403 while its switch is off; another account has no drives.

mod common;

use common::TestServer;
use serde_json::{Value, json};

const USER: &str = "ada";
const PASSWORD: &str = "dav-cli-secret-2718";

fn files_path(id: &str, path: &str, extra: &str) -> String {
    let query: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("path", path)
        .finish();
    format!("/drives/{id}/files?{query}{extra}")
}

fn upload(server: &TestServer, id: &str, path: &str, bytes: &[u8]) -> common::Reply {
    let auth = format!("Bearer {}", server.token);
    common::request(
        server.control(),
        "PUT",
        &files_path(id, path, ""),
        &[
            ("Authorization", auth.as_str()),
            ("Content-Type", "application/octet-stream"),
        ],
        Some(bytes),
    )
}

#[test]
fn a_webdav_drive_is_added_browsed_and_written_through_the_api() {
    let dav_dir = tempfile::tempdir().unwrap();
    let Some(dav) = test_servers::serve_webdav(dav_dir.path(), USER, PASSWORD) else {
        return;
    };
    let share = dav_dir.path().join("root");
    let server = TestServer::start();

    let off = server.call("GET", "/drives", None);
    assert_eq!(
        (off.status, off.error_code()),
        (403, "drive_disabled".into())
    );
    server.set_setting("driveEnabled", json!(true));
    let added = server.call(
        "POST",
        "/drives",
        Some(
            &json!({"kind": "webdav", "url": dav.url(""), "username": USER, "password": PASSWORD}),
        ),
    );
    assert_eq!(added.status, 201, "{}", added.text());
    let account = added.json();
    assert_eq!(account["id"], "main");
    assert_eq!(account["status"], "ok", "{account}");
    assert!(!added.text().contains(PASSWORD));
    let toml = std::fs::read_to_string(server.data_dir().join("drives.toml")).unwrap();
    assert!(toml.contains("[drives.main]") && !toml.contains(PASSWORD));
    let listed = server.call("GET", "/drives", None);
    assert_eq!(listed.json().as_array().unwrap().len(), 1);
    assert!(!listed.text().contains(PASSWORD));

    let made = server.call(
        "POST",
        "/drives/main/folders",
        Some(&json!({"path": "/Docs"})),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let bytes: Vec<u8> = (0..3 * 1024 * 1024u32).map(|i| (i % 253) as u8).collect();
    let put = upload(&server, "main", "/Docs/big file.bin", &bytes);
    assert_eq!(put.status, 201, "{}", put.text());
    assert_eq!(put.json()["size"], bytes.len());
    assert_eq!(
        std::fs::read(share.join("Docs/big file.bin")).unwrap(),
        bytes
    );

    let folder = server.call("GET", &files_path("main", "/Docs", ""), None);
    assert_eq!(folder.status, 200, "{}", folder.text());
    let entries = folder.json();
    assert_eq!(entries[0]["name"], "big file.bin");
    assert_eq!(entries[0]["path"], "/Docs/big file.bin");
    assert_eq!(entries[0]["folder"], false);
    assert_eq!(folder.header("x-total-count"), Some("1"));
    let etag = folder.header("etag").unwrap().to_owned();
    let auth = format!("Bearer {}", server.token);
    let again = common::request(
        server.control(),
        "GET",
        &files_path("main", "/Docs", ""),
        &[
            ("Authorization", auth.as_str()),
            ("If-None-Match", etag.as_str()),
        ],
        None,
    );
    assert_eq!(again.status, 304);

    let down = server.call(
        "GET",
        &files_path("main", "/Docs/big file.bin", "&download=1"),
        None,
    );
    assert_eq!(down.status, 200);
    assert_eq!(down.body, bytes);

    let outside = server.call("GET", &files_path("main", "/../etc/passwd", ""), None);
    assert_eq!(
        (outside.status, outside.error_code()),
        (400, "invalid_path".into())
    );
    let control = upload(&server, "main", "/bad\u{7}name.txt", b"x");
    assert_eq!(control.status, 400);

    let moved = server.call(
        "POST",
        "/drives/main/move",
        Some(&json!({"from": "/Docs/big file.bin", "to": "/renamed.bin"})),
    );
    assert_eq!(moved.status, 200, "{}", moved.text());
    assert!(share.join("renamed.bin").is_file());
    let deleted = server.call("DELETE", &files_path("main", "/renamed.bin", ""), None);
    assert_eq!(deleted.status, 204);
    assert!(!share.join("renamed.bin").exists());
    let gone = server.call("GET", &files_path("main", "/renamed.bin", ""), None);
    assert_eq!(gone.status, 404);

    // A refused password: added (so it can be fixed), failing, 409 on use.
    server.set_setting("filesyncAEnabled", json!(true));
    let refused = server.call(
        "POST",
        "/drives",
        Some(&json!({"kind": "webdav", "url": dav.url(""), "username": USER, "password": "wrong"})),
    );
    assert_eq!(refused.status, 201, "{}", refused.text());
    assert_eq!(refused.json()["id"], "filesync-a");
    assert_eq!(refused.json()["status"], "failing");
    let used = server.call("GET", &files_path("filesync-a", "/", ""), None);
    assert_eq!(
        (used.status, used.error_code()),
        (409, "drive_credentials_refused".into())
    );
    let full = server.call(
        "POST",
        "/drives",
        Some(
            &json!({"kind": "webdav", "url": dav.url(""), "username": USER, "password": PASSWORD}),
        ),
    );
    assert_eq!(
        (full.status, full.error_code()),
        (409, "drive_slot_taken".into())
    );

    let other: Value = server
        .call("POST", "/accounts", Some(&json!({"name": "Bo"})))
        .json();
    let token = other["token"].as_str().unwrap();
    let theirs = server.call_as(token, "GET", "/drives", None);
    assert_eq!(theirs.json(), json!([]));
    let not_theirs = server.call_as(token, "GET", &files_path("main", "/", ""), None);
    assert_eq!(not_theirs.status, 404);

    server.set_setting("driveEnabled", json!(false));
    let switched_off = server.call("GET", &files_path("main", "/", ""), None);
    assert_eq!(
        (switched_off.status, switched_off.error_code()),
        (403, "drive_disabled".into())
    );
}
