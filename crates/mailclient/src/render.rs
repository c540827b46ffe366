//! One message's raw RFC 822 bytes as the reading pane shows it: who and
//! when, the text, the sanitized HTML, the attachments, and what was wrong
//! with it when its MIME is broken. Never fails: a message mail-parser
//! cannot read is still shown, as text.

use std::collections::{HashMap, HashSet};

use mail_parser::{HeaderValue, Message, MessageParser, MessagePart, MimeHeaders, PartType};
use serde::Serialize;

use crate::sanitize::{RenderOptions, sanitize_html, text_to_html};

/// One mailbox of a header field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Address {
    pub name: Option<String>,
    pub address: String,
}

impl Address {
    pub fn new(name: Option<&str>, address: &str) -> Self {
        Address {
            name: name.map(str::to_owned).filter(|n| !n.trim().is_empty()),
            address: address.trim().to_owned(),
        }
    }
}

/// A part the reader can open or download.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PartInfo {
    /// The part's index in the message (stable for the same bytes): what
    /// [`part`] and [`RenderOptions::part_url`] take.
    pub id: String,
    pub name: Option<String>,
    pub content_type: String,
    /// Decoded bytes.
    pub size: usize,
    /// Shown in the body (a `cid:` image, `Content-Disposition: inline`)
    /// rather than only offered as a download.
    pub inline: bool,
    /// Without angle brackets.
    pub content_id: Option<String>,
}

/// A message ready to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rendered {
    pub from: Option<Address>,
    pub reply_to: Vec<Address>,
    pub to: Vec<Address>,
    pub cc: Vec<Address>,
    /// Seconds since the Unix epoch.
    pub date: Option<i64>,
    pub subject: String,
    /// Bare (no angle brackets), like every id here.
    pub message_id: Option<String>,
    pub references: Vec<String>,
    pub text: String,
    /// Sanitized; text-only mail rendered as HTML. Show it only in a frame
    /// served with [`crate::content_security_policy`].
    pub html: String,
    pub attachments: Vec<PartInfo>,
    /// Distinct remote image URLs in the HTML (blocked when the options
    /// said so).
    pub remote_images: usize,
    /// What is broken in the MIME structure; the message is then shown as
    /// text with all its parts listed.
    pub malformed: Option<String>,
}

/// A part's decoded bytes, to serve it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartBytes {
    pub content_type: String,
    pub name: Option<String>,
    pub bytes: Vec<u8>,
}

/// Renders a raw message.
pub fn render(raw: &[u8], options: &RenderOptions<'_>) -> Rendered {
    let parsed = MessageParser::default()
        .parse(raw)
        .filter(|m| !m.root_part().headers().is_empty());
    let Some(message) = parsed else {
        let text = String::from_utf8_lossy(raw).into_owned();
        return Rendered {
            from: None,
            reply_to: Vec::new(),
            to: Vec::new(),
            cc: Vec::new(),
            date: None,
            subject: String::new(),
            message_id: None,
            references: Vec::new(),
            html: text_to_html(&text),
            text,
            attachments: Vec::new(),
            remote_images: 0,
            malformed: Some("not a MIME message: no header could be read".to_owned()),
        };
    };
    let malformed = malformed(&message, raw);
    let body_parts: HashSet<u32> = message
        .text_body
        .iter()
        .chain(&message.html_body)
        .copied()
        .filter(|&id| {
            message
                .part(id)
                .is_some_and(|p| matches!(p.body, PartType::Text(_) | PartType::Html(_)))
        })
        .collect();
    let attachments: Vec<PartInfo> = message
        .parts
        .iter()
        .enumerate()
        .filter(|(id, p)| {
            !matches!(p.body, PartType::Multipart(_))
                && (*id != 0 || malformed.is_some())
                && (malformed.is_some() || !body_parts.contains(&(*id as u32)))
        })
        .map(|(id, p)| part_info(id, p))
        .collect();
    let text = text_of(&message);
    let html_part = message
        .html_body
        .first()
        .and_then(|&id| message.part(id))
        .and_then(|p| match &p.body {
            PartType::Html(html) => Some(html.as_ref()),
            _ => None,
        });
    let (html, remote_images) = match (html_part, &malformed) {
        (Some(html), None) => {
            let cids = attachments
                .iter()
                .filter_map(|a| Some((a.content_id.clone()?, a.id.clone())))
                .collect::<HashMap<_, _>>();
            let sanitized = sanitize_html(html, options, &cids);
            (sanitized.html, sanitized.remote_images)
        }
        _ => (text_to_html(&text), 0),
    };
    Rendered {
        from: message
            .from()
            .and_then(|a| addresses(Some(a)).into_iter().next()),
        reply_to: addresses(message.reply_to()),
        to: addresses(message.to()),
        cc: addresses(message.cc()),
        date: message.date().map(|d| d.to_timestamp()),
        subject: message.subject().unwrap_or_default().to_owned(),
        message_id: message.message_id().and_then(mail::bare_id),
        references: ids(message.references()),
        text,
        html,
        attachments,
        remote_images,
        malformed,
    }
}

/// The decoded bytes of part `id` (a [`PartInfo::id`]) of a raw message.
pub fn part(raw: &[u8], id: &str) -> Option<PartBytes> {
    let message = MessageParser::default().parse(raw)?;
    let part = message.part(id.parse().ok()?)?;
    let bytes = match &part.body {
        PartType::Text(text) | PartType::Html(text) => text.as_bytes().to_vec(),
        PartType::Binary(bytes) | PartType::InlineBinary(bytes) => bytes.to_vec(),
        PartType::Message(inner) => inner.raw_message().to_vec(),
        PartType::Multipart(_) => return None,
    };
    Some(PartBytes {
        content_type: content_type(part),
        name: part.attachment_name().map(str::to_owned),
        bytes,
    })
}

pub(crate) fn addresses(list: Option<&mail_parser::Address<'_>>) -> Vec<Address> {
    list.map(|list| {
        list.iter()
            .filter_map(|a| Some(Address::new(a.name(), a.address()?)))
            .filter(|a| !a.address.is_empty())
            .collect()
    })
    .unwrap_or_default()
}

pub(crate) fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(id) => mail::bare_id(id).into_iter().collect(),
        HeaderValue::TextList(list) => list.iter().filter_map(|id| mail::bare_id(id)).collect(),
        _ => Vec::new(),
    }
}

fn text_of(message: &Message<'_>) -> String {
    if let Some(text) = message.body_text(0) {
        return text.into_owned();
    }
    let root = message.root_part();
    String::from_utf8_lossy(
        message
            .raw_message()
            .get(root.offset_body as usize..)
            .unwrap_or_default(),
    )
    .into_owned()
}

fn part_info(id: usize, part: &MessagePart<'_>) -> PartInfo {
    let size = match &part.body {
        PartType::Text(text) | PartType::Html(text) => text.len(),
        PartType::Binary(bytes) | PartType::InlineBinary(bytes) => bytes.len(),
        PartType::Message(inner) => inner.raw_message().len(),
        PartType::Multipart(_) => 0,
    };
    let content_id = part
        .content_id()
        .map(|id| {
            id.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_owned()
        })
        .filter(|id| !id.is_empty());
    let disposition_inline = part.content_disposition().is_some_and(|d| d.is_inline());
    PartInfo {
        id: id.to_string(),
        name: part.attachment_name().map(str::to_owned),
        content_type: content_type(part),
        size,
        inline: matches!(part.body, PartType::InlineBinary(_))
            || disposition_inline
            || content_id.is_some()
                && !part
                    .content_disposition()
                    .is_some_and(|d| d.is_attachment()),
        content_id,
    }
}

fn content_type(part: &MessagePart<'_>) -> String {
    match part.content_type() {
        Some(ct) => match ct.subtype() {
            Some(sub) => format!("{}/{}", ct.ctype(), sub).to_ascii_lowercase(),
            None => ct.ctype().to_ascii_lowercase(),
        },
        None => match part.body {
            PartType::Html(_) => "text/html".to_owned(),
            PartType::Text(_) => "text/plain".to_owned(),
            PartType::Message(_) => "message/rfc822".to_owned(),
            _ => "application/octet-stream".to_owned(),
        },
    }
}

/// Charsets mail-parser decodes without its table.
const NATIVE_CHARSETS: [&str; 4] = ["utf-8", "utf8", "us-ascii", "ascii"];

/// What is broken: a multipart without its boundaries, a part that could not
/// be decoded, a charset nobody knows.
fn malformed(message: &Message<'_>, raw: &[u8]) -> Option<String> {
    let mut notes = Vec::new();
    for (id, part) in message.parts.iter().enumerate() {
        let ct = part.content_type();
        if let PartType::Multipart(_) = part.body {
            let boundary = ct.and_then(|ct| ct.attribute("boundary"));
            match boundary {
                None => notes.push(format!("part {id}: a multipart without a boundary")),
                Some(b) if !contains(raw, format!("--{b}").as_bytes()) => {
                    notes.push(format!("part {id}: its boundary never occurs"))
                }
                Some(b) if !contains(raw, format!("--{b}--").as_bytes()) => notes.push(format!(
                    "part {id}: truncated, the closing boundary is missing"
                )),
                Some(_) => {}
            }
        } else if part.is_encoding_problem {
            notes.push(format!("part {id}: could not be decoded"));
        }
        if let Some(charset) = ct.and_then(|ct| ct.attribute("charset")) {
            let lower = charset.trim().to_ascii_lowercase();
            if !NATIVE_CHARSETS.contains(&lower.as_str())
                && mail_parser::decoders::charsets::map::charset_decoder(lower.as_bytes()).is_none()
            {
                notes.push(format!(
                    "part {id}: unknown charset {charset:?}, read as UTF-8"
                ));
            }
        }
    }
    (!notes.is_empty()).then(|| notes.join("; "))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
