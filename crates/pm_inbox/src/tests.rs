//! The notifier against a real SQLite file with the boards' and the inbox's
//! tables: nobody told of their own work, an agent's changes folded per
//! session and board, board preferences, holding and releasing, digests by
//! board, due dates of assigned items folded per board and day, and pruning.
//! Moments are passed in, never waited for.

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

    /// An item the owner creates (a member's own work).
    fn item(&self, board: &str, name: &str, values: Value) -> String {
        self.item_by("cli:acct", board, name, values)
    }

    fn item_by(&self, actor: &str, board: &str, name: &str, values: Value) -> String {
        let item = NewItem {
            group_id: None,
            name: name.into(),
            values: values.as_object().cloned().unwrap_or_default(),
        };
        boards::create_item(&self.db, ACCOUNT, actor, board, &item)
            .unwrap()
            .id
    }

    fn notices(&self) -> i64 {
        self.db
            .read(|tx| {
                tx.query_row("SELECT count(*) FROM pm_notices", [], |r| {
                    r.get::<_, i64>(0)
                })
                .map_err(store::StoreError::from)
            })
            .unwrap()
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
fn a_members_own_changes_notice_nothing() {
    let w = world();
    let p = prefs();
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let board = w.board("Roadmap");
    for actor in ["cli:acct", "ui:acct"] {
        let item = w.item_by(
            actor,
            &board,
            "Launch",
            json!({"status": "Working", "people": [w.other], "due": "2026-02-01"}),
        );
        w.set(&item, actor, json!({"status": "Done", "people": [w.me]}));
    }
    assert!(w.notifier.take_events(&p, at(NOON)).unwrap().is_empty());
    assert!(w.rows(Category::PmEvent).is_empty());
    assert_eq!(w.notices(), 0);
}

#[test]
fn an_agents_changes_fold_into_one_row_per_session_and_board() {
    let w = world();
    let p = prefs();
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let (web, ops) = (w.board("Web"), w.board("Ops"));
    for n in 0..3 {
        let item = w.item(&web, &format!("page {n}"), json!({"status": "Working"}));
        w.set(&item, "session:s-1", json!({"status": "Done"}));
    }
    let again = w.item(&web, "page 0 again", json!({"status": "Working"}));
    w.set(&again, "session:s-1", json!({"people": [w.other]}));
    w.set(&again, "session:s-1", json!({"status": "Done"}));
    let launch = w.item(&ops, "Launch", json!({"status": "Working"}));
    w.set(&launch, "session:s-1", json!({"status": "Done"}));
    w.item_by("session:s-2", &web, "new", json!({"people": [w.other]}));
    let delivered = w.notifier.take_events(&p, at(NOON)).unwrap();
    assert_eq!(delivered.len(), 3);
    assert_eq!(
        w.titles(Category::PmEvent),
        [
            "4 items changed on Web by agent session s-1",
            "Ops: Launch: Working → Done",
            "Web: new assigned to Ada",
        ]
    );
    let rows = w.rows(Category::PmEvent);
    let folded = rows
        .iter()
        .find(|r| r.title.starts_with("4 items"))
        .unwrap();
    assert_eq!(folded.count, 4);
    assert_eq!(
        folded.body.as_deref(),
        Some("Latest: page 0 again: Working → Done. On the board Web, by agent session s-1.")
    );
    assert_eq!(folded.source.board_id.as_deref(), Some(web.as_str()));
    assert_eq!(folded.source.session_id.as_deref(), Some("s-1"));
    assert_eq!(folded.source.item_id, None);
    // A later pass of the same session on the same board grows the unread row.
    for n in 0..2 {
        let item = w.item(&web, &format!("later {n}"), json!({"status": "Working"}));
        w.set(&item, "session:s-1", json!({"status": "Done"}));
    }
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let rows = w.rows(Category::PmEvent);
    assert_eq!(rows.len(), 3);
    let folded = rows
        .iter()
        .find(|r| {
            r.source.session_id.as_deref() == Some("s-1")
                && r.source.board_id.as_deref() == Some(web.as_str())
        })
        .unwrap();
    assert_eq!(folded.count, 6);
    assert_eq!(folded.title, "6 items changed on Web by agent session s-1");
    // One notice per pass and group, however many items.
    assert_eq!(w.notices(), 4);
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
        w.set(&assigned, "session:s-1", json!({"status": "Done"}));
        w.set(&theirs, "session:s-1", json!({"status": "Done"}));
    }
    w.notifier.take_events(&p, at(NOON)).unwrap();
    assert_eq!(
        w.titles(Category::PmEvent),
        [
            "2 items changed on All by agent session s-1",
            "Mine: ours: Working → Done"
        ]
    );
}

#[test]
fn quiet_hours_across_midnight_hold_until_the_window_ends() {
    let w = world();
    let mut p = prefs();
    p.quiet = QuietHours::parse("22:00", "08:00");
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let board = w.board("Roadmap");
    let item = w.item(&board, "Launch", json!({"status": "Working"}));
    w.set(&item, "session:s-1", json!({"status": "Done"}));
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
    for (board, name, actor) in [
        (&a, "one", "session:s-1"),
        (&a, "two", "session:s-1"),
        (&a, "mine", "cli:acct"),
        (&b, "three", "session:s-2"),
    ] {
        let item = w.item(board, name, json!({"status": "Working"}));
        w.set(&item, actor, json!({"status": "Done"}));
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
            "Alpha (2)\n- 2 items changed (by agent session s-1)\n\n\
             Beta (1)\n- three: Working → Done (by agent session s-2)"
        )
    );
}

#[test]
fn due_dates_notify_only_assignees_folded_per_board_and_day() {
    let w = world();
    let mut p = prefs();
    p.quiet = QuietHours::parse("22:00", "08:00");
    w.notifier.tick(&p, at(NOON)).unwrap(); // 2026-01-05
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let board = w.board("Roadmap");
    let mine = |name: &str, due: &str, status: &str| {
        w.item(
            &board,
            name,
            json!({"due": due, "status": status, "people": [w.me]}),
        )
    };
    mine("tomorrow", "2026-01-06", "Working");
    mine("finished", "2026-01-01", "Done");
    let late = mine("late", "2026-01-06", "Working");
    w.item(
        &board,
        "theirs",
        json!({"due": "2026-01-06", "status": "Working", "people": [w.other]}),
    );
    w.item(
        &board,
        "nobody's",
        json!({"due": "2026-01-06", "status": "Working"}),
    );
    // Midnight in Berlin: a new day, inside quiet hours.
    let midnight = at("2026-01-05T23:00:00Z");
    let tick = w.notifier.tick(&p, midnight).unwrap();
    assert!(tick.delivered.is_empty(), "due today waits for the morning");
    let morning = w.notifier.tick(&p, at("2026-01-06T07:00:00Z")).unwrap();
    assert_eq!(morning.delivered.len(), 1);
    assert_eq!(
        w.titles(Category::PmEvent),
        ["2 items due today on Roadmap"]
    );
    assert_eq!(w.rows(Category::PmEvent)[0].count, 2);
    // The next midnight both are overdue: one row, sent in the quiet hours, once.
    let next = at("2026-01-06T23:00:00Z");
    assert_eq!(w.notifier.tick(&p, next).unwrap().delivered.len(), 1);
    assert!(w.notifier.scan_due(&p, next).unwrap().is_empty());
    w.set(&late, "cli:acct", json!({"due": "2026-01-02"}));
    let moved = w
        .notifier
        .take_events(&p, at("2026-01-06T23:30:00Z"))
        .unwrap();
    assert!(moved.is_empty(), "the overdue notice went today");
    let overdue: Vec<inbox::InboxRow> = w
        .rows(Category::PmEvent)
        .into_iter()
        .filter(|r| r.title.contains("overdue"))
        .collect();
    assert_eq!(overdue.len(), 1);
    assert_eq!(overdue[0].title, "2 items overdue on Roadmap");
    assert_eq!(overdue[0].count, 2);
}

#[test]
fn items_created_past_due_make_one_row_for_their_assignee() {
    let w = world();
    let p = prefs();
    w.notifier.tick(&p, at(NOON)).unwrap();
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let board = w.board("Ops");
    for n in 0..27 {
        w.item(
            &board,
            &format!("task {n}"),
            json!({"due": "2025-12-01", "status": "Working", "people": [w.me]}),
        );
    }
    for n in 0..10 {
        w.item(&board, &format!("loose {n}"), json!({"due": "2025-12-01"}));
    }
    let delivered = w.notifier.take_events(&p, at(NOON)).unwrap();
    assert_eq!(delivered.len(), 1);
    assert_eq!(w.titles(Category::PmEvent), ["27 items overdue on Ops"]);
    let row = &w.rows(Category::PmEvent)[0];
    assert_eq!(row.count, 27);
    assert_eq!(row.source.board_id.as_deref(), Some(board.as_str()));
}

#[test]
fn a_new_day_asks_for_the_briefing_and_the_day_events_are_listed_by_board() {
    let w = world();
    let mut p = prefs();
    p.daily = true;
    assert!(
        w.notifier
            .tick(&p, at(NOON))
            .unwrap()
            .daily_digest
            .is_none()
    );
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let board = w.board("Roadmap");
    for name in ["Launch", "Docs"] {
        let item = w.item(&board, name, json!({"status": "Working"}));
        w.set(&item, "session:s-1", json!({"status": "Done"}));
    }
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let tick = w.notifier.tick(&p, at("2026-01-05T23:00:00Z")).unwrap();
    let range = tick.daily_digest.expect("a new day asks for the briefing");
    assert_eq!(range.day.to_string(), "2026-01-05");
    assert_eq!(range.from, at("2026-01-04T23:00:00Z"));
    let (events, listed) = w.notifier.day_events(ACCOUNT, "2026-01-05").unwrap();
    assert_eq!(events, 2);
    assert_eq!(
        listed,
        "Roadmap (2)\n- 2 items changed (by agent session s-1)"
    );
    assert_eq!(
        w.notifier.day_events(ACCOUNT, "2026-01-04").unwrap(),
        (0, String::new())
    );
}

#[test]
fn pruning_keeps_unread_rows_and_what_is_recent() {
    let w = world();
    let p = prefs();
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let board = w.board("Roadmap");
    for (name, session) in [("old read", "s-1"), ("old unread", "s-2")] {
        let item = w.item(&board, name, json!({"status": "Working"}));
        w.set(
            &item,
            &format!("session:{session}"),
            json!({"status": "Done"}),
        );
    }
    w.notifier.take_events(&p, at(NOON)).unwrap();
    let read = w
        .rows(Category::PmEvent)
        .into_iter()
        .find(|r| r.source.session_id.as_deref() == Some("s-1"))
        .unwrap();
    w.inbox
        .change(
            ACCOUNT,
            &read.id,
            inbox::RowChange {
                read: Some(true),
                archived: None,
            },
        )
        .unwrap();
    let events = || boards::events_since(&w.db, ACCOUNT, 0, 1000).unwrap().len();
    assert_eq!(events(), 2);
    // The rows' times are the inbox clock's, today; a month on they are old.
    let now = jiff::Timestamp::now();
    w.notifier
        .prune(&p, now + jiff::SignedDuration::from_hours(24 * 29))
        .unwrap();
    assert_eq!(w.rows(Category::PmEvent).len(), 2, "a month is kept");
    w.notifier
        .prune(&p, now + jiff::SignedDuration::from_hours(24 * 31))
        .unwrap();
    let left = w.rows(Category::PmEvent);
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].source.session_id.as_deref(), Some("s-2"));
    assert_eq!(events(), 0, "the events read are gone with their month");
}
