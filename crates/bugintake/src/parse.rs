//! Turning what arrives into a [`Report`]: a webhook delivery (GitHub's
//! `issues` event, Sentry's legacy webhook plugin and its integration
//! platform's `issue` and `event_alert` resources, or the generic JSON
//! shape), a mail, or the app's form.
//!
//! A delivery is told apart by its headers first (`X-GitHub-Event`,
//! `Sentry-Hook-Resource`), then by its shape: the legacy Sentry plugin
//! sends no header but always `triggering_rules` or `project_name` with
//! `culprit`; anything else is the generic shape. Deliveries that are not
//! reports (a ping, an issue closed) are [`Parsed::Ignored`] with the reason,
//! so the sender sees a success and the person reading its log sees why.

use serde_json::Value;
use time::OffsetDateTime;

use crate::error::ParseError;
use crate::limits::{MAX_FIELD_CHARS, MAX_LABELS};
use crate::report::{
    Report, Source, checked_body, checked_title, cut_body, cut_title, short_field, tidy_labels,
    web_link,
};

/// One webhook delivery as received: the raw body and the headers that say
/// what it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct Delivery<'a> {
    pub body: &'a [u8],
    /// `Content-Type`; GitHub may send its JSON form-encoded in `payload`.
    pub content_type: Option<&'a str>,
    /// `X-GitHub-Event`.
    pub github_event: Option<&'a str>,
    /// `Sentry-Hook-Resource`.
    pub sentry_resource: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    Report(Report),
    /// A well-formed delivery that is not a bug report, and why.
    Ignored {
        reason: String,
    },
}

/// A mail the app received at a Bug Intake address.
#[derive(Debug, Clone, Copy)]
pub struct Mail<'a> {
    /// `From`, as given (`Ada <ada@example.com>` or a bare address).
    pub from: &'a str,
    /// The Bug Intake address it was sent to; routes match on it.
    pub to: &'a str,
    pub subject: &'a str,
    /// The plain-text body.
    pub text: &'a str,
}

/// The app's "report a bug" form.
#[derive(Debug, Clone, Copy)]
pub struct Form<'a> {
    pub title: &'a str,
    pub body: &'a str,
    /// The project the person chose: a project folder, or a name routes match.
    pub project: Option<&'a str>,
}

/// Reads a webhook delivery received at `at`.
pub fn parse_delivery(delivery: &Delivery<'_>, at: OffsetDateTime) -> Result<Parsed, ParseError> {
    if let Some(event) = delivery.github_event {
        return github(event.trim(), &github_payload(delivery)?, at);
    }
    let payload = json(delivery.body)?;
    match delivery.sentry_resource.map(str::trim) {
        Some("issue") => sentry_issue(&payload, at),
        Some("event_alert") => sentry_event_alert(&payload, at),
        Some(other) => Ok(ignored(format!(
            "Sentry `{other}` webhooks are not bug reports; `issue` (created) and `event_alert` are"
        ))),
        None if is_legacy_sentry(&payload) => sentry_legacy(&payload, at).map(Parsed::Report),
        None => generic(&payload, at).map(Parsed::Report),
    }
}

/// A mail: the subject is the title (else the body's first line), the
/// sender the reporter, the address it came to the origin. Cut to size
/// rather than refused, since a mail's sender never sees our answer.
pub fn from_mail(mail: &Mail<'_>, at: OffsetDateTime) -> Result<Report, ParseError> {
    let title = cut_title(mail.subject)
        .or_else(|| mail.text.lines().find_map(cut_title))
        .ok_or(ParseError::TitleRequired)?;
    Ok(Report {
        source: Source::Email,
        title,
        body: cut_body(mail.text),
        url: None,
        external_id: None,
        reporter: short_field(mail.from, MAX_FIELD_CHARS),
        origin: short_field(&bare_address(mail.to), MAX_FIELD_CHARS),
        labels: Vec::new(),
        received_at: at,
    })
}

/// The app's form, checked strictly: the person can fix what is wrong.
pub fn from_form(form: &Form<'_>, at: OffsetDateTime) -> Result<Report, ParseError> {
    Ok(Report {
        source: Source::Form,
        title: checked_title(form.title)?,
        body: checked_body(form.body)?,
        url: None,
        external_id: None,
        reporter: None,
        origin: form
            .project
            .map(|p| checked_field("project", p))
            .transpose()?
            .flatten(),
        labels: Vec::new(),
        received_at: at,
    })
}

fn ignored(reason: String) -> Parsed {
    Parsed::Ignored { reason }
}

fn json(body: &[u8]) -> Result<Value, ParseError> {
    serde_json::from_slice(body).map_err(|e| ParseError::NotJson(e.to_string()))
}

/// GitHub sends JSON, or with the hook's content type set to
/// `application/x-www-form-urlencoded`, the same JSON in a `payload` field.
fn github_payload(delivery: &Delivery<'_>) -> Result<Value, ParseError> {
    let form = delivery.content_type.is_some_and(|t| {
        t.trim()
            .to_ascii_lowercase()
            .starts_with("application/x-www-form-urlencoded")
    });
    if !form {
        return json(delivery.body);
    }
    let payload = form_urlencoded::parse(delivery.body)
        .find(|(name, _)| name == "payload")
        .ok_or(ParseError::NoFormPayload)?
        .1;
    json(payload.as_bytes())
}

/// Only an opened or reopened issue is a report.
fn github(event: &str, payload: &Value, at: OffsetDateTime) -> Result<Parsed, ParseError> {
    match event {
        "issues" => {}
        "ping" => {
            return Ok(ignored(
                "GitHub's ping: the hook works; issues opened from now on become reports"
                    .to_owned(),
            ));
        }
        other => {
            return Ok(ignored(format!(
                "GitHub `{other}` events are not bug reports; only `issues` (opened, reopened) are"
            )));
        }
    }
    let action = text(&payload["action"]).ok_or(ParseError::Missing { field: "action" })?;
    if !matches!(action, "opened" | "reopened") {
        return Ok(ignored(format!(
            "issue {action}: only opened and reopened issues are bug reports"
        )));
    }
    let issue = &payload["issue"];
    let title = title_from(&[&issue["title"]], "issue.title")?;
    let repository = text(&payload["repository"]["full_name"]);
    let external_id = issue["number"]
        .as_u64()
        .map(|n| format!("{}#{n}", repository.unwrap_or_default()));
    let reporter = text(&payload["sender"]["login"]).or_else(|| text(&issue["user"]["login"]));
    let labels = issue["labels"]
        .as_array()
        .map(|labels| tidy_labels(labels.iter().filter_map(|l| l["name"].as_str())))
        .unwrap_or_default();
    Ok(Parsed::Report(Report {
        source: Source::Github,
        title,
        body: cut_body(issue["body"].as_str().unwrap_or_default()),
        url: text(&issue["html_url"]).and_then(web_link),
        external_id,
        reporter: reporter.and_then(|r| short_field(r, MAX_FIELD_CHARS)),
        origin: repository.and_then(|r| short_field(r, MAX_FIELD_CHARS)),
        labels,
        received_at: at,
    }))
}

fn is_legacy_sentry(payload: &Value) -> bool {
    payload.get("triggering_rules").is_some()
        || (payload.get("project_name").is_some() && payload.get("culprit").is_some())
}

/// The webhook plugin's issue alert: top-level `project_slug`, `message`,
/// `culprit`, `url`, `level` and the triggering `event`.
fn sentry_legacy(payload: &Value, at: OffsetDateTime) -> Result<Report, ParseError> {
    let event = &payload["event"];
    let title = title_from(
        &[&event["title"], &payload["message"], &payload["culprit"]],
        "event.title",
    )?;
    let rules = payload["triggering_rules"].as_array().map(|rules| {
        rules
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    });
    let body = details(&[
        ("Project", text(&payload["project_name"]).map(str::to_owned)),
        ("Culprit", text(&payload["culprit"]).map(str::to_owned)),
        ("Level", text(&payload["level"]).map(str::to_owned)),
        ("Message", text(&payload["message"]).map(str::to_owned)),
        ("Exception", exception(event)),
        ("Alert rules", rules.filter(|r| !r.is_empty())),
    ]);
    Ok(sentry_report(
        title,
        body,
        SentryRefs {
            url: text(&payload["url"]),
            id: id_text(&payload["id"]),
            project: text(&payload["project_slug"]).or_else(|| text(&payload["project"])),
            level: text(&payload["level"]).or_else(|| text(&event["level"])),
        },
        at,
    ))
}

/// The integration platform's `issue` resource; only `created` is a report.
fn sentry_issue(payload: &Value, at: OffsetDateTime) -> Result<Parsed, ParseError> {
    let action = text(&payload["action"]).ok_or(ParseError::Missing { field: "action" })?;
    if action != "created" {
        return Ok(ignored(format!(
            "Sentry issue {action}: only created issues are bug reports"
        )));
    }
    let issue = &payload["data"]["issue"];
    let title = title_from(&[&issue["title"]], "data.issue.title")?;
    let error = kind_and_value(&issue["metadata"]);
    let body = details(&[
        (
            "Project",
            text(&issue["project"]["name"]).map(str::to_owned),
        ),
        ("Culprit", text(&issue["culprit"]).map(str::to_owned)),
        ("Level", text(&issue["level"]).map(str::to_owned)),
        ("Error", error),
        ("Platform", text(&issue["platform"]).map(str::to_owned)),
        ("First seen", text(&issue["firstSeen"]).map(str::to_owned)),
        ("Events", id_text(&issue["count"])),
        ("Users affected", id_text(&issue["userCount"])),
    ]);
    Ok(Parsed::Report(sentry_report(
        title,
        body,
        SentryRefs {
            url: text(&issue["web_url"]).or_else(|| text(&issue["permalink"])),
            id: text(&issue["shortId"])
                .map(str::to_owned)
                .or_else(|| id_text(&issue["id"])),
            project: text(&issue["project"]["slug"]),
            level: text(&issue["level"]),
        },
        at,
    )))
}

/// The integration platform's issue alert (`event_alert`, always
/// `triggered`): the event that fired an alert rule. Its `project` is a
/// number, so the slug is read from the event's API address
/// (`…/projects/<org>/<slug>/events/<id>/`).
fn sentry_event_alert(payload: &Value, at: OffsetDateTime) -> Result<Parsed, ParseError> {
    let event = &payload["data"]["event"];
    let title = title_from(
        &[&event["title"], &event["message"], &event["culprit"]],
        "data.event.title",
    )?;
    let body = details(&[
        ("Culprit", text(&event["culprit"]).map(str::to_owned)),
        ("Level", text(&event["level"]).map(str::to_owned)),
        ("Exception", exception(event)),
        ("Platform", text(&event["platform"]).map(str::to_owned)),
        (
            "Alert rule",
            text(&payload["data"]["triggered_rule"]).map(str::to_owned),
        ),
    ]);
    let project = text(&event["url"]).and_then(|url| {
        let mut parts = url.split('/').skip_while(|p| *p != "projects").skip(2);
        parts.next().filter(|slug| !slug.is_empty())
    });
    Ok(Parsed::Report(sentry_report(
        title,
        body,
        SentryRefs {
            url: text(&event["web_url"]),
            id: id_text(&event["issue_id"]),
            project,
            level: text(&event["level"]),
        },
        at,
    )))
}

/// What the three Sentry shapes name each in their own place.
struct SentryRefs<'a> {
    url: Option<&'a str>,
    id: Option<String>,
    project: Option<&'a str>,
    level: Option<&'a str>,
}

fn sentry_report(title: String, body: String, refs: SentryRefs<'_>, at: OffsetDateTime) -> Report {
    Report {
        source: Source::Sentry,
        title,
        body: cut_body(&body),
        url: refs.url.and_then(web_link),
        external_id: refs.id.and_then(|id| short_field(&id, MAX_FIELD_CHARS)),
        reporter: None,
        origin: refs.project.and_then(|p| short_field(p, MAX_FIELD_CHARS)),
        labels: tidy_labels(refs.level),
        received_at: at,
    }
}

/// The first exception of a Sentry event (else its metadata), as `Type: value`.
fn exception(event: &Value) -> Option<String> {
    kind_and_value(&event["exception"]["values"][0]).or_else(|| kind_and_value(&event["metadata"]))
}

/// Sentry's `{"type", "value"}` pairs, as `Type: value`.
fn kind_and_value(pair: &Value) -> Option<String> {
    match (text(&pair["type"]), text(&pair["value"])) {
        (Some(kind), Some(value)) => Some(format!("{kind}: {value}")),
        (kind, value) => kind.or(value).map(str::to_owned),
    }
}

/// `{"title", "body"?, "url"?, "project"?, "reporter"?, "labels"?}`,
/// checked strictly: whoever wrote the sender can fix it. Other fields are
/// left alone, so a richer payload still works.
fn generic(payload: &Value, at: OffsetDateTime) -> Result<Report, ParseError> {
    if !payload.is_object() {
        return Err(ParseError::Shape(
            "expected a JSON object with at least a \"title\"".to_owned(),
        ));
    }
    let title = string_field(payload, "title")?.ok_or(ParseError::TitleRequired)?;
    let url = match string_field(payload, "url")? {
        Some(url) => Some(web_link(url).ok_or(ParseError::InvalidUrl)?),
        None => None,
    };
    let labels = match &payload["labels"] {
        Value::Null => Vec::new(),
        Value::Array(labels) => {
            if labels.len() > MAX_LABELS {
                return Err(ParseError::TooManyLabels);
            }
            let names = labels
                .iter()
                .map(|l| {
                    l.as_str()
                        .ok_or_else(|| ParseError::Shape("labels must be strings".to_owned()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            tidy_labels(names)
        }
        _ => {
            return Err(ParseError::Shape(
                "labels must be an array of strings".to_owned(),
            ));
        }
    };
    let optional = |field: &'static str| -> Result<Option<String>, ParseError> {
        Ok(string_field(payload, field)?
            .map(|v| checked_field(field, v))
            .transpose()?
            .flatten())
    };
    Ok(Report {
        source: Source::Generic,
        title: checked_title(title)?,
        body: checked_body(string_field(payload, "body")?.unwrap_or_default())?,
        url,
        external_id: None,
        reporter: optional("reporter")?,
        origin: optional("project")?,
        labels,
        received_at: at,
    })
}

/// A field that is absent or `null` is `None`; any other non-string is an error.
fn string_field<'a>(
    payload: &'a Value,
    field: &'static str,
) -> Result<Option<&'a str>, ParseError> {
    match &payload[field] {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        _ => Err(ParseError::Shape(format!("{field} must be a string"))),
    }
}

/// A short field a person sent: too long is an error, empty is absent.
fn checked_field(field: &'static str, value: &str) -> Result<Option<String>, ParseError> {
    if value.trim().chars().count() > MAX_FIELD_CHARS {
        return Err(ParseError::FieldTooLong { field });
    }
    Ok(short_field(value, MAX_FIELD_CHARS))
}

/// The first candidate with something in it, as a title; `field` names
/// the one a sender is expected to fill.
fn title_from(candidates: &[&Value], field: &'static str) -> Result<String, ParseError> {
    candidates
        .iter()
        .find_map(|v| text(v).and_then(cut_title))
        .ok_or(ParseError::Missing { field })
}

/// A string with something in it.
fn text(value: &Value) -> Option<&str> {
    value.as_str().filter(|s| !s.trim().is_empty())
}

/// Ids and counts come as strings or numbers depending on the sender.
fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::Number(n) => Some(n.to_string()),
        other => text(other).map(str::to_owned),
    }
}

/// `Key: value` lines for the fields that are there.
fn details(fields: &[(&str, Option<String>)]) -> String {
    fields
        .iter()
        .filter_map(|(name, value)| value.as_ref().map(|v| format!("{name}: {v}")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `Bugs <bugs@example.com>` → `bugs@example.com`, lower-cased, as routes compare it.
pub(crate) fn bare_address(address: &str) -> String {
    let address = address.trim();
    let inner = match (address.rfind('<'), address.rfind('>')) {
        (Some(open), Some(close)) if open < close => &address[open + 1..close],
        _ => address,
    };
    inner.trim().to_lowercase()
}
