//! The bug reports of `switchboard serve --demo`: a GitHub issue and a
//! Sentry error that arrived twice, routed to the demo's web project and
//! waiting for the user (held, or listed while intake is off), so the Bug
//! Intake page shows reports without any session starting on its own.
//!
//! Received through [`BugIntake::receive`] as deliveries are, deduplication
//! included; the moments are laid out before the `now` the caller gives.

use std::path::Path;

use time::{Duration, OffsetDateTime};

use crate::config::{Config, RouteRule};
use crate::intake::{BugIntake, BugReport, IntakeError, Policy};
use crate::report::{Report, Source};

/// For whom, where and when the demo's reports arrive.
pub struct DemoReports<'a> {
    pub account_id: &'a str,
    /// The project folder they are routed to, and the engine named for
    /// their triage; without a folder they are listed unrouted.
    pub folder: Option<&'a Path>,
    pub engine: Option<&'a str>,
    /// `bugIntakeEnabled`: on, they are held for the user to release.
    pub enabled: bool,
    pub now: OffsetDateTime,
}

/// Receives the demo's reports and returns them as stored, one per report.
pub fn seed_demo(
    intake: &BugIntake,
    demo: &DemoReports<'_>,
) -> Result<Vec<BugReport>, IntakeError> {
    let config = Config {
        routes: demo
            .folder
            .map(|folder| RouteRule {
                source: None,
                repository: None,
                sentry_project: None,
                project: None,
                address: None,
                folder: folder.to_owned(),
                engine: demo.engine.map(str::to_owned),
            })
            .into_iter()
            .collect(),
        ..Config::default()
    };
    let policy = Policy {
        enabled: demo.enabled,
        hold_new: true,
    };
    let before = |minutes: i64| demo.now - Duration::minutes(minutes);
    let issue = Report {
        source: Source::Github,
        title: "Checkout shows the old price after a plan change".to_owned(),
        body: "Steps:\n1. On the Team plan, open Billing and switch to Business.\n\
               2. Go to checkout.\n\nThe summary still shows $12 per seat; the invoice \
               afterwards is right ($20). Seen in Firefox and Chrome."
            .to_owned(),
        url: Some("https://github.com/acme/web/issues/2214".to_owned()),
        external_id: Some("acme/web#2214".to_owned()),
        reporter: Some("lena-k".to_owned()),
        origin: Some("acme/web".to_owned()),
        labels: vec!["bug".to_owned(), "checkout".to_owned()],
        received_at: before(190),
    };
    let error = |received_at| Report {
        source: Source::Sentry,
        title: "TypeError: Cannot read properties of undefined (reading 'amount')".to_owned(),
        body: "at PriceSummary (src/checkout/PriceSummary.tsx:42:31)\n\
               at renderWithHooks (react-dom.production.min.js:160:137)\n\n\
               Browser: Safari 18.1 · Release: web@2026.11.3"
            .to_owned(),
        url: Some("https://acme.sentry.io/issues/5120233/".to_owned()),
        external_id: Some("ACME-WEB-3FQ".to_owned()),
        reporter: None,
        origin: Some("acme-web".to_owned()),
        labels: vec!["level:error".to_owned()],
        received_at,
    };
    let mut made = Vec::new();
    for report in [issue, error(before(75)), error(before(12))] {
        let received = intake.receive(demo.account_id, &report, &config, policy)?;
        // The error's second arrival counts on the first: one report, seen twice.
        made.retain(|r: &BugReport| r.id != received.report.id);
        made.push(received.report);
    }
    Ok(made)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::intake::ReportState;

    #[test]
    fn the_demo_reports_wait_for_the_user_whatever_the_setting() {
        for (enabled, state) in [(true, ReportState::Held), (false, ReportState::New)] {
            let dir = tempfile::tempdir().unwrap();
            let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
            db.migrate(crate::MIGRATIONS).unwrap();
            let intake = BugIntake::new(db);
            let demo = DemoReports {
                account_id: "a",
                folder: Some(Path::new("/home/me/acme/web")),
                engine: Some("demo"),
                enabled,
                now: time::macros::datetime!(2026-03-10 12:00 UTC),
            };
            let made = seed_demo(&intake, &demo).unwrap();
            assert_eq!(made.len(), 2);
            assert_eq!(intake.list("a", None, 10).unwrap().len(), 2);
            assert!(made.iter().all(|r| r.state == state), "{made:?}");
            assert!(made.iter().all(|r| r.engine.as_deref() == Some("demo")));
            let counts: Vec<i64> = made.iter().map(|r| r.count).collect();
            assert_eq!(counts, [1, 2]);
        }
    }
}
