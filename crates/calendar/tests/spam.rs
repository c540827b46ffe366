//! Spam invitations against a real CalDAV server (Radicale, `rig/`): with
//! the filter on, an invitation from outside the user's organization is
//! hidden from the events and the reminders' reads, and shown again with
//! the filter off or its domain added; a sender marked spam is hidden, and
//! with deletion their invitations leave the server (DELETE with If-Match:
//! one changed on the server since the sync is not deleted until the next
//! sync) for a trash kept 30 days on the clock, from which a restore puts
//! one back on the server and in the calendar.

#[allow(dead_code)]
mod rig;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use base64::Engine;
use calendar::{Calendars, Kind, NewAccount, Options, Screening};
use clock::ManualClock;
use rig::{PASSWORD, Radicale, USER};
use time::macros::datetime;

const OWNER: &str = "owner";

/// The application's side: the switch and the mail client's address.
struct Switch {
    on: AtomicBool,
}

impl Screening for Switch {
    fn filtering(&self) -> bool {
        self.on.load(Ordering::SeqCst)
    }

    fn addresses(&self, owner: &str) -> Vec<String> {
        assert_eq!(owner, OWNER);
        vec!["Ada@Work.Example".to_owned()]
    }
}

struct Setup {
    _dir: tempfile::TempDir,
    clock: Arc<ManualClock>,
    switch: Arc<Switch>,
    calendars: Calendars,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(secrets::MIGRATIONS).unwrap();
    db.migrate(calendar::MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::new(datetime!(2026-03-15 12:00 UTC)));
    let cipher = secrets::Cipher::load_or_create(&dir.path().join("secrets.key")).unwrap();
    let secrets = Arc::new(secrets::Secrets::new(db.clone(), clock.clone(), cipher));
    let options = Options {
        floating_zone: jiff::tz::TimeZone::UTC,
        ..Options::default()
    };
    let calendars = Calendars::with_options(db, clock.clone(), secrets, options);
    let switch = Arc::new(Switch {
        on: AtomicBool::new(true),
    });
    calendars.set_screening(switch.clone());
    Setup {
        _dir: dir,
        clock,
        switch,
        calendars,
    }
}

fn invite(uid: &str, summary: &str, day: u8, organizer: Option<&str>) -> String {
    let organizer = organizer
        .map(|o| format!("ORGANIZER;CN=Someone:mailto:{o}\r\nATTENDEE:mailto:ada@work.example\r\n"))
        .unwrap_or_default();
    format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//switchboard//tests//EN\r\nBEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20260301T000000Z\r\nDTSTART:202603{day:02}T090000Z\r\nDTEND:202603{day:02}T100000Z\r\nSUMMARY:{summary}\r\n{organizer}END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
}

fn account(s: &Setup, rig: &Radicale) -> String {
    let new = NewAccount {
        kind: Kind::Caldav,
        url: rig.base_url(),
        username: Some(USER.to_owned()),
        password: Some(PASSWORD.to_owned()),
        name: Some("Radicale".to_owned()),
    };
    let id = s.calendars.add(OWNER, new).unwrap().id;
    s.calendars.sync(OWNER, &id).unwrap();
    id
}

fn titles(calendars: &Calendars) -> Vec<String> {
    let mut titles: Vec<String> = calendars
        .events(
            OWNER,
            datetime!(2026-03-01 0:00 UTC),
            datetime!(2026-05-01 0:00 UTC),
        )
        .unwrap()
        .into_iter()
        .map(|e| e.title)
        .collect();
    titles.sort();
    titles
}

fn reminded(calendars: &Calendars) -> Vec<String> {
    let mut titles: Vec<String> = calendars
        .starting(
            OWNER,
            datetime!(2026-03-01 0:00 UTC),
            datetime!(2026-05-01 0:00 UTC),
        )
        .unwrap()
        .into_iter()
        .map(|e| e.title)
        .collect();
    titles.sort();
    titles
}

/// The status of a GET of a path of the user's on the server.
fn status_on_server(rig: &Radicale, path: &str) -> u16 {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let auth = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"));
    agent
        .get(rig.url(path))
        .header("Authorization", format!("Basic {auth}"))
        .call()
        .unwrap()
        .status()
        .as_u16()
}

#[test]
fn outside_invitations_are_hidden_while_the_filter_is_on() {
    let Some(rig) = Radicale::start() else { return };
    rig.make_calendar("work", "Work");
    rig.put("work/own.ics", &invite("own", "Own block", 16, None));
    rig.put(
        "work/mine.ics",
        &invite("mine", "Ada's meeting", 16, Some("ada@work.example")),
    );
    rig.put(
        "work/team.ics",
        &invite("team", "Team sync", 17, Some("bob@eng.work.example")),
    );
    rig.put(
        "work/prize.ics",
        &invite("prize", "You won", 18, Some("win@prizes.example")),
    );
    let s = setup();
    account(&s, &rig);
    let inside = ["Ada's meeting", "Own block", "Team sync"];
    let all = ["Ada's meeting", "Own block", "Team sync", "You won"];
    assert_eq!(titles(&s.calendars), inside);
    assert_eq!(reminded(&s.calendars), inside);

    s.switch.on.store(false, Ordering::SeqCst);
    assert_eq!(titles(&s.calendars), all);
    assert_eq!(reminded(&s.calendars), all);

    s.switch.on.store(true, Ordering::SeqCst);
    let organization = s
        .calendars
        .set_organization(OWNER, &["Prizes.Example".to_owned()])
        .unwrap();
    assert_eq!(organization.added, ["prizes.example"]);
    assert_eq!(organization.domains[0].domain, "work.example");
    assert_eq!(titles(&s.calendars), all);

    let events = s
        .calendars
        .events(
            OWNER,
            datetime!(2026-03-18 0:00 UTC),
            datetime!(2026-03-19 0:00 UTC),
        )
        .unwrap();
    let calendar::Source::Caldav(source) = &events[0].source else {
        panic!("{:?}", events[0].source);
    };
    assert_eq!(source.organizer.as_deref(), Some("win@prizes.example"));
    assert!(source.invitation, "someone else's event is an invitation");

    // The user's own event, and one without an organizer, are none: they
    // offer no "Mark as spam". With the filter off, nothing is told.
    let invitations = |calendars: &Calendars| -> Vec<(String, bool)> {
        calendars
            .events(
                OWNER,
                datetime!(2026-03-16 0:00 UTC),
                datetime!(2026-03-19 0:00 UTC),
            )
            .unwrap()
            .into_iter()
            .map(|o| match o.source {
                calendar::Source::Caldav(source) => (o.title, source.invitation),
                other => panic!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(
        invitations(&s.calendars),
        [
            ("Ada's meeting".to_owned(), false),
            ("Own block".to_owned(), false),
            ("Team sync".to_owned(), true),
            ("You won".to_owned(), true),
        ]
    );
    s.switch.on.store(false, Ordering::SeqCst);
    assert!(
        invitations(&s.calendars)
            .iter()
            .all(|(_, invitation)| !invitation)
    );
}

#[test]
fn a_sender_marked_spam_is_hidden_and_left_on_the_server_without_deletion() {
    let Some(rig) = Radicale::start() else { return };
    rig.make_calendar("work", "Work");
    rig.put(
        "work/pest.ics",
        &invite("pest", "Buy our tool", 16, Some("pest@work.example")),
    );
    rig.put("work/own.ics", &invite("own", "Own block", 17, None));
    let s = setup();
    let id = account(&s, &rig);
    assert_eq!(titles(&s.calendars), ["Buy our tool", "Own block"]);

    let own = s.calendars.mark_spam(OWNER, &id, "own", false).unwrap_err();
    assert!(own.to_string().starts_with("uid:"), "{own}");
    let marked = s.calendars.mark_spam(OWNER, &id, "pest", false).unwrap();
    assert_eq!(
        (marked.sender.as_str(), marked.trashed),
        ("pest@work.example", 0)
    );
    assert_eq!(titles(&s.calendars), ["Own block"]);
    assert_eq!(status_on_server(&rig, "work/pest.ics"), 200);
    assert!(s.calendars.trash(OWNER).unwrap().is_empty());

    // Off, nothing is hidden; the list is kept for when it is on again.
    s.switch.on.store(false, Ordering::SeqCst);
    assert_eq!(titles(&s.calendars), ["Buy our tool", "Own block"]);
    s.switch.on.store(true, Ordering::SeqCst);
    assert_eq!(titles(&s.calendars), ["Own block"]);

    s.calendars.unmark_spam(OWNER, "Pest@work.example").unwrap();
    assert_eq!(titles(&s.calendars), ["Buy our tool", "Own block"]);
}

#[test]
fn with_deletion_a_spam_senders_invitations_go_to_the_trash_and_one_comes_back() {
    let Some(rig) = Radicale::start() else { return };
    rig.make_calendar("work", "Work");
    for (uid, day) in [("p1", 16), ("p2", 17), ("p3", 18)] {
        rig.put(
            &format!("work/{uid}.ics"),
            &invite(uid, &format!("Offer {uid}"), day, Some("pest@work.example")),
        );
    }
    rig.put("work/own.ics", &invite("own", "Own block", 19, None));
    let s = setup();
    let id = account(&s, &rig);
    // p3 changes on the server after the sync: its stored ETag is stale.
    rig.put(
        "work/p3.ics",
        &invite("p3", "Offer p3 again", 18, Some("pest@work.example")),
    );

    let marked = s.calendars.mark_spam(OWNER, &id, "p1", true).unwrap();
    assert_eq!(marked.trashed, 2, "{marked:?}");
    assert!(
        marked
            .failure
            .as_deref()
            .unwrap_or("")
            .contains("changed on the server"),
        "{marked:?}"
    );
    assert_eq!(status_on_server(&rig, "work/p1.ics"), 404);
    assert_eq!(status_on_server(&rig, "work/p2.ics"), 404);
    assert_eq!(status_on_server(&rig, "work/p3.ics"), 200);
    assert_eq!(titles(&s.calendars), ["Own block"]);

    // The next sync brings p3's new version; the sweep after it deletes it.
    s.calendars.sync(OWNER, &id).unwrap();
    assert_eq!(s.calendars.trash_spam(OWNER).unwrap(), (1, None));
    assert_eq!(status_on_server(&rig, "work/p3.ics"), 404);
    s.calendars.sync(OWNER, &id).unwrap();
    assert_eq!(titles(&s.calendars), ["Own block"]);

    let trash = s.calendars.trash(OWNER).unwrap();
    let mut trashed: Vec<&str> = trash.iter().map(|t| t.title.as_str()).collect();
    trashed.sort_unstable();
    assert_eq!(trashed, ["Offer p1", "Offer p2", "Offer p3 again"]);
    assert!(trash.iter().all(|t| t.organizer == "pest@work.example"));
    assert_eq!(trash[0].purge_at, "2026-04-14T12:00:00.000Z");

    let p2 = trash.iter().find(|t| t.uid == "p2").unwrap();
    s.calendars.restore(OWNER, &p2.id).unwrap();
    assert_eq!(status_on_server(&rig, "work/p2.ics"), 200);
    assert_eq!(titles(&s.calendars), ["Offer p2", "Own block"]);
    assert!(s.calendars.spam_senders(OWNER).unwrap().is_empty());
    assert_eq!(
        s.calendars.organization(OWNER).unwrap().added,
        ["pest@work.example"]
    );
    // The sync after the restore keeps it.
    s.calendars.sync(OWNER, &id).unwrap();
    assert_eq!(titles(&s.calendars), ["Offer p2", "Own block"]);
    assert_eq!(s.calendars.trash(OWNER).unwrap().len(), 2);

    s.clock.advance(time::Duration::days(29));
    assert_eq!(s.calendars.trash(OWNER).unwrap().len(), 2);
    s.clock.advance(time::Duration::days(2));
    assert!(s.calendars.trash(OWNER).unwrap().is_empty());
}
