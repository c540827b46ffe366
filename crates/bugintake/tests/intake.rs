//! The stored reports: deduplication within the window and a new report
//! after it, intake off, holding and releasing, routing on receipt, the
//! triage claim under racing deliveries, and the session's steps.

use std::path::PathBuf;
use std::sync::Arc;

use bugintake::{
    Action, BugIntake, Config, IntakeError, MIGRATIONS, Policy, Reason, Received, Report,
    ReportState, Route, RouteRule, Source,
};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const AT: OffsetDateTime = datetime!(2026-03-02 10:00 UTC);
const ON: Policy = Policy {
    enabled: true,
    hold_new: false,
};

fn intake() -> (tempfile::TempDir, BugIntake) {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    (dir, BugIntake::new(db))
}

fn report(source: Source, title: &str, at: OffsetDateTime) -> Report {
    Report {
        source,
        title: title.to_owned(),
        body: "It breaks.".to_owned(),
        url: Some("https://example.com/1".to_owned()),
        external_id: None,
        reporter: Some("mona".to_owned()),
        origin: Some("octo/app".to_owned()),
        labels: vec!["bug".to_owned(), "p1".to_owned()],
        received_at: at,
    }
}

/// Account `a` receives a report, as `report` makes it.
fn take(
    intake: &BugIntake,
    source: Source,
    title: &str,
    at: OffsetDateTime,
    config: &Config,
    policy: Policy,
) -> Received {
    intake
        .receive("a", &report(source, title, at), config, policy)
        .unwrap()
}

fn routed() -> Config {
    Config {
        routes: vec![RouteRule {
            source: None,
            repository: Some("octo/app".to_owned()),
            sentry_project: None,
            project: None,
            address: None,
            folder: PathBuf::from("/src/app"),
            engine: Some("codex".to_owned()),
        }],
        ..Config::default()
    }
}

fn app_route() -> Route {
    Route {
        folder: PathBuf::from("/src/app"),
        engine: Some("codex".to_owned()),
    }
}

#[test]
fn a_routed_report_is_stored_and_claimed_for_triage() {
    let (_dir, intake) = intake();
    let got = take(&intake, Source::Github, "Crash on save", AT, &routed(), ON);
    assert_eq!(got.action, Action::StartTriage(app_route()));
    let stored = &got.report;
    assert_eq!(stored.state, ReportState::Triaging);
    assert_eq!(stored.session_id, None);
    assert_eq!(stored.folder.as_deref(), Some("/src/app"));
    assert_eq!(stored.engine.as_deref(), Some("codex"));
    assert_eq!(stored.labels, vec!["bug", "p1"]);
    assert_eq!(stored.created_at, "2026-03-02T10:00:00.000Z");
    assert_eq!(stored.count, 1);
    assert_eq!(intake.get("a", &stored.id).unwrap(), *stored);
    assert!(matches!(
        intake.get("b", &stored.id),
        Err(IntakeError::NotFound)
    ));
}

#[test]
fn the_same_report_within_a_day_is_counted_not_started_again() {
    let (_dir, intake) = intake();
    let first = take(&intake, Source::Github, "Crash on save", AT, &routed(), ON);
    let later = AT + Duration::hours(23);
    let second = take(
        &intake,
        Source::Github,
        "  crash   ON save ",
        later,
        &routed(),
        ON,
    );
    assert_eq!(
        second.action,
        Action::Duplicate {
            of: first.report.id.clone()
        }
    );
    assert_eq!(second.report.id, first.report.id);
    assert_eq!(second.report.count, 2);
    assert_eq!(second.report.last_seen_at, "2026-03-03T09:00:00.000Z");
    assert_eq!(intake.list("a", None, 100).unwrap().len(), 1);

    // Another source, title or account is another report.
    let sentry = take(&intake, Source::Sentry, "Crash on save", AT, &routed(), ON);
    assert!(matches!(sentry.action, Action::Listed(Reason::Unrouted)));
    let other_title = take(&intake, Source::Github, "Crash on load", AT, &routed(), ON);
    assert!(matches!(other_title.action, Action::StartTriage(_)));
    let other_account = intake
        .receive(
            "b",
            &report(Source::Github, "Crash on save", AT),
            &routed(),
            ON,
        )
        .unwrap();
    assert!(matches!(other_account.action, Action::StartTriage(_)));
}

#[test]
fn after_the_window_the_same_title_is_a_new_report() {
    let (_dir, intake) = intake();
    let first = take(&intake, Source::Github, "Crash on save", AT, &routed(), ON);
    let day_later = AT + Duration::hours(24);
    let second = take(
        &intake,
        Source::Github,
        "Crash on save",
        day_later,
        &routed(),
        ON,
    );
    assert!(matches!(second.action, Action::StartTriage(_)));
    assert_ne!(second.report.id, first.report.id);
    // Newest first.
    let listed: Vec<String> = intake
        .list("a", None, 100)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(listed, vec![second.report.id.clone(), first.report.id]);
    // A third within a day of the second counts on the second.
    let third_at = AT + Duration::hours(30);
    assert_eq!(
        take(
            &intake,
            Source::Github,
            "Crash on save",
            third_at,
            &routed(),
            ON
        )
        .action,
        Action::Duplicate {
            of: second.report.id
        }
    );
}

#[test]
fn with_intake_off_reports_are_listed_and_nothing_starts() {
    let (_dir, intake) = intake();
    let off = Policy {
        enabled: false,
        hold_new: false,
    };
    let routed_report = take(&intake, Source::Github, "One", AT, &routed(), off);
    assert_eq!(routed_report.action, Action::Listed(Reason::IntakeOff));
    assert_eq!(routed_report.report.state, ReportState::New);
    assert_eq!(routed_report.report.reason, Some(Reason::IntakeOff));
    let unrouted = take(&intake, Source::Form, "Two", AT, &routed(), off);
    assert_eq!(unrouted.action, Action::Listed(Reason::IntakeOff));
    assert_eq!(unrouted.report.state, ReportState::Unrouted);
    let duplicate = take(&intake, Source::Github, "one", AT, &routed(), off);
    assert!(matches!(duplicate.action, Action::Duplicate { .. }));
    assert_eq!(intake.list("a", None, 100).unwrap().len(), 2);
    assert!(
        intake
            .list("a", Some(ReportState::Triaging), 100)
            .unwrap()
            .is_empty()
    );

    // Still off, releasing starts nothing either; once on, it starts.
    let id = routed_report.report.id;
    let still_off = intake.release("a", &id, &routed(), false).unwrap();
    assert_eq!(still_off.action, Action::Listed(Reason::IntakeOff));
    let on = intake.release("a", &id, &routed(), true).unwrap();
    assert_eq!(on.action, Action::StartTriage(app_route()));
    assert_eq!(on.report.state, ReportState::Triaging);
}

#[test]
fn held_reports_wait_for_release() {
    let (_dir, intake) = intake();
    let holding = Policy {
        enabled: true,
        hold_new: true,
    };
    let held = take(&intake, Source::Github, "Held", AT, &routed(), holding);
    assert_eq!(held.action, Action::Listed(Reason::Held));
    assert_eq!(held.report.state, ReportState::Held);
    let id = held.report.id;
    assert_eq!(
        intake.list("a", Some(ReportState::Held), 100).unwrap()[0].id,
        id
    );

    let released = intake.release("a", &id, &routed(), true).unwrap();
    assert_eq!(released.action, Action::StartTriage(app_route()));
    assert_eq!(released.report.state, ReportState::Triaging);
    assert_eq!(released.report.reason, None);
    // Released once: a second release finds it triaging.
    assert!(matches!(
        intake.release("a", &id, &routed(), true),
        Err(IntakeError::WrongState {
            state: ReportState::Triaging,
            ..
        })
    ));

    // A report intake-off left `new` can be held by hand.
    let off = Policy {
        enabled: false,
        hold_new: false,
    };
    let new = take(&intake, Source::Github, "Later", AT, &routed(), off);
    let held = intake.hold("a", &new.report.id).unwrap();
    assert_eq!(
        (held.state, held.reason),
        (ReportState::Held, Some(Reason::Held))
    );
    assert!(matches!(
        intake.hold("a", &id),
        Err(IntakeError::WrongState { .. })
    ));
    assert!(matches!(
        intake.hold("b", &new.report.id),
        Err(IntakeError::NotFound)
    ));
}

#[test]
fn an_unrouted_report_is_routed_again_on_release() {
    let (_dir, intake) = intake();
    let got = take(
        &intake,
        Source::Github,
        "Nowhere",
        AT,
        &Config::default(),
        ON,
    );
    assert_eq!(got.action, Action::Listed(Reason::Unrouted));
    assert_eq!(got.report.state, ReportState::Unrouted);
    assert_eq!(got.report.folder, None);
    let still = intake
        .release("a", &got.report.id, &Config::default(), true)
        .unwrap();
    assert_eq!(still.action, Action::Listed(Reason::Unrouted));
    let now_routed = intake
        .release("a", &got.report.id, &routed(), true)
        .unwrap();
    assert_eq!(now_routed.action, Action::StartTriage(app_route()));
    assert_eq!(now_routed.report.folder.as_deref(), Some("/src/app"));
}

#[test]
fn a_claim_takes_one_session_and_can_be_given_back() {
    let (_dir, intake) = intake();
    let got = take(&intake, Source::Github, "Claimed", AT, &routed(), ON);
    let id = got.report.id;
    let triaging = intake.mark_triaging("a", &id, "s1").unwrap();
    assert_eq!(triaging.session_id.as_deref(), Some("s1"));
    assert!(matches!(
        intake.mark_triaging("a", &id, "s2"),
        Err(IntakeError::WrongState { .. })
    ));
    assert!(matches!(
        intake.start_failed("a", &id),
        Err(IntakeError::WrongState { .. })
    ));
    assert_eq!(
        intake.mark_triaged("a", &id).unwrap().state,
        ReportState::Triaged
    );

    let other = take(&intake, Source::Github, "Failed start", AT, &routed(), ON);
    assert!(matches!(
        intake.mark_triaged("a", &other.report.id),
        Err(IntakeError::WrongState { .. })
    ));
    let back = intake.start_failed("a", &other.report.id).unwrap();
    assert_eq!(
        (back.state, back.reason),
        (ReportState::New, Some(Reason::StartFailed))
    );
    let retried = intake
        .release("a", &other.report.id, &routed(), true)
        .unwrap();
    assert!(matches!(retried.action, Action::StartTriage(_)));
}

#[test]
fn any_report_can_be_dismissed() {
    let (_dir, intake) = intake();
    let got = take(&intake, Source::Github, "Noise", AT, &routed(), ON);
    let dismissed = intake.dismiss("a", &got.report.id).unwrap();
    assert_eq!(dismissed.state, ReportState::Dismissed);
    assert!(matches!(
        intake.mark_triaging("a", &got.report.id, "s1"),
        Err(IntakeError::WrongState {
            state: ReportState::Dismissed,
            ..
        })
    ));
    // Dismissed within the window, the same report is still its duplicate.
    let again = take(&intake, Source::Github, "noise", AT, &routed(), ON);
    assert!(matches!(again.action, Action::Duplicate { .. }));
    assert_eq!(
        intake.list("a", Some(ReportState::Dismissed), 10).unwrap()[0].count,
        2
    );
}

#[test]
fn racing_deliveries_start_one_session() {
    let (_dir, intake) = intake();
    let intake = Arc::new(intake);
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let intake = intake.clone();
            std::thread::spawn(move || take(&intake, Source::Github, "Race", AT, &routed(), ON))
        })
        .collect();
    let results: Vec<Received> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let starts = results
        .iter()
        .filter(|r| matches!(r.action, Action::StartTriage(_)))
        .count();
    assert_eq!(starts, 1);
    let listed = intake.list("a", None, 100).unwrap();
    assert_eq!((listed.len(), listed[0].count), (1, 8));
}

#[test]
fn the_list_filters_by_state_and_keeps_to_its_limit() {
    let (_dir, intake) = intake();
    for minute in 0..5 {
        let at = AT + Duration::minutes(minute);
        intake
            .receive(
                "a",
                &report(Source::Github, &format!("R{minute}"), at),
                &routed(),
                ON,
            )
            .unwrap();
    }
    let unrouted = take(&intake, Source::Email, "Mail", AT, &routed(), ON);
    let two = intake.list("a", None, 2).unwrap();
    let titles: Vec<&str> = two.iter().map(|r| r.title.as_str()).collect();
    assert_eq!(titles, vec!["R4", "R3"]);
    let only = intake.list("a", Some(ReportState::Unrouted), 100).unwrap();
    assert_eq!(only.len(), 1);
    assert_eq!(only[0].id, unrouted.report.id);
}
