//! HTTP for calendars: one request (WebDAV methods included) through ureq
//! with rustls, redirects followed by hand so the credentials never leave
//! the origin they were given for, every answer's size capped; and the
//! WebDAV multistatus answer read with roxmltree (which refuses DTDs, so a
//! server's XML expands no entities).

use std::time::Duration;

use base64::Engine;

/// The answer to one request, after any redirects.
#[derive(Debug)]
pub(crate) struct Reply {
    pub status: u16,
    /// The URL that answered (the last one after redirects).
    pub url: String,
    headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

const MAX_REDIRECTS: usize = 5;

/// A client for one account: its credentials, time limit and size cap.
pub(crate) struct Dav {
    agent: ureq::Agent,
    authorization: Option<String>,
    /// The origin of the account's URL: the one host the credentials go
    /// to, whatever a redirect or a server's href names.
    home_origin: String,
    max_body: u64,
    timeout: Duration,
}

impl Dav {
    /// `username` and `password` make Basic authentication; a password
    /// without a user name is sent as a bearer token, to `account_url`'s
    /// origin only.
    pub fn new(
        account_url: &str,
        username: Option<&str>,
        password: Option<&str>,
        timeout: Duration,
        max_body: u64,
    ) -> Dav {
        let authorization = match (username, password) {
            (Some(user), pass) => {
                let pair = format!("{user}:{}", pass.unwrap_or(""));
                Some(format!(
                    "Basic {}",
                    base64::engine::general_purpose::STANDARD.encode(pair)
                ))
            }
            (None, Some(token)) => Some(format!("Bearer {token}")),
            (None, None) => None,
        };
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .allow_non_standard_methods(true)
            .timeout_global(Some(timeout))
            .max_redirects(0)
            .user_agent("switchboard")
            .build()
            .into();
        Dav {
            agent,
            authorization,
            home_origin: origin(account_url).to_ascii_lowercase(),
            max_body,
            timeout,
        }
    }

    /// Sends one request; `Err` says in words why no answer came.
    pub fn send(
        &self,
        method: &str,
        url: &str,
        depth: Option<&str>,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Result<Reply, String> {
        let mut url = url.to_owned();
        for _ in 0..=MAX_REDIRECTS {
            let method_value = ureq::http::Method::from_bytes(method.as_bytes())
                .map_err(|_| format!("{method} is not an HTTP method"))?;
            let mut request = ureq::http::Request::builder()
                .method(method_value)
                .uri(&url);
            if let Some(auth) = &self.authorization
                && origin(&url).eq_ignore_ascii_case(&self.home_origin)
            {
                request = request.header("Authorization", auth);
            }
            if let Some(depth) = depth {
                request = request.header("Depth", depth);
            }
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            let typed = headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
            if body.is_some() && !typed {
                request = request.header("Content-Type", "application/xml; charset=utf-8");
            }
            let sent = match body {
                Some(body) => request
                    .body(body.to_owned())
                    .map_err(|e| format!("{url} is not a usable URL: {e}"))
                    .map(|r| self.agent.run(r)),
                None => request
                    .body(())
                    .map_err(|e| format!("{url} is not a usable URL: {e}"))
                    .map(|r| self.agent.run(r)),
            }?;
            let mut response = sent.map_err(|e| self.transport(&url, &e))?;
            let status = response.status().as_u16();
            let headers: Vec<(String, String)> = response
                .headers()
                .iter()
                .map(|(n, v)| {
                    (
                        n.as_str().to_owned(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect();
            let location = headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("location"))
                .map(|(_, v)| v.clone());
            if matches!(status, 301 | 302 | 303 | 307 | 308)
                && let Some(location) = location
            {
                url = join(&url, &location);
                continue;
            }
            let body = if status == 304 || status == 204 {
                String::new()
            } else {
                let bytes = response
                    .body_mut()
                    .with_config()
                    .limit(self.max_body)
                    .read_to_vec()
                    .map_err(|e| self.transport(&url, &e))?;
                String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            };
            return Ok(Reply {
                status,
                url,
                headers,
                body,
            });
        }
        Err(format!("{url} redirects more than {MAX_REDIRECTS} times"))
    }

    fn transport(&self, url: &str, error: &ureq::Error) -> String {
        let why = match error {
            ureq::Error::Timeout(_) => format!("no answer within {} s", self.timeout.as_secs()),
            ureq::Error::HostNotFound => "its host name does not resolve".to_owned(),
            ureq::Error::BodyExceedsLimit(_) => format!(
                "its answer is larger than {} MiB",
                self.max_body / (1024 * 1024)
            ),
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                "the connection was refused".to_owned()
            }
            other => other.to_string(),
        };
        format!("{}: {why}", origin(url))
    }
}

/// What a status other than success means, in words.
pub(crate) fn refusal(reply: &Reply) -> String {
    let what = match reply.status {
        401 => "the server refused the user name or password".to_owned(),
        403 => "the server forbids this account to read it".to_owned(),
        404 => "the server has nothing at this address".to_owned(),
        s if s >= 500 => "the server failed".to_owned(),
        _ => "the server answered unexpectedly".to_owned(),
    };
    format!("{what} ({} {})", reply.status, path_of(&reply.url))
}

/// `scheme://host[:port]` of a URL.
pub(crate) fn origin(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let end = url[after_scheme..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| i + after_scheme);
    &url[..end]
}

fn path_of(url: &str) -> &str {
    let path = &url[origin(url).len()..];
    if path.is_empty() { "/" } else { path }
}

/// An href or a Location resolved against the URL it came from.
pub(crate) fn join(base: &str, href: &str) -> String {
    let href = href.trim();
    if href.starts_with("http://") || href.starts_with("https://") {
        return href.to_owned();
    }
    if href.starts_with('/') {
        return format!("{}{href}", origin(base));
    }
    let path = base.split(['?', '#']).next().unwrap_or(base);
    match path.rfind('/') {
        Some(slash) if slash >= origin(base).len() => format!("{}{href}", &path[..=slash]),
        _ => format!("{path}/{href}"),
    }
}

/// The WebDAV, CalDAV and their extensions' namespaces.
const DAV: &str = "DAV:";
const CALDAV: &str = "urn:ietf:params:xml:ns:caldav";
const CALSERVER: &str = "http://calendarserver.org/ns/";
const APPLE: &str = "http://apple.com/ns/ical/";

/// One `response` of a multistatus, reduced to what the sync reads.
#[derive(Debug, Default, Clone)]
pub(crate) struct Entry {
    pub href: String,
    /// The response's own status (a removed member in a sync report), or
    /// that of the propstat the properties came from.
    pub status: u16,
    pub etag: Option<String>,
    pub calendar_data: Option<String>,
    pub is_calendar: bool,
    pub display_name: Option<String>,
    pub color: Option<String>,
    pub ctag: Option<String>,
    pub sync_token: Option<String>,
    pub principal: Option<String>,
    pub home: Option<String>,
    /// supported-calendar-component-set; empty when not given.
    pub components: Vec<String>,
}

/// A multistatus answer: its responses and (for a sync report) its token.
#[derive(Debug, Default)]
pub(crate) struct Multistatus {
    pub entries: Vec<Entry>,
    pub sync_token: Option<String>,
}

fn status_code(text: &str) -> Option<u16> {
    text.split_whitespace().nth(1)?.parse().ok()
}

/// Reads a 207 answer; `Err` names what is wrong with it.
pub(crate) fn multistatus(body: &str) -> Result<Multistatus, String> {
    let doc = roxmltree::Document::parse(body)
        .map_err(|e| format!("the server's answer is not valid XML ({e})"))?;
    let root = doc.root_element();
    if !root.has_tag_name((DAV, "multistatus")) {
        return Err(format!(
            "the server's answer is XML but not a WebDAV multistatus (it is <{}>)",
            root.tag_name().name()
        ));
    }
    let text = |n: roxmltree::Node<'_, '_>| n.text().map(|t| t.trim().to_owned());
    let mut out = Multistatus::default();
    for node in root.children().filter(|n| n.is_element()) {
        if node.has_tag_name((DAV, "sync-token")) {
            out.sync_token = text(node);
        }
        if !node.has_tag_name((DAV, "response")) {
            continue;
        }
        let mut entry = Entry::default();
        for part in node.children().filter(|n| n.is_element()) {
            if part.has_tag_name((DAV, "href")) && entry.href.is_empty() {
                entry.href = text(part).unwrap_or_default();
            } else if part.has_tag_name((DAV, "status")) {
                entry.status = part.text().and_then(status_code).unwrap_or(0);
            } else if part.has_tag_name((DAV, "propstat")) {
                let ok = part
                    .children()
                    .find(|n| n.has_tag_name((DAV, "status")))
                    .and_then(|n| n.text())
                    .and_then(status_code)
                    .is_some_and(|s| (200..300).contains(&s));
                if !ok {
                    continue;
                }
                if entry.status == 0 {
                    entry.status = 200;
                }
                let props = part.children().filter(|n| n.has_tag_name((DAV, "prop")));
                for prop in props.flat_map(|p| p.children().filter(|n| n.is_element())) {
                    read_prop(prop, &mut entry);
                }
            }
        }
        out.entries.push(entry);
    }
    Ok(out)
}

fn read_prop(prop: roxmltree::Node<'_, '_>, entry: &mut Entry) {
    let text = prop
        .text()
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty());
    let href_inside = || {
        prop.children()
            .find(|n| n.has_tag_name((DAV, "href")))
            .and_then(|n| n.text())
            .map(|t| t.trim().to_owned())
    };
    let ns = prop.tag_name().namespace().unwrap_or("");
    match (ns, prop.tag_name().name()) {
        (DAV, "getetag") => entry.etag = text,
        (DAV, "displayname") => entry.display_name = text,
        (DAV, "sync-token") => entry.sync_token = text,
        (DAV, "current-user-principal") => entry.principal = href_inside(),
        (DAV, "resourcetype") => {
            entry.is_calendar = prop
                .children()
                .any(|n| n.has_tag_name((CALDAV, "calendar")));
        }
        (CALDAV, "calendar-data") => {
            // The data is text: several text and CDATA nodes make it up.
            let data: String = prop
                .children()
                .filter(|n| n.is_text())
                .filter_map(|n| n.text())
                .collect();
            entry.calendar_data = Some(data);
        }
        (CALDAV, "calendar-home-set") => entry.home = href_inside(),
        (CALDAV, "supported-calendar-component-set") => {
            entry.components = prop
                .children()
                .filter(|n| n.has_tag_name((CALDAV, "comp")))
                .filter_map(|n| n.attribute("name"))
                .map(str::to_ascii_uppercase)
                .collect();
        }
        (CALSERVER, "getctag") => entry.ctag = text,
        (APPLE, "calendar-color") => entry.color = text,
        _ => {}
    }
}

/// `&`, `<` and `>` escaped for an href inside a request body.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hrefs_resolve_against_their_url() {
        assert_eq!(join("http://h:1/a/b/", "/c/"), "http://h:1/c/");
        assert_eq!(join("http://h:1/a/b/", "e.ics"), "http://h:1/a/b/e.ics");
        assert_eq!(join("http://h:1", "e.ics"), "http://h:1/e.ics");
        assert_eq!(join("http://h:1/a", "https://x/y"), "https://x/y");
        assert_eq!(origin("https://h:8443/dav/?x"), "https://h:8443");
    }

    #[test]
    fn a_sync_report_is_read() {
        let body = r#"<?xml version="1.0"?>
<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:response><d:href>/u/cal/a.ics</d:href>
    <d:propstat><d:prop><d:getetag>"1"</d:getetag><c:calendar-data><![CDATA[BEGIN:VCALENDAR
END:VCALENDAR
]]></c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
  </d:response>
  <d:response><d:href>/u/cal/b.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
  <d:sync-token>http://radicale.org/ns/sync/2</d:sync-token>
</d:multistatus>"#;
        let ms = multistatus(body).unwrap();
        assert_eq!(ms.entries.len(), 2);
        assert_eq!(ms.entries[0].etag.as_deref(), Some("\"1\""));
        assert!(
            ms.entries[0]
                .calendar_data
                .as_deref()
                .unwrap()
                .starts_with("BEGIN:VCALENDAR")
        );
        assert_eq!(ms.entries[1].status, 404);
        assert_eq!(
            ms.sync_token.as_deref(),
            Some("http://radicale.org/ns/sync/2")
        );
    }

    #[test]
    fn malformed_or_hostile_xml_is_an_error() {
        assert!(multistatus("<d:multistatus xmlns:d=\"DAV:\"><d:response>").is_err());
        assert!(multistatus("<html><body>Oops</body></html>").is_err());
        let bomb = "<!DOCTYPE x [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;\">]><d:multistatus xmlns:d=\"DAV:\">&b;</d:multistatus>";
        assert!(multistatus(bomb).is_err());
    }
}
