//! Summaries on a real database: one per account, kind and period.

use super::*;

#[test]
fn a_period_is_kept_once_per_account_and_listed_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
    db.migrate(MIGRATIONS).unwrap();
    let period = Period {
        start: "2026-11-16T07:00:00Z".parse().unwrap(),
        end: "2026-11-23T07:00:00Z".parse().unwrap(),
    };
    let now: jiff::Timestamp = "2026-11-23T07:00:01Z".parse().unwrap();
    assert!(!exists(&db, "a", Kind::Weekly, &period).unwrap());
    let kept = keep(&db, "a", Kind::Weekly, &period, "- 3 sessions", now)
        .unwrap()
        .unwrap();
    assert_eq!(kept.period_end, "2026-11-23T07:00:00.000Z");
    assert!(exists(&db, "a", Kind::Weekly, &period).unwrap());
    assert!(
        keep(&db, "a", Kind::Weekly, &period, "again", now)
            .unwrap()
            .is_none()
    );
    assert!(
        keep(&db, "b", Kind::Weekly, &period, "b's", now)
            .unwrap()
            .is_some()
    );
    let later = now
        .checked_add(jiff::SignedDuration::from_secs(60))
        .unwrap();
    keep(&db, "a", Kind::ArchiveDaily, &period, "digest", later).unwrap();
    let listed = list(&db, "a").unwrap();
    let kinds: Vec<Kind> = listed.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [Kind::ArchiveDaily, Kind::Weekly]);
    assert_eq!(listed[1].text, "- 3 sessions");
}

#[test]
fn each_scheduler_s_last_look_is_kept_and_handed_back_at_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
    db.migrate(MIGRATIONS).unwrap();
    let first: jiff::Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
    let second: jiff::Timestamp = "2026-11-24T09:00:00Z".parse().unwrap();
    assert_eq!(look(&db, "weekly_summary", first).unwrap(), None);
    assert_eq!(look(&db, "forensics_weekly", second).unwrap(), None);
    assert_eq!(look(&db, "weekly_summary", second).unwrap(), Some(first));
    assert_eq!(look(&db, "weekly_summary", second).unwrap(), Some(second));
}
