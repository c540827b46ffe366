//! What of a mail the summarizer reads: a mail forwarded to the summarizer's
//! inbox carries the original either attached (`message/rfc822`, "forward as
//! attachment") or inline below a mail client's marker ("---------- Forwarded
//! message ---------" and its kin); the original's sender, subject and text
//! are what the summary is about. A mail with neither is read as itself.

/// The markers mail clients put above an inline forward, lowercased.
const MARKERS: [&str; 5] = [
    "---------- forwarded message ---------",
    "-------- forwarded message --------",
    "begin forwarded message:",
    "-------- original message --------",
    "-----original message-----",
];

/// The longest text a prompt carries, in characters.
pub const MAX_TEXT_CHARS: usize = 12_000;

/// The phrase that opens every summary prompt (the stand-in model in tests
/// answers by it).
pub const SUMMARY_PHRASE: &str = "Summarize this email";

/// What the summarizer was asked for when `emailSummarizerDefaultPrompt`
/// is blank.
pub const DEFAULT_INSTRUCTIONS: &str = "In at most five short Markdown bullets: what it is about, \
     what it asks of the reader, any date, amount or deadline, and whether a reply is expected.";

/// The mail to summarize.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    pub from: String,
    pub subject: String,
    pub text: String,
    /// Read from a forwarded mail inside the one that arrived.
    pub forwarded: bool,
}

/// The content to summarize of `mail`; `None` when there is no text at all.
pub fn content(mail: &mail::Mail) -> Option<Content> {
    let own = || Content {
        from: mail.from.clone().unwrap_or_default(),
        subject: mail.subject.clone(),
        text: mail.text.trim().to_owned(),
        forwarded: false,
    };
    let attached = mail
        .attachments
        .iter()
        .filter(|a| a.content_type.eq_ignore_ascii_case("message/rfc822"))
        .find_map(|a| mail::parse(&a.bytes).ok());
    let found = match attached {
        Some(inner) => Content {
            from: inner.from.unwrap_or_default(),
            subject: inner.subject,
            text: inner.text.trim().to_owned(),
            forwarded: true,
        },
        None => inline(&mail.text).unwrap_or_else(own),
    };
    (!found.text.is_empty()).then_some(found)
}

/// The forward below the first marker: its header block (`From:`,
/// `Subject:`, ... up to a blank line) and the text after it.
fn inline(text: &str) -> Option<Content> {
    let mut lines = text.lines();
    lines.by_ref().find(|line| {
        let line = line.trim().to_lowercase();
        MARKERS.iter().any(|m| line.contains(m))
    })?;
    let mut from = String::new();
    let mut subject = String::new();
    let mut body = Vec::new();
    for line in lines.by_ref() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            break;
        }
        match trimmed.split_once(':') {
            Some((name, value)) if name.eq_ignore_ascii_case("from") => {
                from = value.trim().to_owned();
            }
            Some((name, value)) if name.eq_ignore_ascii_case("subject") => {
                subject = value.trim().to_owned();
            }
            Some((name, _)) if !name.contains(' ') || name.eq_ignore_ascii_case("sent") => {}
            // Not a header: the forward has no header block.
            _ => {
                body.push(line);
                break;
            }
        }
    }
    body.extend(lines);
    Some(Content {
        from,
        subject,
        text: body.join("\n").trim().to_owned(),
        forwarded: true,
    })
}

/// The prompt for `content` with `instructions` (the setting's, else
/// [`DEFAULT_INSTRUCTIONS`]).
pub fn summary_prompt(instructions: &str, content: &Content) -> String {
    let instructions = match instructions.trim() {
        "" => DEFAULT_INSTRUCTIONS,
        given => given,
    };
    let what = if content.forwarded {
        "that was forwarded to the reader"
    } else {
        "that the reader received"
    };
    let text: String = content.text.chars().take(MAX_TEXT_CHARS).collect();
    format!(
        "{SUMMARY_PHRASE} {what}. {instructions}\nAnswer with the summary only.\n\n\
         From: {}\nSubject: {}\n\n{text}",
        content.from, content.subject
    )
}
