//! The notifier against a real SQLite file with the boards' and the inbox's
//! tables: board preferences, holding and releasing, digests by board, and
//! due dates once per item per day. Moments are passed in, never waited for.

use std::sync::Arc;

use boards::{ItemPatch, NewBoard, NewColumn, NewItem};
use inbox::{Category, Inbox, ListQuery, StateFilter};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde_json::{Map, Value, json};
use store::Db;

use crate::*;

const ACCOUNT: &str = "acct";

struct World {
    _dir: tempfile::TempDir,
    db: Arc<Db>,
    inbox: Arc<Inbox>,
    notifier: Notifier,
    me: String,
    other: String,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(&[boards::MIGRATIONS, inbox::MIGRATIONS, MIGRATIONS].concat())
        .unwrap();
    let clock = Arc::new(clock::ManualClock::starting_now());
    let inbox = Arc::new(Inbox::new(db.clone(), clock));
    let me = boards::ensure_self_member(&db, ACCOUNT, "Me").unwrap().id;
    let other = boards::create_member(
        &db,
        ACCOUNT,
        &boards::NewMember {
            name: "Ada".into(),
            email: None,
        },
    )
    .unwrap()
    .id;
    let notifier = Notifier::new(db.clone(), inbox.clone());
    World {
        _dir: dir,
        db,
        inbox,
        notifier,
        me,
        other,
    }
}

fn at(text: &str) -> Timestamp {
    text.parse().unwrap()
}

fn column(id: &str, kind: &str, settings: Option<Value>) -> NewColumn {
    serde_json::from_value(json!({"id": id, "title": id, "type": kind, "settings": settings}))
        .unwrap()
}

impl World {
    fn board(&self, name: &str) -> String {
        let ws = boards::create_workspace(&self.db, ACCOUNT, "W").unwrap();
        let labels = json!({"labels": [{"name": "Working"}, {"name": "Done", "done": true}]});
        let board = NewBoard {
            workspace_id: ws.id,
            name: name.into(),
            columns: vec![
                column("status", "status", Some(labels)),
                column("people", "people", None),
                column("due", "date", None),
            ],
            groups: Vec::new(),
            preset: None,
        };
        boards::create_board(&self.db, ACCOUNT, &board).unwrap().id
    }

    fn item(&self, board: &str, name: &str, values: Value) -> String {
        let item = NewItem {
            group_id: None,
            name: name.into(),
            values: values.as_object().cloned().unwrap_or_default(),
        };
        boards::create_item(&self.db, ACCOUNT, "cli:acct", board, &item)
            .unwrap()
            .id
    }

    fn set(&self, item: &str, actor: &str, values: Value) {
        let patch = ItemPatch {
            values: Some(values.as_object().cloned().unwrap_or_else(Map::new)),
            ..ItemPatch::default()
        };
        boards::update_item(&self.db, ACCOUNT, actor, item, &patch).unwrap();
    }

    fn rows(&self, category: Category) -> Vec<inbox::InboxRow> {
        let query = ListQuery {
            category: Some(category),
            state: StateFilter::All,
            limit: 100,
            ..ListQuery::default()
        };
        self.inbox.list(ACCOUNT, &query).unwrap()
    }

    fn titles(&self, category: Category) -> Vec<String> {
        let mut titles: Vec<String> = self.rows(category).into_iter().map(|r| r.title).collect();
        titles.sort();
        titles
    }
}

fn prefs() -> Prefs {
    Prefs {
        zone: TimeZone::get("Europe/Berlin").unwrap(),
        ..Prefs::default()
    }
}

const NOON: &str = "2026-01-05T11:00:00Z"; // 12:00 in Berlin

#[test]
fn events_become_rows_naming_board_item_change_and_actor() {
    let w = world();
    let p = prefs();
    w.notifier.take_events(&p, at(NOON)).unwrap(); // starts at the newest event
    let board = w.board("Roadmap");
    let item = w.item(&board, "Launch", json!({"status": "Working"}));
    w.set(
        &item,
        "session:s-1",
        json!({"status": "Done", "people": [w.other]}),
    );
    let delivered = w.notifier.take_events(&p, at(NOON)).unwrap();
    assert_eq!(delivered.len(), 2);
    assert_eq!(
        w.titles(Category::PmEvent),
        [
            "Roadmap: Launch assigned to Ada",
            "Roadmap: Launch: Working → Done"
        ]
    );
    let row = &w.rows(Category::PmEvent)[0];
    assert_eq!(
        row.body.as_deref(),
        Some("On the board Roadmap, by agent session s-1.")
    );
    assert_eq!(row.source.session_id.as_deref(), Some("s-1"));
    assert_eq!(row.source.item_id.as_deref(), Some(item.as_str()));
}

#[test]
fn board_preferences_filter_all_assigned_only_and_none() {
    let w = world();
    let mut p = prefs();
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let (all, mine, none) = (w.board("All"), w.board("Mine"), w.board("None"));
    p.boards.insert(mine.clone(), BoardPreference::AssignedOnly);
    p.boards.insert(none.clone(), BoardPreference::None);
    for board in [&all, &mine, &none] {
        let assigned = w.item(
            board,
            "ours",
            json!({"status": "Working", "people": [w.me]}),
        );
        let theirs = w.item(
            board,
            "theirs",
            json!({"status": "Working", "people": [w.other]}),
        );
        w.set(&assigned, "cli:acct", json!({"status": "Done"}));
        w.set(&theirs, "cli:acct", json!({"status": "Done"}));
    }
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let titles = w.titles(Category::PmEvent);
    assert!(
        titles.iter().any(|t| t == "All: theirs: Working → Done"),
        "{titles:?}"
    );
    assert!(
        titles.iter().any(|t| t == "All: ours assigned to Me"),
        "{titles:?}"
    );
    assert!(
        titles.iter().any(|t| t == "Mine: ours: Working → Done"),
        "{titles:?}"
    );
    assert!(
        !titles.iter().any(|t| t.starts_with("Mine: theirs")),
        "{titles:?}"
    );
    assert!(!titles.iter().any(|t| t.starts_with("None:")), "{titles:?}");
}

#[test]
fn quiet_hours_across_midnight_hold_until_the_window_ends() {
    let w = world();
    let mut p = prefs();
    p.quiet = QuietHours::parse("22:00", "08:00");
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let board = w.board("Roadmap");
    let item = w.item(&board, "Launch", json!({"status": "Working"}));
    w.set(&item, "cli:acct", json!({"status": "Done"}));
    let night = at("2026-01-05T23:30:00Z"); // 00:30 in Berlin
    assert!(w.notifier.take_events(&p, night).unwrap().is_empty());
    // At most an hour's sleep, and the window's end once it is nearer.
    assert_eq!(
        w.notifier.next_wake(&p, night).unwrap(),
        at("2026-01-06T00:30:00Z")
    );
    let late = at("2026-01-06T06:30:00Z");
    assert_eq!(
        w.notifier.next_wake(&p, late).unwrap(),
        at("2026-01-06T07:00:00Z")
    );
    assert!(
        w.notifier
            .tick(&p, at("2026-01-06T06:59:00Z"))
            .unwrap()
            .delivered
            .is_empty()
    );
    let morning = w.notifier.tick(&p, at("2026-01-06T07:00:00Z")).unwrap();
    assert_eq!(morning.delivered.len(), 1);
    assert_eq!(
        w.titles(Category::PmEvent),
        ["Roadmap: Launch: Working → Done"]
    );
}

#[test]
fn the_digest_batches_an_hour_by_board() {
    let w = world();
    let mut p = prefs();
    p.digest = true;
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let (a, b) = (w.board("Alpha"), w.board("Beta"));
    for (board, name) in [(&a, "one"), (&a, "two"), (&b, "three")] {
        let item = w.item(board, name, json!({"status": "Working"}));
        w.set(&item, "cli:acct", json!({"status": "Done"}));
    }
    let at_1210 = at("2026-01-05T11:10:00Z");
    assert!(w.notifier.take_events(&p, at_1210).unwrap().is_empty());
    assert_eq!(
        w.notifier.next_wake(&p, at_1210).unwrap(),
        at("2026-01-05T12:00:00Z")
    );
    assert!(
        w.notifier
            .tick(&p, at("2026-01-05T11:59:00Z"))
            .unwrap()
            .delivered
            .is_empty()
    );
    let tick = w.notifier.tick(&p, at("2026-01-05T12:00:00Z")).unwrap();
    assert_eq!(tick.delivered.len(), 1);
    assert!(w.rows(Category::PmEvent).is_empty());
    let digest = &w.rows(Category::Digest)[0];
    assert_eq!(digest.title, "Project digest: 3 events on 2 boards");
    assert_eq!(
        digest.body.as_deref(),
        Some(
            "Alpha (2)\n- one: Working → Done (by you)\n- two: Working → Done (by you)\n\n\
             Beta (1)\n- three: Working → Done (by you)"
        )
    );
}

#[test]
fn due_today_once_at_the_day_start_and_overdue_at_once_through_quiet_hours() {
    let w = world();
    let mut p = prefs();
    p.quiet = QuietHours::parse("22:00", "08:00");
    w.notifier.tick(&p, at(NOON)).unwrap(); // 2026-01-05
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let board = w.board("Roadmap");
    w.item(
        &board,
        "tomorrow",
        json!({"due": "2026-01-06", "status": "Working"}),
    );
    w.item(
        &board,
        "finished",
        json!({"due": "2026-01-01", "status": "Done"}),
    );
    let late = w.item(
        &board,
        "late",
        json!({"due": "2026-01-06", "status": "Working"}),
    );
    // Midnight in Berlin: a new day, inside quiet hours.
    let midnight = at("2026-01-05T23:00:00Z");
    assert_eq!(
        w.notifier.next_wake(&p, at(NOON)).unwrap(),
        at("2026-01-05T12:00:00Z")
    );
    let tick = w.notifier.tick(&p, midnight).unwrap();
    assert!(tick.delivered.is_empty(), "due today waits for the morning");
    let morning = w.notifier.tick(&p, at("2026-01-06T07:00:00Z")).unwrap();
    assert_eq!(morning.delivered.len(), 2);
    assert_eq!(
        w.titles(Category::PmEvent),
        [
            "Roadmap: late is due today",
            "Roadmap: tomorrow is due today"
        ]
    );
    // The next midnight both are overdue: sent in the quiet hours, once.
    let next = at("2026-01-06T23:00:00Z");
    assert_eq!(w.notifier.tick(&p, next).unwrap().delivered.len(), 2);
    assert!(w.notifier.scan_due(&p, next).unwrap().is_empty());
    w.set(&late, "cli:acct", json!({"due": "2026-01-02"}));
    let moved = w
        .notifier
        .take_events(&p, at("2026-01-06T23:30:00Z"))
        .unwrap();
    assert!(
        moved.is_empty(),
        "the date change waits, the overdue notice went today"
    );
    let overdue: Vec<String> = w
        .titles(Category::PmEvent)
        .into_iter()
        .filter(|t| t.contains("overdue"))
        .collect();
    assert_eq!(
        overdue,
        [
            "Roadmap: late is overdue (due 2026-01-06)",
            "Roadmap: tomorrow is overdue (due 2026-01-06)"
        ]
    );
}

#[test]
fn the_daily_digest_lists_the_day_and_the_sessions() {
    let w = world();
    let mut p = prefs();
    p.daily = Some(DailySources {
        sessions: true,
        pm_events: true,
    });
    assert!(
        w.notifier
            .tick(&p, at(NOON))
            .unwrap()
            .daily_digest
            .is_none()
    );
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let board = w.board("Roadmap");
    let item = w.item(&board, "Launch", json!({"status": "Working"}));
    w.set(&item, "cli:acct", json!({"status": "Done"}));
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let tick = w.notifier.tick(&p, at("2026-01-05T23:00:00Z")).unwrap();
    let range = tick.daily_digest.expect("a new day asks for the digest");
    assert_eq!(range.day.to_string(), "2026-01-05");
    assert_eq!(range.from, at("2026-01-04T23:00:00Z"));
    let tally = SessionTally {
        started: 3,
        finished: 2,
        failed: 1,
        cost_usd: 1.5,
    };
    w.notifier
        .post_daily_digest(&p, &range, &[(ACCOUNT.to_owned(), tally)])
        .unwrap();
    let digest = &w.rows(Category::Digest)[0];
    assert_eq!(digest.title, "Daily digest for 2026-01-05");
    assert_eq!(
        digest.body.as_deref(),
        Some(
            "Sessions: 3 started, 2 finished, 1 failed; cost $1.50.\nProject events: 1.\n\n\
             Roadmap (1)\n- Launch: Working → Done (by you)"
        )
    );
}
