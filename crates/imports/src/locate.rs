//! Which URL to fetch for a pasted link. A Google Docs or Slides page and a
//! GitHub file or issue page are HTML made for a browser (mostly menus and
//! script); each service has a URL that answers the document itself, so the
//! link is rewritten to it. Any other http(s) URL is fetched as it is.

use ureq::http::Uri;

use crate::error::ImportError;

/// What the fetched body holds, when the link already tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Decided by the answer's `Content-Type` and first bytes.
    Document,
    /// The GitHub REST API's JSON for one issue or pull request.
    GithubIssue,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub fetch_url: String,
    pub accept: String,
    pub kind: Kind,
}

const ACCEPT_DOCUMENT: &str =
    "text/markdown, text/plain, text/html;q=0.9, application/pdf;q=0.8, */*;q=0.5";

pub fn locate(url: &str) -> Result<Target, ImportError> {
    let trimmed = url.trim();
    let scheme = trimmed
        .split_once(':')
        .map(|(scheme, _)| scheme.to_ascii_lowercase())
        .filter(|scheme| {
            !scheme.is_empty()
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        })
        .ok_or_else(|| ImportError::InvalidUrl(trimmed.to_owned()))?;
    if scheme != "http" && scheme != "https" {
        return Err(ImportError::UnsupportedScheme(format!("{scheme}:")));
    }
    let uri: Uri = trimmed
        .parse()
        .map_err(|_| ImportError::InvalidUrl(trimmed.to_owned()))?;
    let host = uri
        .host()
        .filter(|host| !host.is_empty())
        .ok_or_else(|| ImportError::InvalidUrl(trimmed.to_owned()))?
        .to_ascii_lowercase();
    let segments: Vec<&str> = uri.path().split('/').filter(|s| !s.is_empty()).collect();
    let rewritten = match host.as_str() {
        "docs.google.com" => google_export(&segments),
        "github.com" | "www.github.com" => github(&segments),
        _ => None,
    };
    Ok(rewritten.unwrap_or_else(|| Target {
        fetch_url: trimmed.to_owned(),
        accept: ACCEPT_DOCUMENT.to_owned(),
        kind: Kind::Document,
    }))
}

/// `docs.google.com/document/d/ID/edit` → the document as Markdown;
/// `docs.google.com/presentation/d/ID/…` → the slides' text. Google answers
/// these for any document shared by link, with no session.
fn google_export(segments: &[&str]) -> Option<Target> {
    let (kind, format) = match *segments.first()? {
        "document" => ("document", "md"),
        "presentation" => ("presentation", "txt"),
        _ => return None,
    };
    let d_at = segments.iter().position(|s| *s == "d")?;
    let id = segments.get(d_at + 1)?;
    Some(Target {
        fetch_url: format!("https://docs.google.com/{kind}/d/{id}/export?format={format}"),
        accept: ACCEPT_DOCUMENT.to_owned(),
        kind: Kind::Document,
    })
}

/// `github.com/OWNER/REPO/blob/REF/PATH` → the raw file;
/// `github.com/OWNER/REPO/issues/N` (or `pull/N`) → the REST API's issue.
fn github(segments: &[&str]) -> Option<Target> {
    match segments {
        [owner, repo, "blob" | "raw", rest @ ..] if rest.len() >= 2 => Some(Target {
            fetch_url: format!(
                "https://raw.githubusercontent.com/{owner}/{repo}/{}",
                rest.join("/")
            ),
            accept: ACCEPT_DOCUMENT.to_owned(),
            kind: Kind::Document,
        }),
        [owner, repo, "issues" | "pull", number, ..]
            if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) =>
        {
            Some(Target {
                fetch_url: format!("https://api.github.com/repos/{owner}/{repo}/issues/{number}"),
                accept: "application/vnd.github+json".to_owned(),
                kind: Kind::GithubIssue,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetched(url: &str) -> (String, Kind) {
        let target = locate(url).unwrap();
        (target.fetch_url, target.kind)
    }

    #[test]
    fn links_to_services_are_rewritten_to_their_document_urls() {
        let table = [
            (
                "https://docs.google.com/document/d/1AbC-xyz/edit?usp=sharing",
                "https://docs.google.com/document/d/1AbC-xyz/export?format=md",
                Kind::Document,
            ),
            (
                "https://docs.google.com/presentation/d/9Slides_id/edit#slide=id.p",
                "https://docs.google.com/presentation/d/9Slides_id/export?format=txt",
                Kind::Document,
            ),
            (
                "https://github.com/rust-lang/rust/blob/master/src/doc/README.md",
                "https://raw.githubusercontent.com/rust-lang/rust/master/src/doc/README.md",
                Kind::Document,
            ),
            (
                "https://github.com/tokio-rs/axum/issues/1234#issuecomment-1",
                "https://api.github.com/repos/tokio-rs/axum/issues/1234",
                Kind::GithubIssue,
            ),
            (
                "https://github.com/tokio-rs/axum/pull/77/files",
                "https://api.github.com/repos/tokio-rs/axum/issues/77",
                Kind::GithubIssue,
            ),
            (
                "  http://127.0.0.1:8000/notes.md ",
                "http://127.0.0.1:8000/notes.md",
                Kind::Document,
            ),
            (
                "https://github.com/tokio-rs/axum",
                "https://github.com/tokio-rs/axum",
                Kind::Document,
            ),
            (
                "https://github.com/tokio-rs/axum/issues",
                "https://github.com/tokio-rs/axum/issues",
                Kind::Document,
            ),
        ];
        for (pasted, expected, kind) in table {
            assert_eq!(fetched(pasted), (expected.to_owned(), kind), "{pasted}");
        }
    }

    #[test]
    fn only_http_and_https_urls_are_fetched() {
        assert!(matches!(
            locate("file:///etc/passwd"),
            Err(ImportError::UnsupportedScheme(_))
        ));
        assert!(matches!(
            locate("ftp://example.org/a.txt"),
            Err(ImportError::UnsupportedScheme(_))
        ));
        assert!(matches!(
            locate("not a url"),
            Err(ImportError::InvalidUrl(_))
        ));
        assert!(matches!(
            locate("/just/a/path"),
            Err(ImportError::InvalidUrl(_))
        ));
    }
}
