//! A subscription's changed file writes only what changed in it: with one
//! event edited out of 300, the sync writes that event's rows and leaves
//! every other event's stored rows as they were (same row ids); a removed
//! event is deleted and a new one added; a change to the file's time zones
//! writes every event again, since each was expanded with them (the
//! events in that zone move).

// The scripted server, of which this file needs only part.
#[allow(dead_code)]
mod fake;

use std::sync::{Arc, Mutex};

use calendar::{Calendars, Kind, NewAccount, Options};
use clock::ManualClock;
use fake::{Fake, Response};
use store::Db;
use time::macros::datetime;

const OWNER: &str = "owner";
const EVENTS: usize = 300;

struct Setup {
    _dir: tempfile::TempDir,
    _fake: Fake,
    db: Arc<Db>,
    calendars: Calendars,
    served: Arc<Mutex<(String, String)>>,
    id: String,
}

/// A subscription to [`fake::big_ics`] of [`EVENTS`] events, synchronised once.
fn setup() -> Setup {
    let served = Arc::new(Mutex::new(("\"v1\"".to_owned(), fake::big_ics(EVENTS))));
    let fake = {
        let served = served.clone();
        Fake::start(move |r| {
            let (etag, text) = served.lock().unwrap().clone();
            if r.header("if-none-match") == Some(etag.as_str()) {
                return Response::new(304, "");
            }
            Response::new(200, text).header("ETag", &etag)
        })
    };
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(secrets::MIGRATIONS).unwrap();
    db.migrate(calendar::MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::new(datetime!(2026-01-02 12:00 UTC)));
    let cipher = secrets::Cipher::load_or_create(&dir.path().join("secrets.key")).unwrap();
    let secrets = Arc::new(secrets::Secrets::new(db.clone(), clock.clone(), cipher));
    let options = Options {
        floating_zone: jiff::tz::TimeZone::UTC,
        ..Options::default()
    };
    let calendars = Calendars::with_options(db.clone(), clock, secrets, options);
    let new = NewAccount {
        kind: Kind::Ics,
        url: format!("{}/big.ics", fake.url),
        username: None,
        password: None,
        name: None,
    };
    let id = calendars.add(OWNER, new).unwrap().id;
    let first = calendars.sync(OWNER, &id).unwrap();
    assert_eq!(first.fetched, EVENTS);
    let stored = Setup::count(&db);
    assert!(
        stored > EVENTS as i64,
        "every event is inside the window: {stored}"
    );
    Setup {
        _dir: dir,
        _fake: fake,
        db,
        calendars,
        served,
        id,
    }
}

impl Setup {
    /// Serves `edit` of the current file under a new ETag and syncs:
    /// the rows the sync wrote (inserted, updated or deleted).
    fn sync_edited(&self, edit: impl FnOnce(&str) -> String) -> (calendar::SyncReport, u64) {
        {
            let mut served = self.served.lock().unwrap();
            let text = edit(&served.1);
            assert_ne!(text, served.1, "the edit changes the file");
            *served = (format!("{}+", served.0), text);
        }
        let before = self.written();
        let report = self.calendars.sync(OWNER, &self.id).unwrap();
        (report, self.written() - before)
    }

    fn count(db: &Db) -> i64 {
        db.read(|tx| {
            tx.query_row("SELECT count(*) FROM calendar_occurrences", [], |r| {
                r.get(0)
            })
        })
        .unwrap()
    }

    fn written(&self) -> u64 {
        self.db
            .write(|tx| Ok::<_, store::rusqlite::Error>(tx.total_changes()))
            .unwrap()
    }

    /// Every stored occurrence as (uid, row id, summary, start), by uid and start.
    fn rows(&self) -> Vec<(String, i64, String, i64)> {
        self.db
            .read(|tx| {
                let mut stmt = tx.prepare(
                    "SELECT uid, rowid, summary, start_at FROM calendar_occurrences ORDER BY uid, start_at",
                )?;
                let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
                rows.collect::<Result<Vec<_>, _>>()
            })
            .unwrap()
    }
}

#[test]
fn one_event_changed_writes_only_that_events_rows() {
    let s = setup();
    let before = s.rows();
    let (report, written) = s.sync_edited(|text| {
        text.replacen("SUMMARY:Meeting 7\r\n", "SUMMARY:Meeting 7 moved\r\n", 1)
    });
    assert_eq!((report.fetched, report.removed), (EVENTS, 0));
    assert!(!report.not_modified);
    // The object, its occurrence deleted and inserted, the collection, the
    // validators and the account's state: not 300 events' rows.
    assert!(written <= 8, "{written} rows written for one changed event");
    let after = s.rows();
    assert_eq!(after.len(), before.len());
    for (old, new) in before.iter().zip(&after) {
        if old.0 == "big-7@fake" {
            assert_eq!(new.2, "Meeting 7 moved");
            assert_ne!(old.1, new.1, "the changed event is written again");
        } else {
            assert_eq!(old, new, "an unchanged event keeps its row");
        }
    }
}

#[test]
fn a_removed_event_is_deleted_and_a_new_one_added() {
    let s = setup();
    let before = s.rows();
    let (report, written) = s.sync_edited(|text| {
        let gone = text.replacen("UID:big-8@fake\r\n", "UID:big-new@fake\r\n", 1);
        gone.replacen("SUMMARY:Meeting 8\r\n", "SUMMARY:Brand new\r\n", 1)
    });
    assert_eq!((report.fetched, report.removed), (EVENTS, 1));
    assert!(
        written <= 10,
        "{written} rows written for one event replaced"
    );
    let after = s.rows();
    assert!(after.iter().all(|r| r.0 != "big-8@fake"));
    assert!(
        after
            .iter()
            .any(|r| r.0 == "big-new@fake" && r.2 == "Brand new")
    );
    let kept = |rows: &[(String, i64, String, i64)]| -> Vec<(String, i64, String, i64)> {
        rows.iter()
            .filter(|r| r.0 != "big-8@fake" && r.0 != "big-new@fake")
            .cloned()
            .collect()
    };
    assert_eq!(kept(&before), kept(&after));
}

#[test]
fn changed_time_zones_write_every_event_again() {
    let s = setup();
    let before = s.rows();
    // The file's own zone moves its standard offset by an hour.
    let (_, written) =
        s.sync_edited(|text| text.replacen("TZOFFSETTO:+0100", "TZOFFSETTO:+0000", 1));
    assert!(
        written >= 2 * EVENTS as u64,
        "{written} rows written, every event's expected"
    );
    // Odd events are in that zone: an hour later in UTC now.
    let after = s.rows();
    assert_eq!(before.len(), after.len());
    for (old, new) in before.iter().zip(&after) {
        let odd = old
            .0
            .trim_end_matches("@fake")
            .ends_with(['1', '3', '5', '7', '9']);
        assert_eq!(
            new.3 - old.3,
            if odd { 3_600 } else { 0 },
            "{old:?} → {new:?}"
        );
    }
}
