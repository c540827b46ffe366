//! Feeds through a real server on a manual clock, against feeds served over
//! real HTTP on loopback by a server that counts its requests: a site page
//! whose feed is discovered, a second poll answered 304 to its conditional
//! GET, and each bad feed of issue 68 (a page with no feed → 400 naming it;
//! HTML, a 10 MB body, invalid XML, a redirect loop and a server that never
//! answers each a failing feed with its reason, while the others poll on;
//! a script or iframe in an entry stripped); read, star, paging, mark all
//! read and OPML out. Routes answer 403 while `rssEnabled` is off.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

/// 2026-03-10T12:00:00Z.
const START_MS: &str = "1773144000000";

fn rss(items: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Site news</title>\
         <link>http://site.test/</link>{items}</channel></rss>"
    )
}

fn item(n: u32) -> String {
    format!(
        "<item><title>Post {n}</title><link>http://site.test/{n}</link><guid>post-{n}</guid>\
         <pubDate>Mon, 09 Mar 2026 {n:02}:00:00 GMT</pubDate><description>Text {n}</description></item>"
    )
}

/// Requests per path, and the conditional ones.
#[derive(Default)]
struct Counts {
    requests: Mutex<HashMap<String, usize>>,
    conditional: AtomicUsize,
}

/// The feeds' server; returns its base URL and its counts.
fn feed_server() -> (String, Arc<Counts>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let counts = Arc::new(Counts::default());
    let seen = counts.clone();
    let site = base.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (seen, site) = (seen.clone(), site.clone());
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                let mut first = String::new();
                let _ = reader.read_line(&mut first);
                let path = first.split_whitespace().nth(1).unwrap_or("/").to_owned();
                let mut etag = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("if-none-match:") {
                        etag = Some(v.trim().to_owned());
                    }
                }
                *seen
                    .requests
                    .lock()
                    .unwrap()
                    .entry(path.clone())
                    .or_default() += 1;
                if path == "/news/feed.xml" && etag.is_some() {
                    seen.conditional.fetch_add(1, Ordering::SeqCst);
                }
                let (status, kind, body, extra) = match path.as_str() {
                    "/" => (200, "text/html", format!(
                        "<html><head><title>Site</title><link rel=\"alternate\" type=\"application/rss+xml\" href=\"{site}/news/feed.xml\"></head></html>"), ""),
                    "/news/feed.xml" if etag.as_deref() == Some("\"v1\"") => (304, "text/plain", String::new(), "ETag: \"v1\"\r\n"),
                    "/news/feed.xml" => (200, "application/rss+xml", rss(&(1..=60).map(item).collect::<String>()), "ETag: \"v1\"\r\n"),
                    "/script.xml" => (200, "application/rss+xml", rss(
                        "<item><guid>s</guid><title>Bad</title><description>&lt;p&gt;ok&lt;script&gt;alert(1)&lt;/script&gt;&lt;iframe src=\"http://evil.test\"&gt;&lt;/iframe&gt;&lt;/p&gt;</description></item>"), ""),
                    "/page" => (200, "text/html", "<!DOCTYPE html><html><head><title>Just a page</title></head><body>hi</body></html>".to_owned(), ""),
                    "/big.xml" => (200, "application/rss+xml", format!("{}{}", rss(""), " ".repeat(10 * 1024 * 1024)), ""),
                    "/broken.xml" => (200, "application/rss+xml", "<rss version=\"2.0\"><channel><title>x</channel>".to_owned(), ""),
                    "/loop" => (302, "text/plain", String::new(), "Location: /loop\r\n"),
                    "/hang" => {
                        std::thread::sleep(Duration::from_secs(40));
                        return;
                    }
                    _ => (404, "text/plain", "no".to_owned(), ""),
                };
                let head = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
                    body.len()
                );
                let _ = (&stream).write_all(head.as_bytes());
                let _ = (&stream).write_all(body.as_bytes());
            });
        }
    });
    (base, counts)
}

fn feeds(server: &TestServer) -> Vec<Value> {
    let reply = server.call("GET", "/feeds", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().cloned().unwrap_or_default()
}

fn by_url<'a>(feeds: &'a [Value], url: &str) -> &'a Value {
    feeds
        .iter()
        .find(|f| f["url"] == url)
        .unwrap_or_else(|| panic!("{url} in {feeds:?}"))
}

#[test]
fn feeds_are_discovered_polled_conditionally_and_read() {
    let server = TestServer::start_with(&["--manual-clock-start-ms", START_MS]);
    let (base, counts) = feed_server();
    server.set_setting("rssEnabled", json!(false));
    let off = server.call("GET", "/feeds", None);
    assert_eq!(off.status, 403);
    assert_eq!(off.error_code(), "feeds_disabled");
    server.set_setting("rssEnabled", json!(true));

    // A site page: its feed is discovered and its entries stored at once.
    let added = server.call("POST", "/feeds", Some(&json!({"url": format!("{base}/")})));
    assert_eq!(added.status, 201, "{}", added.text());
    let feed = added.json();
    assert_eq!(feed["url"], format!("{base}/news/feed.xml"));
    assert_eq!(feed["title"], "Site news");
    assert_eq!(feed["status"], "ok");
    assert!(feed["lastFetchedAt"].is_string());
    let id = feed["id"].as_str().unwrap().to_owned();
    let again = server.call(
        "POST",
        "/feeds",
        Some(&json!({"url": format!("{base}/news/feed.xml")})),
    );
    assert_eq!(again.status, 409, "{}", again.text());

    // A second poll is conditional and answered 304.
    let refreshed = server.call("POST", &format!("/feeds/{id}/refresh"), None);
    assert_eq!(refreshed.status, 200, "{}", refreshed.text());
    assert_eq!(refreshed.json()["status"], "ok");
    assert_eq!(counts.conditional.load(Ordering::SeqCst), 1);

    // A page with no feed: 400 naming what it is.
    let page = server.call(
        "POST",
        "/feeds",
        Some(&json!({"url": format!("{base}/page")})),
    );
    assert_eq!(page.status, 400, "{}", page.text());
    assert!(page.text().contains("Just a page"), "{}", page.text());

    // Paging newest first, without repeats, then read, star and read-all.
    let first = server.call("GET", "/feeds/entries?limit=50", None).json();
    let entries = first["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 50);
    assert_eq!(entries[0]["title"], "Post 60");
    let cursor = first["next"].as_str().unwrap();
    let second = server
        .call(
            "GET",
            &format!("/feeds/entries?limit=50&cursor={cursor}"),
            None,
        )
        .json();
    assert_eq!(second["entries"].as_array().unwrap().len(), 10);
    assert!(second["next"].is_null());
    let entry = entries[0]["id"].as_i64().unwrap();
    assert_eq!(
        server
            .call("POST", &format!("/feeds/entries/{entry}/read"), None)
            .status,
        204
    );
    assert_eq!(
        server
            .call("POST", &format!("/feeds/entries/{entry}/star"), None)
            .status,
        204
    );
    let unread = server
        .call(
            "GET",
            &format!("/feeds/entries?feedId={id}&unread=true&limit=200"),
            None,
        )
        .json();
    assert_eq!(unread["entries"].as_array().unwrap().len(), 59);
    let starred = server
        .call("GET", "/feeds/entries?starred=true", None)
        .json();
    assert_eq!(starred["entries"][0]["id"], entry);
    assert_eq!(
        server
            .call("POST", &format!("/feeds/entries/{entry}/unread"), None)
            .status,
        204
    );
    let all = server.call("POST", &format!("/feeds/read-all?feedId={id}"), None);
    assert_eq!(all.json()["marked"], 60, "{}", all.text());
    assert_eq!(
        by_url(&feeds(&server), &format!("{base}/news/feed.xml"))["unread"],
        0
    );

    // The bad feeds, imported by OPML, each fail with their reason in the
    // poll round while the good one goes on.
    let outlines: String = [
        "script.xml",
        "page",
        "big.xml",
        "broken.xml",
        "loop",
        "hang",
    ]
    .iter()
    .map(|p| format!("<outline text=\"{p}\" xmlUrl=\"{base}/{p}\"/>"))
    .collect();
    let opml = format!("<opml version=\"2.0\"><body>{outlines}</body></opml>");
    let imported = server.call("POST", "/feeds/opml", Some(&json!({"opml": opml})));
    assert_eq!(
        imported.json(),
        json!({"added": 6, "skipped": 0}),
        "{}",
        imported.text()
    );
    let deadline = Instant::now() + Duration::from_secs(40);
    let listed = loop {
        let listed = feeds(&server);
        if listed.iter().all(|f| f["status"] != "pending") || Instant::now() > deadline {
            break listed;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let failure = |path: &str| {
        by_url(&listed, &format!("{base}/{path}"))["failure"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    assert_eq!(
        by_url(&listed, &format!("{base}/script.xml"))["status"],
        "ok",
        "{listed:?}"
    );
    assert!(
        failure("page").contains("an HTML page titled"),
        "{listed:?}"
    );
    assert!(failure("big.xml").starts_with("too large"), "{listed:?}");
    assert!(
        failure("broken.xml").starts_with("invalid XML"),
        "{listed:?}"
    );
    assert!(failure("loop").contains("redirect"), "{listed:?}");
    assert!(failure("hang").starts_with("timed out"), "{listed:?}");
    let script_feed = by_url(&listed, &format!("{base}/script.xml"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let bad = server
        .call("GET", &format!("/feeds/entries?feedId={script_feed}"), None)
        .json();
    let content = bad["entries"][0]["content"].as_str().unwrap();
    assert!(
        content.contains("ok") && !content.contains("script") && !content.contains("iframe"),
        "{content}"
    );

    // A day later the good feed is polled again (conditionally), the failing ones retried.
    let before = counts.conditional.load(Ordering::SeqCst);
    let moved = server.call(
        "POST",
        "/test/clock",
        Some(&json!({"advanceMs": 86_400_000})),
    );
    assert_eq!(moved.status, 204, "{}", moved.text());
    let deadline = Instant::now() + Duration::from_secs(30);
    while counts.conditional.load(Ordering::SeqCst) == before && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(counts.conditional.load(Ordering::SeqCst), before + 1);

    let exported = server.call("GET", "/feeds/opml", None);
    assert_eq!(exported.status, 200);
    assert!(
        exported
            .text()
            .contains(&format!("xmlUrl=\"{base}/news/feed.xml\"")),
        "{}",
        exported.text()
    );
    assert_eq!(
        server.call("DELETE", &format!("/feeds/{id}"), None).status,
        204
    );
    assert_eq!(
        server
            .call("POST", &format!("/feeds/{id}/refresh"), None)
            .status,
        404
    );
}
