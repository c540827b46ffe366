//! Why a turn failed, read from the engine's error text: a transient
//! overload worth retrying, a plan's usage limit to wait out, or a genuine
//! error that retrying would only repeat.
//!
//! The text is whatever the engine said: Claude Code's `result` line
//! (`result`, `errors`), an assistant line's top-level `error` (such as
//! `rate_limit`), Codex's `turn.failed.error.message` or `error.message`, or
//! stderr. Matching ignores case. The accepted formats, checked in this order:
//!
//! **Genuine, whatever else the text says** (so a bad flag named
//! `--timeout` is not an overload): an invalid key or a missing login
//! (`Invalid API key · Please run /login`, `authentication_error`,
//! `Not logged in`), a rejected request (`invalid_request_error`,
//! `permission_error`) and a command-line mistake
//! (`error: unexpected argument '--foo' found`).
//!
//! **A usage limit** ([`Failure::UsageLimit`]), with when it resets when the
//! text says:
//! - `Claude AI usage limit reached|1795388400` — Unix seconds.
//! - `5-hour limit reached ∙ resets 3pm`, `You've hit your limit · resets
//!   3pm (Europe/Berlin)`, `Weekly limit reached ∙ resets at 10:30am`,
//!   `Opus weekly limit reached ∙ resets Nov 24, 9am`, `You've hit your
//!   5-hour limit · resets 12:30pm (UTC)` (Claude Code 2.1.330 with an
//!   OAuth token) — a clock time in the zone named in parentheses, else the
//!   local one; a date when given, else the next such time (one already past
//!   today means tomorrow).
//! - `You've hit your usage limit. Upgrade to Pro
//!   (https://chatgpt.com/explore/pro), or try again in 2 days 3 hours 5
//!   minutes.` — Codex; days, hours, minutes and seconds, singular or plural.
//! - `You've hit your usage limit. … try again at 3:45 PM.` — Codex, a clock
//!   time as above.
//!
//! A text that says `usage limit`, `hit your … limit` (a word or two between:
//! `5-hour`, `weekly`) or `limit reached` with a `resets` is a usage limit even when no reset time can be read from it
//! (`resets_at` is then `None`).
//!
//! **An overload** ([`Failure::Overloaded`]), retried with growing gaps:
//! - `API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
//! - `API Error: 429 {"type":"error","error":{"type":"rate_limit_error",…}}`,
//!   `rate_limit` (an assistant line's `error`), `Rate limit reached for
//!   requests`, `429 Too Many Requests` — a rate limit that is not a usage
//!   limit passes within minutes.
//! - `API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
//!   likewise 502, 503 and 504, `server_error`, `Service Unavailable`.
//! - `Selected model is at capacity. Please try a different model.` — Codex's
//!   503 `server_is_overloaded`.
//! - `stream error: exceeded retry limit, last status: 503 Service
//!   Unavailable`, `stream disconnected before completion` — Codex.
//! - `API Error: Connection error.`, `read ECONNRESET`, `ETIMEDOUT`,
//!   `Request timed out.`, `timeout`.
//!
//! **Anything else is genuine** ([`Failure::Genuine`]).

use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;
use jiff::{Span, Timestamp, ToSpan, Zoned};

/// Why a turn failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The provider is overloaded or rate-limiting for now: retry later.
    Overloaded,
    /// The plan's usage limit is reached: resume once it resets.
    UsageLimit { resets_at: Option<Timestamp> },
    /// Bad arguments, no login, a rejected request: retrying repeats it.
    Genuine,
}

/// What marks an error retrying cannot fix, checked before anything else.
const GENUINE: &[&str] = &[
    "invalid api key",
    "invalid x-api-key",
    "authentication_error",
    "authentication_failed",
    "please run /login",
    "not logged in",
    "invalid_request_error",
    "permission_error",
    "billing_error",
    "unexpected argument",
];

/// What marks a usage limit on its own.
const USAGE_LIMIT: &[&str] = &["usage limit", "hit your limit"];

/// What marks a transient overload, besides the status codes in [`TRANSIENT_STATUSES`].
const TRANSIENT: &[&str] = &[
    "overloaded",
    // Codex's words for a 503 `server_is_overloaded`.
    "at capacity",
    "rate_limit",
    "rate limit",
    "too many requests",
    "api_error",
    "server_error",
    "internal server error",
    "bad gateway",
    "service unavailable",
    "gateway timeout",
    "exceeded retry limit",
    "stream disconnected",
    "connection error",
    "econnreset",
    "econnrefused",
    "etimedout",
    "timed out",
    "timeout",
];

const TRANSIENT_STATUSES: &[&str] = &["429", "500", "502", "503", "504", "529"];

/// Reads an engine's error text; `now` is the local time (its zone is the one
/// a reset time without a named zone is in).
pub fn classify(text: &str, now: &Zoned) -> Failure {
    let lower = text.to_lowercase();
    if GENUINE.iter().any(|marker| lower.contains(marker)) {
        return Failure::Genuine;
    }
    let usage_limit = USAGE_LIMIT.iter().any(|marker| lower.contains(marker))
        || hit_your_limit(&lower)
        || (lower.contains("limit reached") && lower.contains("resets"));
    if usage_limit {
        return Failure::UsageLimit {
            resets_at: resets_at(&lower, now),
        };
    }
    let transient = TRANSIENT.iter().any(|marker| lower.contains(marker))
        || TRANSIENT_STATUSES
            .iter()
            .any(|status| has_number(&lower, status));
    if transient {
        Failure::Overloaded
    } else {
        Failure::Genuine
    }
}

/// `hit your 5-hour limit`, `hit your weekly limit`: Claude Code names the
/// window it hit between the two words.
fn hit_your_limit(lower: &str) -> bool {
    lower.match_indices("hit your ").any(|(at, marker)| {
        lower[at + marker.len()..]
            .split_whitespace()
            .take(3)
            .any(|word| word.starts_with("limit"))
    })
}

/// Whether `number` stands alone in `text` (not part of a longer number or
/// word), so `API Error: 529` counts and `line 15290` does not.
fn has_number(text: &str, number: &str) -> bool {
    text.match_indices(number).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + number.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// When a usage limit resets, from the first format in the module docs that
/// matches `lower` (the text in lower case).
fn resets_at(lower: &str, now: &Zoned) -> Option<Timestamp> {
    if let Some((_, rest)) = lower.split_once("usage limit reached|") {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        return Timestamp::from_second(digits.parse().ok()?).ok();
    }
    if let Some((_, rest)) = lower.split_once("try again in ") {
        let span = relative(rest)?;
        return now.timestamp().checked_add(span).ok();
    }
    let rest = lower
        .split_once("try again at ")
        .or_else(|| lower.split_once("resets at "))
        .or_else(|| lower.split_once("resets "))?
        .1;
    let (date, rest) = match month_day(rest) {
        Some((date, rest)) => (Some(date), rest),
        None => (None, rest),
    };
    let (time, rest) = clock(rest)?;
    let zone = named_zone(rest).unwrap_or_else(|| now.time_zone().clone());
    next_at(date, time, &zone, now)
}

/// `2 days 3 hours 5 minutes` (also `1 day, 2 hours and 30 seconds`) as a span.
fn relative(text: &str) -> Option<Span> {
    let mut total = Span::new();
    let mut any = false;
    let mut words = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|word| !word.is_empty() && *word != "and");
    while let Some(word) = words.next() {
        let Ok(count) = word.parse::<i64>() else {
            break;
        };
        let unit = words.next()?.trim_end_matches(|c: char| !c.is_alphabetic());
        let part = match unit {
            "day" | "days" => count.checked_mul(24)?.hours(),
            "hour" | "hours" | "hr" | "hrs" | "h" => count.hours(),
            "minute" | "minutes" | "min" | "mins" | "m" => count.minutes(),
            "second" | "seconds" | "sec" | "secs" | "s" => count.seconds(),
            _ => return None,
        };
        total = total.checked_add(part).ok()?;
        any = true;
    }
    any.then_some(total)
}

/// `nov 24, ` or `nov 24 at ` before a clock time: the month and day, and
/// the rest.
fn month_day(text: &str) -> Option<((i8, i8), &str)> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let (word, rest) = text.split_once(' ')?;
    let month = MONTHS.iter().position(|month| word.starts_with(month))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let day: i8 = digits.parse().ok()?;
    // `24th`, `24,`, `24 at`
    let rest = rest[digits.len()..].trim_start_matches(|c: char| c.is_alphabetic());
    let rest = rest.trim_start_matches([',', ' ']);
    let rest = rest.strip_prefix("at ").unwrap_or(rest);
    Some(((i8::try_from(month).ok()? + 1, day), rest))
}

/// `3pm`, `3:45 pm`, `10:30am`, `15:00` at the start of `text`: the time and
/// the rest. A bare number (`resets 3`) is not a time.
fn clock(text: &str) -> Option<(Time, &str)> {
    let hour_digits = text.chars().take_while(char::is_ascii_digit).count();
    if !(1..=2).contains(&hour_digits) {
        return None;
    }
    let mut hour: i8 = text[..hour_digits].parse().ok()?;
    let mut rest = &text[hour_digits..];
    let mut minute: i8 = 0;
    let mut has_minutes = false;
    if let Some(after) = rest.strip_prefix(':') {
        let minute_digits = after.chars().take_while(char::is_ascii_digit).count();
        if minute_digits != 2 {
            return None;
        }
        minute = after[..2].parse().ok()?;
        rest = &after[2..];
        has_minutes = true;
    }
    let trimmed = rest.trim_start();
    let meridiem = ["am", "pm", "a.m.", "p.m."]
        .into_iter()
        .find(|word| trimmed.starts_with(word));
    match meridiem {
        Some(word) => {
            if !(1..=12).contains(&hour) {
                return None;
            }
            hour %= 12;
            if word.starts_with('p') {
                hour += 12;
            }
            rest = &trimmed[word.len()..];
        }
        None if !has_minutes => return None,
        None => {}
    }
    Some((Time::new(hour, minute, 0, 0).ok()?, rest))
}

/// `(Europe/Berlin)` right after a clock time, as a zone jiff knows.
fn named_zone(text: &str) -> Option<TimeZone> {
    let inside = text.trim_start().strip_prefix('(')?.split_once(')')?.0;
    // Zone names are matched without regard to case, so the lower-cased text
    // still finds `Europe/Berlin`.
    TimeZone::get(inside.trim()).ok()
}

/// The time `time` in `zone` on `date` (month, day) or, without one, the next
/// such time after `now`; a date already past this year means next year's.
fn next_at(date: Option<(i8, i8)>, time: Time, zone: &TimeZone, now: &Zoned) -> Option<Timestamp> {
    let today = now.with_time_zone(zone.clone()).date();
    let first = match date {
        Some((month, day)) => Date::new(today.year(), month, day).ok()?,
        None => today,
    };
    let at = first.to_datetime(time).to_zoned(zone.clone()).ok()?;
    if at.timestamp() > now.timestamp() {
        return Some(at.timestamp());
    }
    let later = match date {
        Some(_) => at.checked_add(1.year()),
        None => at.checked_add(1.day()),
    };
    Some(later.ok()?.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sunday 22 November 2026, 13:20 in Berlin (12:20 UTC).
    fn now() -> Zoned {
        "2026-11-22T13:20:00+01:00[Europe/Berlin]".parse().unwrap()
    }

    fn resets(text: &str) -> Option<String> {
        match classify(text, &now()) {
            Failure::UsageLimit { resets_at } => resets_at.map(|at| at.to_string()),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn claude_code_overloaded() {
        let text = r#"API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":null}"#;
        assert_eq!(classify(text, &now()), Failure::Overloaded);
        assert_eq!(classify("Overloaded", &now()), Failure::Overloaded);
    }

    #[test]
    fn claude_code_rate_limit_that_is_not_a_usage_limit() {
        let text = r#"API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 450,000 input tokens per minute."}}"#;
        assert_eq!(classify(text, &now()), Failure::Overloaded);
        // An assistant line's top-level `error`.
        assert_eq!(classify("rate_limit", &now()), Failure::Overloaded);
    }

    #[test]
    fn claude_code_server_errors() {
        for text in [
            r#"API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}"#,
            "API Error: 502 Bad Gateway",
            "API Error: 503 upstream connect error or disconnect/reset before headers",
            "server_error",
        ] {
            assert_eq!(classify(text, &now()), Failure::Overloaded, "{text}");
        }
    }

    #[test]
    fn connection_failures() {
        for text in [
            "API Error: Connection error.",
            "API Error: Request timed out.",
            "Error: read ECONNRESET",
            "request timeout after 600000ms",
        ] {
            assert_eq!(classify(text, &now()), Failure::Overloaded, "{text}");
        }
    }

    #[test]
    fn codex_stream_errors() {
        for text in [
            "stream error: exceeded retry limit, last status: 429 Too Many Requests",
            "stream error: exceeded retry limit, last status: 503 Service Unavailable",
            "stream disconnected before completion: error sending request for url (https://chatgpt.com/backend-api/codex/responses)",
            "Rate limit reached for gpt-5 in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, Requested 2400. Please try again in 2.8s.",
        ] {
            assert_eq!(classify(text, &now()), Failure::Overloaded, "{text}");
        }
    }

    #[test]
    fn claude_ai_usage_limit_with_unix_seconds() {
        assert_eq!(
            resets("Claude AI usage limit reached|1795388400").as_deref(),
            Some("2026-11-22T23:00:00Z")
        );
    }

    #[test]
    fn claude_code_limit_resets_at_a_local_hour() {
        // 3pm Berlin is 14:00 UTC, still to come today.
        assert_eq!(
            resets("5-hour limit reached ∙ resets 3pm").as_deref(),
            Some("2026-11-22T14:00:00Z")
        );
    }

    #[test]
    fn claude_code_limit_in_a_named_zone() {
        // 3pm in New York is 20:00 UTC.
        assert_eq!(
            resets("You've hit your limit · resets 3pm (America/New_York)").as_deref(),
            Some("2026-11-22T20:00:00Z")
        );
        assert_eq!(
            resets("You've hit your limit · resets 3pm (Europe/Berlin)").as_deref(),
            Some("2026-11-22T14:00:00Z")
        );
    }

    #[test]
    fn a_reset_time_already_past_today_means_tomorrow() {
        // 10:30 Berlin has passed at 13:20.
        assert_eq!(
            resets("Weekly limit reached ∙ resets at 10:30am").as_deref(),
            Some("2026-11-23T09:30:00Z")
        );
    }

    #[test]
    fn claude_code_limit_with_a_date() {
        assert_eq!(
            resets("Opus weekly limit reached ∙ resets Nov 24, 9am").as_deref(),
            Some("2026-11-24T08:00:00Z")
        );
    }

    #[test]
    fn codex_usage_limit_in_days_hours_minutes() {
        let text = "You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again in 2 days 3 hours 5 minutes.";
        // 12:20 UTC + 51 h 5 min.
        assert_eq!(resets(text).as_deref(), Some("2026-11-24T15:25:00Z"));
    }

    /// What Codex 0.169.0 prints for a 503 `server_is_overloaded` and a 429
    /// `usage_limit_reached` (docs/engines.md): the second with a typographic
    /// apostrophe and the reset in the local time.
    #[test]
    fn codex_0_169_texts_as_printed() {
        assert_eq!(
            classify(
                "Selected model is at capacity. Please try a different model.",
                &now()
            ),
            Failure::Overloaded
        );
        let text = "You\u{2019}ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 12:29 PM.";
        // 12:29 Berlin is 11:29 UTC, already past at 12:20 UTC: tomorrow.
        assert_eq!(resets(text).as_deref(), Some("2026-11-23T11:29:00Z"));
    }

    #[test]
    fn codex_usage_limit_at_a_clock_time() {
        let text = "You've hit your usage limit. Upgrade to Plus to continue using Codex (https://openai.com/chatgpt/pricing), or try again at 3:45 PM.";
        assert_eq!(resets(text).as_deref(), Some("2026-11-22T14:45:00Z"));
    }

    #[test]
    fn a_usage_limit_without_a_readable_time_has_none() {
        assert_eq!(
            resets("Claude usage limit reached. Your limit will reset soon."),
            None
        );
        assert_eq!(
            resets("You've hit your usage limit. Try again at Nov 24th."),
            None
        );
    }

    #[test]
    fn genuine_errors_are_not_retried() {
        for text in [
            "Invalid API key · Please run /login",
            "error: unexpected argument '--foo' found\n\nUsage: codex exec [OPTIONS] [PROMPT]",
            "error: unexpected argument '--timeout' found",
            r#"API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
            r#"API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 215000 tokens > 200000 maximum"}}"#,
            "Not logged in. Run `codex login` first.",
            "Error: ENOENT: no such file or directory, open '/home/ana/proj/CLAUDE.md'",
            "",
        ] {
            assert_eq!(classify(text, &now()), Failure::Genuine, "{text}");
        }
    }

    #[test]
    fn a_status_inside_a_longer_number_is_not_a_status() {
        assert_eq!(
            classify("panic at src/parser.rs line 15290", &now()),
            Failure::Genuine
        );
    }

    /// Claude Code 2.1.330's words for a plan's limit (an OAuth token's 429
    /// with `anthropic-ratelimit-unified-status: rejected`), as it prints
    /// them: the window it hit is named, and the zone is `UTC`.
    #[test]
    fn claude_code_2_1_330_names_the_window_it_hit() {
        assert_eq!(
            resets("You've hit your 5-hour limit · resets 12:30pm (UTC)").as_deref(),
            Some("2026-11-22T12:30:00Z")
        );
        assert_eq!(
            resets("You\u{2019}ve hit your weekly limit · resets Nov 24, 9am (UTC)").as_deref(),
            Some("2026-11-24T09:00:00Z")
        );
        // With an API key the same limit reads as a rate limit, which passes.
        assert_eq!(
            classify(
                "API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later.",
                &now()
            ),
            Failure::Overloaded
        );
        assert_eq!(
            classify("You hit your head on the limit switch", &now()),
            Failure::Genuine
        );
    }
}
