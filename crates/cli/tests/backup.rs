//! `switchboard backup` against a running server that keeps writing, then
//! `switchboard restore` into a new directory and a server started on it:
//! the same owner token, the same rows up to the backup's moment.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use common::{TestServer, binary};
use serde_json::{Value, json};

fn names(server: &TestServer) -> Vec<String> {
    let reply = server.call("GET", "/workspaces", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_live_backup_restores_into_a_new_directory_and_serves() {
    let server = Arc::new(TestServer::start());
    std::fs::write(
        server.data_dir().join("engines.toml"),
        "[engines.echo]\nkind = \"command\"\ncommand = [\"/usr/bin/cat\"]\n",
    )
    .unwrap();
    for n in 0..20 {
        let reply = server.call(
            "POST",
            "/workspaces",
            Some(&json!({"name": format!("w{n:05}")})),
        );
        assert_eq!(reply.status, 201);
    }
    let done = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicUsize::new(20));
    let writer = {
        let (server, done, written) =
            (Arc::clone(&server), Arc::clone(&done), Arc::clone(&written));
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                let n = written.load(Ordering::SeqCst);
                let reply = server.call(
                    "POST",
                    "/workspaces",
                    Some(&json!({"name": format!("w{n:05}")})),
                );
                assert_eq!(reply.status, 201, "{}", reply.text());
                written.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    let out = tempfile::tempdir().unwrap();
    let archive = out.path().join("switchboard.tar.zst");
    let before = written.load(Ordering::SeqCst);
    let backup = std::process::Command::new(binary())
        .args(["backup", "--json", "--out"])
        .arg(&archive)
        .arg("--data-dir")
        .arg(server.data_dir())
        .output()
        .unwrap();
    let after = written.load(Ordering::SeqCst);
    done.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    assert!(
        backup.status.success(),
        "{}",
        String::from_utf8_lossy(&backup.stderr)
    );
    let manifest: Value = serde_json::from_slice(&backup.stdout).unwrap();
    assert!(
        manifest["files"]
            .as_array()
            .unwrap()
            .contains(&json!("engines.toml"))
    );
    assert!(manifest["schema"]["boards"].as_u64().unwrap() >= 1);

    let restored_dir = tempfile::tempdir().unwrap();
    let restore = std::process::Command::new(binary())
        .arg("restore")
        .arg(&archive)
        .arg("--data-dir")
        .arg(restored_dir.path())
        .output()
        .unwrap();
    assert!(
        restore.status.success(),
        "{}",
        String::from_utf8_lossy(&restore.stderr)
    );
    assert_eq!(
        std::fs::read(restored_dir.path().join("cli-token")).unwrap(),
        std::fs::read(server.data_dir().join("cli-token")).unwrap()
    );

    let again = std::process::Command::new(binary())
        .arg("restore")
        .arg(&archive)
        .arg("--data-dir")
        .arg(restored_dir.path())
        .output()
        .unwrap();
    assert!(
        !again.status.success(),
        "a restore over a data directory is refused"
    );
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("not empty"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one clear line: {stderr}");

    let source_names = names(&server);
    let restored = TestServer::start_in(restored_dir);
    assert_eq!(restored.token, server.token, "the owner's token came back");
    let restored_names = names(&restored);
    let mine = |names: &[String]| -> Vec<String> {
        let mut mine: Vec<String> = names
            .iter()
            .filter(|n| n.starts_with("w0"))
            .cloned()
            .collect();
        mine.sort();
        mine
    };
    let got = mine(&restored_names);
    assert!(
        (before..=after).contains(&got.len()),
        "the copy is a moment of the backup: {before} <= {} <= {after}",
        got.len()
    );
    let expected: Vec<String> = mine(&source_names).into_iter().take(got.len()).collect();
    assert_eq!(
        got, expected,
        "every workspace up to that moment, and only those"
    );
}

fn archives(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".tar.zst"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn wait_for_archives(dir: &std::path::Path, wanted: usize) -> Vec<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let names = archives(dir);
        if names.len() >= wanted {
            return names;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "wanted {wanted} archives, have {names:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn backup_toml_turns_on_a_daily_backup_on_the_servers_clock() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("backup.toml"), "daily = true\nkeep = 2\n").unwrap();
    let server = TestServer::start_in_with(dir, &["--manual-clock-start-ms", "1767603600000"]);
    let folder = server.data_dir().join("backups");
    assert_eq!(
        wait_for_archives(&folder, 1),
        ["switchboard-20260105T090000Z.tar.zst"]
    );
    let day = 24 * 3600 * 1000;
    for name in [
        "switchboard-20260106T090000Z.tar.zst",
        "switchboard-20260107T090000Z.tar.zst",
    ] {
        let reply = server.call("POST", "/test/clock", Some(&json!({ "advanceMs": day })));
        assert_eq!(reply.status, 204, "{}", reply.text());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while !archives(&folder).contains(&name.to_owned()) {
            assert!(
                std::time::Instant::now() < deadline,
                "{:?}",
                archives(&folder)
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
    assert_eq!(
        wait_for_archives(&folder, 2),
        [
            "switchboard-20260106T090000Z.tar.zst",
            "switchboard-20260107T090000Z.tar.zst"
        ],
        "keep = 2"
    );
}
