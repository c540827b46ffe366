//! Email Cleanup: who fills the mailbox (per sender and per domain, by
//! volume) and how to stop each of them: RFC 8058 one-click, an
//! unsubscribe mail, or a page to open. Also the one-click POST itself.

use std::collections::HashMap;
use std::time::Duration;

use mail_parser::MessageParser;
use serde::Serialize;

use crate::render::addresses;

/// The header fields Email Cleanup needs, for an IMAP
/// `BODY.PEEK[HEADER.FIELDS (...)]`.
pub const CLEANUP_FIELDS: &str = "FROM DATE LIST-ID LIST-UNSUBSCRIBE LIST-UNSUBSCRIBE-POST";

/// The one value of `List-Unsubscribe-Post` RFC 8058 defines, and the body
/// the POST carries.
const ONE_CLICK: &str = "List-Unsubscribe=One-Click";

/// One message as Email Cleanup sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SenderHeaders {
    /// `Name <address>` or the address alone.
    pub from: String,
    pub list_unsubscribe: Option<String>,
    pub list_unsubscribe_post: Option<String>,
    pub list_id: Option<String>,
    /// Seconds since the Unix epoch.
    pub date: Option<i64>,
    pub unread: bool,
}

/// Reads [`CLEANUP_FIELDS`] out of a message's header bytes.
pub fn sender_headers(raw_header: &[u8], unread: bool) -> SenderHeaders {
    let Some(message) = MessageParser::default().parse_headers(raw_header) else {
        return SenderHeaders {
            unread,
            ..SenderHeaders::default()
        };
    };
    let raw = |name: &str| {
        message
            .header_raw(name)
            .map(unfold)
            .filter(|v| !v.is_empty())
    };
    let from = addresses(message.from())
        .into_iter()
        .next()
        .map(|a| match a.name {
            Some(name) => format!("{name} <{}>", a.address),
            None => a.address,
        })
        .unwrap_or_default();
    SenderHeaders {
        from,
        list_unsubscribe: raw("List-Unsubscribe"),
        list_unsubscribe_post: raw("List-Unsubscribe-Post"),
        list_id: raw("List-Id"),
        date: message.date().map(|d| d.to_timestamp()),
        unread,
    }
}

fn unfold(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How to stop a sender, best first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "method",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Unsubscribe {
    /// RFC 8058: POST `List-Unsubscribe=One-Click` to the URL
    /// ([`one_click_unsubscribe`]).
    OneClick { url: String },
    /// Send this mail.
    Mailto {
        to: String,
        subject: String,
        body: String,
    },
    /// Open this page.
    Link { url: String },
}

/// The best method `List-Unsubscribe` (RFC 2369) and
/// `List-Unsubscribe-Post` (RFC 8058) offer: one-click needs an https URL
/// and the exact `List-Unsubscribe=One-Click`; then a `mailto:`; then an
/// https link (plain http links are not offered).
pub fn unsubscribe_method(
    list_unsubscribe: &str,
    list_unsubscribe_post: Option<&str>,
) -> Option<Unsubscribe> {
    let uris: Vec<url::Url> = list_unsubscribe
        .split(',')
        .filter_map(|item| {
            let item = item.trim();
            let inner = item.strip_prefix('<')?.split_once('>')?.0;
            url::Url::parse(inner.trim()).ok()
        })
        .collect();
    let https = uris.iter().find(|u| u.scheme() == "https");
    let one_click = list_unsubscribe_post.is_some_and(|v| v.trim().eq_ignore_ascii_case(ONE_CLICK));
    if let (Some(url), true) = (https, one_click) {
        return Some(Unsubscribe::OneClick {
            url: url.to_string(),
        });
    }
    if let Some(mailto) = uris.iter().find(|u| u.scheme() == "mailto") {
        let to = percent_encoding::percent_decode_str(mailto.path())
            .decode_utf8_lossy()
            .into_owned();
        if to.contains('@') {
            let query: HashMap<String, String> = mailto
                .query_pairs()
                .map(|(k, v)| (k.to_ascii_lowercase(), v.into_owned()))
                .collect();
            return Some(Unsubscribe::Mailto {
                to,
                subject: query
                    .get("subject")
                    .cloned()
                    .unwrap_or_else(|| "unsubscribe".to_owned()),
                body: query.get("body").cloned().unwrap_or_default(),
            });
        }
    }
    https.map(|url| Unsubscribe::Link {
        url: url.to_string(),
    })
}

/// One sender's share of the mailbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SenderGroup {
    /// Lowercase.
    pub address: String,
    /// As the latest message wrote it.
    pub name: Option<String>,
    pub domain: String,
    pub count: usize,
    pub unread: usize,
    pub last_date: Option<i64>,
    pub list_id: Option<String>,
    /// From the latest message that offers one.
    pub unsubscribe: Option<Unsubscribe>,
}

/// One domain's share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DomainGroup {
    pub domain: String,
    pub count: usize,
    pub unread: usize,
    pub last_date: Option<i64>,
    /// How many distinct senders.
    pub senders: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cleanup {
    /// Most mail first (then the most recent, then by address).
    pub senders: Vec<SenderGroup>,
    /// The same order.
    pub domains: Vec<DomainGroup>,
}

/// Groups messages by sender and by domain. Messages without a readable
/// `From` are left out.
pub fn cleanup(messages: &[SenderHeaders]) -> Cleanup {
    let mut senders: HashMap<String, (SenderGroup, Option<i64>)> = HashMap::new();
    for message in messages {
        let Some((name, address)) = split_from(&message.from) else {
            continue;
        };
        let domain = address
            .rsplit_once('@')
            .map(|(_, d)| d.to_owned())
            .unwrap_or_default();
        let (group, unsubscribe_date) = senders.entry(address.clone()).or_insert_with(|| {
            (
                SenderGroup {
                    address: address.clone(),
                    name: None,
                    domain,
                    count: 0,
                    unread: 0,
                    last_date: None,
                    list_id: None,
                    unsubscribe: None,
                },
                None,
            )
        });
        group.count += 1;
        group.unread += usize::from(message.unread);
        let latest = group.count == 1 || message.date >= group.last_date;
        if latest {
            group.last_date = message.date.max(group.last_date);
            if name.is_some() {
                group.name = name;
            }
            if message.list_id.is_some() {
                group.list_id = message.list_id.clone();
            }
        }
        let method = message
            .list_unsubscribe
            .as_deref()
            .and_then(|l| unsubscribe_method(l, message.list_unsubscribe_post.as_deref()));
        if let Some(method) = method
            && (group.unsubscribe.is_none() || message.date >= *unsubscribe_date)
        {
            group.unsubscribe = Some(method);
            *unsubscribe_date = message.date;
        }
    }
    let mut senders: Vec<SenderGroup> = senders.into_values().map(|(group, _)| group).collect();
    senders.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(b.last_date.cmp(&a.last_date))
            .then(a.address.cmp(&b.address))
    });
    let mut domains: HashMap<&str, DomainGroup> = HashMap::new();
    for sender in &senders {
        let domain = domains
            .entry(&sender.domain)
            .or_insert_with(|| DomainGroup {
                domain: sender.domain.clone(),
                count: 0,
                unread: 0,
                last_date: None,
                senders: 0,
            });
        domain.count += sender.count;
        domain.unread += sender.unread;
        domain.last_date = domain.last_date.max(sender.last_date);
        domain.senders += 1;
    }
    let mut domains: Vec<DomainGroup> = domains.into_values().collect();
    domains.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(b.last_date.cmp(&a.last_date))
            .then(a.domain.cmp(&b.domain))
    });
    Cleanup { senders, domains }
}

/// `Name <address>` or a bare address, as (name, lowercase address).
fn split_from(from: &str) -> Option<(Option<String>, String)> {
    let from = from.trim();
    let (name, address) = match (from.rfind('<'), from.rfind('>')) {
        (Some(open), Some(close)) if open < close => {
            let name = from[..open].trim().trim_matches('"').trim();
            (
                (!name.is_empty()).then(|| name.to_owned()),
                &from[open + 1..close],
            )
        }
        _ => (None, from),
    };
    let address = address.trim().to_ascii_lowercase();
    address.contains('@').then_some((name, address))
}

/// How the one-click POST is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneClickOptions {
    pub timeout: Duration,
    /// Lets `http://` through: for tests against a loopback server only.
    pub allow_http: bool,
}

impl Default for OneClickOptions {
    fn default() -> Self {
        OneClickOptions {
            timeout: Duration::from_secs(15),
            allow_http: false,
        }
    }
}

/// How many redirects a one-click POST follows (each to https only).
pub const MAX_UNSUBSCRIBE_REDIRECTS: usize = 5;

#[derive(Debug, thiserror::Error)]
pub enum UnsubscribeError {
    #[error("{0:?} is not an https URL")]
    NotHttps(String),
    #[error("the unsubscribe server answered {status}")]
    Refused { status: u16 },
    #[error("the unsubscribe server redirected more than {MAX_UNSUBSCRIBE_REDIRECTS} times")]
    TooManyRedirects,
    #[error("the unsubscribe server redirected without a Location")]
    NoLocation,
    #[error("the unsubscribe request failed: {0}")]
    Transport(String),
}

/// Makes the RFC 8058 POST to `url`, following redirects only to https
/// (the POST repeated), and gives the final 2xx status. Blocking: call it
/// from `spawn_blocking`. No cookies or credentials are sent, as RFC 8058
/// section 3.2 asks.
pub fn one_click_unsubscribe(
    url: &str,
    options: &OneClickOptions,
) -> Result<u16, UnsubscribeError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(options.timeout))
        .max_redirects(0)
        .user_agent("switchboard")
        .build()
        .into();
    let mut target = checked_url(url, options)?;
    for _ in 0..=MAX_UNSUBSCRIBE_REDIRECTS {
        let response = agent
            .post(target.as_str())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .send(ONE_CLICK)
            .map_err(|e| UnsubscribeError::Transport(e.to_string()))?;
        let status = response.status();
        if status.is_success() {
            return Ok(status.as_u16());
        }
        if !status.is_redirection() {
            return Err(UnsubscribeError::Refused {
                status: status.as_u16(),
            });
        }
        let location = response
            .headers()
            .get("location")
            .and_then(|l| l.to_str().ok())
            .ok_or(UnsubscribeError::NoLocation)?;
        let next = target
            .join(location)
            .map_err(|_| UnsubscribeError::NotHttps(location.to_owned()))?;
        target = checked_url(next.as_str(), options)?;
    }
    Err(UnsubscribeError::TooManyRedirects)
}

fn checked_url(url: &str, options: &OneClickOptions) -> Result<url::Url, UnsubscribeError> {
    let parsed = url::Url::parse(url).map_err(|_| UnsubscribeError::NotHttps(url.to_owned()))?;
    match parsed.scheme() {
        "https" => Ok(parsed),
        "http" if options.allow_http => Ok(parsed),
        _ => Err(UnsubscribeError::NotHttps(url.to_owned())),
    }
}
