//! URL import against a real server: `POST /imports/url` fetching a page
//! from Python's `http.server` on 127.0.0.1 as Markdown, refusing a binary
//! file and a `file:` URL in the error shape, and answering 403 while
//! `docImportEnabled` is off.

mod common;

use common::TestServer;
use serde_json::json;

#[test]
fn a_pasted_url_comes_back_as_markdown_and_bad_ones_are_refused() {
    let site = tempfile::tempdir().unwrap();
    std::fs::write(
        site.path().join("release.html"),
        "<html><head><title>Release 2.1</title></head><body><h2>What changed</h2>\
         <ol><li>Faster <strong>search</strong></li><li>Fewer crashes</li></ol></body></html>",
    )
    .unwrap();
    std::fs::write(
        site.path().join("photo.png"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    )
    .unwrap();
    let files = test_servers::serve_directory(site.path());
    let server = TestServer::start();

    let page = server.call(
        "POST",
        "/imports/url",
        Some(&json!({"url": files.url("release.html")})),
    );
    assert_eq!(page.status, 200, "{}", page.text());
    let page = page.json();
    assert_eq!(page["title"], "Release 2.1");
    assert_eq!(page["source"], files.url("release.html"));
    let markdown = page["markdown"].as_str().unwrap();
    assert!(markdown.starts_with("## What changed"), "{markdown}");
    assert!(
        markdown.contains("1.  Faster **search**") || markdown.contains("1. Faster **search**"),
        "{markdown}"
    );
    assert!(markdown.ends_with("Fewer crashes\n"), "{markdown}");

    let binary = server.call(
        "POST",
        "/imports/url",
        Some(&json!({"url": files.url("photo.png")})),
    );
    assert_eq!(binary.status, 400);
    assert_eq!(binary.error_code(), "import_failed");
    assert!(
        binary.text().contains("not a text document"),
        "{}",
        binary.text()
    );

    let local_file = server.call(
        "POST",
        "/imports/url",
        Some(&json!({"url": "file:///etc/passwd"})),
    );
    assert_eq!(local_file.status, 400);
    assert_eq!(local_file.error_code(), "import_failed");
    assert_eq!(local_file.json()["error"]["field"], "url");

    let no_body = server.call("POST", "/imports/url", Some(&json!({"link": "x"})));
    assert_eq!(no_body.status, 400, "{}", no_body.text());

    server.set_setting("docImportEnabled", json!(false));
    let off = server.call(
        "POST",
        "/imports/url",
        Some(&json!({"url": files.url("release.html")})),
    );
    assert_eq!(off.status, 403);
    assert_eq!(off.error_code(), "doc_import_disabled");
}
