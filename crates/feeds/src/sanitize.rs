//! An entry's HTML made safe to show, as mail's is (crates/mailclient's
//! `sanitize`): ammonia drops scripts, iframes, forms, styles and event
//! handlers; links open in a new tab without a referrer; relative URLs are
//! made absolute against the entry's own; and no image loads until the
//! reader asks: each remote image's `src`/`srcset` is renamed
//! `data-blocked-src`/`data-blocked-srcset`, which the reader renames back
//! to show them (the value is already a sanitized http(s) URL).
//!
//! ammonia's attribute filter can change a value but not an attribute's
//! name, so a blocked value is prefixed with a per-call random marker and
//! the marked attributes are renamed in the serialized output; the marker is
//! unguessable, so no text of the feed can imitate it.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The sanitized HTML and how many remote images it holds, blocked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sanitized {
    pub html: String,
    pub remote_images: usize,
}

/// Attributes that load an image.
const IMAGE_ATTRIBUTES: [&str; 2] = ["src", "srcset"];

/// Sanitizes `html`, resolving relative URLs against `base` when it is one.
pub fn sanitize(html: &str, base: Option<&str>) -> Sanitized {
    let marker = format!("x-sb{}", uuid::Uuid::new_v4().simple());
    let images = Arc::new(AtomicUsize::new(0));
    let counted = images.clone();
    let filter_marker = marker.clone();
    let base = base.and_then(|b| url::Url::parse(b).ok());
    let image_base = base.clone();
    let mut builder = ammonia::Builder::default();
    builder
        .add_tag_attributes("img", ["srcset"])
        .url_schemes(["http", "https", "mailto"].into())
        .link_rel(Some("noopener noreferrer"))
        .set_tag_attribute_value("a", "target", "_blank")
        .attribute_filter(move |element, attribute, value| {
            if element == "img" && IMAGE_ATTRIBUTES.contains(&attribute) {
                // Resolved here: ammonia resolves after this filter, and a
                // marked value would no longer look relative to it.
                let kept = image_urls(value, attribute, image_base.as_ref())?;
                counted.fetch_add(1, Ordering::Relaxed);
                return Some(Cow::Owned(format!("{filter_marker}:{kept}")));
            }
            Some(Cow::Borrowed(value))
        });
    match base {
        Some(base) => builder.url_relative(ammonia::UrlRelative::RewriteWithBase(base)),
        None => builder.url_relative(ammonia::UrlRelative::Deny),
    };
    let cleaned = builder.clean(html).to_string();
    let html = IMAGE_ATTRIBUTES.iter().fold(cleaned, |html, attribute| {
        html.replace(
            &format!(" {attribute}=\"{marker}:"),
            &format!(" data-blocked-{attribute}=\""),
        )
    });
    Sanitized {
        html,
        remote_images: images.load(Ordering::Relaxed),
    }
}

/// An image attribute's URL (or `srcset`'s list) made absolute, http(s)
/// only; `None` when nothing is left.
fn image_urls(value: &str, attribute: &str, base: Option<&url::Url>) -> Option<String> {
    let absolute = |url: &str| {
        let parsed = match base {
            Some(base) => base.join(url.trim()).ok()?,
            None => url::Url::parse(url.trim()).ok()?,
        };
        matches!(parsed.scheme(), "http" | "https").then(|| parsed.to_string())
    };
    if attribute != "srcset" {
        return absolute(value);
    }
    let kept: Vec<String> = value
        .split(',')
        .filter_map(|candidate| {
            let mut words = candidate.split_whitespace();
            let url = absolute(words.next()?)?;
            Some(
                std::iter::once(url)
                    .chain(words.map(str::to_owned))
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
        .collect();
    (!kept.is_empty()).then(|| kept.join(", "))
}

/// HTML as plain text, at most `max_chars` characters: tags dropped,
/// the common entities read, runs of white space made one space.
pub fn plain_text(html: &str, max_chars: usize) -> String {
    let text = ammonia::Builder::empty().clean(html).to_string();
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    if joined.chars().count() <= max_chars {
        return joined;
    }
    let cut: String = joined.chars().take(max_chars.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_iframes_and_handlers_go_and_images_wait() {
        let html = r#"<p onclick="x()">Hi <script>alert(1)</script><iframe src="https://evil.test/"></iframe>
            <img src="/pic.png" alt="p"> <a href="post">more</a> <form><input></form></p>"#;
        let clean = sanitize(html, Some("https://blog.test/2026/entry"));
        assert!(!clean.html.contains("script"), "{}", clean.html);
        assert!(!clean.html.contains("iframe"), "{}", clean.html);
        assert!(!clean.html.contains("onclick"), "{}", clean.html);
        assert!(!clean.html.contains("<form"), "{}", clean.html);
        assert!(!clean.html.contains(" src="), "{}", clean.html);
        assert!(
            clean
                .html
                .contains(r#"data-blocked-src="https://blog.test/pic.png""#),
            "{}",
            clean.html
        );
        assert!(clean.html.contains(r#"href="https://blog.test/2026/post""#));
        assert!(clean.html.contains(r#"target="_blank""#));
        assert_eq!(clean.remote_images, 1);
    }

    #[test]
    fn javascript_urls_are_dropped() {
        let clean = sanitize(r#"<a href="javascript:alert(1)">x</a>"#, None);
        assert!(!clean.html.contains("javascript"), "{}", clean.html);
    }

    #[test]
    fn plain_text_reads_entities_and_is_cut() {
        assert_eq!(
            plain_text("<p>Fish &amp; <b>chips</b>\n\n today</p>", 100),
            "Fish & chips today"
        );
        assert_eq!(plain_text("abcdefghij", 5), "abcd…");
    }
}
