//! Reading what sync fetched of one message (its header fields and the
//! first bytes of its text) into the row the store keeps.

use mail_parser::{Address, HeaderValue, MessageParser};

/// The header fields sync asks for: what the thread list shows, what
/// threading needs, what reading the preview's MIME needs, and what Email
/// Cleanup and the spam check read without fetching the message.
pub const FIELDS: &str = "MESSAGE-ID IN-REPLY-TO REFERENCES SUBJECT FROM TO CC DATE CONTENT-TYPE \
     CONTENT-TRANSFER-ENCODING LIST-ID LIST-UNSUBSCRIBE LIST-UNSUBSCRIBE-POST AUTHENTICATION-RESULTS";
/// How much of the text sync fetches for the preview.
pub const PREVIEW_BYTES: u32 = 2048;
/// How many characters of text the preview keeps.
pub const PREVIEW_CHARS: usize = 200;

/// One message as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    pub uid: u32,
    /// Bare (no angle brackets).
    pub message_id: Option<String>,
    pub in_reply_to: Option<String>,
    /// Oldest first, bare.
    pub references: Vec<String>,
    pub subject: String,
    /// `Name <address>`, or the address alone.
    pub from: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    /// Seconds since the Unix epoch, from the Date header.
    pub date: Option<i64>,
    /// When the server received it (INTERNALDATE), Unix seconds.
    pub received: Option<i64>,
    /// IMAP flags as the server spells them (`\Seen`, `$Label1`).
    pub flags: Vec<String>,
    pub size: u32,
    pub preview: String,
    /// The fetched header fields ([`FIELDS`]) as the server sent them.
    pub fields: Vec<u8>,
}

impl Header {
    /// When the message sorts in its thread list: its Date, but never
    /// later than its arrival, so a forged future Date cannot pin it on top.
    pub fn activity(&self) -> i64 {
        match (self.date, self.received) {
            (Some(date), Some(received)) => date.min(received),
            (date, received) => date.or(received).unwrap_or(0),
        }
    }

    pub fn is_unread(&self) -> bool {
        !self.flags.iter().any(|f| f.eq_ignore_ascii_case("\\Seen"))
    }

    pub fn is_starred(&self) -> bool {
        self.flags
            .iter()
            .any(|f| f.eq_ignore_ascii_case("\\Flagged"))
    }
}

/// Reads `header` (the fetched header fields) and `text` (the start of the
/// body). Mail too broken to parse still gets a row, with what was read.
pub fn read(
    uid: u32,
    flags: Vec<String>,
    size: u32,
    received: Option<i64>,
    header: &[u8],
    text: &[u8],
) -> Header {
    let mut raw = Vec::with_capacity(header.len() + text.len() + 2);
    raw.extend_from_slice(header);
    if !header.ends_with(b"\r\n\r\n") && !header.ends_with(b"\n\n") {
        raw.extend_from_slice(b"\r\n");
    }
    raw.extend_from_slice(text);
    let mut row = Header {
        uid,
        flags,
        size,
        received,
        fields: header.to_vec(),
        ..Header::default()
    };
    let Some(message) = MessageParser::default().parse(&raw) else {
        return row;
    };
    row.message_id = message.message_id().and_then(mail::bare_id);
    row.in_reply_to = ids(message.in_reply_to()).pop();
    row.references = ids(message.references());
    row.subject = message.subject().unwrap_or_default().to_owned();
    row.from = addresses(message.from())
        .into_iter()
        .next()
        .unwrap_or_default();
    row.to = addresses(message.to());
    row.cc = addresses(message.cc());
    row.date = message.date().map(|d| d.to_timestamp());
    let text = message
        .body_text(0)
        .map(|t| t.into_owned())
        .unwrap_or_default();
    row.preview = preview(&text);
    row
}

/// The first [`PREVIEW_CHARS`] characters of `text`, whitespace folded,
/// quoted lines left out.
pub fn preview(text: &str) -> String {
    let words = text
        .lines()
        .filter(|line| !line.trim_start().starts_with('>'))
        .flat_map(str::split_whitespace);
    let mut out = String::new();
    for word in words {
        if out.chars().count() + word.chars().count() + 1 > PREVIEW_CHARS {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(id) => mail::bare_id(id).into_iter().collect(),
        HeaderValue::TextList(list) => list.iter().filter_map(|id| mail::bare_id(id)).collect(),
        _ => Vec::new(),
    }
}

fn addresses(address: Option<&Address<'_>>) -> Vec<String> {
    let Some(address) = address else {
        return Vec::new();
    };
    address
        .iter()
        .filter_map(|a| match (a.name(), a.address()) {
            (Some(name), Some(at)) => Some(format!("{name} <{at}>")),
            (None, Some(at)) => Some(at.to_owned()),
            (Some(name), None) => Some(name.to_owned()),
            (None, None) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields_and_a_preview_from_a_truncated_multipart() {
        let header = b"Message-ID: <c@x>\r\nIn-Reply-To: <b@x>\r\nReferences: <a@x> <b@x>\r\n\
Subject: Re: plan\r\nFrom: Ann <ann@x.test>\r\nTo: bo@x.test, Cy <cy@x.test>\r\n\
Date: Tue, 1 Jul 2025 10:00:00 +0000\r\nContent-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n";
        let text = b"--b1\r\nContent-Type: text/plain\r\n\r\nSee you\r\n> quoted\r\nat   noon\r\n--b1\r\nContent-Type: text/ht";
        let row = read(7, vec!["\\Seen".to_owned()], 900, None, header, text);
        assert_eq!(row.message_id.as_deref(), Some("c@x"));
        assert_eq!(row.in_reply_to.as_deref(), Some("b@x"));
        assert_eq!(row.references, ["a@x", "b@x"]);
        assert_eq!(row.from, "Ann <ann@x.test>");
        assert_eq!(row.to, ["bo@x.test", "Cy <cy@x.test>"]);
        assert_eq!(row.date, Some(1_751_364_000));
        assert_eq!(row.preview, "See you at noon");
    }

    #[test]
    fn garbage_still_makes_a_row() {
        let row = read(3, Vec::new(), 5, None, b"\xff\xfe", b"");
        assert_eq!(row.uid, 3);
    }
}
