//! A folder's SPECIAL-USE role (RFC 6154), from the server's LIST
//! attributes, or from its name on a server without SPECIAL-USE.

use async_imap::imap_proto::NameAttribute;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Role {
    Inbox,
    Sent,
    Drafts,
    Archive,
    Junk,
    Trash,
    All,
    Flagged,
    /// The mail client's own folder for snoozed mail (no SPECIAL-USE has it).
    Snoozed,
}

/// The name of the folder snoozed mail waits in.
pub const SNOOZED: &str = "Snoozed";

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Inbox => "inbox",
            Role::Sent => "sent",
            Role::Drafts => "drafts",
            Role::Archive => "archive",
            Role::Junk => "junk",
            Role::Trash => "trash",
            Role::All => "all",
            Role::Flagged => "flagged",
            Role::Snoozed => "snoozed",
        }
    }

    /// Where the sidebar lists it.
    pub fn rank(self) -> u8 {
        match self {
            Role::Inbox => 0,
            Role::Snoozed => 1,
            Role::Drafts => 2,
            Role::Sent => 3,
            Role::Archive => 4,
            Role::Flagged => 5,
            Role::All => 6,
            Role::Junk => 7,
            Role::Trash => 8,
        }
    }

    pub fn parse(text: &str) -> Option<Role> {
        [
            Role::Inbox,
            Role::Sent,
            Role::Drafts,
            Role::Archive,
            Role::Junk,
            Role::Trash,
            Role::All,
            Role::Flagged,
            Role::Snoozed,
        ]
        .into_iter()
        .find(|role| role.as_str() == text)
    }

    /// The role of a listed folder. `name_fallback` guesses from common
    /// names, for servers that do not offer SPECIAL-USE.
    pub fn of(name: &str, attributes: &[NameAttribute<'_>], name_fallback: bool) -> Option<Role> {
        if name.eq_ignore_ascii_case("INBOX") {
            return Some(Role::Inbox);
        }
        if name == SNOOZED {
            return Some(Role::Snoozed);
        }
        let marked = attributes.iter().find_map(|attribute| match attribute {
            NameAttribute::Sent => Some(Role::Sent),
            NameAttribute::Drafts => Some(Role::Drafts),
            NameAttribute::Archive => Some(Role::Archive),
            NameAttribute::Junk => Some(Role::Junk),
            NameAttribute::Trash => Some(Role::Trash),
            NameAttribute::All => Some(Role::All),
            NameAttribute::Flagged => Some(Role::Flagged),
            _ => None,
        });
        if marked.is_some() || !name_fallback {
            return marked;
        }
        let leaf = name
            .rsplit(['/', '.'])
            .next()
            .unwrap_or(name)
            .to_lowercase();
        match leaf.as_str() {
            "sent" | "sent items" | "sent messages" | "sent mail" => Some(Role::Sent),
            "drafts" => Some(Role::Drafts),
            "archive" | "archives" => Some(Role::Archive),
            "junk" | "spam" | "junk e-mail" => Some(Role::Junk),
            "trash" | "deleted items" | "deleted messages" | "bin" => Some(Role::Trash),
            _ => None,
        }
    }
}
