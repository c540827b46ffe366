//! Paths on a drive: checked once, at the edge, so no request ever names a
//! parent folder (`..`), a control character or a backslash, and turned into
//! URLs (each segment percent-encoded) and back from the server's hrefs.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

use crate::error::{DriveError, Result};

/// What stays as it is in a URL segment: RFC 3986's unreserved characters.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Longer names than common file systems allow are refused here, where the
/// message is clear, rather than by the server.
const MAX_SEGMENT_BYTES: usize = 255;
const MAX_PATH_BYTES: usize = 4096;

/// A checked path below a drive's root: `/` is the root, `/a/b.txt` a file
/// in folder `a`. Empty segments (`a//b`, a trailing `/`) are dropped.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct DrivePath {
    segments: Vec<String>,
}

impl DrivePath {
    pub fn root() -> DrivePath {
        DrivePath::default()
    }

    /// Checks `text`; see [`DriveError::BadPath`] for what is refused.
    pub fn parse(text: &str) -> Result<DrivePath> {
        let bad = |reason| DriveError::BadPath {
            path: text.to_owned(),
            reason,
        };
        if text.len() > MAX_PATH_BYTES {
            return Err(bad("it is longer than 4096 bytes"));
        }
        if text.chars().any(char::is_control) {
            return Err(bad("it holds a control character"));
        }
        if text.contains('\\') {
            return Err(bad("it holds a backslash"));
        }
        let mut segments = Vec::new();
        for segment in text.split('/').filter(|s| !s.is_empty()) {
            if segment == ".." || segment == "." {
                return Err(bad("it names a parent or current folder (`..` or `.`)"));
            }
            if segment.len() > MAX_SEGMENT_BYTES {
                return Err(bad("a name in it is longer than 255 bytes"));
            }
            segments.push(segment.to_owned());
        }
        Ok(DrivePath { segments })
    }

    /// The path read from a server's href below `base_path` (the account
    /// URL's own path, percent-encoded as the server sends it); `None` when
    /// the href is outside it or does not decode to a usable path.
    pub(crate) fn from_href(href_path: &str, base_path: &str) -> Option<DrivePath> {
        let decoded = percent_decode_str(href_path).decode_utf8().ok()?;
        let base = percent_decode_str(base_path).decode_utf8().ok()?;
        let rest = decoded.strip_prefix(base.trim_end_matches('/'))?;
        if !(rest.is_empty() || rest.starts_with('/')) {
            return None;
        }
        DrivePath::parse(rest).ok()
    }

    pub fn is_root(&self) -> bool {
        self.segments.is_empty()
    }

    /// The last segment; empty for the root.
    pub fn name(&self) -> &str {
        self.segments.last().map_or("", String::as_str)
    }

    /// The folder holding this path (the root's is the root).
    pub fn parent(&self) -> DrivePath {
        let mut segments = self.segments.clone();
        segments.pop();
        DrivePath { segments }
    }

    /// `name` inside this folder, checked as one segment.
    pub fn child(&self, name: &str) -> Result<DrivePath> {
        let one = DrivePath::parse(name)?;
        if one.segments.len() != 1 {
            return Err(DriveError::BadPath {
                path: name.to_owned(),
                reason: "a name must be one segment, without `/`",
            });
        }
        let mut segments = self.segments.clone();
        segments.extend(one.segments);
        Ok(DrivePath { segments })
    }

    /// The URL of this path under `base` (which ends with `/`); a folder's
    /// ends with `/` as WebDAV servers expect of collections.
    pub(crate) fn url(&self, base: &str, folder: bool) -> String {
        let mut url = base.to_owned();
        let encoded: Vec<String> = self
            .segments
            .iter()
            .map(|s| utf8_percent_encode(s, SEGMENT).to_string())
            .collect();
        url.push_str(&encoded.join("/"));
        if folder && !self.is_root() {
            url.push('/');
        }
        url
    }
}

impl std::fmt::Display for DrivePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "/{}", self.segments.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_control_characters_and_backslashes_are_refused() {
        for bad in [
            "../etc/passwd",
            "/a/../../b",
            "a/./b",
            "a\u{0}b",
            "a\nb",
            "a\u{7f}",
            "a\\..\\b",
        ] {
            assert!(
                matches!(DrivePath::parse(bad), Err(DriveError::BadPath { .. })),
                "{bad:?} was accepted"
            );
        }
        assert!(DrivePath::root().child("a/b").is_err());
        assert!(DrivePath::root().child("..").is_err());
    }

    #[test]
    fn paths_become_urls_and_hrefs_become_paths() {
        let path = DrivePath::parse("//Docs/Q1 report#1.txt/").unwrap();
        assert_eq!(path.to_string(), "/Docs/Q1 report#1.txt");
        assert_eq!(
            path.url("http://h/dav/", false),
            "http://h/dav/Docs/Q1%20report%231.txt"
        );
        assert_eq!(
            path.parent().url("http://h/dav/", true),
            "http://h/dav/Docs/"
        );
        assert_eq!(
            DrivePath::root().url("http://h/dav/", true),
            "http://h/dav/"
        );
        let back = DrivePath::from_href("/dav/Docs/Q1%20report%231.txt", "/dav/").unwrap();
        assert_eq!(back, path);
        assert_eq!(
            DrivePath::from_href("/dav/", "/dav/"),
            Some(DrivePath::root())
        );
        assert_eq!(DrivePath::from_href("/other/x", "/dav/"), None);
        assert_eq!(DrivePath::from_href("/davx/x", "/dav/"), None);
    }
}
