//! Real feeds' shapes read through `feeds::parse`: RSS 2.0 (guid with and
//! without isPermaLink, content:encoded, no guid, neither guid nor link),
//! Atom with xhtml content, JSON Feed 1.1 and RSS 1.0 (RDF); and bodies that
//! are no feed, each described by what it is.

use feeds::parse::parse;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn rss2_entries_are_keyed_sanitized_and_dated() {
    let feed = parse(&fixture("rss2.xml"), "https://ada.test/rss.xml", None).unwrap();
    assert_eq!(feed.title.as_deref(), Some("Ada's Notes"));
    assert_eq!(feed.ttl_minutes, Some(60));
    assert_eq!(feed.entries.len(), 4);
    let second = &feed.entries[0];
    assert_eq!(second.title, "Second & last");
    assert_eq!(second.link.as_deref(), Some("https://ada.test/2026/second"));
    assert_eq!(second.author.as_deref(), Some("Ada"));
    assert_eq!(
        second.published_at.as_deref(),
        Some("2026-03-10T09:00:00.000Z")
    );
    assert_eq!(second.summary, "Short summary");
    assert!(!second.content.contains("script"), "{}", second.content);
    assert!(!second.content.contains("iframe"), "{}", second.content);
    assert!(
        second
            .content
            .contains(r#"data-blocked-src="https://ada.test/img/a.png""#),
        "{}",
        second.content
    );
    assert_eq!(second.remote_images, 1);
    // Four different keys: a guid, a guid that is no link, a link, the text.
    let keys: std::collections::HashSet<&str> =
        feed.entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys.len(), 4);
    // The same body read again keys every entry the same way.
    let again = parse(&fixture("rss2.xml"), "https://ada.test/rss.xml", None).unwrap();
    let again_keys: Vec<&str> = again.entries.iter().map(|e| e.key.as_str()).collect();
    let first_keys: Vec<&str> = feed.entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(again_keys, first_keys);
}

#[test]
fn atom_xhtml_content_is_kept_as_html() {
    let feed = parse(&fixture("atom.xml"), "https://grace.test/atom.xml", None).unwrap();
    assert_eq!(feed.title.as_deref(), Some("Grace's Log"));
    assert_eq!(feed.site_url.as_deref(), Some("https://grace.test/"));
    let entry = &feed.entries[0];
    assert_eq!(entry.title, "Compilers");
    assert_eq!(entry.author.as_deref(), Some("Grace"));
    assert_eq!(
        entry.published_at.as_deref(),
        Some("2026-03-10T08:00:00.000Z")
    );
    assert!(
        entry.content.contains("<em>xhtml</em>"),
        "{}",
        entry.content
    );
    assert!(
        entry.content.contains(r#"href="https://grace.test/more""#),
        "{}",
        entry.content
    );
    assert_eq!(entry.summary, "About compilers");
}

#[test]
fn json_feed_items_are_read_with_their_images_blocked() {
    let feed = parse(
        &fixture("jsonfeed.json"),
        "https://linus.test/feed.json",
        None,
    )
    .unwrap();
    assert_eq!(feed.title.as_deref(), Some("Linus' JSON"));
    assert_eq!(feed.entries.len(), 2);
    let two = &feed.entries[0];
    assert_eq!(two.link.as_deref(), Some("https://linus.test/2"));
    assert!(
        two.content.contains("data-blocked-srcset"),
        "{}",
        two.content
    );
    assert!(!two.content.contains(" src="), "{}", two.content);
    assert_eq!(feed.entries[1].summary, "One, in plain text");
}

#[test]
fn rss1_rdf_is_read() {
    let feed = parse(&fixture("rss1.rdf"), "https://old.test/rss", None).unwrap();
    assert_eq!(feed.title.as_deref(), Some("Old RDF"));
    assert_eq!(feed.entries.len(), 1);
    assert_eq!(feed.entries[0].title, "A");
    assert_eq!(feed.entries[0].link.as_deref(), Some("https://old.test/a"));
}

#[test]
fn bodies_that_are_no_feed_say_what_they_are() {
    let page = b"<!DOCTYPE html><html><head><title>Welcome</title></head><body>hi</body></html>";
    let html = parse(page, "https://x.test/", Some("text/html")).unwrap_err();
    assert_eq!(
        html,
        "not a feed: an HTML page titled \u{201c}Welcome\u{201d}"
    );
    let broken = parse(
        b"<rss version=\"2.0\"><channel><title>x</channel>",
        "https://x.test/",
        None,
    )
    .unwrap_err();
    assert!(broken.starts_with("invalid XML"), "{broken}");
    let other = parse(
        b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
        "https://x.test/",
        None,
    )
    .unwrap_err();
    assert_eq!(other, "not a feed: an XML document whose root is <svg>");
    let json = parse(
        b"{\"hello\": 1}",
        "https://x.test/",
        Some("application/json"),
    )
    .unwrap_err();
    assert!(json.starts_with("not a feed: JSON"), "{json}");
    assert_eq!(
        parse(b"  ", "https://x.test/", None).unwrap_err(),
        "not a feed: the answer was empty"
    );
}
