//! The WebDAV XML: the PROPFIND body that asks for what a listing shows,
//! and the multistatus answer read with roxmltree (which refuses DTDs, so
//! a server's XML expands no entities) into one [`Found`] per response.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc2822;

const DAV: &str = "DAV:";
/// Apple's calendar server namespace: `getctag` (many servers).
const CALSERVER: &str = "http://calendarserver.org/ns/";
/// ownCloud and Nextcloud's namespace: their folder `id` and `size`.
const OWNCLOUD: &str = "http://owncloud.org/ns";

/// What a listing asks of every member: only these, not `allprop`, so a
/// server sends neither quotas nor locks for 10,000 files.
pub(crate) const PROPFIND: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/" xmlns:oc="http://owncloud.org/ns">
  <d:prop><d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getetag/><cs:getctag/><oc:size/></d:prop>
</d:propfind>"#;

/// One `response` of a multistatus.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Found {
    pub href: String,
    pub folder: bool,
    pub size: Option<u64>,
    pub modified: Option<OffsetDateTime>,
    /// Quoted, as HTTP sends it in headers (some servers leave the quotes
    /// off in XML).
    pub etag: Option<String>,
    pub ctag: Option<String>,
}

fn status_ok(text: &str) -> bool {
    text.split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .is_some_and(|s| (200..300).contains(&s))
}

/// `"x"` for `x` or `"x"`; a weak `W/"x"` stays as it is.
pub(crate) fn quoted(etag: &str) -> String {
    let etag = etag.trim();
    if etag.starts_with('"') || etag.starts_with("W/") {
        etag.to_owned()
    } else {
        format!("\"{etag}\"")
    }
}

/// Reads a 207 answer; `Err` names what is wrong with it.
pub fn multistatus(body: &str) -> Result<Vec<Found>, String> {
    let doc = roxmltree::Document::parse(body)
        .map_err(|e| format!("the server's answer is not valid XML ({e})"))?;
    let root = doc.root_element();
    if !root.has_tag_name((DAV, "multistatus")) {
        return Err(format!(
            "the server's answer is XML but not a WebDAV multistatus (it is <{}>)",
            root.tag_name().name()
        ));
    }
    let mut out = Vec::new();
    for response in root
        .children()
        .filter(|n| n.has_tag_name((DAV, "response")))
    {
        let mut found = Found::default();
        for part in response.children().filter(|n| n.is_element()) {
            if part.has_tag_name((DAV, "href")) && found.href.is_empty() {
                found.href = part.text().unwrap_or_default().trim().to_owned();
            } else if part.has_tag_name((DAV, "propstat")) {
                let ok = part
                    .children()
                    .find(|n| n.has_tag_name((DAV, "status")))
                    .and_then(|n| n.text())
                    .is_some_and(status_ok);
                if !ok {
                    continue;
                }
                let props = part.children().filter(|n| n.has_tag_name((DAV, "prop")));
                for prop in props.flat_map(|p| p.children().filter(|n| n.is_element())) {
                    read_prop(prop, &mut found);
                }
            }
        }
        if !found.href.is_empty() {
            out.push(found);
        }
    }
    Ok(out)
}

fn read_prop(prop: roxmltree::Node<'_, '_>, found: &mut Found) {
    let text = prop
        .text()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    let ns = prop.tag_name().namespace().unwrap_or("");
    match (ns, prop.tag_name().name()) {
        (DAV, "resourcetype") => {
            found.folder = prop.children().any(|n| n.has_tag_name((DAV, "collection")));
        }
        (DAV, "getcontentlength") => found.size = text.and_then(|t| t.parse().ok()),
        (OWNCLOUD, "size") if found.size.is_none() => {
            found.size = text.and_then(|t| t.parse().ok());
        }
        (DAV, "getlastmodified") => {
            found.modified = text.and_then(|t| OffsetDateTime::parse(&t, &Rfc2822).ok());
        }
        (DAV, "getetag") => found.etag = text.map(|t| quoted(&t)),
        (CALSERVER, "getctag") => found.ctag = text,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_is_read() {
        let body = r#"<?xml version='1.0' encoding='UTF-8'?>
<D:multistatus xmlns:D="DAV:"><D:response><D:href>/sub/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype><D:getlastmodified>Sat, 28 Nov 2026 14:52:35 GMT</D:getlastmodified></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
<D:propstat><D:prop><D:getetag/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat></D:response>
<D:response><D:href>/sub/a%20b.txt</D:href><D:propstat><D:prop><D:resourcetype></D:resourcetype><D:getcontentlength>3</D:getcontentlength><D:getetag>1-2-3</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>"#;
        let found = multistatus(body).unwrap();
        assert_eq!(found.len(), 2);
        assert!(found[0].folder);
        assert_eq!(found[0].etag, None);
        assert_eq!(found[0].modified.unwrap().unix_timestamp(), 1_795_877_555);
        assert_eq!(found[1].href, "/sub/a%20b.txt");
        assert_eq!(found[1].size, Some(3));
        assert_eq!(found[1].etag.as_deref(), Some("\"1-2-3\""));
    }

    #[test]
    fn malformed_or_hostile_xml_is_an_error() {
        assert!(multistatus("<d:multistatus xmlns:d=\"DAV:\"><d:response>").is_err());
        assert!(multistatus("<html><body>Oops</body></html>").is_err());
        let bomb = "<!DOCTYPE x [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;\">]><d:multistatus xmlns:d=\"DAV:\">&b;</d:multistatus>";
        assert!(multistatus(bomb).is_err());
    }
}
