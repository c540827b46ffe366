//! Feeds: an RSS, Atom or JSON feed as a site serves it, and an OPML file
//! a person imports. Their entries' HTML is shown in the app, so what the
//! sanitizer keeps of it is checked too.

use crate::input::text;

const FEED_URL: &str = "https://example.com/feed.xml";

/// A feed: entries, each keyed, whose content holds no script, or the
/// reason it is not a feed.
pub fn feed(data: &[u8]) {
    let Ok(parsed) = feeds::parse::parse(data, FEED_URL, None) else {
        return;
    };
    for entry in &parsed.entries {
        assert!(!entry.key.is_empty(), "an entry without a key");
        // Text is escaped (`<` as `&lt;`), so every `<` in the output opens
        // a tag the sanitizer kept; the words "javascript:" in an entry's
        // text are harmless, in an attribute of a tag they are not.
        let lower = entry.content.to_ascii_lowercase();
        for tag in lower.split('<').skip(1) {
            let inside = tag.split('>').next().unwrap_or(tag);
            assert!(
                !inside.starts_with("script"),
                "a script kept: {}",
                entry.content
            );
            for value in inside.split("=\"").skip(1) {
                let url: String = value.chars().filter(|c| !c.is_ascii_whitespace()).collect();
                assert!(
                    !url.starts_with("javascript:"),
                    "a javascript: URL kept: {}",
                    entry.content
                );
            }
        }
    }
}

/// An OPML document: its subscriptions (each an http(s) URL), or the
/// reason it is none.
pub fn opml(data: &[u8]) {
    if let Ok(outlines) = feeds::opml::parse(&text(data)) {
        for outline in outlines {
            assert!(!outline.url.trim().is_empty(), "an outline without a URL");
        }
    }
}
