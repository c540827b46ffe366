//! The kept reports on a real SQLite file and a manual clock: feedback
//! checked and sent once, a crash recorded while its mail was off never
//! due, the digest due at once and then a week after the last.

use std::sync::Arc;

use clock::{Clock, ManualClock};
use diagnostics::{Crash, DIGEST_EVERY, Diagnostics, DiagnosticsError, Kind, Usage};
use time::macros::datetime;

fn diagnostics() -> (tempfile::TempDir, Arc<ManualClock>, Diagnostics) {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(diagnostics::MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::new(datetime!(2026-11-29 09:00 UTC)));
    let kept = Diagnostics::new(db, clock.clone() as Arc<dyn Clock>);
    (dir, clock, kept)
}

#[test]
fn feedback_is_checked_kept_and_due_until_sent_once() {
    let (_dir, _clock, kept) = diagnostics();
    for bad in ["", "   \n", &"x".repeat(10_001)] {
        assert!(matches!(
            kept.feedback("me", bad, "1.0"),
            Err(DiagnosticsError::Invalid(_))
        ));
    }
    let report = kept.feedback("me", "The board is slow", "1.0").unwrap();
    assert_eq!(report.kind, Kind::Feedback);
    assert_eq!(report.subject, "Switchboard feedback: The board is slow");
    assert_eq!(
        kept.due(Kind::Feedback).unwrap(),
        std::slice::from_ref(&report)
    );
    assert!(kept.claim(&report.id).unwrap());
    assert!(!kept.claim(&report.id).unwrap(), "taken once");
    kept.failed(&report.id, "550 no such user").unwrap();
    assert!(kept.claim(&report.id).unwrap(), "a failure frees it");
    let waiting = kept.due(Kind::Feedback).unwrap();
    assert_eq!(waiting[0].last_failure.as_deref(), Some("550 no such user"));
    kept.sent(&report.id).unwrap();
    assert!(kept.due(Kind::Feedback).unwrap().is_empty());
    let listed = kept.feedback_of("me").unwrap();
    assert!(listed[0].sent_at.is_some() && listed[0].last_failure.is_none());
    assert!(kept.feedback_of("someone else").unwrap().is_empty());
}

#[test]
fn a_crash_kept_while_its_mail_was_off_is_never_due() {
    let (_dir, _clock, kept) = diagnostics();
    let crash = Crash {
        message: "index out of bounds".into(),
        location: "crates/app/src/x.rs:10".into(),
    };
    kept.crash(&crash, "1.0", false).unwrap();
    assert!(kept.due(Kind::Crash).unwrap().is_empty());
    let sendable = kept.crash(&crash, "1.0", true).unwrap();
    assert!(
        sendable.body.contains("crates/app/src/x.rs:10"),
        "{}",
        sendable.body
    );
    assert_eq!(kept.due(Kind::Crash).unwrap(), [sendable]);
    assert_eq!(kept.crashes_since("2026-11-29T00:00:00.000Z").unwrap(), 2);
}

#[test]
fn the_digest_is_due_at_once_then_a_week_after_the_last() {
    let (_dir, clock, kept) = diagnostics();
    assert_eq!(
        kept.digest_due().unwrap(),
        Some(datetime!(2026-11-29 09:00 UTC) - DIGEST_EVERY)
    );
    let week = Usage {
        from: clock::timestamp(datetime!(2026-11-29 09:00 UTC) - DIGEST_EVERY),
        ..Usage::default()
    };
    assert!(kept.digest(&week).unwrap().is_some());
    // A second round that saw the same week due keeps no second digest.
    assert_eq!(kept.digest(&week).unwrap(), None);
    assert_eq!(kept.due(Kind::Digest).unwrap().len(), 1);
    assert_eq!(kept.digest_due().unwrap(), None);
    clock.advance(DIGEST_EVERY - time::Duration::minutes(1));
    assert_eq!(kept.digest_due().unwrap(), None);
    clock.advance(time::Duration::minutes(1));
    assert_eq!(
        kept.digest_due().unwrap(),
        Some(datetime!(2026-11-29 09:00 UTC))
    );
}
