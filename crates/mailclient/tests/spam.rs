//! The spam rule on real-shaped mail: the receiving server's
//! Authentication-Results (only the trusted one), content signs, and known
//! senders never checked.

use std::collections::HashSet;

use mailclient::{SPAM_THRESHOLD, authentication_results, known_sender, verdict};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn nobody() -> HashSet<String> {
    HashSet::new()
}

#[test]
fn authentication_results_are_read_from_the_trusted_header() {
    let gmail = authentication_results(&fixture("gmail.eml"), Some("mx.google.com")).unwrap();
    assert_eq!(gmail.authserv_id, "mx.google.com");
    assert_eq!(gmail.spf.as_deref(), Some("pass"));
    assert_eq!(gmail.dkim.as_deref(), Some("pass"));
    assert_eq!(gmail.dmarc.as_deref(), Some("pass"));
    // Another server's id: the header is not trusted.
    assert_eq!(
        authentication_results(&fixture("gmail.eml"), Some("mx.example.org")),
        None
    );
    // The topmost matching header wins over the sender's forged one below it.
    let spam = authentication_results(&fixture("spam.eml"), Some("mx.example.org")).unwrap();
    assert_eq!(spam.dmarc.as_deref(), Some("fail"));
    assert_eq!(spam.spf.as_deref(), Some("fail"));
    assert_eq!(spam.dkim.as_deref(), Some("none"));
    assert_eq!(authentication_results(&fixture("apple.eml"), None), None);
}

#[test]
fn a_phishing_mail_is_spam_with_its_reasons() {
    let v = verdict(&fixture("spam.eml"), &nobody(), Some("mx.example.org"));
    assert!(v.checked);
    assert!(v.spam, "{v:?}");
    assert!(v.score >= SPAM_THRESHOLD);
    let reasons = v.reasons.join("\n");
    for expected in [
        "DMARC failed",
        "SPF failed",
        "no DKIM signature",
        "the subject is in capitals",
        "the sender's name holds another address (service@paypal.com)",
        "Reply-To goes to another domain (claims@another-domain.example)",
        "3 links show one domain and go to another",
        "mentions unsubscribing without a List-Unsubscribe header",
    ] {
        assert!(
            reasons.contains(expected),
            "{expected:?} missing from {reasons}"
        );
    }
}

#[test]
fn honest_mail_is_not_spam() {
    for (name, server) in [
        ("gmail.eml", Some("mx.google.com")),
        ("list.eml", Some("mx.example.org")),
        ("apple.eml", None),
        ("outlook.eml", None),
    ] {
        let v = verdict(&fixture(name), &nobody(), server);
        assert!(!v.spam, "{name}: {v:?}");
        assert!(v.checked);
    }
    let list = verdict(&fixture("list.eml"), &nobody(), Some("mx.example.org"));
    assert_eq!(list.score, -2, "{list:?}");
}

#[test]
fn known_senders_are_never_checked() {
    let known: HashSet<String> = ["alerts@paypa1-secure.example".to_owned()].into();
    assert!(known_sender(&fixture("spam.eml"), &known));
    let v = verdict(&fixture("spam.eml"), &known, Some("mx.example.org"));
    assert!(!v.spam);
    assert!(!v.checked);
    assert_eq!(v.score, 0);
    assert!(!known_sender(&fixture("gmail.eml"), &known));
}

#[test]
fn two_weak_signs_are_not_enough() {
    let raw = b"From: Dana <dana@contoso.com>\r\nReply-To: dana.private@gmail.com\r\nSubject: LUNCH TOMORROW\r\n\r\nSee you.\r\n";
    let v = verdict(raw, &nobody(), None);
    assert!(!v.spam, "{v:?}");
}
