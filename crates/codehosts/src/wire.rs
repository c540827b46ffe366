//! What both APIs share on the wire: an answer as read, the encoding of
//! path and query values, and a host's own words from an error body.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

/// One answer, read whole (the lists are ten items at most).
#[derive(Debug)]
pub(crate) struct Answer {
    pub status: u16,
    /// Names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(known, _)| known.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// A header holding a whole number (seconds, an epoch, a count).
    pub fn number(&self, name: &str) -> Option<i64> {
        self.header(name)?.trim().parse().ok()
    }
}

/// All but RFC 3986's unreserved characters: a branch's '/' and '#', and
/// GitLab's "group/app" as one path segment, travel encoded.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

pub(crate) fn encode(text: &str) -> String {
    utf8_percent_encode(text, COMPONENT).to_string()
}

/// The longest message quoted from a host: a proxy's HTML page is no
/// message, and a long one says nothing more.
const MESSAGE_LIMIT: usize = 300;

/// The host's words from an error body: GitHub's `message` and its
/// `errors` (`message`, or `resource`, `field` and `code`); GitLab's
/// `message` (a string, a list, or lists per field) or its OAuth `error`
/// and `error_description`.
pub(crate) fn message(body: &str) -> String {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return if body.trim().is_empty() {
            "no message".to_owned()
        } else {
            "a body that is not JSON".to_owned()
        };
    };
    let mut head = match value.get("message") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(items)) => items.iter().map(text_of).collect::<Vec<_>>().join("; "),
        Some(Value::Object(fields)) => fields
            .iter()
            .map(|(field, said)| format!("{field} {}", text_of(said)))
            .collect::<Vec<_>>()
            .join("; "),
        _ => String::new(),
    };
    if head.is_empty() {
        head = [value.get("error"), value.get("error_description")]
            .into_iter()
            .flatten()
            .map(text_of)
            .collect::<Vec<_>>()
            .join(": ");
    }
    let details: Vec<String> = match value.get("errors") {
        Some(Value::Array(errors)) => errors.iter().map(github_error).collect(),
        _ => Vec::new(),
    };
    let text = match (head.is_empty(), details.is_empty()) {
        (true, true) => "no message".to_owned(),
        (false, true) => head,
        (true, false) => details.join("; "),
        (false, false) => format!("{head}: {}", details.join("; ")),
    };
    cut(&text)
}

fn github_error(error: &Value) -> String {
    if let Some(text) = error.get("message").and_then(Value::as_str) {
        return text.to_owned();
    }
    if error.is_object() {
        let part = |name: &str| error.get(name).and_then(Value::as_str).unwrap_or("");
        return format!("{}.{} {}", part("resource"), part("field"), part("code"));
    }
    text_of(error)
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Array(items) => items.iter().map(text_of).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MESSAGE_LIMIT) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_error_bodies_give_their_words() {
        let cases = [
            (
                r#"{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}"#,
                "Bad credentials",
            ),
            (
                r#"{"message":"Validation Failed","errors":[{"resource":"PullRequest","code":"custom","message":"A pull request already exists for acme:feature/x."}]}"#,
                "Validation Failed: A pull request already exists for acme:feature/x.",
            ),
            (
                r#"{"message":"Validation Failed","errors":[{"resource":"PullRequest","field":"base","code":"invalid"}]}"#,
                "Validation Failed: PullRequest.base invalid",
            ),
            (
                r#"{"message":["Another open merge request already exists for this source branch: !1"]}"#,
                "Another open merge request already exists for this source branch: !1",
            ),
            (r#"{"message":"401 Unauthorized"}"#, "401 Unauthorized"),
            (
                r#"{"message":{"title":["can't be blank"]}}"#,
                "title can't be blank",
            ),
            (
                r#"{"error":"invalid_token","error_description":"Token was revoked."}"#,
                "invalid_token: Token was revoked.",
            ),
            ("<html>Bad gateway</html>", "a body that is not JSON"),
            ("", "no message"),
        ];
        for (body, says) in cases {
            assert_eq!(message(body), says, "{body}");
        }
    }

    #[test]
    fn a_long_message_is_cut() {
        let body = serde_json::json!({"message": "x".repeat(1_000)}).to_string();
        assert_eq!(message(&body).chars().count(), MESSAGE_LIMIT + 1);
    }

    #[test]
    fn values_are_encoded_whole() {
        assert_eq!(encode("acme:feature/login#2"), "acme%3Afeature%2Flogin%232");
        assert_eq!(encode("group/sub/app"), "group%2Fsub%2Fapp");
        assert_eq!(encode("v1.2_x-y~z"), "v1.2_x-y~z");
    }
}
