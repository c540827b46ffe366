//! Calendars against a real CalDAV server (Radicale, `rig/`): discovery
//! from the server's root and through `/.well-known/caldav`; a second sync
//! after one edit downloads that one event only, an unchanged calendar
//! downloads nothing; a deleted event and a deleted calendar disappear; a
//! weekly event keeps its wall time across the spring change, in an IANA
//! zone and in a zone only its VTIMEZONE defines; a refused password marks
//! the account failing and keeps its events; the password is never shown.

mod rig;

use std::sync::Arc;

use calendar::{Calendars, Kind, NewAccount, Options, Status};
use clock::ManualClock;
use rig::{PASSWORD, Radicale, USER, event};
use time::macros::datetime;

const OWNER: &str = "owner";

struct Setup {
    _dir: tempfile::TempDir,
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
    Setup {
        calendars: Calendars::with_options(db, clock, secrets, options),
        _dir: dir,
    }
}

fn caldav(url: String) -> NewAccount {
    NewAccount {
        kind: Kind::Caldav,
        url,
        username: Some(USER.to_owned()),
        password: Some(PASSWORD.to_owned()),
        name: Some("Radicale".to_owned()),
    }
}

fn titles(calendars: &Calendars) -> Vec<String> {
    let mut events = calendars
        .events(
            OWNER,
            datetime!(2026-03-01 0:00 UTC),
            datetime!(2026-05-01 0:00 UTC),
        )
        .unwrap();
    events.sort_by(|a, b| a.title.cmp(&b.title));
    events.into_iter().map(|e| e.title).collect()
}

#[test]
fn discovery_then_incremental_sync_fetches_only_what_changed() {
    let Some(rig) = Radicale::start() else { return };
    rig.make_calendar("work", "Work");
    rig.put(
        "work/a.ics",
        &event("a", "Alpha", "20260316T090000Z", "20260316T100000Z"),
    );
    rig.put(
        "work/b.ics",
        &event("b", "Beta", "20260317T090000Z", "20260317T100000Z"),
    );
    let s = setup();
    let account = s.calendars.add(OWNER, caldav(rig.base_url())).unwrap();
    assert_eq!(account.status, Status::Pending);

    let first = s.calendars.sync(OWNER, &account.id).unwrap();
    assert_eq!((first.calendars, first.fetched), (1, 2), "{first:?}");
    assert_eq!(titles(&s.calendars), ["Alpha", "Beta"]);
    let events = s
        .calendars
        .events(
            OWNER,
            datetime!(2026-03-16 0:00 UTC),
            datetime!(2026-03-17 0:00 UTC),
        )
        .unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].start, "2026-03-16T09:00:00.000Z");
    let calendar::Source::Caldav(source) = &events[0].source else {
        panic!("a CalDAV event's source: {:?}", events[0].source);
    };
    assert_eq!(source.calendar, "Work");
    assert_eq!(source.account, "Radicale");

    rig.put(
        "work/a.ics",
        &event("a", "Alpha moved", "20260318T090000Z", "20260318T100000Z"),
    );
    let second = s.calendars.sync(OWNER, &account.id).unwrap();
    assert_eq!((second.fetched, second.removed), (1, 0), "{second:?}");
    assert_eq!(titles(&s.calendars), ["Alpha moved", "Beta"]);

    let unchanged = s.calendars.sync(OWNER, &account.id).unwrap();
    assert_eq!(
        (unchanged.fetched, unchanged.removed),
        (0, 0),
        "{unchanged:?}"
    );

    rig.delete("work/b.ics");
    let deleted = s.calendars.sync(OWNER, &account.id).unwrap();
    assert_eq!((deleted.fetched, deleted.removed), (0, 1), "{deleted:?}");
    assert_eq!(titles(&s.calendars), ["Alpha moved"]);

    rig.delete("work/");
    let gone = s.calendars.sync(OWNER, &account.id).unwrap();
    assert_eq!(gone.calendars, 0);
    assert!(titles(&s.calendars).is_empty());
    let shown = s.calendars.account(OWNER, &account.id).unwrap();
    assert!(shown.calendars.is_empty());
    assert_eq!(shown.status, Status::Ok);
}

#[test]
fn discovery_falls_back_to_the_well_known_address() {
    let Some(rig) = Radicale::start() else { return };
    rig.make_calendar("home", "Home");
    rig.put(
        "home/x.ics",
        &event("x", "Dentist", "20260320T080000Z", "20260320T090000Z"),
    );
    let s = setup();
    // Nothing lives at this path: the client must try /.well-known/caldav.
    let url = format!("{}no/such/place/", rig.base_url());
    let account = s.calendars.add(OWNER, caldav(url)).unwrap();
    let report = s.calendars.sync(OWNER, &account.id).unwrap();
    assert_eq!((report.calendars, report.fetched), (1, 1), "{report:?}");
    assert_eq!(titles(&s.calendars), ["Dentist"]);
}

const VTIMEZONE: &str = "BEGIN:VTIMEZONE\r\nTZID:Custom Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n";

fn weekly(uid: &str, tzid: &str) -> String {
    format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//switchboard//tests//EN\r\n{VTIMEZONE}BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20260301T000000Z\r\nDTSTART;TZID={tzid}:20260320T090000\r\nDTEND;TZID={tzid}:20260320T093000\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\nSUMMARY:{uid}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
}

#[test]
fn a_weekly_event_keeps_its_wall_time_across_the_spring_change() {
    let Some(rig) = Radicale::start() else { return };
    rig.make_calendar("team", "Team");
    rig.put("team/iana.ics", &weekly("iana", "Europe/Berlin"));
    rig.put("team/custom.ics", &weekly("custom", "Custom Berlin"));
    let s = setup();
    let account = s.calendars.add(OWNER, caldav(rig.base_url())).unwrap();
    s.calendars.sync(OWNER, &account.id).unwrap();
    let events = s
        .calendars
        .events(
            OWNER,
            datetime!(2026-03-01 0:00 UTC),
            datetime!(2026-05-01 0:00 UTC),
        )
        .unwrap();
    for uid in ["iana", "custom"] {
        let starts: Vec<&str> = events
            .iter()
            .filter(|e| e.uid == uid)
            .map(|e| e.start.as_str())
            .collect();
        // 09:00 in Berlin: 08:00 UTC before 29 March, 07:00 UTC after.
        assert_eq!(
            starts,
            [
                "2026-03-20T08:00:00.000Z",
                "2026-03-27T08:00:00.000Z",
                "2026-04-03T07:00:00.000Z",
                "2026-04-10T07:00:00.000Z"
            ],
            "{uid}"
        );
        assert!(events.iter().filter(|e| e.uid == uid).all(|e| e.recurring));
    }
    let shown = s.calendars.account(OWNER, &account.id).unwrap();
    assert!(shown.warnings.is_empty(), "{:?}", shown.warnings);
}

#[test]
fn a_refused_password_marks_the_account_failing_and_keeps_its_events() {
    let Some(mut rig) = Radicale::start() else {
        return;
    };
    rig.make_calendar("work", "Work");
    rig.put(
        "work/a.ics",
        &event("a", "Alpha", "20260316T090000Z", "20260316T100000Z"),
    );
    let s = setup();
    let account = s.calendars.add(OWNER, caldav(rig.base_url())).unwrap();
    s.calendars.sync(OWNER, &account.id).unwrap();

    rig.set_password("changed-on-the-server");
    let error = s.calendars.sync(OWNER, &account.id).unwrap_err();
    assert!(error.to_string().contains("401"), "{error}");
    let shown = s.calendars.account(OWNER, &account.id).unwrap();
    assert_eq!(shown.status, Status::Failing);
    assert!(
        shown.failure.as_deref().unwrap_or("").contains("401"),
        "{shown:?}"
    );
    assert_eq!(titles(&s.calendars), ["Alpha"]);

    // Nothing this crate returns about the account holds the password.
    let everything = format!("{:?}{:?}", s.calendars.accounts(OWNER).unwrap(), shown);
    assert!(!everything.contains(PASSWORD));
    assert!(shown.has_password);
    let new = caldav(rig.base_url());
    assert!(!format!("{new:?}").contains(PASSWORD));
}
