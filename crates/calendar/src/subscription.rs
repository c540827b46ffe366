//! Read-only ICS subscriptions: the file fetched with its ETag
//! (`If-None-Match`) and Last-Modified (`If-Modified-Since`), so an
//! unchanged file costs one 304 and no parsing (and a server without
//! validators, whose file hashes as before, no import); a changed one is split into
//! its events grouped by UID (a series and its overrides together) without
//! building the whole file as one tree.

use std::collections::HashMap;

use crate::dav::{Dav, refusal};
use crate::error::CalendarError;
use crate::ics::top_level;

/// What the server answered.
pub(crate) enum Fetch {
    NotModified,
    Changed {
        text: String,
        etag: Option<String>,
        last_modified: Option<String>,
    },
}

pub(crate) fn fetch(
    dav: &Dav,
    url: &str,
    etag: Option<&str>,
    last_modified: Option<&str>,
) -> Result<Fetch, String> {
    let mut headers = vec![("Accept", "text/calendar, */*;q=0.5")];
    if let Some(etag) = etag {
        headers.push(("If-None-Match", etag));
    }
    if let Some(since) = last_modified {
        headers.push(("If-Modified-Since", since));
    }
    let reply = dav.send("GET", url, None, None, &headers)?;
    match reply.status {
        304 => Ok(Fetch::NotModified),
        200 => Ok(Fetch::Changed {
            etag: reply.header("etag").map(str::to_owned),
            last_modified: reply.header("last-modified").map(str::to_owned),
            text: reply.body,
        }),
        _ => Err(refusal(&reply)),
    }
}

/// SHA-256 of a file, in hex.
pub(crate) fn digest(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A subscription's file, split.
pub(crate) struct Split<'a> {
    /// X-WR-CALNAME, when the file names itself.
    pub name: Option<String>,
    /// Every VTIMEZONE block, one after the other.
    pub timezones: String,
    /// Each UID's VEVENT blocks, in UID order.
    pub events: Vec<(String, Vec<&'a str>)>,
}

/// Splits the file; `Err` when it is not iCalendar at all.
pub(crate) fn split(text: &str) -> Result<Split<'_>, CalendarError> {
    let head = text.trim_start_matches('\u{feff}').trim_start();
    if !head
        .get(..15)
        .is_some_and(|h| h.eq_ignore_ascii_case("BEGIN:VCALENDAR"))
    {
        return Err(CalendarError::Ics(
            "the file does not start with BEGIN:VCALENDAR".into(),
        ));
    }
    let mut timezones = String::new();
    let mut by_uid: HashMap<String, Vec<&str>> = HashMap::new();
    let mut unnamed = 0_usize;
    for block in top_level(text) {
        let block = block?;
        match block.name.as_str() {
            "VTIMEZONE" => timezones.push_str(block.text),
            "VEVENT" => {
                let uid = uid_line(block.text).unwrap_or_else(|| {
                    unnamed += 1;
                    format!("no-uid-{unnamed}")
                });
                by_uid.entry(uid).or_default().push(block.text);
            }
            _ => {}
        }
    }
    let mut events: Vec<(String, Vec<&str>)> = by_uid.into_iter().collect();
    events.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(Split {
        name: calendar_name(text),
        timezones,
        events,
    })
}

/// The UID of one VEVENT block, read from its own lines (a UID is short
/// enough never to be folded in practice; a folded one is joined anyway).
fn uid_line(block: &str) -> Option<String> {
    let mut lines = block
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .peekable();
    let mut depth = 0;
    while let Some(line) = lines.next() {
        let upper = line.get(..6).map(str::to_ascii_uppercase);
        match upper.as_deref() {
            Some("BEGIN:") => depth += 1,
            _ if line
                .get(..4)
                .is_some_and(|l| l.eq_ignore_ascii_case("END:")) =>
            {
                depth -= 1
            }
            _ if depth == 1
                && line
                    .get(..4)
                    .is_some_and(|l| l.eq_ignore_ascii_case("UID:")) =>
            {
                let mut uid = line[4..].to_owned();
                while let Some(next) = lines.next_if(|l| l.starts_with([' ', '\t'])) {
                    uid.push_str(&next[1..]);
                }
                let uid = uid.trim().to_owned();
                return (!uid.is_empty()).then_some(uid);
            }
            _ => {}
        }
    }
    None
}

/// X-WR-CALNAME from the calendar's own lines, before its first component.
fn calendar_name(text: &str) -> Option<String> {
    text.split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .take_while(|l| {
            !l.get(..6).is_some_and(|b| b.eq_ignore_ascii_case("BEGIN:"))
                || l.eq_ignore_ascii_case("BEGIN:VCALENDAR")
        })
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("X-WR-CALNAME")
                .then(|| crate::ics::unescape(value.trim()))
        })
        .filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_split_by_uid_with_its_zones_and_name() {
        let text = "BEGIN:VCALENDAR\r\nX-WR-CALNAME:Team\r\nBEGIN:VTIMEZONE\r\nTZID:X\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:b\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:a\r\nBEGIN:VALARM\r\nUID:alarm\r\nEND:VALARM\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nRECURRENCE-ID:20260101T000000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        let split = split(text).unwrap();
        assert_eq!(split.name.as_deref(), Some("Team"));
        assert!(split.timezones.contains("TZID:X"));
        let uids: Vec<(&str, usize)> = split
            .events
            .iter()
            .map(|(u, b)| (u.as_str(), b.len()))
            .collect();
        assert_eq!(uids, [("a", 1), ("b", 2)]);
    }

    #[test]
    fn a_file_that_is_not_icalendar_is_refused() {
        assert!(split("<html>not a calendar</html>").is_err());
        assert!(split("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\n").is_err());
    }
}
