//! Which invitations the calendar hides (docs/calendar.md, "Spam
//! invitations"): an invitation is a CalDAV event whose ORGANIZER is
//! someone other than the user. With the filter on, one from a sender the
//! user marked spam is hidden, and so is one from outside the user's
//! organization: the domains of the user's own addresses (each CalDAV
//! account's user name that is an address, and the addresses the
//! application knows through [`Screening::addresses`]) and the domains and
//! addresses the user adds. A free-mail domain (gmail.com and the like)
//! makes no organization: such an address stands for itself alone. With no
//! organization (no domain, no added entry: a user of free mail only),
//! nothing is caught automatically, since nothing can be told to be outside
//! it; marked senders are still hidden.

use std::collections::HashSet;

use crate::ics;

/// What the application tells the calendars about the user; the crate
/// knows nothing of settings or mail accounts.
pub trait Screening: Send + Sync {
    /// Whether the spam filter is on (with it off, every event shows).
    fn filtering(&self) -> bool;
    /// The owner's own addresses the calendars cannot see themselves.
    fn addresses(&self, owner: &str) -> Vec<String>;
}

/// Domains whose addresses belong to many unrelated people.
const FREE_MAIL: &[&str] = &[
    "163.com",
    "aol.com",
    "fastmail.com",
    "gmail.com",
    "gmx.com",
    "gmx.de",
    "gmx.net",
    "googlemail.com",
    "hey.com",
    "hotmail.com",
    "icloud.com",
    "live.com",
    "mac.com",
    "mail.com",
    "mail.ru",
    "me.com",
    "msn.com",
    "outlook.com",
    "pm.me",
    "proton.me",
    "protonmail.com",
    "qq.com",
    "tutanota.com",
    "web.de",
    "yahoo.com",
    "yandex.com",
    "yandex.ru",
    "zoho.com",
];

/// An address as compared: trimmed, lower case, `mailto:` removed;
/// `None` when it is not `local@domain`.
pub(crate) fn address(text: &str) -> Option<String> {
    let text = text.trim();
    let text = match text.get(..7) {
        Some(scheme) if scheme.eq_ignore_ascii_case("mailto:") => &text[7..],
        _ => text,
    };
    let text = text.trim().to_ascii_lowercase();
    let (local, domain) = text.rsplit_once('@')?;
    let fine = !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !text.chars().any(|c| c.is_whitespace() || c.is_control());
    fine.then_some(text)
}

/// A domain the user adds: lower case, `example.com`, no `@`.
pub(crate) fn domain(text: &str) -> Option<String> {
    let text = text.trim().trim_start_matches('@').to_ascii_lowercase();
    let fine = text.contains('.')
        && !text.starts_with('.')
        && !text.ends_with('.')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    fine.then_some(text)
}

pub(crate) fn domain_of(address: &str) -> &str {
    address.rsplit_once('@').map_or("", |(_, d)| d)
}

/// The first ORGANIZER's address in an object's text, or `""` for none
/// (what `calendar_objects.organizer` stores).
pub(crate) fn organizer_of(ics: &str) -> String {
    ics::unfold(ics)
        .filter(|line| {
            line.get(..9)
                .is_some_and(|n| n.eq_ignore_ascii_case("ORGANIZER"))
        })
        .find_map(|line| ics::parse_line(&line).and_then(|p| address(&p.value)))
        .unwrap_or_default()
}

/// The owner's screen for one read.
#[derive(Debug, Default)]
pub(crate) struct Screen {
    /// The user's own addresses: never an invitation from someone else.
    pub own: HashSet<String>,
    /// The organization's domains (a subdomain of one belongs to it too).
    pub domains: HashSet<String>,
    /// Addresses the user trusts although their domain is outside.
    pub trusted: HashSet<String>,
    pub spam: HashSet<String>,
}

impl Screen {
    /// Builds the screen from the user's own addresses, the entries they
    /// added (domains, or addresses) and their spam senders.
    pub fn new(
        own: impl IntoIterator<Item = String>,
        added: impl IntoIterator<Item = String>,
        spam: impl IntoIterator<Item = String>,
    ) -> Screen {
        let mut screen = Screen {
            spam: spam.into_iter().collect(),
            ..Screen::default()
        };
        for mine in own.into_iter().filter_map(|a| address(&a)) {
            let domain = domain_of(&mine);
            if !FREE_MAIL.contains(&domain) {
                screen.domains.insert(domain.to_owned());
            }
            screen.own.insert(mine);
        }
        for entry in added {
            if entry.contains('@') {
                screen.trusted.insert(entry);
            } else {
                screen.domains.insert(entry);
            }
        }
        screen
    }

    /// Whether an invitation from someone else: an organizer who is not
    /// the user.
    pub fn invitation(&self, organizer: Option<&str>) -> bool {
        organizer.is_some_and(|o| !o.is_empty() && !self.own.contains(o))
    }

    /// Whether an event organized by `organizer` is hidden.
    pub fn hides(&self, organizer: Option<&str>) -> bool {
        let Some(organizer) = organizer.filter(|o| self.invitation(Some(o))) else {
            return false;
        };
        if self.spam.contains(organizer) {
            return true;
        }
        if self.domains.is_empty() && self.trusted.is_empty() {
            return false;
        }
        let domain = domain_of(organizer);
        let inside = self.trusted.contains(organizer)
            || self.domains.iter().any(|d| {
                domain == d
                    || domain
                        .strip_suffix(d.as_str())
                        .is_some_and(|rest| rest.ends_with('.'))
            });
        !inside
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_organizer_is_read_from_its_mailto() {
        let ics = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nORGANIZER;CN=\"Spam, Inc\":MAILTO:Win\r\n @Prizes.Example\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        assert_eq!(organizer_of(ics), "win@prizes.example");
        assert_eq!(organizer_of("BEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\n"), "");
        assert_eq!(organizer_of("ORGANIZER:urn:x-nobody\r\n"), "");
    }

    #[test]
    fn outside_invitations_are_hidden_and_free_mail_makes_no_organization() {
        let screen = Screen::new(
            strings(&["Ada@Work.Example", "ada@gmail.com"]),
            strings(&["partner.example", "friend@elsewhere.example"]),
            strings(&["pest@work.example"]),
        );
        let hides = |o: &str| screen.hides(Some(o));
        assert!(!hides("bob@work.example"));
        assert!(!hides("bob@eng.work.example"));
        assert!(!hides("carol@partner.example"));
        assert!(!hides("friend@elsewhere.example"));
        assert!(!hides("ada@gmail.com"), "the user's own address");
        assert!(hides("stranger@gmail.com"));
        assert!(hides("bob@notwork.example"));
        assert!(hides("pest@work.example"), "marked spam");
        assert!(!screen.hides(None));
    }

    #[test]
    fn with_no_organization_known_only_spam_senders_are_hidden() {
        let screen = Screen::new(
            strings(&["ada@gmail.com"]),
            Vec::new(),
            strings(&["pest@x.example"]),
        );
        assert!(!screen.hides(Some("anyone@x.example")));
        assert!(screen.hides(Some("pest@x.example")));
    }

    #[test]
    fn entries_are_checked() {
        assert_eq!(address(" mailto:A@B.example "), Some("a@b.example".into()));
        assert_eq!(address("nobody"), None);
        assert_eq!(address("a@localhost"), None);
        assert_eq!(domain("@Example.COM"), Some("example.com".into()));
        assert_eq!(domain("exa mple.com"), None);
    }
}
