//! Caught follow-ups: a session is claimed for scanning once, even by
//! racing threads; staged items list newest first; keeping makes a task in
//! the personal list tied to the session, once; dismissing hides them.

use std::sync::Arc;

use time::Duration;

use super::support::{outline, setup};
use crate::TaskError;

#[test]
fn a_session_is_claimed_for_scanning_once() {
    let s = setup();
    assert!(s.tasks.claim_scan("session-1").unwrap());
    assert!(!s.tasks.claim_scan("session-1").unwrap());
    assert!(s.tasks.claim_scan("session-2").unwrap());

    let shared = Arc::new(s.tasks);
    let winners: usize = (0..8)
        .map(|_| {
            let tasks = shared.clone();
            std::thread::spawn(move || usize::from(tasks.claim_scan("session-3").unwrap()))
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .sum();
    assert_eq!(winners, 1);
}

#[test]
fn staged_follow_ups_are_kept_once_or_dismissed() {
    let s = setup();
    let t = &s.tasks;
    let pair = |text: &str, quote: &str| (text.to_owned(), quote.to_owned());
    let first = t
        .stage(
            "acc",
            "session-1",
            Some("Fix the build"),
            vec![
                pair("Rotate the\nAPI key", "  I'll rotate the API key later.  "),
                pair("   ", "nothing to do"),
                pair(&"long ".repeat(500), "q"),
            ],
        )
        .unwrap();
    assert_eq!(first.len(), 2);
    assert_eq!(first[0].text, "Rotate the API key");
    assert_eq!(first[0].quote, "I'll rotate the API key later.");
    assert_eq!(first[1].text.chars().count(), 1999);
    s.clock.advance(Duration::minutes(1));
    let second = t
        .stage(
            "acc",
            "session-2",
            None,
            vec![pair("Write docs", "We still need docs.")],
        )
        .unwrap();
    t.stage("other", "session-9", None, vec![pair("Not yours", "q")])
        .unwrap();

    let listed: Vec<String> = t
        .list_caught("acc")
        .unwrap()
        .into_iter()
        .map(|c| c.text.chars().take(18).collect())
        .collect();
    assert_eq!(
        listed,
        ["Write docs", "Rotate the API key", "long long long lon"]
    );

    let task = t.keep("acc", &first[0].id).unwrap();
    assert_eq!(task.text, "Rotate the API key");
    assert_eq!(task.notes, "I'll rotate the API key later.");
    assert_eq!(task.source_session_id.as_deref(), Some("session-1"));
    assert_eq!(task.workspace_id, None);
    assert_eq!(t.keep("acc", &first[0].id).unwrap().id, task.id);
    assert_eq!(
        outline(&t.list("acc", None).unwrap()),
        ["Rotate the API key"]
    );

    t.dismiss("acc", &second[0].id).unwrap();
    t.dismiss("acc", &second[0].id).unwrap();
    assert!(matches!(
        t.keep("acc", &second[0].id),
        Err(TaskError::NotFound)
    ));
    assert!(matches!(
        t.dismiss("acc", &first[0].id),
        Err(TaskError::NotFound)
    ));
    assert!(matches!(
        t.keep("other", &first[1].id),
        Err(TaskError::NotFound)
    ));
    assert!(matches!(
        t.dismiss("acc", "nothing"),
        Err(TaskError::NotFound)
    ));
    let left: Vec<String> = t
        .list_caught("acc")
        .unwrap()
        .into_iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(left, [first[1].id.clone()]);
}
