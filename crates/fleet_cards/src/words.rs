//! An alarm typed in words ("every weekday at 9 remind me to check the
//! nightly run"): the question the utility model is asked, and the check of
//! its answer before it becomes an alarm.

use serde::Deserialize;
use ts_rs::TS;
use utoipa::ToSchema;

/// The longest text read.
pub const MAX_CHARS: usize = 300;

/// `POST /alarms/words`: the alarm as typed.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(rename = "AlarmWordsInput")]
#[schema(as = AlarmWordsInput)]
pub struct Typed {
    pub text: String,
}

/// The utility model's reading of the words: the fields of `POST /alarms`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reading {
    pub label: String,
    /// `HH:MM` (the next such local time) or RFC 3339 with an offset.
    pub at: String,
    #[serde(default)]
    pub repeat: Option<alarms::Repeat>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum WordsError {
    #[error("the words are empty or longer than 300 characters")]
    BadText,
    #[error("the model's reading has no label or no time")]
    Unreadable,
}

/// The question for `text`, typed at local time `now_local` (`YYYY-MM-DD
/// HH:MM, Weekday`), which names "tomorrow" and "on Friday".
pub fn prompt(text: &str, now_local: &str) -> Result<String, WordsError> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_CHARS {
        return Err(WordsError::BadText);
    }
    Ok(format!(
        "Read this alarm request as alarm fields. It is now {now_local} local time. \
         Answer with one JSON object and nothing else: \
         {{\"label\": what to remind (a short phrase, no time words), \
         \"at\": \"HH:MM\" (24-hour local time, for the next such time or a repeating alarm) \
         or an RFC 3339 time with the local offset (for one date), \
         \"repeat\": null, \"daily\" or \"weekdays\"}}.\n\nRequest: {text}"
    ))
}

/// The reading, trimmed, once it has a label and a time.
pub fn checked(reading: Reading) -> Result<Reading, WordsError> {
    let label = reading.label.trim().to_owned();
    let at = reading.at.trim().to_owned();
    if label.is_empty() || at.is_empty() {
        return Err(WordsError::Unreadable);
    }
    Ok(Reading {
        label,
        at,
        repeat: reading.repeat,
    })
}
