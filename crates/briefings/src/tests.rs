//! The rules on their own: forwarded content, the book's once-only claim
//! and paging, the briefing's sections and the morning digest's moment.

use std::sync::Arc;

use jiff::civil::time;

use crate::morning;
use crate::sections::{self, Section, Source};
use crate::{NewMail, Outcome, SummaryBook, content, summary_prompt};

fn parsed(raw: &str) -> mail::Mail {
    mail::parse(raw.as_bytes()).unwrap()
}

#[test]
fn an_inline_forward_is_read_as_the_original() {
    let mail = parsed(
        "From: me@example.com\r\nSubject: Fwd: Invoice\r\nMessage-ID: <f1@x>\r\n\r\n\
         FYI\r\n\r\n---------- Forwarded message ---------\r\nFrom: Billing <bill@shop.test>\r\n\
         Date: Mon, 23 Nov 2026\r\nSubject: Invoice 42\r\nTo: me@example.com\r\n\r\n\
         Please pay 120 EUR by Friday.\r\n",
    );
    let found = content(&mail).unwrap();
    assert_eq!(found.from, "Billing <bill@shop.test>");
    assert_eq!(found.subject, "Invoice 42");
    assert_eq!(found.text, "Please pay 120 EUR by Friday.");
    assert!(found.forwarded);
    let prompt = summary_prompt("", &found);
    assert!(prompt.starts_with("Summarize this email that was forwarded"));
    assert!(prompt.contains("Please pay 120 EUR"));
    assert!(summary_prompt("Be terse.", &found).contains("Be terse."));
}

#[test]
fn an_attached_forward_is_read_as_the_original() {
    let mail = parsed(
        "From: me@example.com\r\nSubject: Fwd: Hello\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\n\
         Content-Type: text/plain\r\n\r\nsee below\r\n--b\r\nContent-Type: message/rfc822\r\n\r\n\
         From: ada@example.com\r\nSubject: The plan\r\n\r\nWe ship on Monday.\r\n--b--\r\n",
    );
    let found = content(&mail).unwrap();
    assert_eq!(
        (found.from.as_str(), found.subject.as_str()),
        ("ada@example.com", "The plan")
    );
    assert_eq!(found.text, "We ship on Monday.");
}

#[test]
fn a_mail_without_text_has_no_content_and_a_plain_one_is_itself() {
    assert_eq!(
        content(&parsed("From: a@b.c\r\nSubject: empty\r\n\r\n\r\n")),
        None
    );
    let own = content(&parsed(
        "From: a@b.c\r\nSubject: Hi\r\n\r\nLunch at noon?\r\n",
    ))
    .unwrap();
    assert_eq!(
        (own.text.as_str(), own.forwarded),
        ("Lunch at noon?", false)
    );
}

fn book() -> (SummaryBook, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let db = store::Db::open(&dir.path().join("t.db")).unwrap();
    db.migrate(crate::MIGRATIONS).unwrap();
    let clock = Arc::new(clock::ManualClock::starting_now());
    (SummaryBook::new(Arc::new(db), clock), dir)
}

fn new_mail<'a>(uid: u32, id: Option<&'a str>) -> NewMail<'a> {
    NewMail {
        account_id: "acc",
        mailbox: "me@x/INBOX",
        uid_validity: 7,
        uid,
        message_id: id,
        from: "a@b.c",
        subject: "s",
    }
}

#[test]
fn a_mail_is_claimed_once_by_place_and_by_message_id() {
    let (book, _dir) = book();
    let first = book.claim(&new_mail(1, Some("m1"))).unwrap().unwrap();
    assert_eq!(book.claim(&new_mail(1, Some("other"))).unwrap(), None);
    assert_eq!(book.claim(&new_mail(2, Some("m1"))).unwrap(), None);
    book.wait(&first, b"raw").unwrap();
    let waiting = book.waiting().unwrap();
    assert_eq!((waiting.len(), waiting[0].raw.as_slice()), (1, &b"raw"[..]));
    book.finish(
        &first,
        &Outcome::Done {
            summary: "sum".into(),
            row_id: "r".into(),
        },
    )
    .unwrap();
    assert!(book.waiting().unwrap().is_empty());
    for uid in 2..7 {
        book.claim(&new_mail(uid, None)).unwrap().unwrap();
    }
    let page = book.page("acc", 4, None).unwrap();
    assert_eq!(page.summaries.len(), 4);
    let rest = book.page("acc", 4, page.next.as_deref()).unwrap();
    assert_eq!((rest.summaries.len(), rest.next), (2, None));
    assert_eq!(rest.summaries[1].summary.as_deref(), Some("sum"));
    assert!(book.mark_once("k", "v").unwrap());
    assert!(!book.mark_once("k", "v").unwrap());
}

#[test]
fn the_briefing_has_a_section_per_chosen_source_and_reads_without_the_model() {
    let chosen = Source::chosen(&serde_json::json!({"sms": false, "rss": false}));
    assert_eq!(chosen.len(), 7);
    assert!(!chosen.contains(&Source::Sms));
    let facts = sections::facts(&[
        Section::new(Source::Calendar, vec!["09:00 Standup".into()]),
        Section::new(Source::PmEvents, vec![]),
        Section::not_set_up(Source::ChatApp, "no teamchat.toml"),
    ]);
    assert_eq!(
        facts,
        "Calendar:\n- 09:00 Standup\nProject events: nothing.\nTeam chat: not set up (no teamchat.toml)."
    );
    assert_eq!(sections::body(None, &facts), facts);
    assert_eq!(sections::body(Some(" "), &facts), facts);
    assert!(sections::body(Some("Start with the standup."), &facts).starts_with("Start with"));
}

#[test]
fn the_morning_digest_falls_due_at_its_local_time() {
    let zone = jiff::tz::TimeZone::get("Europe/Paris").unwrap();
    let at = morning::delivery_time("07:30");
    assert_eq!(at, time(7, 30, 0, 0));
    assert_eq!(morning::delivery_time("late"), time(8, 0, 0, 0));
    assert_eq!(morning::delivery_time("25:00"), time(8, 0, 0, 0));
    let before: jiff::Timestamp = "2030-01-07T06:00:00Z".parse().unwrap();
    assert_eq!(morning::due_day(&zone, at, before), None);
    assert_eq!(
        morning::next_moment(&zone, at, before),
        "2030-01-07T06:30:00Z".parse::<jiff::Timestamp>().unwrap()
    );
    let after: jiff::Timestamp = "2030-01-07T06:30:00Z".parse().unwrap();
    assert_eq!(
        morning::due_day(&zone, at, after).map(|d| d.to_string()),
        Some("2030-01-07".to_owned())
    );
    assert_eq!(
        morning::next_moment(&zone, at, after),
        "2030-01-08T06:30:00Z".parse::<jiff::Timestamp>().unwrap()
    );
}
