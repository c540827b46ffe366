//! What a scheduled message is (a Markdown note for the inbox, once at `at`
//! or on a cron pattern or an RRULE), its states, the fields that make one
//! and the checks on them: pure, no storage.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::DripError;
use crate::timing::Timing;

/// The most a message may hold: what one inbox row's body holds.
pub const MAX_MARKDOWN_CHARS: usize = 10_000;

/// The longest title taken from a first line (an inbox title holds 200).
pub const MAX_TITLE_CHARS: usize = 120;

/// A Markdown note put in the inbox (category `note`) at its time.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledMessage {
    pub id: String,
    pub markdown: String,
    /// Its first line without heading marks: the inbox row's title.
    pub title: String,
    /// When it goes: `at` (once), `cron` or `rrule`, its zone, state and
    /// next delivery.
    #[serde(flatten)]
    pub timing: Timing,
    pub last_delivered_at: Option<String>,
    /// How many times it has been delivered.
    pub deliveries: i64,
    /// The agent session whose token made it; `null` for the user's own.
    pub created_by_session: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    #[serde(skip)]
    #[ts(skip)]
    #[schema(ignore)]
    pub account_id: String,
}

/// The fields that make a scheduled message: the Markdown, exactly one of
/// `at`, `cron` or `rrule`, and the zone they are read in.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(rename = "ScheduledMessageFields")]
#[schema(as = ScheduledMessageFields)]
pub struct NewMessage {
    /// The note, at most 10,000 characters; its first line is the title.
    #[serde(default)]
    pub markdown: String,
    /// Once: RFC 3339 with an offset, or a local `YYYY-MM-DDTHH:MM` read in
    /// `timeZone`.
    #[ts(optional)]
    pub at: Option<String>,
    /// Recurring: five fields (minute hour day-of-month month day-of-week).
    #[ts(optional)]
    pub cron: Option<String>,
    /// Recurring: an RFC 5545 RRULE (`FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0`),
    /// optionally after a `DTSTART` line.
    #[ts(optional)]
    pub rrule: Option<String>,
    /// An IANA zone such as `Europe/Berlin`; may be left out only with an
    /// `at` that carries its offset.
    #[ts(optional)]
    pub time_zone: Option<String>,
}

impl NewMessage {
    /// The Markdown checked: not blank, not longer than an inbox row holds.
    pub(crate) fn checked_markdown(&self) -> Result<&str, DripError> {
        let markdown = self.markdown.trim_end();
        if markdown.trim().is_empty() {
            return Err(DripError::Fields(vec![automations::FieldProblem {
                field: "markdown",
                message: "Write the note.".to_owned(),
            }]));
        }
        let chars = markdown.chars().count();
        if chars > MAX_MARKDOWN_CHARS {
            return Err(DripError::Fields(vec![automations::FieldProblem {
                field: "markdown",
                message: format!(
                    "A note can be at most {MAX_MARKDOWN_CHARS} characters; this one has {chars}."
                ),
            }]));
        }
        Ok(markdown)
    }
}

/// The title of a note: its first line with text, without heading marks
/// (`# `, a closing `#`s) or a list's bullet, cut to [`MAX_TITLE_CHARS`];
/// `fallback` when no line has any.
pub fn title_of(markdown: &str, fallback: &str) -> String {
    let line = markdown
        .lines()
        .map(|line| {
            line.trim()
                .trim_start_matches('#')
                .trim_end_matches('#')
                .trim_start_matches(['-', '*', '>'])
                .trim()
        })
        .find(|line| line.chars().any(char::is_alphanumeric));
    let Some(line) = line else {
        return fallback.to_owned();
    };
    if line.chars().count() <= MAX_TITLE_CHARS {
        return line.to_owned();
    }
    let mut cut: String = line.chars().take(MAX_TITLE_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_is_the_first_line_with_text() {
        assert_eq!(title_of("# Stand-up\n\nNotes", "x"), "Stand-up");
        assert_eq!(title_of("\n\n## Weekly review ##\n", "x"), "Weekly review");
        assert_eq!(title_of("---\n- Water the plants", "x"), "Water the plants");
        assert_eq!(title_of("> quote me", "x"), "quote me");
        assert_eq!(
            title_of("***\n\n", "Scheduled message"),
            "Scheduled message"
        );
        let long = "a".repeat(300);
        let title = title_of(&long, "x");
        assert_eq!(title.chars().count(), MAX_TITLE_CHARS);
        assert!(title.ends_with('…'));
    }

    #[test]
    fn markdown_must_be_given_and_fit_a_row() {
        let message = |markdown: &str| NewMessage {
            markdown: markdown.into(),
            ..NewMessage::default()
        };
        assert_eq!(message("# Hi\n\n").checked_markdown().unwrap(), "# Hi");
        for bad in ["", "   \n", &"x".repeat(MAX_MARKDOWN_CHARS + 1)] {
            let error = message(bad).checked_markdown().unwrap_err();
            assert_eq!(error.field(), Some("markdown"));
        }
        let body: NewMessage = serde_json::from_value(serde_json::json!({
            "markdown": "Hi", "at": "2026-01-05T09:00:00Z"
        }))
        .unwrap();
        assert_eq!(body.at.as_deref(), Some("2026-01-05T09:00:00Z"));
        assert!(serde_json::from_value::<NewMessage>(serde_json::json!({"text": "x"})).is_err());
    }
}
