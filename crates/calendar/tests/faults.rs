//! Calendars against a scripted server (`fake/`), for what Radicale will not
//! do on demand: a sync-collection server whose second sync is checked on
//! the wire (the stored token sent, only the changed href fetched); an ICS
//! subscription fetched again with If-None-Match and read again only when
//! it changed; 500, 404 and malformed XML marking the account failing while
//! its events stay; 50,000 events in one file; an unknown time zone shown
//! as a warning on the account (and a file served without validators not
//! imported again when it is the same); the password read from the secrets store
//! and its deletion there failing the sync; an account removed with its
//! events; a window moved by the clock expanded again from what is stored;
//! a file of twenty rules that never end synchronised on one read's step
//! budget, the events it cut named in the account's warnings.

mod fake;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use calendar::{Calendars, Kind, NewAccount, Options, Status};
use clock::ManualClock;
use fake::{Fake, Request, Response};
use time::macros::datetime;

const OWNER: &str = "owner";

struct Setup {
    _dir: tempfile::TempDir,
    calendars: Calendars,
    secrets: Arc<secrets::Secrets>,
    clock: Arc<ManualClock>,
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
        calendars: Calendars::with_options(db, clock.clone(), secrets.clone(), options),
        secrets,
        clock,
        _dir: dir,
    }
}

fn account(kind: Kind, url: String) -> NewAccount {
    NewAccount {
        kind,
        url,
        username: Some("ada".into()),
        password: Some("pw".into()),
        name: None,
    }
}

/// Adds an ICS subscription at `url` with the test's credentials; its id.
fn add_ics(s: &Setup, url: &str) -> String {
    s.calendars
        .add(OWNER, account(Kind::Ics, url.to_owned()))
        .unwrap()
        .id
}

fn count(calendars: &Calendars) -> usize {
    calendars
        .events(
            OWNER,
            datetime!(2026-01-01 0:00 UTC),
            datetime!(2027-01-01 0:00 UTC),
        )
        .unwrap()
        .len()
}

fn vevent(uid: &str, summary: &str, day: u32) -> String {
    format!(
        "BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20260301T000000Z\r\nDTSTART:202603{day:02}T090000Z\r\nDTEND:202603{day:02}T100000Z\r\nSUMMARY:{summary}\r\nEND:VEVENT\r\n"
    )
}

fn wrap(body: &str) -> String {
    format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fake//EN\r\n{body}END:VCALENDAR\r\n")
}

/// A CalDAV server with one calendar that keeps a change log for its tokens.
#[derive(Default)]
struct Server {
    version: u32,
    /// href → (etag, data)
    events: BTreeMap<String, (String, String)>,
    /// (version, href) of each change; a delete has no event left.
    log: Vec<(u32, String)>,
}

impl Server {
    fn put(&mut self, href: &str, data: String) {
        self.version += 1;
        self.events
            .insert(href.to_owned(), (format!("\"e{}\"", self.version), data));
        self.log.push((self.version, href.to_owned()));
    }

    fn answer(&self, request: &Request) -> Response {
        let multistatus = |inner: String| {
            Response::new(
                207,
                format!(
                    "<?xml version=\"1.0\"?><d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\" xmlns:cs=\"http://calendarserver.org/ns/\">{inner}</d:multistatus>"
                ),
            )
        };
        let ok = |href: &str, props: String| {
            format!(
                "<d:response><d:href>{href}</d:href><d:propstat><d:prop>{props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
            )
        };
        match (request.method.as_str(), request.path.as_str()) {
            ("PROPFIND", "/") => multistatus(ok(
                "/",
                "<d:current-user-principal><d:href>/p/</d:href></d:current-user-principal>".into(),
            )),
            ("PROPFIND", "/p/") => multistatus(ok(
                "/p/",
                "<c:calendar-home-set><d:href>/cal/</d:href></c:calendar-home-set>".into(),
            )),
            ("PROPFIND", "/cal/") => multistatus(format!(
                "{}{}",
                ok(
                    "/cal/",
                    "<d:resourcetype><d:collection/></d:resourcetype>".into()
                ),
                ok(
                    "/cal/work/",
                    format!(
                        "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Work</d:displayname><d:sync-token>tok-{v}</d:sync-token><cs:getctag>{v}</cs:getctag>",
                        v = self.version
                    )
                )
            )),
            ("REPORT", "/cal/work/") if request.body.contains("sync-collection") => {
                let since: u32 = request
                    .body
                    .split("tok-")
                    .nth(1)
                    .and_then(|rest| rest.split('<').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                let mut hrefs: Vec<&String> = self
                    .log
                    .iter()
                    .filter(|(v, _)| *v > since)
                    .map(|(_, h)| h)
                    .collect();
                hrefs.sort();
                hrefs.dedup();
                let inner: String = hrefs
                    .into_iter()
                    .map(|h| match self.events.get(h) {
                        Some((etag, _)) => ok(h, format!("<d:getetag>{etag}</d:getetag>")),
                        None => format!(
                            "<d:response><d:href>{h}</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
                        ),
                    })
                    .collect();
                multistatus(format!(
                    "{inner}<d:sync-token>tok-{}</d:sync-token>",
                    self.version
                ))
            }
            ("REPORT", "/cal/work/") => {
                let inner: String = request
                    .body
                    .split("<d:href>")
                    .skip(1)
                    .filter_map(|rest| rest.split("</d:href>").next())
                    .filter_map(|h| {
                        let (etag, data) = self.events.get(h)?;
                        Some(ok(
                            h,
                            format!(
                                "<d:getetag>{etag}</d:getetag><c:calendar-data>{}</c:calendar-data>",
                                data.replace('&', "&amp;").replace('<', "&lt;")
                            ),
                        ))
                    })
                    .collect();
                multistatus(inner)
            }
            _ => Response::new(404, "not here"),
        }
    }
}

#[test]
fn the_second_sync_sends_the_token_and_fetches_only_the_changed_href() {
    let server = Arc::new(Mutex::new(Server::default()));
    server
        .lock()
        .unwrap()
        .put("/cal/work/a.ics", wrap(&vevent("a", "Alpha", 16)));
    server
        .lock()
        .unwrap()
        .put("/cal/work/b.ics", wrap(&vevent("b", "Beta", 17)));
    let fake = {
        let server = server.clone();
        Fake::start(move |r| server.lock().unwrap().answer(r))
    };
    let s = setup();
    let id = s
        .calendars
        .add(OWNER, account(Kind::Caldav, format!("{}/", fake.url)))
        .unwrap()
        .id;
    assert_eq!(s.calendars.sync(OWNER, &id).unwrap().fetched, 2);
    assert_eq!(count(&s.calendars), 2);
    fake.take_requests();

    server
        .lock()
        .unwrap()
        .put("/cal/work/b.ics", wrap(&vevent("b", "Beta moved", 18)));
    let report = s.calendars.sync(OWNER, &id).unwrap();
    assert_eq!((report.fetched, report.removed), (1, 0));
    let reports: Vec<Request> = fake
        .take_requests()
        .into_iter()
        .filter(|r| r.method == "REPORT")
        .collect();
    assert_eq!(reports.len(), 2, "one sync-collection, one multiget");
    assert!(
        reports[0]
            .body
            .contains("<d:sync-token>tok-2</d:sync-token>"),
        "{}",
        reports[0].body
    );
    assert_eq!(reports[1].body.matches("<d:href>").count(), 1);
    assert!(reports[1].body.contains("/cal/work/b.ics"));
    assert!(reports.iter().all(|r| r.header("authorization").is_some()));

    // Malformed XML: failing, with the reason, and the events stay.
    fake.set(|_| Response::new(207, "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>"));
    let error = s.calendars.sync(OWNER, &id).unwrap_err();
    assert!(error.to_string().contains("not valid XML"), "{error}");
    let shown = s.calendars.account(OWNER, &id).unwrap();
    assert_eq!(shown.status, Status::Failing);
    assert!(shown.failure.unwrap().contains("not valid XML"));
    assert_eq!(count(&s.calendars), 2);
}

#[test]
fn a_subscription_is_read_again_only_when_changed_and_kept_through_faults() {
    let body = Arc::new(Mutex::new((
        "\"v1\"".to_owned(),
        wrap(&format!(
            "{}{}",
            vevent("a", "Alpha", 16),
            vevent("b", "Beta", 17)
        )),
    )));
    let serve = |body: Arc<Mutex<(String, String)>>| {
        move |r: &Request| {
            let (etag, text) = body.lock().unwrap().clone();
            if r.header("if-none-match") == Some(etag.as_str()) {
                return Response::new(304, "");
            }
            Response::new(200, text).header("ETag", &etag)
        }
    };
    let fake = Fake::start(serve(body.clone()));
    let s = setup();
    let id = s
        .calendars
        .add(OWNER, account(Kind::Ics, format!("{}/team.ics", fake.url)))
        .unwrap()
        .id;
    let first = s.calendars.sync(OWNER, &id).unwrap();
    assert_eq!((first.fetched, first.not_modified), (2, false));
    let again = s.calendars.sync(OWNER, &id).unwrap();
    assert!(again.not_modified);
    let sent = fake.take_requests();
    assert_eq!(sent[1].header("if-none-match"), Some("\"v1\""));

    for (status, words) in [(500, "500"), (404, "404")] {
        fake.set(move |_| Response::new(status, "no"));
        let error = s.calendars.sync(OWNER, &id).unwrap_err();
        assert!(error.to_string().contains(words), "{error}");
        let shown = s.calendars.account(OWNER, &id).unwrap();
        assert_eq!(shown.status, Status::Failing);
        assert_eq!(count(&s.calendars), 2);
    }

    *body.lock().unwrap() = ("\"v2\"".to_owned(), wrap(&vevent("a", "Alpha", 16)));
    fake.set(serve(body));
    let changed = s.calendars.sync(OWNER, &id).unwrap();
    assert_eq!((changed.fetched, changed.removed), (1, 1));
    assert_eq!(count(&s.calendars), 1);
    assert_eq!(s.calendars.account(OWNER, &id).unwrap().status, Status::Ok);
}

#[test]
fn an_unknown_time_zone_is_a_warning_on_the_account() {
    let text = wrap(
        "BEGIN:VEVENT\r\nUID:z\r\nDTSTART;TZID=Atlantis/Capital:20260316T090000\r\nSUMMARY:Z\r\nEND:VEVENT\r\n",
    );
    let fake = Fake::start(move |_| Response::new(200, text.clone()));
    let s = setup();
    let id = add_ics(&s, &fake.url);
    s.calendars.sync(OWNER, &id).unwrap();
    let shown = s.calendars.account(OWNER, &id).unwrap();
    assert_eq!(shown.status, Status::Ok);
    assert!(
        shown
            .warnings
            .iter()
            .any(|w| w.contains("Atlantis/Capital")),
        "{:?}",
        shown.warnings
    );
    assert_eq!(count(&s.calendars), 1);
    // No ETag, no Last-Modified: the same file again is not imported again.
    let again = s.calendars.sync(OWNER, &id).unwrap();
    assert!(again.not_modified, "{again:?}");
    assert_eq!(s.calendars.account(OWNER, &id).unwrap().warnings.len(), 1);
}

#[test]
fn rules_that_never_end_share_one_budget_and_the_account_says_so() {
    let forever = include_str!("../../../fuzz/corpus/ical/twenty_minutely_forever.ics");
    let text = forever.replace(
        "END:VCALENDAR",
        &format!("{}END:VCALENDAR", vevent("a", "Alpha", 16)),
    );
    let fake = Fake::start(move |_| Response::new(200, text.clone()));
    let s = setup();
    let id = add_ics(&s, &fake.url);
    assert_eq!(s.calendars.sync(OWNER, &id).unwrap().fetched, 21);
    let shown = s.calendars.account(OWNER, &id).unwrap();
    assert_eq!(shown.status, Status::Ok);
    let cut = |text: &str| shown.warnings.iter().filter(|w| w.contains(text)).count();
    assert_eq!(
        cut("its rule repeats too often"),
        calendar::MAX_STEPS_PER_READ / calendar::MAX_RULE_STEPS,
        "{:?}",
        shown.warnings
    );
    assert!(
        cut("the calendar's rules together repeat too often") > 0,
        "{:?}",
        shown.warnings
    );
    // The rules started in 2000 never reach the window; the plain event does.
    assert_eq!(count(&s.calendars), 1);
}

#[test]
fn the_password_is_sent_from_the_secrets_store_and_its_loss_is_a_failure() {
    let fake = Fake::start(|_| Response::new(200, wrap(&vevent("a", "Alpha", 16))));
    let s = setup();
    let id = add_ics(&s, &fake.url);
    s.calendars.sync(OWNER, &id).unwrap();
    // Basic ada:pw
    let sent = fake.take_requests();
    assert_eq!(sent[0].header("authorization"), Some("Basic YWRhOnB3"));
    let keys = s.secrets.keys(OWNER).unwrap();
    assert_eq!(keys.len(), 1);
    s.secrets.delete_key(OWNER, &keys[0].name).unwrap();
    let error = s.calendars.sync(OWNER, &id).unwrap_err();
    assert!(error.to_string().contains("was deleted"), "{error}");
    assert_eq!(
        s.calendars.account(OWNER, &id).unwrap().status,
        Status::Failing
    );
    assert_eq!(count(&s.calendars), 1);
    s.calendars.remove(OWNER, &id).unwrap();
    assert_eq!(count(&s.calendars), 0);
    assert!(s.calendars.accounts(OWNER).unwrap().is_empty());
}

#[test]
fn a_window_moved_by_the_clock_is_expanded_again_without_a_download() {
    let text = wrap(
        "BEGIN:VEVENT\r\nUID:rent\r\nDTSTART;VALUE=DATE:20260101\r\nRRULE:FREQ=MONTHLY\r\nSUMMARY:Rent\r\nEND:VEVENT\r\n",
    );
    let fake = Fake::start(move |r| {
        if r.header("if-none-match").is_some() {
            return Response::new(304, "");
        }
        Response::new(200, text.clone()).header("ETag", "\"r1\"")
    });
    let s = setup();
    let id = add_ics(&s, &fake.url);
    s.calendars.sync(OWNER, &id).unwrap();
    let later = |c: &Calendars| {
        c.events(
            OWNER,
            datetime!(2028-03-01 0:00 UTC),
            datetime!(2028-04-01 0:00 UTC),
        )
        .unwrap()
        .len()
    };
    assert_eq!(later(&s.calendars), 0, "2028 is outside the first window");
    s.clock.advance(time::Duration::days(500));
    assert!(s.calendars.sync(OWNER, &id).unwrap().not_modified);
    assert_eq!(later(&s.calendars), 1);
    let first = s
        .calendars
        .events(
            OWNER,
            datetime!(2026-03-01 0:00 UTC),
            datetime!(2026-04-01 0:00 UTC),
        )
        .unwrap();
    assert!(first.is_empty(), "2026 has left the window: {first:?}");
}

#[test]
fn fifty_thousand_events_in_one_file_are_all_stored() {
    let text = Arc::new(fake::big_ics(50_000));
    let fake = {
        let text = text.clone();
        Fake::start(move |r| {
            if r.header("if-none-match") == Some("\"big\"") {
                return Response::new(304, "");
            }
            Response {
                status: 200,
                headers: vec![("ETag".into(), "\"big\"".into())],
                body: Arc::new(text.as_bytes().to_vec()),
            }
        })
    };
    let s = setup();
    let id = add_ics(&s, &fake.url);
    let report = s.calendars.sync(OWNER, &id).unwrap();
    assert_eq!(report.fetched, 50_000);
    let day = s
        .calendars
        .events(
            OWNER,
            datetime!(2026-03-20 0:00 UTC),
            datetime!(2026-03-21 0:00 UTC),
        )
        .unwrap();
    assert_eq!(day.len(), fake::BIG_PER_DAY);
    assert!(s.calendars.sync(OWNER, &id).unwrap().not_modified);
}

#[test]
fn credentials_go_to_the_accounts_own_host_only_whatever_a_server_names() {
    let elsewhere = Fake::start(|_| Response::new(404, "nothing here"));
    let principal = format!(
        "<?xml version=\"1.0\"?><d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/</d:href>\
         <d:propstat><d:prop><d:current-user-principal><d:href>{}/principals/ada/</d:href>\
         </d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>\
         </d:response></d:multistatus>",
        elsewhere.url
    );
    let home = Fake::start(move |_| Response::new(207, principal.clone()));
    let s = setup();
    let id = s
        .calendars
        .add(OWNER, account(Kind::Caldav, home.url.clone()))
        .unwrap()
        .id;
    assert!(s.calendars.sync(OWNER, &id).is_err());
    let asked_home = home.take_requests();
    assert!(
        asked_home
            .iter()
            .all(|r| r.header("authorization").is_some())
    );
    let asked_elsewhere = elsewhere.take_requests();
    assert!(
        !asked_elsewhere.is_empty(),
        "the principal's host was asked"
    );
    assert!(
        asked_elsewhere
            .iter()
            .all(|r| r.header("authorization").is_none()),
        "the password went to another host"
    );
}

#[test]
fn an_account_is_due_again_only_once_its_interval_has_passed() {
    let fake = Fake::start(|_| Response::new(200, wrap(&vevent("a", "Alpha", 16))));
    let s = setup();
    let id = add_ics(&s, &fake.url);
    let every = time::Duration::minutes(5);
    let due = || s.calendars.due_accounts(every).unwrap();
    assert_eq!(
        due(),
        [(OWNER.to_owned(), id.clone())],
        "a new account is due"
    );
    s.calendars.sync(OWNER, &id).unwrap();
    assert!(due().is_empty());
    s.clock.advance(time::Duration::minutes(4));
    assert!(due().is_empty());
    s.clock.advance(time::Duration::minutes(1));
    assert_eq!(due().len(), 1);
}
