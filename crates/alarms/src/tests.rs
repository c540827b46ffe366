//! The alarms' life over a database and a manual clock: snooze limits,
//! dismissing, ringing on time, giving up after the longest ring, and what a
//! start finds due.

use std::sync::{Arc, Mutex};

use clock::{Clock, ManualClock};
use jiff::SignedDuration;
use jiff::tz::TimeZone;
use time::macros::datetime;

use crate::{AlarmError, Alarms, Fired, MIGRATIONS, Repeat, SnoozeRule, Status, scheduler};

const LONGEST_RING: SignedDuration = SignedDuration::from_mins(10);

struct Setup {
    _dir: tempfile::TempDir,
    clock: Arc<ManualClock>,
    alarms: Arc<Alarms>,
}

/// Monday 2026-01-05, 09:00 in Berlin.
fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::new(datetime!(2026-01-05 08:00 UTC)));
    let zone = TimeZone::get("Europe/Berlin").unwrap();
    let alarms = Arc::new(Alarms::new(db, clock.clone(), zone));
    Setup {
        _dir: dir,
        clock,
        alarms,
    }
}

fn rule(max_snoozes: Option<u32>) -> SnoozeRule {
    SnoozeRule {
        minutes: 9,
        max_snoozes,
    }
}

fn minutes(n: i64) -> time::Duration {
    time::Duration::minutes(n)
}

#[test]
fn snoozing_counts_up_to_the_limit_and_minus_one_means_none() {
    let s = setup();
    let alarm = s.alarms.create("a", "Stand-up", "09:05", None).unwrap();
    assert_eq!(alarm.at, "2026-01-05T08:05:00.000Z");
    assert!(matches!(
        s.alarms.snooze("a", &alarm.id, rule(Some(2))),
        Err(AlarmError::NotRinging)
    ));
    for round in 1..=2 {
        s.clock.advance(minutes(10));
        s.alarms.tick(LONGEST_RING, false).unwrap();
        let snoozed = s.alarms.snooze("a", &alarm.id, rule(Some(2))).unwrap();
        assert_eq!(snoozed.status, Status::Snoozed);
        assert_eq!(snoozed.snoozes, round);
        assert_eq!(snoozed.at, clock::timestamp(s.clock.now() + minutes(9)));
    }
    s.clock.advance(minutes(10));
    s.alarms.tick(LONGEST_RING, false).unwrap();
    assert!(matches!(
        s.alarms.snooze("a", &alarm.id, rule(Some(2))),
        Err(AlarmError::SnoozeLimit(2))
    ));
    // No limit: the third snooze goes through.
    let again = s.alarms.snooze("a", &alarm.id, rule(None)).unwrap();
    assert_eq!(again.snoozes, 3);
    // Another account's alarm is not found.
    assert!(matches!(
        s.alarms.snooze("b", &alarm.id, rule(None)),
        Err(AlarmError::NotFound)
    ));
}

#[test]
fn dismissing_ends_a_one_time_alarm_and_moves_a_repeating_one_on() {
    let s = setup();
    let once = s.alarms.create("a", "Once", "09:30", None).unwrap();
    let daily = s
        .alarms
        .create("a", "Daily", "09:30", Some(Repeat::Daily))
        .unwrap();
    assert_eq!(daily.time_of_day.as_deref(), Some("09:30:00"));
    s.clock.advance(minutes(30));
    let fired = s.alarms.tick(LONGEST_RING, false).unwrap();
    assert_eq!(fired.len(), 2);
    assert!(
        fired
            .iter()
            .all(|f| matches!(f, Fired::Ringing(a) if a.status == Status::Ringing))
    );
    let once = s.alarms.dismiss("a", &once.id).unwrap();
    assert_eq!(once.status, Status::Dismissed);
    // Dismissing again answers the same.
    assert_eq!(
        s.alarms.dismiss("a", &once.id).unwrap().status,
        Status::Dismissed
    );
    let daily = s.alarms.dismiss("a", &daily.id).unwrap();
    assert_eq!(daily.status, Status::Scheduled);
    assert_eq!(daily.at, "2026-01-06T08:30:00.000Z");
    assert_eq!(daily.ringing_since, None);
    s.alarms.delete("a", &daily.id).unwrap();
    assert!(matches!(
        s.alarms.delete("a", &daily.id),
        Err(AlarmError::NotFound)
    ));
    let left: Vec<String> = s
        .alarms
        .list("a")
        .unwrap()
        .into_iter()
        .map(|a| a.label)
        .collect();
    assert_eq!(left, ["Once"]);
}

#[test]
fn labels_are_checked() {
    let s = setup();
    assert!(matches!(
        s.alarms.create("a", "  ", "10:00", None),
        Err(AlarmError::InvalidLabel)
    ));
    let long = "x".repeat(201);
    assert!(matches!(
        s.alarms.create("a", &long, "10:00", None),
        Err(AlarmError::InvalidLabel)
    ));
}

#[test]
fn a_ring_left_unanswered_is_missed_and_a_repeat_moves_on() {
    let s = setup();
    let weekdays = s
        .alarms
        .create("a", "Weekdays", "09:10", Some(Repeat::Weekdays))
        .unwrap();
    s.clock.advance(minutes(10));
    assert_eq!(s.alarms.tick(LONGEST_RING, false).unwrap().len(), 1);
    assert_eq!(
        s.alarms.next_wake(LONGEST_RING).unwrap(),
        Some("2026-01-05T08:20:00Z".parse().unwrap())
    );
    s.clock.advance(minutes(9));
    assert!(s.alarms.tick(LONGEST_RING, false).unwrap().is_empty());
    s.clock.advance(minutes(1));
    let fired = s.alarms.tick(LONGEST_RING, false).unwrap();
    let [Fired::Missed { alarm, due_at }] = fired.as_slice() else {
        panic!("{fired:?}");
    };
    assert_eq!(alarm.id, weekdays.id);
    assert_eq!(due_at, "2026-01-05T08:10:00.000Z");
    assert_eq!(alarm.status, Status::Scheduled);
    assert_eq!(alarm.at, "2026-01-06T08:10:00.000Z");
}

#[test]
fn alarms_due_while_the_server_was_down_are_missed_at_start() {
    let s = setup();
    let once = s.alarms.create("a", "Once", "09:30", None).unwrap();
    let daily = s
        .alarms
        .create("a", "Daily", "09:30", Some(Repeat::Daily))
        .unwrap();
    let later = s.alarms.create("a", "Later", "12:00", None).unwrap();
    s.clock.advance(minutes(60));
    let fired = s.alarms.tick(LONGEST_RING, true).unwrap();
    assert_eq!(fired.len(), 2);
    assert_eq!(s.alarms.get("a", &once.id).unwrap().status, Status::Missed);
    let daily = s.alarms.get("a", &daily.id).unwrap();
    assert_eq!(
        (daily.status, daily.at.as_str()),
        (Status::Scheduled, "2026-01-06T08:30:00.000Z")
    );
    assert_eq!(
        s.alarms.get("a", &later.id).unwrap().status,
        Status::Scheduled
    );
}

#[tokio::test]
async fn the_scheduler_rings_on_the_clock_and_gives_up_after_the_longest_ring() {
    let s = setup();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = scheduler::start(
        s.alarms.clone(),
        || true,
        || LONGEST_RING,
        move |fired| record.lock().unwrap().push(fired),
        async move {
            let _ = stopped.await;
        },
    )
    .await
    .unwrap();
    let alarm = s.alarms.create("a", "Tea", "09:03", None).unwrap();
    let wait_for = |count: usize| {
        let seen = seen.clone();
        async move {
            while seen.lock().unwrap().len() < count {
                tokio::task::yield_now().await;
            }
        }
    };
    // Nothing rings before its time.
    s.clock.advance(minutes(2));
    tokio::task::yield_now().await;
    assert!(seen.lock().unwrap().is_empty());
    s.clock.advance(minutes(1));
    tokio::time::timeout(std::time::Duration::from_secs(10), wait_for(1))
        .await
        .unwrap();
    assert!(matches!(&seen.lock().unwrap()[0], Fired::Ringing(a) if a.id == alarm.id));
    s.clock.advance(minutes(10));
    tokio::time::timeout(std::time::Duration::from_secs(10), wait_for(2))
        .await
        .unwrap();
    assert!(matches!(
        &seen.lock().unwrap()[1],
        Fired::Missed { alarm: a, .. } if a.status == Status::Missed
    ));
    stop.send(()).unwrap();
    task.await.unwrap();
}

#[tokio::test]
async fn nothing_rings_while_alarms_are_off_and_what_fell_due_is_missed_once_on() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let s = setup();
    let on = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let switch = on.clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = scheduler::start(
        s.alarms.clone(),
        move || switch.load(Ordering::SeqCst),
        || LONGEST_RING,
        move |fired| record.lock().unwrap().push(fired),
        async move {
            let _ = stopped.await;
        },
    )
    .await
    .unwrap();
    let alarm = s.alarms.create("a", "Tea", "09:03", None).unwrap();
    s.clock.advance(minutes(5));
    // The scheduler woke for the due alarm and did nothing.
    while s.clock.sleepers() == 0 {
        tokio::task::yield_now().await;
    }
    assert!(seen.lock().unwrap().is_empty());
    assert_eq!(
        s.alarms.get("a", &alarm.id).unwrap().status,
        Status::Scheduled
    );
    on.store(true, Ordering::SeqCst);
    s.alarms.changed.notify_one();
    let wait = async {
        while seen.lock().unwrap().is_empty() {
            tokio::task::yield_now().await;
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(10), wait)
        .await
        .unwrap();
    assert!(matches!(&seen.lock().unwrap()[0], Fired::Missed { alarm: a, .. } if a.id == alarm.id));
    stop.send(()).unwrap();
    task.await.unwrap();
}
