//! CalDAV on the wire: discovery from a base URL (RFC 6764's
//! `/.well-known/caldav`, then `current-user-principal`,
//! `calendar-home-set` and the home's calendars, RFC 4791 and 5397), what
//! changed in a calendar (`sync-collection` REPORT with its token, RFC
//! 6578; else the members' ETags compared), and `calendar-multiget` of the
//! changed hrefs only.

use crate::dav::{Dav, Entry, Reply, escape, join, multistatus, refusal};

/// hrefs per calendar-multiget request.
const MULTIGET_BATCH: usize = 50;

/// A calendar on the server.
#[derive(Debug, Clone)]
pub(crate) struct Remote {
    pub url: String,
    pub name: String,
    pub color: Option<String>,
    pub ctag: Option<String>,
    pub sync_token: Option<String>,
}

const PRINCIPAL_BODY: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:current-user-principal/><c:calendar-home-set/><d:resourcetype/></d:prop></d:propfind>"#;

const CALENDARS_BODY: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:a="http://apple.com/ns/ical/"><d:prop><d:resourcetype/><d:displayname/><cs:getctag/><d:sync-token/><a:calendar-color/><c:supported-calendar-component-set/></d:prop></d:propfind>"#;

const ETAGS_BODY: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>"#;

/// A PROPFIND or REPORT that must answer 207, read.
fn ask(
    dav: &Dav,
    method: &str,
    url: &str,
    depth: &str,
    body: &str,
) -> Result<(Reply, Vec<Entry>, Option<String>), String> {
    let reply = dav.send(method, url, Some(depth), Some(body), &[])?;
    if reply.status != 207 {
        return Err(refusal(&reply));
    }
    let ms = multistatus(&reply.body)?;
    Ok((reply, ms.entries, ms.sync_token))
}

/// The calendars (holding events) the account can read, found from `base`.
pub(crate) fn discover(dav: &Dav, base: &str) -> Result<Vec<Remote>, String> {
    let well_known = format!("{}/.well-known/caldav", crate::dav::origin(base));
    let mut last_refusal = None;
    let mut found = None;
    for candidate in [base.to_owned(), well_known] {
        let reply = dav.send("PROPFIND", &candidate, Some("0"), Some(PRINCIPAL_BODY), &[])?;
        match reply.status {
            207 => {}
            401 => return Err(refusal(&reply)),
            s if s >= 500 => return Err(refusal(&reply)),
            _ => {
                last_refusal = Some(refusal(&reply));
                continue;
            }
        }
        let entries = multistatus(&reply.body)?.entries;
        let Some(entry) = entries.into_iter().next() else {
            continue;
        };
        if entry.is_calendar {
            // The URL is a calendar itself: that one calendar is the account.
            return calendars(dav, &reply.url, "0");
        }
        if let Some(home) = entry.home {
            found = Some(join(&reply.url, &home));
            break;
        }
        if let Some(principal) = entry.principal {
            let principal = join(&reply.url, &principal);
            let (reply, entries, _) = ask(dav, "PROPFIND", &principal, "0", PRINCIPAL_BODY)?;
            if let Some(home) = entries.into_iter().find_map(|e| e.home) {
                found = Some(join(&reply.url, &home));
                break;
            }
            return Err(format!(
                "the principal {principal} names no calendar-home-set"
            ));
        }
    }
    match found {
        Some(home) => calendars(dav, &home, "1"),
        None => Err(last_refusal.unwrap_or_else(|| {
            "the server names no current-user-principal: is this a CalDAV address?".to_owned()
        })),
    }
}

fn calendars(dav: &Dav, url: &str, depth: &str) -> Result<Vec<Remote>, String> {
    let (reply, entries, _) = ask(dav, "PROPFIND", url, depth, CALENDARS_BODY)?;
    Ok(entries
        .into_iter()
        .filter(|e| e.is_calendar)
        .filter(|e| e.components.is_empty() || e.components.iter().any(|c| c == "VEVENT"))
        .map(|e| {
            let url = join(&reply.url, &e.href);
            let name = e.display_name.clone().unwrap_or_else(|| {
                url.trim_end_matches('/')
                    .rsplit('/')
                    .next()
                    .unwrap_or("Calendar")
                    .to_owned()
            });
            Remote {
                url,
                name,
                color: e.color,
                ctag: e.ctag,
                sync_token: e.sync_token,
            }
        })
        .collect())
}

/// What changed in a calendar since the token or the ETags the caller has.
#[derive(Debug, Default)]
pub(crate) struct Delta {
    /// Absolute URLs of new or changed members.
    pub changed: Vec<String>,
    /// Absolute URLs of removed members.
    pub removed: Vec<String>,
    /// The token to keep for next time.
    pub token: Option<String>,
}

/// Changes since `token` by a sync-collection REPORT; `Ok(None)` when the
/// server no longer honours the token (the caller then lists everything).
pub(crate) fn changes_since(
    dav: &Dav,
    calendar: &str,
    token: &str,
) -> Result<Option<Delta>, String> {
    let body = format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<d:sync-collection xmlns:d="DAV:"><d:sync-token>{}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"#,
        escape(token)
    );
    let reply = dav.send("REPORT", calendar, Some("0"), Some(&body), &[])?;
    // An expired or unknown token: 403 or 409 with DAV:valid-sync-token
    // (RFC 6578 §3.2), 400 or 412 from some servers.
    if matches!(reply.status, 400 | 403 | 409 | 412) && !token.is_empty() {
        return Ok(None);
    }
    if reply.status != 207 {
        return Err(refusal(&reply));
    }
    let ms = multistatus(&reply.body)?;
    let mut delta = Delta {
        token: ms.sync_token,
        ..Delta::default()
    };
    for entry in ms.entries {
        let url = join(&reply.url, &entry.href);
        if same_resource(&url, calendar) {
            continue;
        }
        if entry.status == 404 {
            delta.removed.push(url);
        } else {
            delta.changed.push(url);
        }
    }
    Ok(Some(delta))
}

/// A member's absolute URL and its ETag.
pub(crate) type Member = (String, Option<String>);

/// Every member and its ETag, by sync-collection from no token when the
/// server has tokens, else by PROPFIND.
pub(crate) fn members(
    dav: &Dav,
    calendar: &str,
    tokens: bool,
) -> Result<(Vec<Member>, Option<String>), String> {
    if tokens {
        let body = r#"<?xml version="1.0" encoding="utf-8"?>
<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"#;
        let (reply, entries, token) = ask(dav, "REPORT", calendar, "0", body)?;
        let list = entries
            .into_iter()
            .filter(|e| e.status != 404)
            .map(|e| (join(&reply.url, &e.href), e.etag))
            .filter(|(url, _)| !same_resource(url, calendar))
            .collect();
        return Ok((list, token));
    }
    let (reply, entries, _) = ask(dav, "PROPFIND", calendar, "1", ETAGS_BODY)?;
    let list = entries
        .into_iter()
        .filter(|e| !e.is_calendar)
        .map(|e| (join(&reply.url, &e.href), e.etag))
        .filter(|(url, _)| !same_resource(url, calendar))
        .collect();
    Ok((list, None))
}

/// One fetched member: its URL, ETag and iCalendar text (`None`: gone).
pub(crate) type Fetched = (String, Option<String>, Option<String>);

/// The data of `hrefs` by calendar-multiget, in batches.
pub(crate) fn multiget(dav: &Dav, calendar: &str, urls: &[String]) -> Result<Vec<Fetched>, String> {
    let mut out = Vec::with_capacity(urls.len());
    for batch in urls.chunks(MULTIGET_BATCH) {
        let hrefs: String = batch
            .iter()
            .map(|u| format!("<d:href>{}</d:href>", escape(path_only(u))))
            .collect();
        let body = format!(
            r#"<?xml version="1.0" encoding="utf-8"?>
<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>{hrefs}</c:calendar-multiget>"#
        );
        let (reply, entries, _) = ask(dav, "REPORT", calendar, "1", &body)?;
        for entry in entries {
            let url = join(&reply.url, &entry.href);
            let data = entry.calendar_data.filter(|_| entry.status != 404);
            out.push((url, entry.etag, data));
        }
    }
    Ok(out)
}

fn path_only(url: &str) -> &str {
    &url[crate::dav::origin(url).len()..]
}

fn same_resource(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}
