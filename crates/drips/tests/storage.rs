//! Scheduled messages and drips in a real database on a manual clock:
//! deliveries go to the outbox at their tick and not before, a drip
//! releases its queue in order (a folder's by name, numbers as numbers),
//! the global pause consumes ticks without releasing, ticks missed while
//! nobody looked make one delivery, an empty queue says so once, and bad
//! input changes nothing.

use std::sync::Arc;

use clock::{Clock, ManualClock};
use drips::{Drips, ItemKind, MIGRATIONS, NewDrip, NewItem, NewMessage, Release};
use jiff::Timestamp;

struct World {
    drips: Drips,
    clock: Arc<ManualClock>,
    _dir: tempfile::TempDir,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::new(
        time::macros::datetime!(2026-01-05 08:00 UTC),
    ));
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    World {
        drips: Drips::new(db, clock.clone(), vec![data]),
        clock,
        _dir: dir,
    }
}

impl World {
    fn set(&self, at: &str) -> Timestamp {
        let at: Timestamp = at.parse().unwrap();
        self.clock.set(automations::from_jiff(at));
        at
    }

    fn now(&self) -> Timestamp {
        automations::to_jiff(self.clock.now())
    }

    /// Claims what is due now and empties the outbox.
    fn look(&self, paused: bool) -> Vec<Release> {
        self.drips.deliver_due_messages(self.now()).unwrap();
        self.drips.release_due(self.now(), paused).unwrap();
        let pending = self.drips.pending_deliveries().unwrap();
        for delivery in &pending {
            self.drips.delivered(&delivery.id).unwrap();
        }
        pending.into_iter().map(|d| d.release).collect()
    }
}

/// Schedules a message as the user (`None`) or an agent's session.
fn schedule(w: &World, fields: NewMessage, session: Option<&str>) -> drips::ScheduledMessage {
    w.drips.create_message("me", &fields, session).unwrap()
}

fn item_names(releases: &[Release]) -> Vec<String> {
    releases
        .iter()
        .map(|r| match r {
            Release::Item { item_name, .. } => item_name.clone(),
            Release::Message { title, .. } => format!("message {title}"),
            Release::Exhausted { .. } => "exhausted".to_owned(),
        })
        .collect()
}

#[test]
fn a_one_off_message_is_delivered_at_its_time_and_not_before() {
    let w = world();
    let message = schedule(
        &w,
        NewMessage {
            markdown: "# Call the dentist\nBefore noon.".into(),
            at: Some("2026-01-05T10:30".into()),
            time_zone: Some("Europe/Berlin".into()),
            ..NewMessage::default()
        },
        Some("session-1"),
    );
    assert_eq!(
        message.timing.at.as_deref(),
        Some("2026-01-05T09:30:00.000Z")
    );
    assert_eq!(message.created_by_session.as_deref(), Some("session-1"));
    w.set("2026-01-05T09:29:59Z");
    assert!(w.look(false).is_empty());
    w.set("2026-01-05T09:30:00Z");
    let delivered = w.drips.pending_deliveries().unwrap();
    assert!(delivered.is_empty());
    let releases = w.look(false);
    assert_eq!(item_names(&releases), ["message Call the dentist"]);
    let Release::Message { session_id, .. } = &releases[0] else {
        panic!("{releases:?}")
    };
    assert_eq!(session_id.as_deref(), Some("session-1"));
    let done = w.drips.message("me", &message.id).unwrap();
    assert_eq!(done.timing.state, drips::CadenceState::Done);
    assert_eq!(done.deliveries, 1);
    w.set("2026-01-06T09:30:00Z");
    assert!(w.look(false).is_empty());
}

#[test]
fn a_recurring_message_keeps_its_local_time_across_the_spring_change() {
    let w = world();
    w.set("2026-03-27T12:00:00Z");
    let message = schedule(
        &w,
        NewMessage {
            markdown: "Stand-up".into(),
            rrule: Some("FREQ=DAILY;BYHOUR=9;BYMINUTE=0".into()),
            time_zone: Some("Europe/Berlin".into()),
            ..NewMessage::default()
        },
        None,
    );
    assert_eq!(
        message.timing.next_at.as_deref(),
        Some("2026-03-28T08:00:00.000Z")
    );
    w.set("2026-03-28T08:00:01Z");
    assert_eq!(w.look(false).len(), 1);
    // 09:00 in Berlin is 07:00 UTC once summer time has begun.
    let after = w.drips.message("me", &message.id).unwrap();
    assert_eq!(
        after.timing.next_at.as_deref(),
        Some("2026-03-29T07:00:00.000Z")
    );
    w.set("2026-03-29T07:00:01Z");
    assert_eq!(w.look(false).len(), 1);
}

#[test]
fn a_paused_message_is_not_delivered_and_resumes_at_its_next_tick() {
    let w = world();
    let message = schedule(
        &w,
        NewMessage {
            markdown: "Hourly".into(),
            cron: Some("0 * * * *".into()),
            time_zone: Some("UTC".into()),
            ..NewMessage::default()
        },
        None,
    );
    let paused = w.drips.pause_message("me", &message.id).unwrap();
    assert_eq!(paused.timing.next_at, None);
    assert!(w.drips.pause_message("me", &message.id).is_err());
    w.set("2026-01-05T11:30:00Z");
    assert!(w.look(false).is_empty());
    let resumed = w.drips.resume_message("me", &message.id).unwrap();
    assert_eq!(
        resumed.timing.next_at.as_deref(),
        Some("2026-01-05T12:00:00.000Z")
    );
    w.drips.delete_message("me", &message.id).unwrap();
    assert!(w.drips.message("me", &message.id).is_err());
    assert!(w.drips.delete_message("me", &message.id).is_err());
}

fn app_drip(w: &World, cron: &str) -> String {
    let drip = w
        .drips
        .create_drip(
            "me",
            &NewDrip {
                name: "Tips".into(),
                cron: Some(cron.into()),
                time_zone: "UTC".into(),
                ..NewDrip::default()
            },
        )
        .unwrap();
    for (name, content) in [("First", "one"), ("Second", "two"), ("Third", "three")] {
        w.drips
            .add_item(
                "me",
                &drip.id,
                &NewItem {
                    name: name.into(),
                    content: content.into(),
                    kind: None,
                },
            )
            .unwrap();
    }
    drip.id
}

#[test]
fn a_drip_releases_in_order_on_its_cadence_and_says_once_when_it_is_empty() {
    let w = world();
    let id = app_drip(&w, "0 9 * * *");
    let items = w.drips.items("me", &id).unwrap();
    assert_eq!(
        items.iter().map(|i| i.position).collect::<Vec<_>>(),
        [Some(1), Some(2), Some(3)]
    );
    w.set("2026-01-05T08:59:00Z");
    assert!(w.look(false).is_empty());
    let mut released = Vec::new();
    for day in ["05", "06", "07", "08", "09"] {
        w.set(&format!("2026-01-{day}T09:00:10Z"));
        released.extend(item_names(&w.look(false)));
    }
    assert_eq!(released, ["First", "Second", "Third", "exhausted"]);
    let drip = w.drips.drip("me", &id).unwrap();
    assert!(drip.exhausted);
    assert_eq!((drip.released, drip.remaining), (3, 0));
    // A new item goes at the next tick, and the next empty one says so again.
    w.drips
        .add_item(
            "me",
            &id,
            &NewItem {
                name: "Fourth".into(),
                content: "four".into(),
                kind: None,
            },
        )
        .unwrap();
    w.set("2026-01-10T09:00:10Z");
    assert_eq!(item_names(&w.look(false)), ["Fourth"]);
    w.set("2026-01-11T09:00:10Z");
    assert_eq!(item_names(&w.look(false)), ["exhausted"]);
}

#[test]
fn the_global_pause_consumes_ticks_and_releases_nothing() {
    let w = world();
    let id = app_drip(&w, "0 * * * *");
    w.set("2026-01-05T09:00:05Z");
    assert_eq!(item_names(&w.look(false)), ["First"]);
    for hour in ["10", "11"] {
        w.set(&format!("2026-01-05T{hour}:00:05Z"));
        assert!(w.look(true).is_empty());
    }
    let drip = w.drips.drip("me", &id).unwrap();
    assert_eq!(drip.skipped, 2);
    assert_eq!(
        drip.timing.next_at.as_deref(),
        Some("2026-01-05T12:00:00.000Z")
    );
    // Unpaused between ticks: nothing is caught up, the next tick releases.
    w.set("2026-01-05T11:30:00Z");
    assert!(w.look(false).is_empty());
    w.set("2026-01-05T12:00:05Z");
    assert_eq!(item_names(&w.look(false)), ["Second"]);
}

#[test]
fn ticks_missed_while_nobody_looked_release_one_item() {
    let w = world();
    let id = app_drip(&w, "0 * * * *");
    w.set("2026-01-05T13:30:00Z");
    let releases = w.drips.release_due(w.now(), false).unwrap();
    assert_eq!(releases, 1);
    let pending = w.drips.pending_deliveries().unwrap();
    assert_eq!(pending.len(), 1);
    assert!(pending[0].late);
    assert_eq!(pending[0].passed_over, 4);
    assert_eq!(pending[0].tick, "2026-01-05T13:00:00.000Z");
    let drip = w.drips.drip("me", &id).unwrap();
    assert_eq!(
        drip.timing.next_at.as_deref(),
        Some("2026-01-05T14:00:00.000Z")
    );
    assert_eq!(drip.remaining, 2);
}

#[test]
fn a_folder_drip_follows_its_folder_in_natural_order() {
    let w = world();
    let folder = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("10-last.md", "# Last"),
        ("2-card.html", "<p>card</p>"),
        ("1-intro.txt", "hi"),
    ] {
        std::fs::write(folder.path().join(name), text).unwrap();
    }
    let drip = w
        .drips
        .create_drip(
            "me",
            &NewDrip {
                name: "Course".into(),
                folder: Some(folder.path().display().to_string()),
                rrule: Some("FREQ=DAILY;BYHOUR=9;BYMINUTE=0".into()),
                time_zone: "UTC".into(),
                ..NewDrip::default()
            },
        )
        .unwrap();
    assert_eq!(drip.remaining, 3);
    let added = w.drips.add_item(
        "me",
        &drip.id,
        &NewItem {
            name: "x".into(),
            content: "y".into(),
            kind: None,
        },
    );
    assert!(matches!(added, Err(drips::DripError::FolderDrip(_))));
    w.set("2026-01-05T09:00:01Z");
    assert_eq!(item_names(&w.look(false)), ["1-intro.txt"]);
    // A new file joins the queue in its place; a released file may go.
    std::fs::write(folder.path().join("3-more.md"), "more").unwrap();
    std::fs::remove_file(folder.path().join("1-intro.txt")).unwrap();
    let items = w.drips.items("me", &drip.id).unwrap();
    let names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        ["1-intro.txt", "2-card.html", "3-more.md", "10-last.md"]
    );
    assert_eq!(items[1].kind, ItemKind::Html);
    let released = w.drips.item("me", &drip.id, &items[0].id).unwrap();
    assert_eq!(released.content, "hi");
    let waiting = w.drips.item("me", &drip.id, &items[1].id).unwrap();
    assert_eq!(waiting.content, "<p>card</p>");
    w.set("2026-01-06T09:00:01Z");
    let releases = w.look(false);
    let Some(Release::Item {
        item_kind, content, ..
    }) = releases.first()
    else {
        panic!("{releases:?}")
    };
    assert_eq!(
        (*item_kind, content.as_str()),
        (ItemKind::Html, "<p>card</p>")
    );
    // The folder gone: the drip says why, and its next tick tells once.
    drop(folder);
    let stalled = w.drips.drip("me", &drip.id).unwrap();
    assert!(stalled.problem.is_some(), "{stalled:?}");
    w.set("2026-01-07T09:00:01Z");
    assert!(matches!(
        w.look(false).as_slice(),
        [Release::Exhausted {
            reason: Some(_),
            ..
        }]
    ));
    w.set("2026-01-08T09:00:01Z");
    assert!(w.look(false).is_empty());
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let w = world();
    let folder = tempfile::tempdir().unwrap();
    let data = w._dir.path().join("data");
    let fine = || NewDrip {
        name: "Tips".into(),
        cron: Some("0 9 * * *".into()),
        time_zone: "UTC".into(),
        ..NewDrip::default()
    };
    let cases = [
        (
            NewDrip {
                name: " ".into(),
                ..fine()
            },
            "name",
        ),
        (
            NewDrip {
                folder: Some(folder.path().join("missing").display().to_string()),
                ..fine()
            },
            "folder",
        ),
        (
            NewDrip {
                folder: Some(data.display().to_string()),
                ..fine()
            },
            "folder",
        ),
        (
            NewDrip {
                cron: Some("0 25 * * *".into()),
                ..fine()
            },
            "cron",
        ),
        (
            NewDrip {
                cron: None,
                rrule: Some("FREQ=SOMETIMES".into()),
                ..fine()
            },
            "rrule",
        ),
        (
            NewDrip {
                time_zone: "Atlantis/Capital".into(),
                ..fine()
            },
            "timeZone",
        ),
    ];
    for (fields, field) in cases {
        let error = w.drips.create_drip("me", &fields).unwrap_err();
        assert_eq!(error.field(), Some(field), "{fields:?}: {error}");
    }
    assert!(w.drips.list_drips("me").unwrap().is_empty());
    let message = w.drips.create_message(
        "me",
        &NewMessage {
            markdown: "x".into(),
            at: Some("2025-01-01T00:00:00Z".into()),
            ..NewMessage::default()
        },
        None,
    );
    assert_eq!(message.unwrap_err().field(), Some("at"));
    assert!(w.drips.list_messages("me").unwrap().is_empty());
    assert!(w.drips.list_messages("someone else").unwrap().is_empty());
}
