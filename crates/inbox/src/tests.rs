//! The inbox's rules against a real SQLite file: dedup, paging, states,
//! hidden categories, counts, and the upgrade of rows the first schema wrote.

use std::sync::Arc;

use store::Db;

use crate::row::{MAX_BODY_CHARS, MAX_TITLE_CHARS};
use crate::*;

fn inbox() -> (tempfile::TempDir, Inbox) {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock = Arc::new(clock::ManualClock::starting_now());
    (dir, Inbox::new(db, clock))
}

fn alert(title: &str) -> NewRow {
    let mut row = NewRow::new(Category::Alert, title);
    row.body = Some("details".into());
    row.source.session_id = Some("s1".into());
    row
}

fn page(inbox: &Inbox, account: &str, query: ListQuery) -> Vec<String> {
    inbox
        .list(account, &ListQuery { limit: 50, ..query })
        .unwrap()
        .into_iter()
        .map(|r| r.title)
        .collect()
}

fn open(inbox: &Inbox, account: &str) -> Vec<String> {
    page(inbox, account, ListQuery::default())
}

#[test]
fn rows_are_listed_newest_first_per_account() {
    let (_dir, inbox) = inbox();
    inbox.add("a", alert("first")).unwrap();
    inbox.add("a", alert("second")).unwrap();
    inbox.add("b", alert("other account")).unwrap();
    assert_eq!(open(&inbox, "a"), ["second", "first"]);
}

#[test]
fn a_repeat_of_an_unread_row_bumps_it_until_it_is_read() {
    let (_dir, inbox) = inbox();
    let first = inbox.add("a", alert("failing").dedup("failing")).unwrap();
    inbox.add("a", alert("other")).unwrap();
    let mut again = alert("failing").dedup("failing");
    again.body = Some("newer details".into());
    let bumped = inbox.add("a", again).unwrap();
    assert!(bumped.repeated && !first.repeated);
    assert_eq!(bumped.row.id, first.row.id);
    assert_eq!(bumped.row.count, 2);
    assert_eq!(bumped.row.body.as_deref(), Some("newer details"));
    // The bump moves it to the top.
    assert_eq!(open(&inbox, "a"), ["failing", "other"]);
    // Another account's identical alert is its own row.
    assert_eq!(
        inbox
            .add("b", alert("failing").dedup("failing"))
            .unwrap()
            .row
            .count,
        1
    );

    let change = RowChange {
        read: Some(true),
        archived: None,
    };
    inbox.change("a", &first.row.id, change).unwrap();
    let fresh = inbox.add("a", alert("failing").dedup("failing")).unwrap();
    assert!(!fresh.repeated);
    assert_ne!(fresh.row.id, first.row.id);
    // Marked unread again, the old row no longer takes repeats.
    let unread = RowChange {
        read: Some(false),
        archived: None,
    };
    inbox.change("a", &first.row.id, unread).unwrap();
    assert_eq!(
        inbox
            .add("a", alert("failing").dedup("failing"))
            .unwrap()
            .row
            .id,
        fresh.row.id
    );
}

#[test]
fn pages_follow_the_keyset_and_states_filter() {
    let (_dir, inbox) = inbox();
    let ids: Vec<String> = (0..7)
        .map(|n| inbox.add("a", alert(&format!("row {n}"))).unwrap().row.id)
        .collect();
    let first = inbox
        .list(
            "a",
            &ListQuery {
                limit: 3,
                ..Default::default()
            },
        )
        .unwrap();
    let titles: Vec<&str> = first.iter().map(|r| r.title.as_str()).collect();
    assert_eq!(titles, ["row 6", "row 5", "row 4"]);
    let before = Some(first[2].id.clone());
    assert_eq!(
        page(
            &inbox,
            "a",
            ListQuery {
                before,
                ..Default::default()
            }
        ),
        ["row 3", "row 2", "row 1", "row 0"]
    );
    let read = RowChange {
        read: Some(true),
        archived: None,
    };
    let archive = RowChange {
        read: None,
        archived: Some(true),
    };
    inbox.change("a", &ids[1], read).unwrap();
    inbox.change("a", &ids[2], archive).unwrap();
    let with = |state| {
        page(
            &inbox,
            "a",
            ListQuery {
                state,
                ..Default::default()
            },
        )
    };
    assert_eq!(with(StateFilter::Read), ["row 1"]);
    assert_eq!(with(StateFilter::Archived), ["row 2"]);
    assert_eq!(with(StateFilter::Unread).len(), 5);
    assert_eq!(with(StateFilter::Open).len(), 6);
    assert_eq!(with(StateFilter::All).len(), 7);
    for state in [
        StateFilter::Read,
        StateFilter::Archived,
        StateFilter::Unread,
        StateFilter::Open,
        StateFilter::All,
    ] {
        let query = ListQuery {
            state,
            category: Some(Category::Alert),
            ..Default::default()
        };
        assert_eq!(page(&inbox, "a", query), with(state), "{state:?}");
    }
    let foreign = ListQuery {
        before: Some(ids[3].clone()),
        limit: 5,
        ..Default::default()
    };
    assert!(matches!(
        inbox.list("b", &foreign),
        Err(InboxError::UnknownCursor)
    ));
    assert!(matches!(
        inbox.list("a", &ListQuery::default()),
        Err(InboxError::InvalidLimit)
    ));
    assert!(matches!(
        inbox.change("b", &ids[0], read),
        Err(InboxError::NotFound)
    ));
}

#[test]
fn hidden_categories_stay_stored_and_uncounted() {
    let (_dir, inbox) = inbox();
    inbox.add("a", alert("an alert")).unwrap();
    inbox
        .add("a", NewRow::new(Category::Session, "needs you"))
        .unwrap();
    inbox
        .add("a", NewRow::new(Category::Digest, "daily"))
        .unwrap();
    let hidden = vec![Category::Session];
    assert_eq!(
        page(
            &inbox,
            "a",
            ListQuery {
                hidden: hidden.clone(),
                ..Default::default()
            }
        ),
        ["daily", "an alert"]
    );
    let only = ListQuery {
        hidden: hidden.clone(),
        category: Some(Category::Session),
        ..Default::default()
    };
    assert!(page(&inbox, "a", only).is_empty());
    let counts = inbox.unread_counts("a", &hidden).unwrap();
    assert_eq!(counts.get(&Category::Alert), Some(&1));
    assert_eq!(counts.get(&Category::Note), Some(&0));
    assert!(!counts.contains_key(&Category::Session));
    assert_eq!(inbox.read_all("a", None, &hidden).unwrap(), 2);
    assert_eq!(
        inbox.unread_counts("a", &[]).unwrap()[&Category::Session],
        1
    );
    assert_eq!(
        inbox.read_all("a", Some(Category::Session), &[]).unwrap(),
        1
    );
}

#[test]
fn bad_titles_and_bodies_store_nothing() {
    let (_dir, inbox) = inbox();
    assert!(matches!(
        inbox.add("a", alert("   ")),
        Err(InboxError::InvalidTitle)
    ));
    let long = "x".repeat(MAX_TITLE_CHARS + 1);
    assert!(inbox.add("a", alert(&long)).is_err());
    let mut row = alert("ok");
    row.body = Some("y".repeat(MAX_BODY_CHARS + 1));
    assert!(matches!(inbox.add("a", row), Err(InboxError::InvalidBody)));
    assert!(open(&inbox, "a").is_empty());
}

#[test]
fn rows_of_the_first_schema_get_the_new_shape() {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(&MIGRATIONS[..1]).unwrap();
    db.write(|tx| {
        tx.execute_batch(
            "INSERT INTO inbox_rows (id, account_id, category, title, source_session_id, created_at)
             VALUES ('r1', 'a', 'alert', 'old', 's9', '2026-01-01T00:00:00.000Z'),
                    ('r2', 'a', 'pm-event', 'moved', NULL, '2026-01-02T00:00:00.000Z');",
        )
    })
    .unwrap();
    db.migrate(MIGRATIONS).unwrap();
    let inbox = Inbox::new(db, Arc::new(clock::SystemClock));
    let old = inbox.get("a", "r1").unwrap();
    assert_eq!(old.source.session_id.as_deref(), Some("s9"));
    assert_eq!(
        old.actions,
        [Action::OpenSession {
            session_id: "s9".into()
        }]
    );
    assert_eq!(
        (old.count, old.updated_at.as_str()),
        (1, "2026-01-01T00:00:00.000Z")
    );
    assert_eq!(inbox.get("a", "r2").unwrap().category, Category::PmEvent);
}

#[test]
fn every_category_round_trips() {
    for category in Category::ALL {
        assert_eq!(Category::parse(category.as_str()), Some(category));
        assert_eq!(serde_json::to_value(category).unwrap(), category.as_str());
    }
}

fn about_session(session: &str, reason: &str) -> NewRow {
    let mut row = NewRow::new(Category::Session, format!("{session}: {reason}"));
    row.reason = Some(reason.into());
    row.source.session_id = Some(session.into());
    row.dedup("session")
}

#[test]
fn a_bump_takes_the_newest_reason() {
    let (_dir, inbox) = inbox();
    inbox.add("a", about_session("s1", "question")).unwrap();
    let bumped = inbox.add("a", about_session("s1", "failed")).unwrap();
    assert!(bumped.repeated);
    assert_eq!(bumped.row.reason.as_deref(), Some("failed"));
    assert_eq!(bumped.row.title, "s1: failed");
}

#[test]
fn reading_about_a_session_marks_only_its_unread_rows_of_that_category() {
    let (_dir, inbox) = inbox();
    let mine = inbox.add("a", about_session("s1", "question")).unwrap().row;
    let other_session = inbox.add("a", about_session("s2", "question")).unwrap().row;
    let other_account = inbox.add("b", about_session("s1", "question")).unwrap().row;
    let alert = inbox.add("a", alert("from s1")).unwrap().row;
    let read = inbox
        .read_about_session("a", Category::Session, "s1")
        .unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].id, mine.id);
    assert!(read[0].read_at.is_some());
    for untouched in [
        inbox.get("a", &other_session.id).unwrap(),
        inbox.get("b", &other_account.id).unwrap(),
        inbox.get("a", &alert.id).unwrap(),
    ] {
        assert!(untouched.read_at.is_none(), "{}", untouched.title);
    }
    // Read, it takes no more repeats: the next notice is a new row.
    let next = inbox.add("a", about_session("s1", "failed")).unwrap();
    assert!(!next.repeated);
    assert_ne!(next.row.id, mine.id);
    // Nothing left unread: nothing marked, nothing returned.
    inbox
        .read_about_session("a", Category::Session, "s1")
        .unwrap();
    assert!(
        inbox
            .read_about_session("a", Category::Session, "s1")
            .unwrap()
            .is_empty()
    );
}

#[test]
fn clip_counts_characters_and_marks_a_cut() {
    assert_eq!(clip("short", 10), "short");
    let long = "é".repeat(MAX_TITLE_CHARS + 5);
    let clipped = clip(&long, MAX_TITLE_CHARS);
    assert_eq!(clipped.chars().count(), MAX_TITLE_CHARS);
    assert!(clipped.ends_with('…'));
}
