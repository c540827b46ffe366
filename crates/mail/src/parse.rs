//! Reading one mail (RFC 822 bytes, as IMAP hands it over) into what the app
//! needs: who sent it, the thread headers, the text, the attachments with
//! names safe to write into a session's folder, and whether it was sent by
//! a machine (never to be answered, so two auto-responders cannot loop).

use std::collections::HashSet;

use mail_parser::{HeaderValue, MessageParser, MimeHeaders};
use time::OffsetDateTime;

use crate::MailError;

/// The longest attachment name kept, in characters (the extension is kept).
pub const MAX_ATTACHMENT_NAME_CHARS: usize = 100;

#[derive(Debug, Clone, PartialEq)]
pub struct Mail {
    /// The sender's address as written (compare with [`crate::is_approved`]).
    pub from: Option<String>,
    pub from_name: Option<String>,
    /// Where an answer goes: `Reply-To` when present, else `From`.
    pub reply_to: Option<String>,
    /// The addresses it was sent to (`To`, then `Cc`).
    pub to: Vec<String>,
    pub subject: String,
    /// Without angle brackets, as all Message-IDs here.
    pub message_id: Option<String>,
    pub in_reply_to: Vec<String>,
    pub references: Vec<String>,
    pub date: Option<OffsetDateTime>,
    /// `text/plain` when the mail has it, else its HTML turned into text.
    pub text: String,
    pub attachments: Vec<Attachment>,
    /// Why this mail came from a machine (auto-reply, bulk, list, bounce);
    /// such a mail is never answered.
    pub automated: Option<String>,
    /// What the receiving server's `Authentication-Results` says failed
    /// (`dmarc=fail`, `spf=fail`, `dkim=fail`): its `From` may be forged.
    pub failed_authentication: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Attachment {
    /// Safe as a file name: no separators, no `..`, no leading dot, unique
    /// within the mail.
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// Reads a raw RFC 822 message.
pub fn parse(raw: &[u8]) -> Result<Mail, MailError> {
    let message = MessageParser::default()
        .parse(raw)
        .ok_or(MailError::NotAMessage)?;
    if message.root_part().headers().is_empty() {
        return Err(MailError::NotAMessage);
    }
    let sender = message.from().and_then(|list| list.first());
    let from = sender.and_then(|m| m.address()).map(str::to_owned);
    let from_name = sender.and_then(|m| m.name()).map(str::to_owned);
    let reply_to = message
        .reply_to()
        .and_then(|list| list.first())
        .and_then(|m| m.address().map(str::to_owned))
        .or_else(|| from.clone());
    let ids = |value: &HeaderValue<'_>| -> Vec<String> {
        match value {
            HeaderValue::Text(id) => bare_id(id).into_iter().collect(),
            HeaderValue::TextList(list) => list.iter().filter_map(|id| bare_id(id)).collect(),
            _ => Vec::new(),
        }
    };
    let raw_header =
        |name: &str| -> Option<String> { message.header_raw(name).map(|v| v.trim().to_owned()) };
    let mut taken = HashSet::new();
    let attachments = message
        .attachments()
        .map(|part| {
            let content_type = part
                .content_type()
                .map(|ct| match ct.subtype() {
                    Some(sub) => format!("{}/{}", ct.ctype(), sub),
                    None => ct.ctype().to_owned(),
                })
                .unwrap_or_else(|| "application/octet-stream".to_owned());
            Attachment {
                name: unique_name(&sanitize_name(part.attachment_name()), &mut taken),
                content_type,
                bytes: part.contents().to_vec(),
            }
        })
        .collect();
    let automated = automated_reason(&raw_header, from.as_deref());
    let failed_authentication = failed_authentication(&raw_header);
    let to = [message.to(), message.cc()]
        .into_iter()
        .flatten()
        .flat_map(|list| list.iter())
        .filter_map(|m| m.address().map(str::to_owned))
        .collect();
    Ok(Mail {
        to,
        subject: message.subject().unwrap_or_default().trim().to_owned(),
        message_id: message.message_id().and_then(bare_id),
        in_reply_to: ids(message.in_reply_to()),
        references: ids(message.references()),
        date: message
            .date()
            .and_then(|d| OffsetDateTime::from_unix_timestamp(d.to_timestamp()).ok()),
        text: message
            .body_text(0)
            .map(|t| t.into_owned())
            .unwrap_or_default(),
        attachments,
        automated,
        failed_authentication,
        from,
        from_name,
        reply_to,
    })
}

/// A Message-ID without its angle brackets; `None` when nothing is left.
pub fn bare_id(id: &str) -> Option<String> {
    let id = id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim();
    (!id.is_empty()).then(|| id.to_owned())
}

/// RFC 3834's signs of a machine-sent mail, and the usual ones of lists and
/// bounces.
/// The topmost `Authentication-Results`, the one the receiving server
/// added, read for a failure. A sender can add its own header further down,
/// but none above the receiver's, and a claimed pass is never trusted: only
/// a failure counts.
fn failed_authentication(header: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let results = header("Authentication-Results")?.to_ascii_lowercase();
    ["dmarc=fail", "spf=fail", "dkim=fail"]
        .into_iter()
        .find(|failure| results.contains(failure))
        .map(str::to_owned)
}

fn automated_reason(header: &dyn Fn(&str) -> Option<String>, from: Option<&str>) -> Option<String> {
    if let Some(value) = header("Auto-Submitted")
        && !value.eq_ignore_ascii_case("no")
    {
        return Some(format!("Auto-Submitted: {value}"));
    }
    if let Some(value) = header("Precedence")
        && ["bulk", "junk", "list", "auto_reply"]
            .iter()
            .any(|p| value.eq_ignore_ascii_case(p))
    {
        return Some(format!("Precedence: {value}"));
    }
    for name in [
        "List-Id",
        "List-Unsubscribe",
        "X-Autoreply",
        "X-Autorespond",
    ] {
        if header(name).is_some() {
            return Some(format!("has a {name} header"));
        }
    }
    if header("Return-Path").is_some_and(|v| v == "<>") {
        return Some("a bounce (empty Return-Path)".to_owned());
    }
    let local = from.and_then(|f| f.split('@').next()).unwrap_or_default();
    ["mailer-daemon", "postmaster", "noreply", "no-reply"]
        .iter()
        .any(|l| local.eq_ignore_ascii_case(l))
        .then(|| format!("sent from {local}"))
}

/// A name that can only mean a file directly inside the session's folder.
pub fn sanitize_name(name: Option<&str>) -> String {
    let base = name
        .unwrap_or_default()
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default();
    let mut clean = String::new();
    for c in base.chars() {
        let c = if c.is_control() || matches!(c, ':' | '*' | '?' | '"' | '<' | '>' | '|') {
            '_'
        } else {
            c
        };
        if c == '.' && clean.ends_with('.') {
            continue;
        }
        clean.push(c);
    }
    let clean = clean
        .trim()
        .trim_start_matches(['.', ' '])
        .trim_end_matches(['.', ' ']);
    let clean = if clean.is_empty() {
        "attachment"
    } else {
        clean
    };
    shorten(clean)
}

fn shorten(name: &str) -> String {
    if name.chars().count() <= MAX_ATTACHMENT_NAME_CHARS {
        return name.to_owned();
    }
    let (stem, ext) = split_extension(name);
    let ext: String = ext.chars().take(20).collect();
    let keep = MAX_ATTACHMENT_NAME_CHARS - ext.chars().count();
    format!("{}{ext}", stem.chars().take(keep).collect::<String>())
}

/// `("report", ".pdf")`; a name without a dot has no extension.
fn split_extension(name: &str) -> (&str, &str) {
    match name.rfind('.') {
        Some(at) if at > 0 => name.split_at(at),
        _ => (name, ""),
    }
}

/// The name, or `stem-2.ext`, `stem-3.ext`, … when a file of the mail
/// already has it (compared without regard to case, as some disks do).
fn unique_name(name: &str, taken: &mut HashSet<String>) -> String {
    let (stem, ext) = split_extension(name);
    let mut candidate = name.to_owned();
    let mut n = 2;
    while !taken.insert(candidate.to_lowercase()) {
        candidate = format!("{stem}-{n}{ext}");
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(extra_headers: &str, body: &str) -> Vec<u8> {
        format!(
            "From: Ann <Ann@Example.com>\r\nTo: agent@example.com\r\nSubject: Hello\r\n\
             Message-ID: <m1@example.com>\r\nIn-Reply-To: <r0@example.com>\r\n\
             References: <a@x> <r0@example.com>\r\nDate: Mon, 05 Jan 2026 09:00:00 +0000\r\n\
             {extra_headers}\r\n{body}"
        )
        .into_bytes()
    }

    #[test]
    fn a_failure_the_receiving_server_found_is_kept() {
        let read = |extra: &str| {
            parse(format!("{extra}From: ann@example.com\r\nSubject: s\r\n\r\nhi\r\n").as_bytes())
                .unwrap()
                .failed_authentication
        };
        assert_eq!(read(""), None);
        assert_eq!(
            read("Authentication-Results: mx.example.net; spf=pass; dmarc=pass\r\n"),
            None
        );
        assert_eq!(
            read("Authentication-Results: mx.example.net; spf=softfail; DMARC=FAIL header.from=example.com\r\n")
                .as_deref(),
            Some("dmarc=fail")
        );
    }

    #[test]
    fn the_recipients_are_to_then_cc() {
        let mail = parse(
            b"From: ann@example.com\r\nTo: Bugs <bugs@example.com>, agent@example.com\r\n\
              Cc: lead@example.com\r\nSubject: s\r\n\r\nhi\r\n",
        )
        .unwrap();
        assert_eq!(
            mail.to,
            ["bugs@example.com", "agent@example.com", "lead@example.com"]
        );
    }

    #[test]
    fn headers_and_text_are_read() {
        let got = parse(&mail("", "Please look at it.\r\n")).unwrap();
        assert_eq!(got.from.as_deref(), Some("Ann@Example.com"));
        assert_eq!(got.from_name.as_deref(), Some("Ann"));
        assert_eq!(got.reply_to.as_deref(), Some("Ann@Example.com"));
        assert_eq!(got.subject, "Hello");
        assert_eq!(got.message_id.as_deref(), Some("m1@example.com"));
        assert_eq!(got.in_reply_to, ["r0@example.com"]);
        assert_eq!(got.references, ["a@x", "r0@example.com"]);
        assert_eq!(got.date.unwrap().unix_timestamp(), 1_767_603_600);
        assert_eq!(got.text.trim(), "Please look at it.");
        assert_eq!(got.automated, None);
        assert!(parse(b"").is_err());
    }

    #[test]
    fn html_only_mail_becomes_text() {
        let got = parse(&mail(
            "Content-Type: text/html; charset=utf-8\r\n",
            "<html><body><p>Run the <b>tests</b></p></body></html>\r\n",
        ))
        .unwrap();
        assert!(got.text.contains("Run the tests"), "{:?}", got.text);
        assert!(!got.text.contains('<'));
    }

    #[test]
    fn machine_mail_is_flagged() {
        for (header, reason) in [
            ("Auto-Submitted: auto-replied\r\n", "Auto-Submitted"),
            ("Precedence: bulk\r\n", "Precedence"),
            ("List-Id: <dev.lists.example.com>\r\n", "List-Id"),
            ("Return-Path: <>\r\n", "bounce"),
        ] {
            let got = parse(&mail(header, "x")).unwrap();
            assert!(
                got.automated.as_deref().is_some_and(|r| r.contains(reason)),
                "{header}: {:?}",
                got.automated
            );
        }
        let human = parse(&mail("Auto-Submitted: no\r\n", "x")).unwrap();
        assert_eq!(human.automated, None);
    }

    #[test]
    fn attachment_names_cannot_leave_the_folder() {
        assert_eq!(sanitize_name(Some("../../etc/passwd")), "passwd");
        assert_eq!(
            sanitize_name(Some("C:\\Users\\x\\..\\evil.exe")),
            "evil.exe"
        );
        assert_eq!(sanitize_name(Some(".bashrc")), "bashrc");
        assert_eq!(sanitize_name(Some("..")), "attachment");
        assert_eq!(sanitize_name(Some("a..b...txt")), "a.b.txt");
        assert_eq!(sanitize_name(Some("what?.txt")), "what_.txt");
        assert_eq!(sanitize_name(None), "attachment");
        let long = format!("{}.pdf", "x".repeat(300));
        let short = sanitize_name(Some(&long));
        assert_eq!(short.chars().count(), MAX_ATTACHMENT_NAME_CHARS);
        assert!(short.ends_with(".pdf"));
        let mut taken = HashSet::new();
        assert_eq!(unique_name("a.txt", &mut taken), "a.txt");
        assert_eq!(unique_name("A.txt", &mut taken), "A-2.txt");
        assert_eq!(unique_name("a.txt", &mut taken), "a-3.txt");
    }

    #[test]
    fn a_multipart_part_with_a_broken_header_is_read_not_a_panic() {
        // Found by fuzzing: mail-parser's debug assertion about the part
        // fails here, which Cargo.toml turns off as release builds have it.
        let raw = include_bytes!(
            "../../../fuzz/artifacts/mime/crash-3c640114a156ab674f03fadd22ad4ca682350b9b"
        );
        let mail = parse(raw).unwrap();
        assert_eq!(mail.from.as_deref(), Some("bob@pexample.com"));
    }
}
