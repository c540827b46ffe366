//! The spam rule for mail from strangers: what the receiving server's
//! `Authentication-Results` (RFC 8601) says of SPF, DKIM and DMARC, plus
//! simple signs in the content, scored against [`SPAM_THRESHOLD`]. Known
//! senders are never checked. Which senders are known (written to, saved
//! contacts, marked not-spam) is the caller's list, so marking spam or
//! not-spam teaches by changing it.

use std::collections::HashSet;

use mail_parser::MessageParser;
use serde::Serialize;

use crate::render::addresses;

/// The score at which a message is spam. A failed DMARC alone reaches it
/// (the `From` domain says the mail is not its own); otherwise it takes two
/// or three signs together, so one odd trait of an honest mail (a shouted
/// subject, a `Reply-To` elsewhere) does not.
pub const SPAM_THRESHOLD: i32 = 5;

/// One `Authentication-Results` header's verdicts, lowercase
/// (`pass`, `fail`, `softfail`, `none`, ...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthResults {
    pub authserv_id: String,
    pub spf: Option<String>,
    /// `pass` when any signature passed, else the first result.
    pub dkim: Option<String>,
    pub dmarc: Option<String>,
}

/// The results to trust: the topmost `Authentication-Results` (the last
/// hop adds its own on top) whose authserv-id is `authserv_id`, the
/// caller's own server; a sender can write any such header lower down, so
/// pass the id whenever it is known. Without one, the topmost header is
/// taken (right when the account's server always adds one, as Gmail,
/// Fastmail and most providers do).
pub fn authentication_results(raw: &[u8], authserv_id: Option<&str>) -> Option<AuthResults> {
    let message = MessageParser::default().parse_headers(raw)?;
    message
        .headers_raw()
        .filter(|(name, _)| name.eq_ignore_ascii_case("Authentication-Results"))
        .filter_map(|(_, value)| parse_results(value))
        .find(|r| authserv_id.is_none_or(|id| r.authserv_id.eq_ignore_ascii_case(id.trim())))
}

fn parse_results(value: &str) -> Option<AuthResults> {
    let value = strip_comments(value);
    let mut items = value.split(';').map(str::trim);
    let authserv_id = items.next()?.split_whitespace().next()?.to_owned();
    let mut results = AuthResults {
        authserv_id,
        spf: None,
        dkim: None,
        dmarc: None,
    };
    for item in items {
        let Some((method, rest)) = item.split_once('=') else {
            continue;
        };
        let method = method.trim().to_ascii_lowercase();
        let result = rest
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let slot = match method.split('/').next().unwrap_or_default() {
            "spf" => &mut results.spf,
            "dkim" => &mut results.dkim,
            "dmarc" => &mut results.dmarc,
            _ => continue,
        };
        if slot.is_none() || (method.starts_with("dkim") && result == "pass") {
            *slot = Some(result);
        }
    }
    Some(results)
}

/// RFC 8601 allows RFC 5322 comments anywhere: `dmarc=pass (p=none) ...`.
fn strip_comments(value: &str) -> String {
    let mut depth = 0usize;
    value
        .chars()
        .filter(|&c| match c {
            '(' => {
                depth += 1;
                false
            }
            ')' => {
                depth = depth.saturating_sub(1);
                false
            }
            _ => depth == 0,
        })
        .collect()
}

/// Whether a message is spam, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    pub spam: bool,
    pub score: i32,
    pub reasons: Vec<String>,
    /// False for a known sender, who is never checked.
    pub checked: bool,
}

/// Whether the message's `From` is in `known` (lowercase addresses).
pub fn known_sender(raw: &[u8], known: &HashSet<String>) -> bool {
    MessageParser::default()
        .parse_headers(raw)
        .and_then(|m| addresses(m.from()).into_iter().next())
        .is_some_and(|from| known.contains(&from.address.to_ascii_lowercase()))
}

/// The verdict for a raw message (headers and body). `known` are the
/// lowercase addresses never checked; `authserv_id` as in
/// [`authentication_results`].
pub fn verdict(raw: &[u8], known: &HashSet<String>, authserv_id: Option<&str>) -> Verdict {
    if known_sender(raw, known) {
        return Verdict {
            spam: false,
            score: 0,
            reasons: Vec::new(),
            checked: false,
        };
    }
    let mut score = 0;
    let mut reasons = Vec::new();
    let mut sign = |points: i32, reason: String| {
        score += points;
        reasons.push(reason);
    };
    match authentication_results(raw, authserv_id) {
        Some(auth) => {
            match auth.dmarc.as_deref() {
                Some("fail") => sign(5, "DMARC failed".to_owned()),
                Some("pass") => sign(-2, "DMARC passed".to_owned()),
                _ => {}
            }
            match auth.spf.as_deref() {
                Some("fail") => sign(3, "SPF failed".to_owned()),
                Some("softfail") => sign(1, "SPF soft-failed".to_owned()),
                _ => {}
            }
            match auth.dkim.as_deref() {
                Some("pass") => {}
                Some("fail") => sign(2, "DKIM failed".to_owned()),
                _ => sign(1, "no DKIM signature".to_owned()),
            }
        }
        None => sign(0, "no Authentication-Results to trust".to_owned()),
    }
    if let Some(message) = MessageParser::default().parse(raw) {
        let from = addresses(message.from()).into_iter().next();
        let from_domain = from.as_ref().map(|a| base_domain(domain_of(&a.address)));
        let subject = message.subject().unwrap_or_default();
        if shouting(subject) {
            sign(2, "the subject is in capitals".to_owned());
        }
        if let (Some(from), Some(from_domain)) = (&from, &from_domain) {
            if let Some(name) = &from.name
                && let Some(other) = name
                    .split(|c: char| c.is_whitespace() || "<>\"'()".contains(c))
                    .find(|w| w.contains('@') && !w.eq_ignore_ascii_case(&from.address))
            {
                sign(
                    3,
                    format!("the sender's name holds another address ({other})"),
                );
            }
            let reply_to = addresses(message.reply_to());
            if let Some(reply) = reply_to
                .iter()
                .find(|r| base_domain(domain_of(&r.address)) != *from_domain)
            {
                sign(
                    2,
                    format!("Reply-To goes to another domain ({})", reply.address),
                );
            }
        }
        let html = message
            .body_html(0)
            .map(|h| h.into_owned())
            .unwrap_or_default();
        let mismatched = mismatched_links(&html);
        if mismatched >= 3 {
            sign(
                3,
                format!("{mismatched} links show one domain and go to another"),
            );
        } else if mismatched > 0 {
            sign(
                2,
                format!("{mismatched} link(s) show one domain and go to another"),
            );
        }
        let text = message
            .body_text(0)
            .map(|t| t.to_lowercase())
            .unwrap_or_default();
        if text.contains("unsubscribe") && message.header_raw("List-Unsubscribe").is_none() {
            sign(
                2,
                "mentions unsubscribing without a List-Unsubscribe header".to_owned(),
            );
        }
    }
    Verdict {
        spam: score >= SPAM_THRESHOLD,
        score,
        reasons,
        checked: true,
    }
}

/// At least eight letters, nearly all capitals.
fn shouting(subject: &str) -> bool {
    let letters: Vec<char> = subject.chars().filter(|c| c.is_alphabetic()).collect();
    let upper = letters.iter().filter(|c| c.is_uppercase()).count();
    letters.len() >= 8 && upper * 10 >= letters.len() * 9
}

fn domain_of(address: &str) -> &str {
    address.rsplit_once('@').map_or("", |(_, d)| d)
}

/// The registrable part of a domain, near enough without the public
/// suffix list: the last two labels, three under a two-letter country code
/// with a short second level (`example.co.uk`).
fn base_domain(domain: &str) -> String {
    let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    let labels: Vec<&str> = domain.split('.').collect();
    let keep = match labels.as_slice() {
        [.., second, top] if top.len() == 2 && second.len() <= 3 && labels.len() >= 3 => 3,
        _ => 2,
    };
    labels[labels.len().saturating_sub(keep)..].join(".")
}

/// Links whose visible text is a web address on another domain than the
/// one the link goes to.
fn mismatched_links(html: &str) -> usize {
    let lower = html.to_ascii_lowercase();
    let mut count = 0;
    let mut rest = 0;
    while let Some(start) = lower[rest..].find("<a ") {
        let open = rest + start;
        let Some(tag_end) = lower[open..].find('>').map(|e| open + e) else {
            break;
        };
        let Some(close) = lower[tag_end..].find("</a").map(|e| tag_end + e) else {
            break;
        };
        let href = attribute(&html[open..tag_end], "href");
        let shown = strip_tags(&html[tag_end + 1..close]);
        if let (Some(href), Some(shown_domain)) = (href, shown_domain(&shown))
            && let Some(target) = url::Url::parse(href.trim())
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
            && base_domain(&target) != base_domain(&shown_domain)
        {
            count += 1;
        }
        rest = close;
    }
    count
}

fn attribute<'h>(tag: &'h str, name: &str) -> Option<&'h str> {
    let lower = tag.to_ascii_lowercase();
    let at = lower.find(&format!("{name}="))? + name.len() + 1;
    let value = &tag[at..];
    match value.chars().next()? {
        quote @ ('"' | '\'') => value[1..].split(quote).next(),
        _ => value.split(|c: char| c.is_whitespace() || c == '>').next(),
    }
}

fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.trim().to_owned()
}

/// The domain a link's text shows, when the text is a web address.
fn shown_domain(text: &str) -> Option<String> {
    let text = text.trim();
    if text.contains(char::is_whitespace) || text.contains('@') {
        return None;
    }
    let with_scheme = if text.starts_with("http://") || text.starts_with("https://") {
        text.to_owned()
    } else if text.starts_with("www.") {
        format!("https://{text}")
    } else {
        return None;
    };
    url::Url::parse(&with_scheme)
        .ok()?
        .host_str()
        .map(str::to_owned)
}
