//! `/sheets/rows` through the real binary against WsgiDAV: paging a sheet
//! does not download the file again while its ETag is unchanged, and a file
//! changed on the drive (a new ETag) is read again.
//!
//! The proof that the second page was not downloaded: the file's bytes are
//! changed on disk behind WsgiDAV's back keeping its inode, size and mtime
//! (all WsgiDAV's ETag is made of), so only a kept copy can still answer the
//! old values.

mod common;

use common::TestServer;
use serde_json::json;

const USER: &str = "hedy";
const PASSWORD: &str = "dav-cache-secret-2718";

fn rows_path(offset: u32) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    for (k, v) in [
        ("driveId", "main"),
        ("path", "/plan.csv"),
        ("sheet", "Sheet1"),
        ("offset", &offset.to_string()),
        ("limit", "1"),
    ] {
        q.append_pair(k, v);
    }
    format!("/sheets/rows?{}", q.finish())
}

#[test]
fn pages_reuse_the_downloaded_file_until_its_etag_changes() {
    let dav_dir = tempfile::tempdir().unwrap();
    let Some(dav) = test_servers::serve_webdav(dav_dir.path(), USER, PASSWORD) else {
        return;
    };
    let file = dav_dir.path().join("root").join("plan.csv");
    std::fs::write(&file, "alpha,beta\ngamma,delta\nomega,sigma\n").unwrap();
    let server = TestServer::start();
    server.set_setting("sheetsEnabled", json!(true));
    server.add_webdav_drive(&dav.url(""), USER, PASSWORD);

    let cell = |offset: u32| {
        let page = server.call("GET", &rows_path(offset), None);
        assert_eq!(page.status, 200, "{}", page.text());
        page.json()["rows"][0][0]["value"].clone()
    };
    assert_eq!(cell(0), "alpha");

    let mtime = std::fs::metadata(&file).unwrap().modified().unwrap();
    std::fs::write(&file, "ALPHA,BETA\nGAMMA,DELTA\nOMEGA,SIGMA\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    assert_eq!(cell(1), "gamma", "the second page came from the kept copy");
    assert_eq!(cell(2), "omega");

    std::fs::write(&file, "changed,beta\nagain,delta\n").unwrap();
    assert_eq!(cell(0), "changed", "a new ETag makes the file read again");
    assert_eq!(cell(1), "again");
}
