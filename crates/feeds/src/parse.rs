//! A fetched body read as a feed (feed-rs: RSS 0.9x, 1.0 and 2.0, Atom,
//! JSON Feed) into what the store keeps: the feed's title, site and `<ttl>`,
//! and each entry with its dedup key, sanitized content and a plain-text
//! summary. A body that is no feed is described by what it is instead (an
//! HTML page and its title, JSON, XML of another kind, invalid XML), so a
//! failure names what was found.

use sha2::{Digest, Sha256};

use crate::sanitize::{plain_text, sanitize};

/// The longest summary kept, in characters.
const SUMMARY_CHARS: usize = 280;
/// The longest title kept, in characters.
const TITLE_CHARS: usize = 300;

/// A feed as read.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub title: Option<String>,
    pub site_url: Option<String>,
    pub ttl_minutes: Option<u32>,
    pub entries: Vec<NewEntry>,
}

/// An entry as read, before it is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEntry {
    /// Unique per feed: the guid, else the link, else the title and content.
    pub key: String,
    pub title: String,
    pub link: Option<String>,
    pub author: Option<String>,
    /// RFC 3339 (the clock's stored form), when the feed dates it.
    pub published_at: Option<String>,
    pub summary: String,
    /// Sanitized HTML, remote images blocked.
    pub content: String,
    pub remote_images: usize,
}

/// Reads `body` as a feed fetched from `url`; `Err` says what it is instead.
pub fn parse(body: &[u8], url: &str, content_type: Option<&str>) -> Result<Parsed, String> {
    let parser = feed_rs::parser::Builder::new()
        .base_uri(Some(url))
        // An entry without an id keeps an empty one, so the store keys it
        // by its link or its text, never by an id made up at each read.
        .id_generator(|_, _, _| String::new())
        .build();
    let feed = match parser.parse(body) {
        Ok(feed) => feed,
        Err(error) => return Err(describe(body, content_type, &error.to_string())),
    };
    let site_url = feed
        .links
        .iter()
        .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
        .map(|l| l.href.clone())
        .filter(|href| href != url);
    let entries = feed
        .entries
        .into_iter()
        .map(|entry| new_entry(entry, url))
        .collect();
    Ok(Parsed {
        title: feed
            .title
            .map(|t| plain_text(&t.content, TITLE_CHARS))
            .filter(|t| !t.is_empty()),
        site_url,
        ttl_minutes: feed.ttl,
        entries,
    })
}

fn new_entry(entry: feed_rs::model::Entry, feed_url: &str) -> NewEntry {
    let link = entry
        .links
        .iter()
        .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
        .or(entry.links.first())
        .map(|l| l.href.clone());
    let title = entry
        .title
        .as_ref()
        .map(|t| plain_text(&t.content, TITLE_CHARS))
        .unwrap_or_default();
    let summary_html = entry.summary.as_ref().map(|s| s.content.clone());
    let content_html = entry
        .content
        .as_ref()
        .and_then(|c| c.body.clone())
        .or_else(|| summary_html.clone())
        .unwrap_or_default();
    let clean = sanitize(&content_html, link.as_deref().or(Some(feed_url)));
    let summary = plain_text(
        summary_html.as_deref().unwrap_or(&content_html),
        SUMMARY_CHARS,
    );
    let key = if !entry.id.trim().is_empty() {
        digest(&["guid", entry.id.trim()])
    } else if let Some(link) = &link {
        digest(&["link", link])
    } else {
        digest(&["text", &title, &content_html])
    };
    let published_at = entry
        .published
        .or(entry.updated)
        .and_then(|at| time::OffsetDateTime::from_unix_timestamp(at.timestamp()).ok())
        .map(clock::timestamp);
    let author = entry
        .authors
        .iter()
        .filter_map(|p| p.name.clone())
        .find(|n| !n.trim().is_empty());
    NewEntry {
        key,
        title,
        link,
        author,
        published_at,
        summary,
        content: clean.html,
        remote_images: clean.remote_images,
    }
}

/// SHA-256 of the parts, each followed by a NUL, in hex.
fn digest(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether a body is an HTML page (by its type or its first tag).
pub fn is_html(body: &[u8], content_type: Option<&str>) -> bool {
    let head = lead(body);
    head.starts_with("<!doctype html")
        || head.starts_with("<html")
        || (content_type == Some("text/html") && !head.starts_with("<?xml"))
}

/// The start of a body, lower case, without a BOM or leading space.
fn lead(body: &[u8]) -> String {
    let start = &body[..body.len().min(512)];
    String::from_utf8_lossy(start)
        .trim_start_matches('\u{feff}')
        .trim_start()
        .to_ascii_lowercase()
}

/// What a body that is no feed is, for the failure shown.
fn describe(body: &[u8], content_type: Option<&str>, error: &str) -> String {
    let head = lead(body);
    if body.iter().all(u8::is_ascii_whitespace) {
        return "not a feed: the answer was empty".to_owned();
    }
    if is_html(body, content_type) {
        let page = String::from_utf8_lossy(&body[..body.len().min(64 * 1024)]);
        return match crate::discover::page_title(&page) {
            Some(title) => format!("not a feed: an HTML page titled \u{201c}{title}\u{201d}"),
            None => "not a feed: an HTML page".to_owned(),
        };
    }
    if head.starts_with('{') || head.starts_with('[') {
        return format!("not a feed: JSON that is not a JSON Feed ({error})");
    }
    if head.starts_with('<') {
        return match roxmltree::Document::parse(&String::from_utf8_lossy(body)) {
            Ok(doc) => format!(
                "not a feed: an XML document whose root is <{}>",
                doc.root_element().tag_name().name()
            ),
            Err(xml) => format!("invalid XML: {xml}"),
        };
    }
    match content_type {
        Some(media) => format!("not a feed: a {media} document"),
        None => "not a feed: neither XML nor JSON".to_owned(),
    }
}
