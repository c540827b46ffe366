//! A full disk under the data directory (a small tmpfs; the tests run as
//! root in their container): writes are refused with 503 `storage_full`,
//! nothing stored is lost or damaged, reads go on, and writes work again
//! once space is freed.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::TestServer;
use serde_json::json;

/// A tmpfs mounted over a temporary directory for the test's life.
struct SmallDisk {
    /// Removed once the tmpfs over it is gone (fields drop after `drop`).
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl SmallDisk {
    fn mount(megabytes: u32) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_owned();
        let mounted = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={megabytes}m,mode=0700"),
                "tmpfs",
            ])
            .arg(&path)
            .status()
            .unwrap();
        assert!(
            mounted.success(),
            "mounting a tmpfs needs root (CAP_SYS_ADMIN)"
        );
        Self { _dir: dir, path }
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.path).status();
    }
}

/// Writes until the disk refuses, and returns the file that filled it.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).unwrap();
    let block = vec![7u8; 64 * 1024];
    loop {
        match file.write_all(&block) {
            Ok(()) => {}
            Err(e) if e.raw_os_error() == Some(libc::ENOSPC) => break,
            Err(e) => panic!("{e}"),
        }
    }
    // The last few bytes too, so not even one page is left.
    while file.write_all(&[7u8]).is_ok() {}
    path
}

#[test]
fn a_full_disk_refuses_writes_clearly_and_recovers() {
    let disk = SmallDisk::mount(32);
    let data = tempfile::TempDir::new_in(&disk.path).unwrap();
    let data_path = data.path().to_owned();
    let mut server = TestServer::start_in(data);
    let workspace = server.call("POST", "/workspaces", Some(&json!({"name": "Before"})));
    assert_eq!(workspace.status, 201, "{}", workspace.text());
    server.set_setting("agentAlertsEnabled", json!(true));

    let filler = fill(&disk.path);
    let mut refused = None;
    // A write may still fit in pages the WAL had; a few more cannot.
    for n in 0..200 {
        let reply = server.call(
            "POST",
            "/alert",
            Some(&json!({"title": format!("alert {n}"), "body": "x".repeat(4000)})),
        );
        if reply.status != 201 {
            refused = Some(reply);
            break;
        }
    }
    let refused = refused.expect("a write on a full disk is refused");
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert_eq!(refused.error_code(), "storage_full");
    assert!(
        refused.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("full")
    );

    let settings = server.call("GET", "/settings", None);
    assert_eq!(settings.status, 200, "reads go on: {}", settings.text());
    let workspaces = server.call("GET", "/workspaces", None);
    assert_eq!(workspaces.status, 200);
    assert!(workspaces.text().contains("Before"));

    std::fs::remove_file(&filler).unwrap();
    let after = server.call("POST", "/workspaces", Some(&json!({"name": "After"})));
    assert_eq!(after.status, 201, "writes work again: {}", after.text());
    server.stop();

    let conn = store::rusqlite::Connection::open(data_path.join("switchboard.db")).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let names: Vec<String> = conn
        .prepare("SELECT name FROM workspaces ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        names.contains(&"Before".to_owned()) && names.contains(&"After".to_owned()),
        "{names:?}"
    );
}
