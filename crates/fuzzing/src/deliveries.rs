//! What senders post: a webhook delivery's body and headers, and a bug
//! report arriving as a webhook, a mail or the app's form.

use bugintake::{MAX_TITLE_CHARS, Parsed, Report};
use time::OffsetDateTime;
use webhooks::{Delivery, MAX_BODY_CHARS, read_message};

use crate::input::fields;

/// A webhook delivery: GitHub event header, then the body. The inbox row
/// it becomes has a title and a body within the inbox's limits.
pub fn webhook(data: &[u8]) {
    let [event, body] = <[String; 2]>::try_from(fields(data, 2)).unwrap_or_default();
    for is_json in [true, false] {
        let delivery = Delivery {
            body: body.as_bytes(),
            is_json,
            github_event: (!event.is_empty()).then_some(event.as_str()),
            signature: None,
        };
        let message = read_message(&delivery, "hook");
        assert!(!message.title.is_empty(), "an empty title");
        assert!(
            message.title.chars().count() <= webhooks::MAX_TITLE_CHARS,
            "a title of {} characters",
            message.title.chars().count()
        );
        if let Some(body) = &message.body {
            assert!(
                body.chars().count() <= MAX_BODY_CHARS,
                "a body of {} characters",
                body.chars().count()
            );
        }
    }
}

/// A bug report: the fields are a content type, GitHub's and Sentry's
/// event headers, then the body, read as a webhook delivery; the same
/// texts read as a mail (from, to, subject, text) and as the form (title,
/// body, project). Each gives a report within the limits, or its error.
pub fn bug_intake(data: &[u8]) {
    let [content_type, github, sentry, body] =
        <[String; 4]>::try_from(fields(data, 4)).unwrap_or_default();
    let at = OffsetDateTime::UNIX_EPOCH;
    let delivery = bugintake::Delivery {
        body: body.as_bytes(),
        content_type: given(&content_type),
        github_event: given(&github),
        sentry_resource: given(&sentry),
    };
    if let Ok(Parsed::Report(report)) = bugintake::parse_delivery(&delivery, at) {
        check(&report);
    }
    let mail = bugintake::Mail {
        from: &content_type,
        to: &github,
        subject: &sentry,
        text: &body,
    };
    if let Ok(report) = bugintake::from_mail(&mail, at) {
        check(&report);
    }
    let form = bugintake::Form {
        title: &content_type,
        body: &body,
        project: given(&github),
    };
    if let Ok(report) = bugintake::from_form(&form, at) {
        check(&report);
    }
}

fn check(report: &Report) {
    let chars = report.title.chars().count();
    assert!(chars > 0, "a report without a title");
    assert!(chars <= MAX_TITLE_CHARS, "a title of {chars} characters");
    assert!(
        !report.title.contains(['\n', '\r']),
        "a title of more than one line: {:?}",
        report.title
    );
    assert!(
        report.body.len() <= bugintake::MAX_BODY_BYTES,
        "a body of {} bytes",
        report.body.len()
    );
    assert!(
        report.labels.len() <= bugintake::MAX_LABELS,
        "{} labels",
        report.labels.len()
    );
    if let Some(url) = &report.url {
        // A scheme is read without regard to case (RFC 3986 §3.1).
        let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
        assert!(
            matches!(scheme.as_deref(), Some("http" | "https")),
            "a link that is not http(s): {url}"
        );
    }
}

/// An absent header is an empty field.
fn given(field: &str) -> Option<&str> {
    (!field.is_empty()).then_some(field)
}
