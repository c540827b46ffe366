//! Writing mail: a draft in Markdown becomes an RFC 822 message (the
//! Markdown as its text part, its HTML rendering as the other), threaded
//! under its parent, with the reply and forward conventions people expect
//! (one "Re: ", reply-all without oneself) and attachments within limits.

use std::collections::HashSet;

use mail_parser::{MessageParser, MimeHeaders, PartType};
use serde::Serialize;

use crate::render::{Address, Rendered, ids};

/// The largest single attachment sent, in bytes (what common providers
/// accept once base64 has grown it by a third).
pub const MAX_ATTACHMENT_BYTES: usize = 25 * 1024 * 1024;
/// The largest total of a message's attachments, in bytes.
pub const MAX_TOTAL_ATTACHMENT_BYTES: usize = 35 * 1024 * 1024;
/// How many Message-IDs `References` keeps: the thread's first and the
/// latest ones, as RFC 5322 section 3.6.4 leaves it to clients and RFC 5537
/// section 3.4.4 describes (long headers are refused by some servers).
pub const MAX_REFERENCES: usize = 20;

/// What a reply needs of the message it answers.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Parent {
    /// Bare (no angle brackets).
    pub message_id: Option<String>,
    /// Bare, oldest first.
    pub references: Vec<String>,
    pub subject: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingAttachment {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// A message being written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub from: Address,
    pub to: Vec<Address>,
    pub cc: Vec<Address>,
    pub bcc: Vec<Address>,
    /// As the person typed it: [`reply_subject`] and [`forward_subject`]
    /// give the usual prefixes.
    pub subject: String,
    pub markdown: String,
    pub in_reply_to: Option<Parent>,
    pub attachments: Vec<OutgoingAttachment>,
}

/// Where the built message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// To SMTP (and Sent): no `Bcc` header, the blind copies are only in
    /// [`Composed::recipients`].
    Send,
    /// To the Drafts folder: `Bcc` kept so the draft reopens whole.
    Draft,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    pub bytes: Vec<u8>,
    /// Bare.
    pub message_id: String,
    pub envelope_from: String,
    /// To, Cc and Bcc, each address once, for the SMTP envelope.
    pub recipients: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ComposeError {
    #[error("attachment {name:?} is {size} bytes, over the limit of {limit} bytes")]
    AttachmentTooLarge {
        name: String,
        size: usize,
        limit: usize,
    },
    #[error("the attachments total {total} bytes, over the limit of {limit} bytes")]
    AttachmentsTooLarge { total: usize, limit: usize },
    #[error("the message has no recipient")]
    NoRecipients,
    #[error("{0:?} is not a mail address")]
    BadAddress(String),
    #[error("building the message: {0}")]
    Build(#[from] std::io::Error),
}

/// Builds `draft` dated `date` (seconds since the Unix epoch, from the
/// injectable clock), with a fresh Message-ID on the sender's domain.
pub fn compose(draft: &Draft, date: i64, purpose: Purpose) -> Result<Composed, ComposeError> {
    check_attachments(&draft.attachments)?;
    for address in std::iter::once(&draft.from)
        .chain(&draft.to)
        .chain(&draft.cc)
        .chain(&draft.bcc)
    {
        if !is_address(&address.address) {
            return Err(ComposeError::BadAddress(address.address.clone()));
        }
    }
    let mut seen = HashSet::new();
    let recipients: Vec<String> = draft
        .to
        .iter()
        .chain(&draft.cc)
        .chain(&draft.bcc)
        .filter(|a| seen.insert(a.address.to_ascii_lowercase()))
        .map(|a| a.address.clone())
        .collect();
    if recipients.is_empty() && purpose == Purpose::Send {
        return Err(ComposeError::NoRecipients);
    }
    let domain = draft
        .from
        .address
        .rsplit_once('@')
        .map_or("localhost", |(_, domain)| domain);
    let message_id = format!("{}@{domain}", uuid::Uuid::new_v4().simple());
    let mut builder = mail_builder::MessageBuilder::new()
        .from(builder_address(&draft.from))
        .subject(one_line(&draft.subject))
        .message_id(message_id.clone())
        .date(date)
        .text_body(draft.markdown.clone())
        .html_body(format!(
            "<!DOCTYPE html><html><body>{}</body></html>",
            markdown_to_html(&draft.markdown)
        ));
    if !draft.to.is_empty() {
        builder = builder.to(builder_addresses(&draft.to));
    }
    if !draft.cc.is_empty() {
        builder = builder.cc(builder_addresses(&draft.cc));
    }
    if purpose == Purpose::Draft && !draft.bcc.is_empty() {
        builder = builder.bcc(builder_addresses(&draft.bcc));
    }
    if let Some(parent) = &draft.in_reply_to {
        if let Some(id) = &parent.message_id {
            builder = builder.in_reply_to(id.clone());
        }
        let references = references(parent);
        if !references.is_empty() {
            builder = builder.references(references);
        }
    }
    for attachment in &draft.attachments {
        builder = builder.attachment(
            attachment.content_type.clone(),
            one_line(&attachment.name),
            attachment.bytes.as_slice(),
        );
    }
    Ok(Composed {
        bytes: builder.write_to_vec()?,
        message_id,
        envelope_from: draft.from.address.clone(),
        recipients,
    })
}

/// Refuses an attachment over [`MAX_ATTACHMENT_BYTES`] (naming it) or a
/// total over [`MAX_TOTAL_ATTACHMENT_BYTES`]: callers check uploads with it
/// before holding a draft.
pub fn check_attachments(attachments: &[OutgoingAttachment]) -> Result<(), ComposeError> {
    if let Some(big) = attachments
        .iter()
        .find(|a| a.bytes.len() > MAX_ATTACHMENT_BYTES)
    {
        return Err(ComposeError::AttachmentTooLarge {
            name: big.name.clone(),
            size: big.bytes.len(),
            limit: MAX_ATTACHMENT_BYTES,
        });
    }
    let total: usize = attachments.iter().map(|a| a.bytes.len()).sum();
    if total > MAX_TOTAL_ATTACHMENT_BYTES {
        return Err(ComposeError::AttachmentsTooLarge {
            total,
            limit: MAX_TOTAL_ATTACHMENT_BYTES,
        });
    }
    Ok(())
}

/// Markdown as sanitized HTML (CommonMark with tables and strikethrough;
/// raw HTML in it is cleaned, not trusted).
pub fn markdown_to_html(markdown: &str) -> String {
    use pulldown_cmark::{Options, Parser, html};
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH,
    );
    let mut out = String::new();
    html::push_html(&mut out, parser);
    ammonia::Builder::default()
        .url_relative(ammonia::UrlRelative::Deny)
        .link_rel(Some("noopener noreferrer"))
        .clean(&out)
        .to_string()
}

/// The subject of a reply: one "Re: " before the subject without its
/// reply prefixes (`Re:`, `RE:`, `Re[2]:`, `Aw:`, `Sv:`), so no "Re: Re:".
pub fn reply_subject(subject: &str) -> String {
    format!(
        "Re: {}",
        strip_prefixes(subject, &["re", "aw", "sv", "antw"])
    )
}

/// The subject of a forward: one "Fwd: ", the same way.
pub fn forward_subject(subject: &str) -> String {
    format!("Fwd: {}", strip_prefixes(subject, &["fwd", "fw"]))
}

fn strip_prefixes<'s>(subject: &'s str, prefixes: &[&str]) -> &'s str {
    let mut rest = subject.trim();
    loop {
        let Some(colon) = rest.find(':') else {
            return rest;
        };
        let word = rest[..colon].trim();
        let word = match word.find('[') {
            Some(bracket)
                if word.ends_with(']')
                    && word[bracket + 1..word.len() - 1]
                        .chars()
                        .all(|c| c.is_ascii_digit()) =>
            {
                &word[..bracket]
            }
            _ => word,
        };
        if !prefixes.iter().any(|p| p.eq_ignore_ascii_case(word)) {
            return rest;
        }
        rest = rest[colon + 1..].trim_start();
    }
}

/// A reply's `References`: the parent's, then the parent's Message-ID;
/// when that is more than [`MAX_REFERENCES`], the first (the thread's
/// root) and the latest ones.
pub fn references(parent: &Parent) -> Vec<String> {
    let mut all: Vec<String> = parent.references.clone();
    if let Some(id) = &parent.message_id
        && all.last() != Some(id)
    {
        all.push(id.clone());
    }
    if all.len() > MAX_REFERENCES {
        let tail = all.split_off(all.len() - (MAX_REFERENCES - 1));
        all.truncate(1);
        all.extend(tail);
    }
    all
}

/// Who a reply goes to: `Reply-To`, else `From`.
pub fn reply_to(parent: &Rendered) -> Vec<Address> {
    if parent.reply_to.is_empty() {
        parent.from.iter().cloned().collect()
    } else {
        parent.reply_to.clone()
    }
}

/// Reply-all's `(to, cc)`: the sender (or `Reply-To`) and the parent's
/// `To`, then its `Cc`; each address once, none of `me` (the account's
/// addresses). Answering one's own message goes to its recipients again.
pub fn reply_all(parent: &Rendered, me: &[String]) -> (Vec<Address>, Vec<Address>) {
    let mut seen: HashSet<String> = me.iter().map(|a| a.trim().to_ascii_lowercase()).collect();
    let mut keep = |list: Vec<Address>| -> Vec<Address> {
        list.into_iter()
            .filter(|a| seen.insert(a.address.to_ascii_lowercase()))
            .collect()
    };
    let to = keep(
        reply_to(parent)
            .into_iter()
            .chain(parent.to.clone())
            .collect(),
    );
    let cc = keep(parent.cc.clone());
    (to, cc)
}

/// What a reply needs of a raw message.
pub fn parent_of(raw: &[u8]) -> Option<Parent> {
    let message = MessageParser::default().parse(raw)?;
    Some(Parent {
        message_id: message.message_id().and_then(mail::bare_id),
        references: ids(message.references()),
        subject: message.subject().unwrap_or_default().to_owned(),
    })
}

/// A raw message's attachments (every part that is not its text or HTML
/// body), to forward them.
pub fn forwarded_attachments(raw: &[u8]) -> Vec<OutgoingAttachment> {
    let Some(message) = MessageParser::default().parse(raw) else {
        return Vec::new();
    };
    let bodies: HashSet<u32> = message
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
    message
        .parts
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(id, _)| !bodies.contains(&(*id as u32)))
        .filter_map(|(id, part)| {
            let info = crate::render::part(message.raw_message(), &id.to_string())?;
            let name = part
                .attachment_name()
                .map(str::to_owned)
                .or(info.name)
                .unwrap_or_else(|| format!("part-{id}"));
            Some(OutgoingAttachment {
                name,
                content_type: info.content_type,
                bytes: info.bytes,
            })
        })
        .collect()
}

fn builder_address(address: &Address) -> mail_builder::headers::address::Address<'static> {
    match &address.name {
        Some(name) => (one_line(name), address.address.clone()).into(),
        None => address.address.clone().into(),
    }
}

fn builder_addresses(list: &[Address]) -> mail_builder::headers::address::Address<'static> {
    list.iter().map(builder_address).collect::<Vec<_>>().into()
}

/// Header text on one line: a CR or LF from a form would start a header.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn is_address(address: &str) -> bool {
    let Some((local, domain)) = address.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.is_empty()
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && address
            .chars()
            .all(|c| c.is_ascii_graphic() && !"<>()[],;:\\\"".contains(c) || !c.is_ascii())
}
