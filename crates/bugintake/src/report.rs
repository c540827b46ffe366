//! A bug report as read from any source, and the size rules every source
//! shares: strict for what a person sends us directly (the generic JSON
//! and the form answer with an error), forgiving for what a service sends
//! (GitHub, Sentry and mail are cut to size, since their sender cannot fix it).

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::ParseError;

use crate::limits::{
    MAX_BODY_BYTES, MAX_FIELD_CHARS, MAX_LABEL_CHARS, MAX_LABELS, MAX_TITLE_CHARS,
};

/// Where a report came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BugReportSource")]
#[schema(as = BugReportSource)]
pub enum Source {
    Github,
    Sentry,
    Generic,
    Email,
    Form,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Github => "github",
            Source::Sentry => "sentry",
            Source::Generic => "generic",
            Source::Email => "email",
            Source::Form => "form",
        }
    }

    /// How the triage prompt names it.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Github => "GitHub issue",
            Source::Sentry => "Sentry issue",
            Source::Generic => "webhook (generic JSON)",
            Source::Email => "email",
            Source::Form => "Switchboard's bug report form",
        }
    }
}

/// One bug report, whatever its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub source: Source,
    pub title: String,
    /// Empty when the sender gave none.
    pub body: String,
    /// An `http(s)` link to the report where it lives (anything else is dropped,
    /// since the app shows it as a link).
    pub url: Option<String>,
    /// The sender's own name for it: `octo/app#12`, Sentry's short id.
    pub external_id: Option<String>,
    pub reporter: Option<String>,
    /// What routes match on besides the source: the GitHub repository's full
    /// name, the Sentry project slug, the generic payload's or the form's
    /// `project`, or the address a mail was sent to.
    pub origin: Option<String>,
    pub labels: Vec<String>,
    pub received_at: OffsetDateTime,
}

/// A title from a person: required and at most [`MAX_TITLE_CHARS`].
pub(crate) fn checked_title(title: &str) -> Result<String, ParseError> {
    let title = one_line(title);
    if title.is_empty() {
        return Err(ParseError::TitleRequired);
    }
    let chars = title.chars().count();
    if chars > MAX_TITLE_CHARS {
        return Err(ParseError::TitleTooLong { chars });
    }
    Ok(title)
}

/// A body from a person: at most [`MAX_BODY_BYTES`].
pub(crate) fn checked_body(body: &str) -> Result<String, ParseError> {
    let body = body.trim();
    if body.len() > MAX_BODY_BYTES {
        return Err(ParseError::BodyTooLong { bytes: body.len() });
    }
    Ok(body.to_owned())
}

/// A title from a service: one line, cut to [`MAX_TITLE_CHARS`]; `None`
/// when nothing is left.
pub(crate) fn cut_title(title: &str) -> Option<String> {
    let title: String = one_line(title).chars().take(MAX_TITLE_CHARS).collect();
    let title = title.trim();
    (!title.is_empty()).then(|| title.to_owned())
}

/// A body from a service: cut to [`MAX_BODY_BYTES`] with a closing note
/// saying so, the note counted within the limit.
pub(crate) fn cut_body(body: &str) -> String {
    let body = body.trim();
    if body.len() <= MAX_BODY_BYTES {
        return body.to_owned();
    }
    let note = format!(
        "\n\n[Cut by Switchboard: the body was {} bytes; the first part is kept.]",
        body.len()
    );
    let mut kept = cut_at_char(body, MAX_BODY_BYTES - note.len()).to_owned();
    kept.push_str(&note);
    kept
}

/// A short field (reporter, id, origin, label): one line, cut to `max`
/// characters, `None` when empty.
pub(crate) fn short_field(value: &str, max: usize) -> Option<String> {
    let value: String = one_line(value).chars().take(max).collect();
    let value = value.trim();
    (!value.is_empty()).then(|| value.to_owned())
}

/// Only `http(s)` links are kept: the app shows the link, and a
/// `javascript:` one would run in it.
pub(crate) fn web_link(url: &str) -> Option<String> {
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    let web = (lower.starts_with("https://") || lower.starts_with("http://"))
        && url.len() > "https://".len()
        && url.chars().count() <= MAX_FIELD_CHARS
        && !url.chars().any(char::is_whitespace);
    web.then(|| url.to_owned())
}

/// Labels, trimmed, without empties or repeats, at most [`MAX_LABELS`].
pub(crate) fn tidy_labels<'a>(labels: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut tidy: Vec<String> = Vec::new();
    for label in labels {
        if let Some(label) = short_field(label, MAX_LABEL_CHARS)
            && !tidy.contains(&label)
        {
            tidy.push(label);
        }
        if tidy.len() == MAX_LABELS {
            break;
        }
    }
    tidy
}

/// Line breaks and other control characters become spaces, so a field from
/// a sender stays on its own line wherever it is shown.
pub(crate) fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// The longest prefix of at most `max` bytes that ends on a character boundary.
pub(crate) fn cut_at_char(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A stored name back into its enum, by the same serde names it is
/// written with (each enum's `as_str` agrees with them, as the tests
/// check). `None` for a name this build does not know.
pub(crate) fn from_stored<T: serde::de::DeserializeOwned>(name: &str) -> Option<T> {
    T::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(name)).ok()
}

/// What deduplication compares: the title trimmed, lower-cased and with
/// every run of whitespace as one space.
pub fn normalized_title(title: &str) -> String {
    title
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_fold_case_and_whitespace_for_deduplication() {
        assert_eq!(
            normalized_title("  Crash\ton   SAVE\n"),
            normalized_title("crash on save")
        );
        assert_ne!(
            normalized_title("crash on save"),
            normalized_title("crash on load")
        );
        assert_eq!(normalized_title("ÄRGER"), "ärger");
    }

    #[test]
    fn a_person_gets_errors_a_service_gets_cut() {
        assert!(matches!(
            checked_title("  \n "),
            Err(ParseError::TitleRequired)
        ));
        let long = "t".repeat(MAX_TITLE_CHARS + 1);
        assert!(matches!(
            checked_title(&long),
            Err(ParseError::TitleTooLong { chars: 301 })
        ));
        assert_eq!(cut_title(&long).unwrap().chars().count(), MAX_TITLE_CHARS);
        assert_eq!(checked_title("a\nb").unwrap(), "a b");

        let body = "é".repeat(MAX_BODY_BYTES);
        assert!(matches!(
            checked_body(&body),
            Err(ParseError::BodyTooLong { .. })
        ));
        let cut = cut_body(&body);
        assert!(cut.len() <= MAX_BODY_BYTES);
        assert!(cut.ends_with("the first part is kept.]"));
        assert_eq!(cut_body(" short "), "short");
    }

    #[test]
    fn only_web_links_are_kept() {
        assert_eq!(
            web_link(" https://github.com/o/r/issues/1 ").as_deref(),
            Some("https://github.com/o/r/issues/1")
        );
        assert_eq!(web_link("javascript:alert(1)"), None);
        assert_eq!(web_link("https://"), None);
        assert_eq!(web_link("https://a b"), None);
    }

    #[test]
    fn stored_sources_read_back() {
        for source in [
            Source::Github,
            Source::Sentry,
            Source::Generic,
            Source::Email,
            Source::Form,
        ] {
            assert_eq!(from_stored(source.as_str()), Some(source));
        }
        assert_eq!(from_stored::<Source>("jira"), None);
    }

    #[test]
    fn labels_are_tidied() {
        let many: Vec<String> = (0..30).map(|i| format!("l{i}")).collect();
        assert_eq!(
            tidy_labels(many.iter().map(String::as_str)).len(),
            MAX_LABELS
        );
        assert_eq!(tidy_labels([" bug ", "", "bug", "p1"]), vec!["bug", "p1"]);
    }
}
