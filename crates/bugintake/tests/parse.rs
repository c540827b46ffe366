//! Each source's parser on realistic deliveries (the fixtures follow the
//! senders' documented payloads), and the errors a person's report gets.

use bugintake::{
    Delivery, Form, Mail, ParseError, Parsed, Report, Source, from_form, from_mail, parse_delivery,
};
use time::OffsetDateTime;
use time::macros::datetime;

const AT: OffsetDateTime = datetime!(2026-03-02 10:00 UTC);

const GITHUB_OPENED: &str = include_str!("fixtures/github_issues_opened.json");
const GITHUB_PING: &str = include_str!("fixtures/github_ping.json");
const SENTRY_LEGACY: &str = include_str!("fixtures/sentry_legacy_webhook.json");
const SENTRY_ISSUE: &str = include_str!("fixtures/sentry_issue_created.json");
const SENTRY_EVENT_ALERT: &str = include_str!("fixtures/sentry_event_alert.json");
const GENERIC: &str = include_str!("fixtures/generic.json");

fn github(event: &str, body: &str) -> Result<Parsed, ParseError> {
    parse_delivery(
        &Delivery {
            body: body.as_bytes(),
            content_type: Some("application/json"),
            github_event: Some(event),
            sentry_resource: None,
        },
        AT,
    )
}

fn sentry(resource: Option<&str>, body: &str) -> Result<Parsed, ParseError> {
    parse_delivery(
        &Delivery {
            body: body.as_bytes(),
            content_type: Some("application/json"),
            github_event: None,
            sentry_resource: resource,
        },
        AT,
    )
}

fn plain(body: &str) -> Result<Parsed, ParseError> {
    sentry(None, body)
}

fn report(parsed: Result<Parsed, ParseError>) -> Report {
    match parsed {
        Ok(Parsed::Report(report)) => report,
        other => panic!("expected a report, got {other:?}"),
    }
}

fn ignored(parsed: Result<Parsed, ParseError>) -> String {
    match parsed {
        Ok(Parsed::Ignored { reason }) => reason,
        other => panic!("expected an ignored delivery, got {other:?}"),
    }
}

/// The fixture with its `action` replaced.
fn with_action(fixture: &str, action: &str) -> String {
    let mut payload: serde_json::Value = serde_json::from_str(fixture).unwrap();
    payload["action"] = action.into();
    payload.to_string()
}

#[test]
fn an_opened_github_issue_is_a_report() {
    let report = report(github("issues", GITHUB_OPENED));
    assert_eq!(report.source, Source::Github);
    assert_eq!(report.title, "Checkout button does nothing on Safari 17");
    assert!(report.body.starts_with("Steps:\r\n1. Add any item"));
    assert_eq!(
        report.url.as_deref(),
        Some("https://github.com/octo-org/storefront/issues/482")
    );
    assert_eq!(
        report.external_id.as_deref(),
        Some("octo-org/storefront#482")
    );
    assert_eq!(report.reporter.as_deref(), Some("mona-tester"));
    assert_eq!(report.origin.as_deref(), Some("octo-org/storefront"));
    assert_eq!(report.labels, vec!["bug", "checkout"]);
    assert_eq!(report.received_at, AT);

    let reopened = crate::report(github("issues", &with_action(GITHUB_OPENED, "reopened")));
    assert_eq!(reopened.title, report.title);
}

#[test]
fn other_github_actions_and_events_are_ignored_with_a_reason() {
    for action in ["edited", "closed", "labeled", "assigned"] {
        let reason = ignored(github("issues", &with_action(GITHUB_OPENED, action)));
        assert!(reason.starts_with(&format!("issue {action}:")), "{reason}");
    }
    assert!(ignored(github("ping", GITHUB_PING)).contains("ping"));
    assert!(ignored(github("push", "{}")).contains("`push`"));
}

#[test]
fn a_github_issue_without_a_body_or_labels_still_reads() {
    let mut payload: serde_json::Value = serde_json::from_str(GITHUB_OPENED).unwrap();
    payload["issue"]["body"] = serde_json::Value::Null;
    payload["issue"]["labels"] = serde_json::json!([]);
    let report = report(github("issues", &payload.to_string()));
    assert_eq!((report.body.as_str(), report.labels.len()), ("", 0));

    payload["issue"]["title"] = "  ".into();
    assert!(matches!(
        github("issues", &payload.to_string()),
        Err(ParseError::Missing {
            field: "issue.title"
        })
    ));
    assert!(matches!(
        github("issues", "not json"),
        Err(ParseError::NotJson(_))
    ));
}

#[test]
fn a_form_encoded_github_delivery_carries_its_json_in_payload() {
    let body: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("payload", GITHUB_OPENED)
        .finish();
    let delivery = Delivery {
        body: body.as_bytes(),
        content_type: Some("application/x-www-form-urlencoded"),
        github_event: Some("issues"),
        sentry_resource: None,
    };
    let report = report(parse_delivery(&delivery, AT));
    assert_eq!(
        report.external_id.as_deref(),
        Some("octo-org/storefront#482")
    );

    let empty = Delivery {
        body: b"other=1",
        ..delivery
    };
    assert!(matches!(
        parse_delivery(&empty, AT),
        Err(ParseError::NoFormPayload)
    ));
}

#[test]
fn the_legacy_sentry_webhook_is_recognised_without_a_header() {
    let report = report(plain(SENTRY_LEGACY));
    assert_eq!(report.source, Source::Sentry);
    assert_eq!(
        report.title,
        "TypeError: Cannot read properties of undefined (reading 'total')"
    );
    assert_eq!(
        report.url.as_deref(),
        Some("https://octo-org.sentry.io/issues/4398120731/?referrer=webhooks_plugin")
    );
    assert_eq!(report.external_id.as_deref(), Some("4398120731"));
    assert_eq!(report.origin.as_deref(), Some("storefront-web"));
    assert_eq!(report.labels, vec!["error"]);
    assert!(
        report
            .body
            .contains("Culprit: checkout/submit in handlePay")
    );
    assert!(report.body.contains("Alert rules: New errors in checkout"));
    assert!(
        report
            .body
            .contains("Exception: TypeError: Cannot read properties")
    );

    // Without the event's title, the message, then the culprit.
    let mut payload: serde_json::Value = serde_json::from_str(SENTRY_LEGACY).unwrap();
    payload["event"]["title"] = serde_json::Value::Null;
    assert_eq!(
        crate::report(plain(&payload.to_string())).title,
        "checkout/submit in handlePay"
    );
}

#[test]
fn a_sentry_issue_created_is_a_report_other_actions_are_ignored() {
    let report = report(sentry(Some("issue"), SENTRY_ISSUE));
    assert_eq!(report.source, Source::Sentry);
    assert_eq!(report.title, "KeyError: 'vat_rate'");
    assert_eq!(
        report.url.as_deref(),
        Some("https://octo-org.sentry.io/issues/5120338841/")
    );
    assert_eq!(report.external_id.as_deref(), Some("BILLING-API-3K"));
    assert_eq!(report.origin.as_deref(), Some("billing-api"));
    assert!(report.body.contains("Error: KeyError: 'vat_rate'"));
    assert!(report.body.contains("Users affected: 3"));

    // `permalink` stands in for a missing `web_url`.
    let mut payload: serde_json::Value = serde_json::from_str(SENTRY_ISSUE).unwrap();
    payload["data"]["issue"]["web_url"] = serde_json::Value::Null;
    payload["data"]["issue"]["permalink"] = "https://octo-org.sentry.io/share/x/".into();
    assert_eq!(
        crate::report(sentry(Some("issue"), &payload.to_string()))
            .url
            .as_deref(),
        Some("https://octo-org.sentry.io/share/x/")
    );

    for action in ["resolved", "assigned", "archived", "unresolved"] {
        let reason = ignored(sentry(Some("issue"), &with_action(SENTRY_ISSUE, action)));
        assert!(reason.contains(action), "{reason}");
    }
    assert!(ignored(sentry(Some("installation"), "{}")).contains("`installation`"));
}

#[test]
fn a_sentry_issue_alert_reads_its_project_from_the_event_address() {
    let report = report(sentry(Some("event_alert"), SENTRY_EVENT_ALERT));
    assert_eq!(report.title, "RangeError: Maximum call stack size exceeded");
    assert_eq!(report.origin.as_deref(), Some("sync-worker"));
    assert_eq!(report.external_id.as_deref(), Some("5120339002"));
    assert_eq!(report.labels, vec!["fatal"]);
    assert!(
        report
            .body
            .contains("Alert rule: Fatal errors in the sync worker")
    );
}

#[test]
fn the_generic_shape_reads_its_fields_and_ignores_extras() {
    let report = report(plain(GENERIC));
    assert_eq!(report.source, Source::Generic);
    assert_eq!(report.title, "Nightly export writes an empty CSV");
    assert!(report.body.starts_with("Since 2026-03-01"));
    assert_eq!(
        report.url.as_deref(),
        Some("https://status.example.com/incidents/118")
    );
    assert_eq!(report.origin.as_deref(), Some("exports"));
    assert_eq!(report.reporter.as_deref(), Some("cron@ops.example.com"));
    assert_eq!(report.labels, vec!["export", "data"]);
    let bare = crate::report(plain(r#"{"title": "Only a title"}"#));
    assert_eq!(
        (bare.body.as_str(), bare.url, bare.origin),
        ("", None, None)
    );
}

#[test]
fn the_generic_shape_explains_what_is_wrong() {
    let error = |body: &str| plain(body).unwrap_err().to_string();
    assert_eq!(error(r#"{"body": "x"}"#), "title is required");
    assert_eq!(error(r#"{"title": " "}"#), "title is required");
    assert_eq!(
        error(r#"{"title": 5}"#).as_str(),
        "the payload does not have the expected shape: title must be a string"
    );
    let long = "t".repeat(301);
    assert_eq!(
        error(&format!(r#"{{"title": "{long}"}}"#)),
        "title is 301 characters; at most 300 are allowed"
    );
    let big = "b".repeat(64 * 1024 + 1);
    assert_eq!(
        error(&format!(r#"{{"title": "t", "body": "{big}"}}"#)),
        "body is 65537 bytes; at most 65536 are allowed"
    );
    assert!(error(r#"{"title": "t", "url": "javascript:alert(1)"}"#).starts_with("url must be"));
    assert!(error(r#"{"title": "t", "labels": "bug"}"#).contains("labels must be an array"));
    assert!(error(r#"{"title": "t", "labels": [1]}"#).contains("labels must be strings"));
    let many: Vec<String> = (0..21).map(|i| format!("\"l{i}\"")).collect();
    assert_eq!(
        error(&format!(
            r#"{{"title": "t", "labels": [{}]}}"#,
            many.join(",")
        )),
        "at most 20 labels are allowed"
    );
    assert!(error(r#"["title"]"#).contains("expected a JSON object"));
    assert!(error("title: crash").starts_with("the body is not JSON"));
}

#[test]
fn a_mail_is_titled_by_its_subject_and_routed_by_its_address() {
    let mail = Mail {
        from: "Ada Lovelace <ada@example.com>",
        to: "Bugs <Bugs@Example.com>",
        subject: "  App freezes after login\r\n",
        text: "Hi,\n\nsince this morning the app freezes right after login.\n",
    };
    let report = from_mail(&mail, AT).unwrap();
    assert_eq!(report.source, Source::Email);
    assert_eq!(report.title, "App freezes after login");
    assert_eq!(
        report.reporter.as_deref(),
        Some("Ada Lovelace <ada@example.com>")
    );
    assert_eq!(report.origin.as_deref(), Some("bugs@example.com"));
    assert!(report.body.starts_with("Hi,"));

    let no_subject = from_mail(
        &Mail {
            subject: "",
            ..mail
        },
        AT,
    )
    .unwrap();
    assert_eq!(no_subject.title, "Hi,");
    let empty = Mail {
        subject: " ",
        text: "\n \n",
        ..mail
    };
    assert!(matches!(
        from_mail(&empty, AT),
        Err(ParseError::TitleRequired)
    ));

    let huge = "x".repeat(200_000);
    let cut = from_mail(
        &Mail {
            text: &huge,
            ..mail
        },
        AT,
    )
    .unwrap();
    assert!(cut.body.len() <= bugintake::MAX_BODY_BYTES);
    assert!(cut.body.contains("Cut by Switchboard"));
}

#[test]
fn the_form_is_checked_strictly() {
    let form = Form {
        title: "Sidebar overlaps the editor",
        body: "At 1280px wide.",
        project: Some("/home/ada/src/app"),
    };
    let report = from_form(&form, AT).unwrap();
    assert_eq!(report.source, Source::Form);
    assert_eq!(report.origin.as_deref(), Some("/home/ada/src/app"));
    assert!(matches!(
        from_form(&Form { title: "", ..form }, AT),
        Err(ParseError::TitleRequired)
    ));
    let big = "b".repeat(64 * 1024 + 1);
    assert!(matches!(
        from_form(&Form { body: &big, ..form }, AT),
        Err(ParseError::BodyTooLong { bytes: 65537 })
    ));
    let long = "p".repeat(501);
    assert!(matches!(
        from_form(
            &Form {
                project: Some(&long),
                ..form
            },
            AT
        ),
        Err(ParseError::FieldTooLong { field: "project" })
    ));
    assert_eq!(
        from_form(
            &Form {
                project: Some("  "),
                ..form
            },
            AT
        )
        .unwrap()
        .origin,
        None
    );
}
