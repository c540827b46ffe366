//! The inbox row a delivery becomes: a title read from the payloads common
//! senders post, else the body's first line, and the body kept as text.

use serde_json::Value;

pub const MAX_TITLE_CHARS: usize = 200;
/// The inbox keeps at most this much of a body (the inbox's own ceiling).
pub const MAX_BODY_CHARS: usize = 10_000;

/// One delivery as received: the raw body and the headers that say what it is.
#[derive(Debug, Clone, Copy)]
pub struct Delivery<'a> {
    pub body: &'a [u8],
    /// Sent as `application/json` (anything else is read as text).
    pub is_json: bool,
    /// GitHub's `X-GitHub-Event`.
    pub github_event: Option<&'a str>,
    /// `X-Hub-Signature-256`.
    pub signature: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub title: String,
    pub body: Option<String>,
}

/// Reads the row's title and body; `fallback` (the hook's name) titles an
/// empty delivery.
pub fn read_message(delivery: &Delivery<'_>, fallback: &str) -> Message {
    let text = String::from_utf8_lossy(delivery.body);
    let json = if delivery.is_json {
        serde_json::from_str::<Value>(&text).ok()
    } else {
        None
    };
    let title = json
        .as_ref()
        .and_then(|payload| title_from_payload(payload, delivery.github_event))
        .or_else(|| delivery.github_event.map(str::to_owned))
        .and_then(|t| first_line(&t))
        .or_else(|| first_line(&text))
        .or_else(|| first_line(fallback))
        .unwrap_or_else(|| "Webhook delivery".to_owned());
    let body = text.trim();
    Message {
        title,
        body: (!body.is_empty()).then(|| body.chars().take(MAX_BODY_CHARS).collect()),
    }
}

/// GitHub (event header, `action`, `repository.full_name`), then a `title`
/// (Grafana and many others), then Alertmanager's alert name with its
/// `status`, then a `text` (Slack-style) or `message` field.
fn title_from_payload(payload: &Value, github_event: Option<&str>) -> Option<String> {
    if let Some(event) = github_event {
        let mut title = event.to_owned();
        if let Some(action) = payload["action"].as_str() {
            title = format!("{title} {action}");
        }
        return Some(match payload["repository"]["full_name"].as_str() {
            Some(repository) => format!("{repository}: {title}"),
            None => title,
        });
    }
    let field = |name: &str| payload[name].as_str().filter(|s| !s.trim().is_empty());
    if let Some(title) = field("title") {
        return Some(title.to_owned());
    }
    let alertname = payload["commonLabels"]["alertname"]
        .as_str()
        .or_else(|| payload["alerts"][0]["labels"]["alertname"].as_str());
    if let Some(name) = alertname {
        return Some(match payload["status"].as_str() {
            Some(status) => format!("{name} ({status})"),
            None => name.to_owned(),
        });
    }
    field("text")
        .or_else(|| field("message"))
        .map(str::to_owned)
}

/// The first line with something on it, trimmed and cut to the title length.
fn first_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| {
            l.chars()
                .take(MAX_TITLE_CHARS)
                .collect::<String>()
                .trim()
                .to_owned()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(body: &str) -> String {
        read_message(&delivery(body, true, None), "hook").title
    }

    fn delivery<'a>(body: &'a str, is_json: bool, github_event: Option<&'a str>) -> Delivery<'a> {
        Delivery {
            body: body.as_bytes(),
            is_json,
            github_event,
            signature: None,
        }
    }

    #[test]
    fn common_fields_name_the_row() {
        assert_eq!(
            json(r#"{"title": "Deploy done", "text": "x"}"#),
            "Deploy done"
        );
        assert_eq!(
            json(r#"{"text": "Build 42 failed\nmore"}"#),
            "Build 42 failed"
        );
        assert_eq!(json(r#"{"message": "disk at 91%"}"#), "disk at 91%");
        assert_eq!(json(r#"{"title": "  ", "message": "m"}"#), "m");
    }

    #[test]
    fn github_deliveries_name_event_action_and_repository() {
        let body = r#"{"action": "opened", "repository": {"full_name": "octo/app"}}"#;
        let message = read_message(&delivery(body, true, Some("pull_request")), "hook");
        assert_eq!(message.title, "octo/app: pull_request opened");
        let ping = read_message(&delivery("{}", true, Some("ping")), "hook");
        assert_eq!(ping.title, "ping");
        // A form-encoded GitHub delivery still says which event it was.
        let form = read_message(&delivery("payload=%7B%7D", false, Some("push")), "hook");
        assert_eq!(form.title, "push");
    }

    #[test]
    fn grafana_and_alertmanager_alerts() {
        assert_eq!(
            json(r#"{"title": "[FIRING:1] HighCPU", "commonLabels": {"alertname": "HighCPU"}}"#),
            "[FIRING:1] HighCPU"
        );
        assert_eq!(
            json(r#"{"status": "firing", "commonLabels": {"alertname": "HighLatency"}}"#),
            "HighLatency (firing)"
        );
        assert_eq!(
            json(r#"{"status": "resolved", "alerts": [{"labels": {"alertname": "DiskFull"}}]}"#),
            "DiskFull (resolved)"
        );
    }

    #[test]
    fn otherwise_the_first_line_of_the_body() {
        let text = read_message(
            &delivery("\n  backup finished  \nsecond", false, None),
            "hook",
        );
        assert_eq!(text.title, "backup finished");
        assert_eq!(text.body.as_deref(), Some("backup finished  \nsecond"));
        assert_eq!(json(r#"{"unknown": 1}"#), r#"{"unknown": 1}"#);
        assert_eq!(json("not json"), "not json");
        let long = "é".repeat(300);
        assert_eq!(json(&long).chars().count(), MAX_TITLE_CHARS);
        let empty = read_message(&delivery("", false, None), "CI hook");
        assert_eq!((empty.title.as_str(), empty.body), ("CI hook", None));
        let huge = "x".repeat(MAX_BODY_CHARS + 10);
        let message = read_message(&delivery(&huge, false, None), "hook");
        assert_eq!(
            message.body.map(|b| b.chars().count()),
            Some(MAX_BODY_CHARS)
        );
    }
}
