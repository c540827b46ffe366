//! What a failed turn becomes. A genuine error fails the session at once. A
//! usage limit whose reset time the engine gave interrupts it until then
//! (whatever the settings: it recovers by itself); one without a reset time
//! interrupts it for the governor to revive. A transient overload (an
//! overloaded or rate-limited API, a dropped connection) is retried, with
//! `relentlessSessionRelaunch` on, after [`resilience::retry_delay`]'s
//! growing gaps (30 s doubling, capped at 15 minutes); off, it fails.

use store::rusqlite::{Transaction, params};
use time::OffsetDateTime;

use crate::error::Result;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Recovery {
    Fail,
    /// The context window is full: compact it and continue.
    Compact,
    /// Interrupted, with nothing scheduled.
    Interrupt(String),
    /// Interrupted until `at`, then back, paced with the others returning.
    /// `overload` counts toward the growing gaps.
    WaitUntil {
        at: OffsetDateTime,
        reason: String,
        overload: bool,
    },
}

/// `overloads` is how many retries for overloads this actor has made in a
/// row (each one's gap grows).
pub(crate) fn after_failure(
    message: &str,
    now: OffsetDateTime,
    switches: Switches,
    overloads: u32,
) -> Recovery {
    if switches.recover_full_context && context_is_full(message) {
        return Recovery::Compact;
    }
    let relaunch_overloads = switches.relaunch_overloads;
    let local = jiff::Timestamp::from_nanosecond(now.unix_timestamp_nanos())
        .map(|at| at.to_zoned(jiff::tz::TimeZone::system()));
    let Ok(local) = local else {
        return Recovery::Fail;
    };
    match resilience::classify(message, &local) {
        resilience::Failure::Genuine => Recovery::Fail,
        resilience::Failure::Overloaded if !relaunch_overloads => Recovery::Fail,
        resilience::Failure::Overloaded => {
            let gap = resilience::retry_delay(overloads);
            let at = now + gap;
            Recovery::WaitUntil {
                at,
                reason: format!(
                    "a transient overload ({}); retrying at {} (retry {})",
                    first_line(message),
                    clock::timestamp(at),
                    overloads + 1
                ),
                overload: true,
            }
        }
        resilience::Failure::UsageLimit { resets_at: None } => Recovery::Interrupt(format!(
            "a usage limit with no reset time given ({})",
            first_line(message)
        )),
        resilience::Failure::UsageLimit {
            resets_at: Some(reset),
        } => {
            let at = OffsetDateTime::from_unix_timestamp_nanos(reset.as_nanosecond())
                .unwrap_or(now)
                .max(now);
            Recovery::WaitUntil {
                at,
                reason: format!(
                    "a usage limit; resuming when it resets at {}",
                    clock::timestamp(at)
                ),
                overload: false,
            }
        }
    }
}

/// The settings a failure is judged by.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Switches {
    /// `relentlessSessionRelaunch`.
    pub(crate) relaunch_overloads: bool,
    /// `contextStallAutoRecoverEnabled`.
    pub(crate) recover_full_context: bool,
}

/// The engines' ways of saying the prompt no longer fits: Claude's API
/// "prompt is too long: 201234 tokens > 200000 maximum", Claude Code's
/// "input length and `max_tokens` exceed context limit", OpenAI's
/// `context_length_exceeded` / "maximum context length", Codex's "exceeds
/// the context window".
fn context_is_full(message: &str) -> bool {
    let lower = message.to_lowercase();
    [
        "prompt is too long",
        "exceed context limit",
        "context_length_exceeded",
        "maximum context length",
        "exceeds the context window",
    ]
    .iter()
    .any(|marker| lower.contains(marker))
}

fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or_default();
    let mut clipped: String = line.chars().take(200).collect();
    if clipped.len() < line.len() {
        clipped.push('…');
    }
    clipped
}

/// Puts the input of the turn that just failed back at the head of the
/// queue, so the retry answers it before any follow-up sent meanwhile.
pub fn requeue_last_input(tx: &Transaction<'_>, id: &str) -> Result<()> {
    tx.execute(
        "UPDATE session_inputs SET consumed = 0 WHERE id = (
             SELECT MAX(id) FROM session_inputs WHERE session_id = ?1 AND consumed = 1)",
        [id],
    )?;
    Ok(())
}

pub fn set_resume_at(tx: &Transaction<'_>, id: &str, at: Option<&str>) -> Result<()> {
    tx.execute(
        "UPDATE sessions SET resume_at = ?2 WHERE id = ?1",
        params![id, at],
    )?;
    Ok(())
}

pub fn resume_at(tx: &Transaction<'_>, id: &str) -> Result<Option<String>> {
    Ok(
        tx.query_row("SELECT resume_at FROM sessions WHERE id = ?1", [id], |r| {
            r.get(0)
        })?,
    )
}

/// Interrupted sessions waiting for their own `resumeAt` (a usage limit's
/// reset, an overload's retry): `(id, account)`.
pub fn scheduled_returns(tx: &Transaction<'_>) -> Result<Vec<(String, String)>> {
    let mut stmt = tx.prepare(
        "SELECT id, account_id FROM sessions INDEXED BY sessions_dormant
         WHERE status IN ('interrupted', 'paused') AND status = 'interrupted'
           AND resume_at IS NOT NULL AND archived = 0",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<store::rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const NOW: OffsetDateTime = datetime!(2026-11-22 12:00 UTC);
    const RELENTLESS: Switches = Switches {
        relaunch_overloads: true,
        recover_full_context: false,
    };

    #[test]
    fn an_overload_is_retried_with_growing_gaps_only_when_relentless() {
        let overloaded = r#"API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        let Recovery::WaitUntil { at, overload, .. } =
            after_failure(overloaded, NOW, RELENTLESS, 0)
        else {
            panic!("an overload is retried");
        };
        assert!(overload);
        let Recovery::WaitUntil { at: later, .. } = after_failure(overloaded, NOW, RELENTLESS, 3)
        else {
            panic!("an overload is retried");
        };
        assert!(at > NOW && later - NOW > at - NOW);
        assert_eq!(
            after_failure(overloaded, NOW, Switches::default(), 0),
            Recovery::Fail
        );
    }

    #[test]
    fn a_genuine_error_fails_at_once() {
        let genuine = "Invalid API key · Please run /login";
        assert_eq!(after_failure(genuine, NOW, RELENTLESS, 0), Recovery::Fail);
    }

    #[test]
    fn a_usage_limit_waits_for_its_reset() {
        let reset = NOW.unix_timestamp() + 3_600;
        let message = format!("Claude AI usage limit reached|{reset}");
        let Recovery::WaitUntil { at, overload, .. } =
            after_failure(&message, NOW, Switches::default(), 0)
        else {
            panic!("a usage limit waits");
        };
        assert!(!overload);
        assert_eq!(at.unix_timestamp(), reset);
    }

    #[test]
    fn a_full_context_is_compacted_only_when_asked() {
        let full = "API Error: 400 prompt is too long: 201234 tokens > 200000 maximum";
        let recover = Switches {
            recover_full_context: true,
            ..RELENTLESS
        };
        assert_eq!(after_failure(full, NOW, recover, 0), Recovery::Compact);
        assert_eq!(after_failure(full, NOW, RELENTLESS, 0), Recovery::Fail);
    }
}
