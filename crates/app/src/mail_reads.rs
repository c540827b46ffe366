//! What the mail client's pages read from the local store: folders with
//! their counts, a folder's thread list a page at a time (newest activity
//! first, keyset-paginated by an opaque cursor), and the ids the API hands
//! out. A page answers from SQLite (the server's SEARCH only adds hits for
//! bodies not fetched yet), so it is quick whatever the mailbox's size.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::mail_error::MailClientError;

/// A folder of an account, with its SPECIAL-USE role when it has one.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailFolder {
    pub name: String,
    /// `inbox`, `sent`, `drafts`, `archive`, `spam`, `trash`, `snoozed`,
    /// `all`, `flagged`, or none.
    pub role: Option<String>,
    pub total: u32,
    pub unread: u32,
}

/// One thread of a folder's list.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailThreadSummary {
    pub id: String,
    pub subject: String,
    /// Senders, first appearance first.
    pub participants: Vec<String>,
    pub snippet: String,
    /// Its messages in this folder.
    pub count: u32,
    pub unread: u32,
    pub starred: bool,
    /// Its latest message's date (RFC 3339), when that has one.
    pub date: Option<String>,
}

/// `GET /mail/threads`: a page and where the next one starts.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailThreadPage {
    pub threads: Vec<MailThreadSummary>,
    /// Pass as `cursor` for the next page; none after the last.
    pub next: Option<String>,
}

/// Reads `in:<folder>` out of a search: the folder it names (a role such
/// as `inbox` or a folder's name) and the words left.
pub fn split_query(query: &str) -> (Option<String>, String) {
    let mut folder = None;
    let mut words = Vec::new();
    for word in query.split_whitespace() {
        match word.strip_prefix("in:") {
            Some(name) if !name.is_empty() => folder = Some(name.to_owned()),
            _ => words.push(word),
        }
    }
    (folder, words.join(" "))
}

/// The API's name of a role: the junk folder is `spam` to the person.
fn role_name(role: mailclient::Role) -> String {
    match role {
        mailclient::Role::Junk => "spam".to_owned(),
        other => other.as_str().to_owned(),
    }
}

pub fn folders(
    store: &mailclient::MailStore,
    account: &str,
) -> Result<Vec<MailFolder>, MailClientError> {
    Ok(store
        .folder_list(account)?
        .into_iter()
        .map(|f| MailFolder {
            name: f.name,
            role: f.role.map(role_name),
            total: f.total,
            unread: f.unread,
        })
        .collect())
}

/// The stored folder `name` names: a folder of that name, else the one
/// whose role it is (`inbox` finds `INBOX`, `spam` the junk folder).
pub fn resolve_folder(
    store: &mailclient::MailStore,
    account: &str,
    name: &str,
) -> Result<String, MailClientError> {
    let all = folders(store, account)?;
    let wanted = match name.to_ascii_lowercase().as_str() {
        "junk" => "spam".to_owned(),
        other => other.to_owned(),
    };
    all.iter()
        .find(|f| f.name == name)
        .or_else(|| {
            all.iter()
                .find(|f| f.role.as_deref() == Some(wanted.as_str()))
        })
        .or_else(|| all.iter().find(|f| f.name.eq_ignore_ascii_case(name)))
        .map(|f| f.name.clone())
        .ok_or_else(|| MailClientError::NotFound(format!("No folder is named `{name}`.")))
}

/// The store's page as the API shows it, with thread ids that carry their
/// account (see [`public_id`]).
pub fn shown_page(account: &str, page: mailclient::ThreadPage) -> MailThreadPage {
    MailThreadPage {
        threads: page
            .threads
            .into_iter()
            .map(|t| MailThreadSummary {
                id: public_id(account, &t.id),
                subject: t.subject,
                participants: t.participants,
                snippet: t.snippet,
                count: t.count,
                unread: t.unread,
                starred: t.starred,
                date: (t.date > 0).then(|| rfc3339(t.date)).flatten(),
            })
            .collect(),
        next: page.next,
    }
}

/// An id the API hands out for something of one account (a thread, a
/// message): the parts joined and hex-encoded, so it is one path segment
/// whatever an account's or a folder's name holds.
pub fn public_id(account: &str, local: &str) -> String {
    format!("{account}\u{1f}{local}")
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The account and the local id a [`public_id`] was made of.
pub fn parse_public_id(id: &str) -> Option<(String, String)> {
    if !id.len().is_multiple_of(2) || id.len() > 4096 {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..id.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(id.get(i..i + 2)?, 16).ok())
        .collect();
    let text = String::from_utf8(bytes?).ok()?;
    let (account, local) = text.split_once('\u{1f}')?;
    Some((account.to_owned(), local.to_owned()))
}

pub fn rfc3339(seconds: i64) -> Option<String> {
    time::OffsetDateTime::from_unix_timestamp(seconds)
        .ok()
        .map(clock::timestamp)
}
