//! Finding a site's feed from one of its pages: the page's
//! `<link rel="alternate">` of an RSS, Atom or JSON Feed type first (in the
//! page's order), then the paths feeds usually live at on the site's root.
//! The page is scanned for `<link>` and `<title>` tags only, never built as
//! a tree, so a large page costs one pass.

/// The paths tried on the site's root when the page names no feed.
pub const COMMON_PATHS: [&str; 6] = [
    "/feed",
    "/rss.xml",
    "/atom.xml",
    "/index.xml",
    "/feed.xml",
    "/feed.json",
];

/// The media types a feed link declares.
const FEED_TYPES: [&str; 5] = [
    "application/rss+xml",
    "application/atom+xml",
    "application/feed+json",
    "application/json",
    "application/rdf+xml",
];

/// The feeds a page links as its alternates, absolute, in the page's order.
pub fn alternate_links(html: &str, page_url: &str) -> Vec<String> {
    let Ok(base) = url::Url::parse(page_url) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for attributes in tags(html, "link") {
        let value = |name: &str| {
            attributes
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let alternate = value("rel").is_some_and(|rel| {
            rel.split_ascii_whitespace()
                .any(|r| r.eq_ignore_ascii_case("alternate"))
        });
        let feed_type = value("type").is_some_and(|t| {
            let media = t
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            FEED_TYPES.contains(&media.as_str())
        });
        if let (true, true, Some(href)) = (alternate, feed_type, value("href"))
            && let Ok(url) = base.join(href.trim())
            && matches!(url.scheme(), "http" | "https")
            && !found.contains(&url.to_string())
        {
            found.push(url.to_string());
        }
    }
    found
}

/// The common feed paths on `page_url`'s site.
pub fn common_candidates(page_url: &str) -> Vec<String> {
    let Ok(base) = url::Url::parse(page_url) else {
        return Vec::new();
    };
    COMMON_PATHS
        .iter()
        .filter_map(|path| base.join(path).ok())
        .map(|url| url.to_string())
        .filter(|url| url != page_url)
        .collect()
}

/// The text of a page's `<title>`, trimmed.
pub fn page_title(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let open = lower.find("<title")?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find("</title")?;
    let title = crate::sanitize::plain_text(&html[start..end], 120);
    (!title.is_empty()).then_some(title)
}

/// Each `<name …>` tag's attributes (names lower case, values unquoted).
fn tags(html: &str, name: &str) -> Vec<Vec<(String, String)>> {
    let lower = html.to_ascii_lowercase();
    let open = format!("<{name}");
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = lower[at..].find(&open) {
        let start = at + found + open.len();
        let boundary = lower[start..].chars().next();
        let Some(end) = lower[start..].find('>').map(|e| start + e) else {
            break;
        };
        if boundary.is_some_and(|c| c.is_ascii_whitespace() || c == '/') {
            out.push(attributes(&html[start..end]));
        }
        at = end;
    }
    out
}

fn attributes(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '/');
    while !rest.is_empty() {
        let name_end = rest
            .find(|c: char| c == '=' || c.is_ascii_whitespace() || c == '/')
            .unwrap_or(rest.len());
        let name = rest[..name_end].to_ascii_lowercase();
        rest = rest[name_end..].trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (v, remaining) = match after.chars().next() {
                Some(quote @ ('"' | '\'')) => {
                    let body = &after[1..];
                    let close = body.find(quote).unwrap_or(body.len());
                    (&body[..close], body.get(close + 1..).unwrap_or(""))
                }
                _ => {
                    let close = after
                        .find(|c: char| c.is_ascii_whitespace())
                        .unwrap_or(after.len());
                    (&after[..close], &after[close..])
                }
            };
            value = v.replace("&amp;", "&");
            rest = remaining;
        }
        if !name.is_empty() {
            out.push((name, value));
        }
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = r#"<!DOCTYPE html><html><head><title>Ada's  blog</title>
        <link rel="stylesheet" href="/s.css">
        <LINK REL="alternate" TYPE="application/atom+xml" HREF="/atom.xml?a=1&amp;b=2">
        <link type='application/rss+xml' rel='alternate home' href=https://cdn.test/rss>
        <link rel="alternate" type="text/html" href="/fr/">
        <link rel="alternate" type="application/feed+json" href="feed.json"/>
        </head><body><link-ish rel="alternate"></body></html>"#;

    #[test]
    fn alternates_are_found_in_page_order_and_made_absolute() {
        assert_eq!(
            alternate_links(PAGE, "https://ada.test/blog/"),
            [
                "https://ada.test/atom.xml?a=1&b=2",
                "https://cdn.test/rss",
                "https://ada.test/blog/feed.json",
            ]
        );
        assert_eq!(page_title(PAGE).as_deref(), Some("Ada's blog"));
    }

    #[test]
    fn common_paths_are_on_the_site_root() {
        let candidates = common_candidates("https://ada.test/blog/post");
        assert_eq!(candidates[0], "https://ada.test/feed");
        assert!(candidates.contains(&"https://ada.test/feed.json".to_owned()));
        assert!(common_candidates("not a url").is_empty());
    }
}
