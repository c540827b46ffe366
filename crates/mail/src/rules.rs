//! Who may start a session by mail: `emailInboundApprovedSenders` holds
//! exact addresses (`ann@example.com`) and whole domains (`@example.com`),
//! compared without regard to case. A domain entry matches that domain
//! only, not its subdomains.

/// Whether `sender` is on the approved list.
pub fn is_approved(sender: &str, approved: &[String]) -> bool {
    let sender = sender.trim();
    let Some((_, domain)) = sender.rsplit_once('@') else {
        return false;
    };
    if domain.is_empty() {
        return false;
    }
    approved
        .iter()
        .map(|entry| entry.trim())
        .any(|entry| match entry.strip_prefix('@') {
            Some(approved_domain) => {
                !approved_domain.is_empty() && approved_domain.eq_ignore_ascii_case(domain)
            }
            None => !entry.is_empty() && entry.eq_ignore_ascii_case(sender),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_addresses_and_domains_match_without_case() {
        let list = vec![
            "Ann@Example.com".to_owned(),
            " @Corp.example ".to_owned(),
            "@".to_owned(),
            String::new(),
        ];
        assert!(is_approved("ann@example.COM", &list));
        assert!(!is_approved("bob@example.com", &list));
        assert!(is_approved("bob@corp.EXAMPLE", &list));
        assert!(!is_approved("bob@sub.corp.example", &list));
        assert!(!is_approved("bob@evilcorp.example", &list));
        assert!(!is_approved("corp.example", &list));
        assert!(!is_approved("bob@", &list));
        assert!(!is_approved("", &list));
    }
}
