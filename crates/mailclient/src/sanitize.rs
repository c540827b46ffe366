//! Making a mail's HTML safe to show: no script, form or event handler
//! survives, no request leaves the browser for a remote image while images
//! are blocked, `cid:` images point at the server's part URL, and the
//! Content-Security-Policy the frame showing it must be served with.
//!
//! ammonia cannot filter whole stylesheets, and its attribute filter can
//! change a value but not an attribute's name. So a per-call random marker
//! does both jobs after it: a blocked image's value is prefixed with it (and
//! the attribute renamed to `data-blocked-*` in the serialized output), and
//! every kept `<style>` carries it, so the stylesheets found in the output
//! are the real ones and get the same URL filter as `style` attributes. The
//! marker is unguessable, so no text of the mail can imitate either.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

/// How a message's HTML is made safe to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions<'a> {
    /// `emailBlockRemoteImages`, unless the user asked to see this
    /// message's images.
    pub block_remote_images: bool,
    /// Where an inline part is served, `{part}` standing for its id (a
    /// [`crate::PartInfo::id`]), e.g. `/mail/messages/42/parts/{part}`.
    pub part_url: &'a str,
}

/// The Content-Security-Policy to send with the document that shows a
/// sanitized mail in its frame: nothing loads but inline styles, `data:`
/// images and the server's own part URLs (plus any https image once remote
/// images are allowed); `sandbox` without `allow-scripts`,
/// `allow-forms` or `allow-same-origin`, so no script runs and no form
/// posts even if the sanitizer missed one. Popups are allowed so the
/// links (all `target=_blank`) open in a tab outside the sandbox.
pub fn content_security_policy(remote_images_allowed: bool) -> String {
    let remote = if remote_images_allowed { " https:" } else { "" };
    format!(
        "default-src 'none'; img-src data: 'self'{remote}; style-src 'unsafe-inline'; \
         form-action 'none'; base-uri 'none'; frame-ancestors 'self'; \
         sandbox allow-popups allow-popups-to-escape-sandbox"
    )
}

/// What sanitizing found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sanitized {
    pub html: String,
    /// Distinct remote (http or https) image URLs, blocked or not.
    pub remote_images: usize,
}

/// Sanitizes a mail's HTML. `cids` maps a `Content-ID` (no angle brackets)
/// to the id of the part that carries it.
pub fn sanitize_html(
    html: &str,
    options: &RenderOptions<'_>,
    cids: &HashMap<String, String>,
) -> Sanitized {
    let marker = format!("x-sb{}", uuid::Uuid::new_v4().simple());
    let filter = UrlFilter {
        block: options.block_remote_images,
        part_url: options.part_url.to_owned(),
        cids: cids.clone(),
        marker: marker.clone(),
        remote: Arc::new(Mutex::new(HashSet::new())),
    };
    let remote = filter.remote.clone();
    let style_marker = marker.clone();
    let cleaned = {
        let attribute_filter = filter.clone();
        let mut builder = ammonia::Builder::default();
        builder
            .add_tags(["style", "font", "center"])
            .rm_clean_content_tags(["style"])
            .add_clean_content_tags(["title", "head"])
            .add_generic_attributes([
                "style",
                "class",
                "dir",
                "align",
                "valign",
                "width",
                "height",
                "bgcolor",
                "background",
                "border",
                "cellpadding",
                "cellspacing",
                "color",
                "face",
                "size",
                "colspan",
                "rowspan",
                "nowrap",
            ])
            .add_tag_attributes("img", ["srcset", "hspace", "vspace"])
            .add_tag_attributes("a", ["name"])
            .url_schemes(["http", "https", "mailto", "tel", "cid", "data"].into())
            // Relative URLs are dropped by the filter, which must still let
            // the part URLs it writes itself through.
            .url_relative(ammonia::UrlRelative::PassThrough)
            .link_rel(Some("noopener noreferrer"))
            .set_tag_attribute_value("a", "target", "_blank")
            .set_tag_attribute_value("style", "data-sb", &style_marker)
            .attribute_filter(move |element, attribute, value| {
                attribute_filter.attribute(element, attribute, value)
            });
        builder.clean(html).to_string()
    };
    let html = filter.stylesheets(&cleaned);
    let html = unmark_blocked(&html, &marker);
    let remote_images = remote.lock().unwrap_or_else(PoisonError::into_inner).len();
    Sanitized {
        html,
        remote_images,
    }
}

#[derive(Clone)]
struct UrlFilter {
    block: bool,
    part_url: String,
    cids: HashMap<String, String>,
    marker: String,
    remote: Arc<Mutex<HashSet<String>>>,
}

/// Attributes whose value is a URL (or, `srcset`, a list of them).
const URL_ATTRIBUTES: [&str; 6] = ["href", "src", "srcset", "background", "cite", "longdesc"];
/// Of those, the ones that load an image.
const IMAGE_ATTRIBUTES: [&str; 3] = ["src", "srcset", "background"];

impl UrlFilter {
    fn attribute<'u>(
        &self,
        element: &str,
        attribute: &str,
        value: &'u str,
    ) -> Option<Cow<'u, str>> {
        if attribute == "style" {
            return self.css(value).map(Cow::Owned);
        }
        if !URL_ATTRIBUTES.contains(&attribute) {
            return Some(Cow::Borrowed(value));
        }
        if attribute == "srcset" {
            return self.srcset(value).map(Cow::Owned);
        }
        let url = value.trim();
        let scheme = scheme(url);
        if element == "a" && attribute == "href" {
            return match scheme.as_deref() {
                Some("http" | "https" | "mailto" | "tel") => Some(Cow::Borrowed(value)),
                None if url.starts_with('#') => Some(Cow::Borrowed(value)),
                _ => None,
            };
        }
        if !IMAGE_ATTRIBUTES.contains(&attribute) {
            return matches!(scheme.as_deref(), Some("http" | "https"))
                .then_some(Cow::Borrowed(value));
        }
        self.image(url).map(Cow::Owned)
    }

    /// An image URL as it may stay in the output, marked when blocked.
    fn image(&self, url: &str) -> Option<String> {
        match scheme(url).as_deref() {
            Some("data") => url
                .get(5..)
                .is_some_and(|rest| rest.trim_start().to_ascii_lowercase().starts_with("image/"))
                .then(|| url.to_owned()),
            Some("cid") => self.cid(url),
            Some("http" | "https") => {
                self.remote
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(url.to_owned());
                Some(if self.block {
                    format!("{}:{url}", self.marker)
                } else {
                    url.to_owned()
                })
            }
            _ => None,
        }
    }

    fn cid(&self, url: &str) -> Option<String> {
        let id = url.get(4..)?;
        let id = percent_encoding::percent_decode_str(id).decode_utf8_lossy();
        let id = id.trim().trim_start_matches('<').trim_end_matches('>');
        let part = self.cids.get(id)?;
        let encoded =
            percent_encoding::utf8_percent_encode(part, percent_encoding::NON_ALPHANUMERIC);
        Some(self.part_url.replace("{part}", &encoded.to_string()))
    }

    fn srcset(&self, value: &str) -> Option<String> {
        let mut blocked = false;
        let mut kept = Vec::new();
        for candidate in value.split(',') {
            let mut words = candidate.split_whitespace();
            let Some(url) = words.next() else { continue };
            let Some(url) = self.image(url) else { continue };
            let url = match url.strip_prefix(&format!("{}:", self.marker)) {
                Some(original) => {
                    blocked = true;
                    original.to_owned()
                }
                None => url,
            };
            kept.push(
                std::iter::once(url)
                    .chain(words.map(str::to_owned))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        if kept.is_empty() {
            return None;
        }
        let joined = kept.join(", ");
        Some(if blocked {
            format!("{}:{joined}", self.marker)
        } else {
            joined
        })
    }

    /// CSS with every `url(...)` filtered like an image; `None` when it
    /// holds something that could load or run anything past that filter.
    fn css(&self, css: &str) -> Option<String> {
        let lower = css.to_ascii_lowercase();
        const REFUSED: [&str; 8] = [
            "@import",
            "@font-face",
            "expression",
            "behavior",
            "binding",
            "javascript:",
            "image-set",
            "\\",
        ];
        if REFUSED.iter().any(|word| lower.contains(word)) {
            return None;
        }
        let mut out = String::with_capacity(css.len());
        let mut rest = css;
        while let Some(start) = rest.to_ascii_lowercase().find("url(") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 4..];
            let end = after.find(')')?;
            let url = after[..end]
                .trim()
                .trim_matches(|c| c == '"' || c == '\'')
                .trim();
            match self.image(url) {
                Some(kept)
                    if !kept.starts_with(&self.marker) && !kept.contains(['"', '\'', ')', '<']) =>
                {
                    out.push_str(&format!("url(\"{kept}\")"));
                }
                _ => out.push_str("none"),
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Some(out)
    }

    /// Filters each marked `<style>` of the serialized output, dropping the
    /// ones [`UrlFilter::css`] refuses.
    fn stylesheets(&self, html: &str) -> String {
        let open = format!("<style data-sb=\"{}\">", self.marker);
        let mut out = String::with_capacity(html.len());
        let mut rest = html;
        while let Some(start) = rest.find(&open) {
            out.push_str(&rest[..start]);
            let body = &rest[start + open.len()..];
            let Some(end) = body.find("</style>") else {
                rest = "";
                break;
            };
            if let Some(css) = self.css(&body[..end]) {
                out.push_str("<style>");
                out.push_str(&css);
                out.push_str("</style>");
            }
            rest = &body[end + "</style>".len()..];
        }
        out.push_str(rest);
        out
    }
}

/// Renames each marked image attribute to its `data-blocked-` form.
fn unmark_blocked(html: &str, marker: &str) -> String {
    IMAGE_ATTRIBUTES
        .iter()
        .fold(html.to_owned(), |html, attribute| {
            html.replace(
                &format!(" {attribute}=\"{marker}:"),
                &format!(" data-blocked-{attribute}=\""),
            )
        })
}

/// A URL's scheme, lowercased; `None` for a relative URL.
fn scheme(url: &str) -> Option<String> {
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    (!scheme.is_empty()
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)))
    .then(|| scheme.to_ascii_lowercase())
}

/// Plain text as HTML: escaped, line breaks kept, http(s) links made
/// clickable, each run of quoted (`>`) lines folded into a `<details>`.
pub fn text_to_html(text: &str) -> String {
    format!(
        "<div style=\"white-space:pre-wrap;word-wrap:break-word\">{}</div>",
        text_block(text)
    )
}

fn text_block(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if is_quoted(line) {
            let mut quoted = vec![unquote(line)];
            while let Some(next) = lines.next_if(|l| is_quoted(l)) {
                quoted.push(unquote(next));
            }
            out.push_str(&format!(
                "<details><summary>{} quoted line{}</summary><blockquote>{}</blockquote></details>",
                quoted.len(),
                if quoted.len() == 1 { "" } else { "s" },
                text_block(&quoted.join("\n"))
            ));
        } else {
            out.push_str(&linkify(line));
            out.push('\n');
        }
    }
    out
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

fn unquote(line: &str) -> &str {
    let line = line.trim_start();
    let line = line.strip_prefix('>').unwrap_or(line);
    line.strip_prefix(' ').unwrap_or(line)
}

fn linkify(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = find_link(rest) {
        out.push_str(&escape(&rest[..start]));
        let tail = &rest[start..];
        let end = tail
            .find(|c: char| c.is_whitespace() || "<>\"".contains(c))
            .unwrap_or(tail.len());
        let url = tail[..end].trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '\'']);
        let url = if url.len() <= "https://".len() {
            &tail[..end]
        } else {
            url
        };
        out.push_str(&format!(
            "<a href=\"{0}\" target=\"_blank\" rel=\"noopener noreferrer\">{0}</a>",
            escape(url)
        ));
        rest = &tail[url.len()..];
    }
    out.push_str(&escape(rest));
    out
}

fn find_link(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    [lower.find("https://"), lower.find("http://")]
        .into_iter()
        .flatten()
        .min()
}

pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
