//! The Stats' rules against a real SQLite file: waits, pile-up samples,
//! view reports, the week's window, clearing, and that nothing but counts
//! and durations can be stored.

use std::collections::BTreeMap;
use std::sync::Arc;

use clock::ManualClock;
use store::Db;
use time::Duration;
use time::macros::datetime;

use crate::*;

fn stats() -> (tempfile::TempDir, Arc<ManualClock>, InboxStats) {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::new(datetime!(2026-03-10 12:00 UTC)));
    (dir, clock.clone(), InboxStats::new(db, clock))
}

fn view(category: Category, looks: u32, idle_looks: u32, visible_ms: u64) -> ViewReport {
    ViewReport {
        category,
        looks,
        idle_looks,
        visible_ms,
    }
}

#[test]
fn an_action_adds_its_wait_to_the_day_of_the_action() {
    let (_dir, _clock, stats) = stats();
    stats
        .record_action("a", Category::Alert, "2026-03-10T11:30:00.000Z")
        .unwrap();
    stats
        .record_action("a", Category::Alert, "2026-03-10T11:50:00.000Z")
        .unwrap();
    stats
        .record_action("a", Category::Mail, "not a time")
        .unwrap();
    let week = stats.week("a").unwrap();
    assert_eq!(week.days.len(), 7);
    assert_eq!(week.days.last().unwrap(), "2026-03-10");
    let alert = week
        .rows
        .iter()
        .find(|r| r.category == Category::Alert)
        .unwrap();
    assert_eq!((alert.actions, alert.wait_ms), (2, 40 * 60 * 1000));
    let mail = week
        .rows
        .iter()
        .find(|r| r.category == Category::Mail)
        .unwrap();
    assert_eq!((mail.actions, mail.wait_ms), (1, 0));
    assert!(stats.week("b").unwrap().rows.is_empty());
}

#[test]
fn a_days_pile_up_is_its_latest_sample() {
    let (_dir, clock, stats) = stats();
    stats
        .record_unread(
            "a",
            &BTreeMap::from([(Category::Session, 4), (Category::Sms, 1)]),
        )
        .unwrap();
    stats
        .record_unread("a", &BTreeMap::from([(Category::Session, 6)]))
        .unwrap();
    clock.advance(Duration::days(1));
    stats
        .record_unread("a", &BTreeMap::from([(Category::Session, 2)]))
        .unwrap();
    let sessions: Vec<_> = stats
        .week("a")
        .unwrap()
        .rows
        .into_iter()
        .filter(|r| r.category == Category::Session)
        .map(|r| (r.day, r.unread))
        .collect();
    assert_eq!(
        sessions,
        vec![
            ("2026-03-10".to_owned(), Some(6)),
            ("2026-03-11".to_owned(), Some(2))
        ]
    );
}

#[test]
fn view_reports_add_up_and_impossible_ones_are_refused_whole() {
    let (_dir, _clock, stats) = stats();
    stats
        .record_views("a", &[view(Category::Note, 3, 1, 5_000)])
        .unwrap();
    stats
        .record_views("a", &[view(Category::Note, 2, 2, 1_000)])
        .unwrap();
    for bad in [
        view(Category::Note, 1, 2, 0),
        view(Category::Note, MAX_REPORT_LOOKS + 1, 0, 0),
        view(Category::Note, 1, 0, MAX_REPORT_VISIBLE_MS + 1),
    ] {
        let batch = [view(Category::Alert, 1, 0, 10), bad];
        assert!(matches!(
            stats.record_views("a", &batch),
            Err(StatsError::InvalidReport)
        ));
    }
    let week = stats.week("a").unwrap();
    assert_eq!(week.rows.len(), 1, "nothing of a refused batch is kept");
    let note = &week.rows[0];
    assert_eq!(
        (note.looks, note.idle_looks, note.visible_ms, note.unread),
        (5, 3, 6_000, None)
    );
}

#[test]
fn days_older_than_the_week_are_dropped_as_new_ones_are_written() {
    let (_dir, clock, stats) = stats();
    stats
        .record_views("a", &[view(Category::Alert, 1, 0, 1)])
        .unwrap();
    clock.advance(Duration::days(6));
    stats
        .record_views("a", &[view(Category::Alert, 1, 0, 1)])
        .unwrap();
    assert_eq!(stats.week("a").unwrap().rows.len(), 2);
    clock.advance(Duration::days(1));
    stats
        .record_views("a", &[view(Category::Alert, 1, 0, 1)])
        .unwrap();
    let days: Vec<_> = stats
        .week("a")
        .unwrap()
        .rows
        .into_iter()
        .map(|r| r.day)
        .collect();
    assert_eq!(days, vec!["2026-03-16", "2026-03-17"]);
}

#[test]
fn clear_forgets_every_account() {
    let (_dir, _clock, stats) = stats();
    for account in ["a", "b"] {
        stats
            .record_action(account, Category::Alert, "2026-03-10T11:00:00.000Z")
            .unwrap();
    }
    assert_eq!(stats.clear().unwrap(), 2);
    assert!(stats.week("a").unwrap().rows.is_empty());
    assert!(stats.week("b").unwrap().rows.is_empty());
}

#[test]
fn the_table_has_room_for_counts_and_durations_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
    db.migrate(MIGRATIONS).unwrap();
    let columns: Vec<(String, String)> = db
        .read(|tx| {
            let mut stmt =
                tx.prepare("SELECT name, type FROM pragma_table_info('inbox_stats_days')")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })
        .unwrap();
    let text: Vec<_> = columns
        .iter()
        .filter(|(_, kind)| kind == "TEXT")
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(text, vec!["account_id", "day", "category"]);
}
