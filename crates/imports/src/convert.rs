//! A fetched body to Markdown, by what it is: a web page's HTML through
//! `htmd` (scripts, styles and the page's head left out), Markdown and
//! plain text as they are, a PDF's text, a GitHub issue's JSON. Anything
//! else (an image, an archive, a binary file) is refused, never pasted.

use std::panic::AssertUnwindSafe;

use crate::error::ImportError;
use crate::fetch::Fetched;
use crate::locate::{Kind, Target};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub markdown: String,
    pub title: String,
}

enum Body {
    Html,
    Text,
    Pdf,
}

pub fn to_markdown(target: &Target, fetched: &Fetched) -> Result<Document, ImportError> {
    if target.kind == Kind::GithubIssue {
        return github_issue(fetched);
    }
    match classify(fetched)? {
        Body::Html => Ok(html(fetched)),
        Body::Text => Ok(text(fetched)),
        Body::Pdf => pdf(fetched),
    }
}

fn classify(fetched: &Fetched) -> Result<Body, ImportError> {
    let body = &fetched.body;
    let media = fetched.content_type.as_deref().unwrap_or("");
    if media == "application/pdf" || body.starts_with(b"%PDF-") {
        return Ok(Body::Pdf);
    }
    let looks_like_text = !body.contains(&0) && std::str::from_utf8(body).is_ok();
    match media {
        "text/html" | "application/xhtml+xml" => Ok(Body::Html),
        _ if media.starts_with("text/") && !body.contains(&0) => Ok(Body::Text),
        "" | "application/octet-stream" | "application/json" | "application/xml"
            if looks_like_text =>
        {
            let head = String::from_utf8_lossy(&body[..body.len().min(512)]).to_ascii_lowercase();
            let head = head.trim_start();
            if head.starts_with("<!doctype html") || head.starts_with("<html") {
                Ok(Body::Html)
            } else {
                Ok(Body::Text)
            }
        }
        _ => Err(ImportError::NotText {
            url: fetched.url.clone(),
            content_type: if media.is_empty() {
                "unknown, and its bytes are not text".to_owned()
            } else {
                media.to_owned()
            },
        }),
    }
}

fn html(fetched: &Fetched) -> Document {
    let page = String::from_utf8_lossy(&fetched.body);
    let converter = htmd::HtmlToMarkdown::builder()
        .skip_tags(vec![
            "head", "script", "style", "noscript", "template", "svg", "iframe",
        ])
        .build();
    // htmd fails only when its writer does, which writes to memory; the
    // page's own text is the honest fallback.
    let markdown = converter
        .convert(&page)
        .unwrap_or_else(|_| page.clone().into_owned());
    let title = html_title(&page)
        .or_else(|| first_heading(&markdown))
        .unwrap_or_else(|| fallback_title(fetched));
    Document {
        markdown: tidy(&markdown),
        title,
    }
}

fn text(fetched: &Fetched) -> Document {
    let markdown = String::from_utf8_lossy(&fetched.body).into_owned();
    let title = first_heading(&markdown).unwrap_or_else(|| fallback_title(fetched));
    Document {
        markdown: tidy(&markdown),
        title,
    }
}

fn pdf(fetched: &Fetched) -> Result<Document, ImportError> {
    let unreadable = |reason: String| ImportError::UnreadablePdf {
        url: fetched.url.clone(),
        reason,
    };
    // pdf-extract panics on some malformed files instead of failing; a bad
    // download must become an error for this request, not a lost worker.
    let extracted = std::panic::catch_unwind(AssertUnwindSafe(|| {
        pdf_extract::extract_text_from_mem(&fetched.body)
    }))
    .map_err(|_| unreadable("the file is malformed".to_owned()))?
    .map_err(|error| unreadable(error.to_string()))?;
    let markdown = tidy(&extracted);
    if markdown.is_empty() {
        return Err(unreadable(
            "it holds no text (a scanned PDF holds only pictures of text)".to_owned(),
        ));
    }
    Ok(Document {
        markdown,
        title: fallback_title(fetched),
    })
}

fn github_issue(fetched: &Fetched) -> Result<Document, ImportError> {
    let unreadable = |reason: &str| ImportError::UnreadableIssue {
        url: fetched.url.clone(),
        reason: reason.to_owned(),
    };
    let issue: serde_json::Value =
        serde_json::from_slice(&fetched.body).map_err(|_| unreadable("the answer is not JSON"))?;
    let title = issue["title"]
        .as_str()
        .ok_or_else(|| unreadable("the answer has no title"))?;
    let number = issue["number"].as_u64().unwrap_or_default();
    let what = if issue.get("pull_request").is_some() {
        "Pull request"
    } else {
        "Issue"
    };
    let state = issue["state"].as_str().unwrap_or("unknown");
    let author = issue["user"]["login"].as_str().unwrap_or("unknown");
    let body = issue["body"].as_str().unwrap_or("").trim();
    let body = if body.is_empty() {
        "_No description._"
    } else {
        body
    };
    Ok(Document {
        markdown: format!(
            "# {title} (#{number})\n\n{what}, {state}, opened by @{author}.\n\n{body}\n"
        ),
        title: title.to_owned(),
    })
}

/// The text of the page's `<title>`, with the common entities decoded.
fn html_title(page: &str) -> Option<String> {
    let lower = page.to_ascii_lowercase();
    let open = lower.find("<title")?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find("</title")?;
    let title = page[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    (!title.is_empty()).then_some(title)
}

/// The first `# ` heading of Markdown.
fn first_heading(markdown: &str) -> Option<String> {
    markdown
        .lines()
        .find_map(|line| line.strip_prefix("# "))
        .map(|heading| heading.trim().to_owned())
        .filter(|heading| !heading.is_empty())
}

/// The name the server gave the file, else the URL's last path segment,
/// else the URL.
fn fallback_title(fetched: &Fetched) -> String {
    if let Some(name) = &fetched.file_name {
        return name.clone();
    }
    let without_query = fetched.url.split(['?', '#']).next().unwrap_or(&fetched.url);
    let path = without_query
        .split_once("://")
        .map_or(without_query, |(_, rest)| rest);
    path.split('/')
        .skip(1)
        .filter(|segment| !segment.is_empty())
        .last()
        .map(str::to_owned)
        .unwrap_or_else(|| fetched.url.clone())
}

/// Trailing spaces dropped and runs of blank lines made one, as a PDF's or
/// a page's layout leaves them.
fn tidy(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut blank_run = 0;
    for line in markdown.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank_run += 1;
            if blank_run > 1 {
                continue;
            }
        } else {
            blank_run = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetched(content_type: Option<&str>, body: &[u8]) -> Fetched {
        Fetched {
            url: "http://127.0.0.1/docs/notes.md?x=1".to_owned(),
            content_type: content_type.map(str::to_owned),
            file_name: None,
            body: body.to_vec(),
        }
    }

    fn document() -> Target {
        Target {
            fetch_url: String::new(),
            accept: String::new(),
            kind: Kind::Document,
        }
    }

    #[test]
    fn a_web_page_becomes_markdown_without_its_scripts() {
        let page = br#"<!doctype html><html><head><title>Release &amp; notes</title>
            <style>h1 { color: red }</style></head><body>
            <script>alert("x")</script>
            <h1>Release</h1><p>Read <a href="https://example.org/guide">the guide</a>.</p>
            <ul><li>one</li><li>two</li></ul><pre><code>cargo test</code></pre></body></html>"#;
        let out = to_markdown(&document(), &fetched(Some("text/html"), page)).unwrap();
        assert_eq!(out.title, "Release & notes");
        assert!(out.markdown.contains("# Release"), "{}", out.markdown);
        assert!(
            out.markdown
                .contains("[the guide](https://example.org/guide)")
        );
        assert!(out.markdown.contains("*   one") || out.markdown.contains("- one"));
        assert!(out.markdown.contains("cargo test"));
        assert!(!out.markdown.contains("alert"));
        assert!(!out.markdown.contains("color: red"));
    }

    #[test]
    fn markdown_stays_as_it_is_and_is_titled_by_its_heading() {
        let body = b"# Plan\n\n- ship it\n";
        let out = to_markdown(&document(), &fetched(Some("text/markdown"), body)).unwrap();
        assert_eq!(out.markdown, "# Plan\n\n- ship it");
        assert_eq!(out.title, "Plan");
        let plain = to_markdown(&document(), &fetched(None, b"just words")).unwrap();
        assert_eq!(plain.title, "notes.md");
    }

    #[test]
    fn binary_bodies_are_refused() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        let error = to_markdown(&document(), &fetched(Some("image/png"), png)).unwrap_err();
        assert!(error.to_string().contains("image/png"), "{error}");
        let error = to_markdown(&document(), &fetched(None, png)).unwrap_err();
        assert!(matches!(error, ImportError::NotText { .. }));
    }

    #[test]
    fn a_github_issue_names_its_title_state_and_author() {
        let target = Target {
            kind: Kind::GithubIssue,
            ..document()
        };
        let json = br#"{"title": "Crash on start", "number": 12, "state": "open",
            "user": {"login": "ada"}, "body": "It crashes.\r\n\r\nSteps: run it."}"#;
        let out = to_markdown(&target, &fetched(Some("application/json"), json)).unwrap();
        assert_eq!(out.title, "Crash on start");
        assert!(
            out.markdown
                .starts_with("# Crash on start (#12)\n\nIssue, open, opened by @ada.")
        );
        assert!(out.markdown.contains("Steps: run it."));
        let error = to_markdown(&target, &fetched(None, b"<html>rate limited</html>")).unwrap_err();
        assert!(matches!(error, ImportError::UnreadableIssue { .. }));
    }
}
