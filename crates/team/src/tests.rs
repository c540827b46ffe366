//! People and rooms on a real database: zones checked against the IANA
//! database, members kept in step with the workspace, rooms per account and
//! Jitsi rooms made unguessable.

use std::sync::Arc;

use store::Db;

use super::*;

fn open() -> (tempfile::TempDir, People, Rooms) {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock: Arc<dyn clock::Clock> = Arc::new(clock::ManualClock::starting_now());
    (
        dir,
        People::new(db.clone(), clock.clone()),
        Rooms::new(db, clock),
    )
}

fn person(name: &str, zone: &str) -> PersonFields {
    PersonFields {
        name: Some(name.into()),
        zone: Some(zone.into()),
        ..PersonFields::default()
    }
}

fn member(id: &str, name: &str) -> Member {
    Member {
        account_id: id.into(),
        name: name.into(),
    }
}

#[test]
fn people_need_an_iana_zone_and_hours_within_a_day() {
    let (_dir, people, _) = open();
    let ana = people
        .create("a", person("Ana", "America/Sao_Paulo"))
        .unwrap();
    assert_eq!((ana.start_minute, ana.end_minute), (540, 1020));
    assert_eq!(ana.workdays, [1, 2, 3, 4, 5]);
    for bad in [
        person("", "UTC"),
        person("Bo", "Mars/Olympus"),
        person("Bo", "CEST"),
        PersonFields {
            start_minute: Some(1000),
            end_minute: Some(600),
            ..person("Night", "UTC")
        },
        PersonFields {
            workdays: Some(vec![0, 8]),
            ..person("Days", "UTC")
        },
    ] {
        assert!(matches!(
            people.create("a", bad),
            Err(TeamError::Invalid(_))
        ));
    }
    let moved = people
        .update(
            "a",
            &ana.id,
            PersonFields {
                zone: Some("Asia/Kolkata".into()),
                workdays: Some(vec![5, 1, 1, 3]),
                ..PersonFields::default()
            },
        )
        .unwrap();
    assert_eq!(moved.zone, "Asia/Kolkata");
    assert_eq!(moved.workdays, [1, 3, 5]);
    assert_eq!(people.list("b", &[]).unwrap(), []);
    assert!(matches!(
        people.delete("b", &ana.id),
        Err(TeamError::NotFound)
    ));
    people.delete("a", &ana.id).unwrap();
    assert_eq!(people.list("a", &[]).unwrap(), []);
}

#[test]
fn workspace_members_are_always_listed_and_follow_their_accounts() {
    let (_dir, people, _) = open();
    people.create("a", person("Zed", "Europe/Berlin")).unwrap();
    let listed = people
        .list("a", &[member("m1", "Mia"), member("m2", "Al")])
        .unwrap();
    let names: Vec<_> = listed.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Al", "Mia", "Zed"]);
    let mia = listed.iter().find(|p| p.name == "Mia").unwrap();
    assert_eq!(mia.member_account_id.as_deref(), Some("m1"));
    assert_eq!(mia.zone, "UTC");

    let set = people
        .update(
            "a",
            &mia.id,
            PersonFields {
                zone: Some("Asia/Tokyo".into()),
                ..PersonFields::default()
            },
        )
        .unwrap();
    assert_eq!(set.zone, "Asia/Tokyo");
    assert!(matches!(
        people.update(
            "a",
            &mia.id,
            PersonFields {
                name: Some("Other".into()),
                ..PersonFields::default()
            }
        ),
        Err(TeamError::Invalid(_))
    ));
    assert!(matches!(
        people.delete("a", &mia.id),
        Err(TeamError::Member)
    ));

    // Renamed account: renamed person, zone kept; removed account: gone.
    let again = people.list("a", &[member("m1", "Mia R.")]).unwrap();
    let names: Vec<_> = again
        .iter()
        .map(|p| (p.name.as_str(), p.zone.as_str()))
        .collect();
    assert_eq!(names, [("Mia R.", "Asia/Tokyo"), ("Zed", "Europe/Berlin")]);
}

#[test]
fn rooms_take_any_link_or_make_a_jitsi_room() {
    let (_dir, _, rooms) = open();
    let link = |name: &str, url: &str| RoomFields {
        name: Some(name.into()),
        url: Some(url.into()),
        jitsi: None,
    };
    let zoom = rooms
        .create("a", link("Stand-up", "https://us02web.zoom.us/j/123"))
        .unwrap();
    assert_eq!(zoom.provider, rooms::Provider::Zoom);
    let meet = rooms
        .create("a", link("1:1", "https://meet.google.com/abc-defg-hij"))
        .unwrap();
    assert_eq!(meet.provider, rooms::Provider::Meet);
    let other = rooms
        .create("a", link("Lab", "https://video.example.org/lab"))
        .unwrap();
    assert_eq!(other.provider, rooms::Provider::Other);
    let made = rooms
        .create(
            "a",
            RoomFields {
                name: Some("Quick".into()),
                url: None,
                jitsi: Some(true),
            },
        )
        .unwrap();
    let second = rooms
        .create(
            "a",
            RoomFields {
                name: Some("Quick 2".into()),
                url: None,
                jitsi: Some(true),
            },
        )
        .unwrap();
    assert_eq!(made.provider, rooms::Provider::Jitsi);
    assert!(
        made.url.starts_with("https://meet.jit.si/Switchboard"),
        "{}",
        made.url
    );
    assert_eq!(made.url.len(), "https://meet.jit.si/Switchboard".len() + 20);
    assert_ne!(made.url, second.url);
    for bad in [
        link("No scheme", "zoom.us/j/1"),
        link("", "https://x.org"),
        RoomFields {
            name: Some("Both".into()),
            url: Some("https://x.org".into()),
            jitsi: Some(true),
        },
        RoomFields {
            name: Some("Neither".into()),
            url: None,
            jitsi: None,
        },
    ] {
        assert!(matches!(rooms.create("a", bad), Err(TeamError::Invalid(_))));
    }
    let names: Vec<_> = rooms
        .list("a")
        .unwrap()
        .into_iter()
        .map(|r| r.name)
        .collect();
    assert_eq!(names, ["1:1", "Lab", "Quick", "Quick 2", "Stand-up"]);
    assert_eq!(rooms.list("b").unwrap(), []);
    let renamed = rooms
        .update(
            "a",
            &zoom.id,
            RoomFields {
                name: Some("Daily".into()),
                ..RoomFields::default()
            },
        )
        .unwrap();
    assert_eq!(
        (renamed.name.as_str(), renamed.url.as_str()),
        ("Daily", zoom.url.as_str())
    );
    assert!(matches!(
        rooms.delete("b", &zoom.id),
        Err(TeamError::NotFound)
    ));
    rooms.delete("a", &zoom.id).unwrap();
    assert_eq!(rooms.list("a").unwrap().len(), 4);
}
