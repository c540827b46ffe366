//! Which engine lines say the turn failed and which only tell something
//! along the way: only a failed turn has an `error` entry; what an engine
//! reports and goes on from is a `notice`.
//!
//! - Claude Code: a `result` with `is_error: true` is the failure (whatever
//!   its `subtype`). An `assistant` line's `error` (`rate_limit`,
//!   `max_output_tokens`, ...) names an API error the CLI may still recover
//!   from, so it is a notice; when it does not, its `result` says so. Of the
//!   many `system` subtypes, those a person would want to see become notices
//!   (a retried API call, a compaction, a model fallback, a warning, a
//!   failed hook); the rest (`init`, hook and task progress, UI frames) are
//!   skipped as before.
//! - Codex (`codex exec --json`): `turn.failed` is the failure. Its
//!   `item.completed` items of type `error` are warnings: `codex exec` writes
//!   its warnings, configuration warnings, deprecation notices and model
//!   reroutes as such items and goes on running. A top-level `error` event
//!   is an error the CLI may retry ("Reconnecting... 1/5"); when the turn
//!   fails after all, `turn.failed` (or the exit status) says so.

use serde_json::Value;

use crate::engines::EngineKind;
use crate::entries::truncate_output;

/// What a line says about the turn, when it says anything worth an entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Said {
    /// Informational: a `notice` entry from the engine.
    Notice(String),
    /// The turn failed: an `error` entry, and the turn's failure message.
    Failure(String),
}

/// Reads one line of a Claude or Codex stream (`command` engines have none).
pub(crate) fn classify(kind: EngineKind, line: &Value) -> Option<Said> {
    match kind {
        EngineKind::Claude => claude(line),
        EngineKind::Codex => codex(line),
        EngineKind::Command => None,
    }
}

fn str_of<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

fn int_of(value: &Value, key: &str) -> Option<i64> {
    value.get(key).and_then(Value::as_i64)
}

fn notice(text: impl Into<String>) -> Option<Said> {
    Some(Said::Notice(truncate_output(text.into())))
}

fn claude(line: &Value) -> Option<Said> {
    match str_of(line, "type")? {
        "result" if line.get("is_error").and_then(Value::as_bool) == Some(true) => {
            Some(Said::Failure(claude_failure(line)))
        }
        "assistant" => {
            let error = str_of(line, "error")?;
            notice(format!("The model's API answered with an error ({error})."))
        }
        "system" => claude_system(line),
        _ => None,
    }
}

/// A failed `result`'s message: its text, else its `errors`, else its subtype.
fn claude_failure(line: &Value) -> String {
    let errors = line
        .get("errors")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|e| e.as_str().map_or_else(|| e.to_string(), str::to_owned))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .filter(|joined| !joined.is_empty());
    str_of(line, "result")
        .map(str::to_owned)
        .or(errors)
        .or_else(|| str_of(line, "subtype").map(str::to_owned))
        .unwrap_or_else(|| "the engine reported an error".to_owned())
}

fn claude_system(line: &Value) -> Option<Said> {
    match str_of(line, "subtype")? {
        "api_retry" => {
            let error = str_of(line, "error").unwrap_or("error");
            let status = int_of(line, "error_status")
                .map(|s| format!(", status {s}"))
                .unwrap_or_default();
            let delay = int_of(line, "retry_delay_ms")
                .map_or_else(String::new, |ms| format!(" in {}", seconds(ms)));
            let attempt = match (int_of(line, "attempt"), int_of(line, "max_retries")) {
                (Some(attempt), Some(most)) => format!(" (attempt {attempt} of {most})"),
                _ => String::new(),
            };
            notice(format!(
                "An API request failed ({error}{status}); retrying{delay}{attempt}."
            ))
        }
        "compact_boundary" => {
            let meta = line.get("compact_metadata").unwrap_or(&Value::Null);
            let how = match str_of(meta, "trigger") {
                Some("auto") => "by itself",
                Some("manual") => "as asked",
                _ => "",
            };
            let sizes = match (int_of(meta, "pre_tokens"), int_of(meta, "post_tokens")) {
                (Some(pre), Some(post)) => format!(": {pre} tokens before, {post} after"),
                (Some(pre), None) => format!(": {pre} tokens before"),
                _ => String::new(),
            };
            let how = if how.is_empty() {
                String::new()
            } else {
                format!(" {how}")
            };
            notice(format!("The engine compacted its context{how}{sizes}."))
        }
        "status" if str_of(line, "compact_result") == Some("failed") => {
            let why = str_of(line, "compact_error").map_or_else(String::new, |e| format!(": {e}"));
            notice(format!("Compacting the context failed{why}."))
        }
        "model_fallback" => match str_of(line, "content") {
            Some(content) => notice(content),
            None => notice(format!(
                "Switched from {} to {}.",
                str_of(line, "original_model").unwrap_or("the model"),
                str_of(line, "fallback_model").unwrap_or("the fallback model")
            )),
        },
        "informational" | "local_command_output" => notice(str_of(line, "content")?),
        "notification" => notice(str_of(line, "text")?),
        "instruction_size_warning" => {
            let total = int_of(line, "total_chars")?;
            let limit = int_of(line, "total_limit_chars")?;
            notice(format!(
                "The instruction files (CLAUDE.md and what they include) are {total} characters, over the {limit} recommended for this model."
            ))
        }
        "session_writes_lost" => {
            let lost = line
                .get("lost")
                .and_then(Value::as_array)
                .map(|l| l.iter().filter_map(Value::as_str).collect::<Vec<_>>())
                .filter(|l| !l.is_empty())
                .map_or_else(|| "some of its files".to_owned(), |l| l.join(" and "));
            let code = str_of(line, "error_code").unwrap_or("a write error");
            notice(format!(
                "The engine could not save {lost} ({code}): a resume may miss part of the conversation."
            ))
        }
        "hook_response" if str_of(line, "outcome") == Some("error") => {
            let name = str_of(line, "hook_name").unwrap_or("a hook");
            let event = str_of(line, "hook_event").map_or_else(String::new, |e| format!(" ({e})"));
            let said = str_of(line, "stderr")
                .or_else(|| str_of(line, "output"))
                .map_or_else(String::new, |s| format!(": {s}"));
            notice(format!("The hook {name}{event} failed{said}"))
        }
        _ => None,
    }
}

/// `1500` ms as `1.5 s`, `2000` as `2 s`.
fn seconds(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

fn codex(line: &Value) -> Option<Said> {
    let message = |v: Option<&Value>| v.and_then(|v| str_of(v, "message")).map(str::to_owned);
    match str_of(line, "type")? {
        "turn.failed" => Some(Said::Failure(
            message(line.get("error"))
                .unwrap_or_else(|| "the engine reported a failed turn".to_owned()),
        )),
        "error" => notice(message(Some(line))?),
        "item.completed" => {
            let item = line.get("item")?;
            if str_of(item, "type") != Some("error") {
                return None;
            }
            notice(message(Some(item))?)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn claude_says(line: Value) -> Option<Said> {
        classify(EngineKind::Claude, &line)
    }

    fn codex_says(line: Value) -> Option<Said> {
        classify(EngineKind::Codex, &line)
    }

    fn note(text: &str) -> Option<Said> {
        Some(Said::Notice(text.to_owned()))
    }

    #[test]
    fn codex_warning_items_are_notices() {
        assert_eq!(
            codex_says(
                json!({"type": "item.completed", "item": {"id": "item_0", "type": "error",
                "message": "Model metadata for `gpt-x` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}})
            ),
            note(
                "Model metadata for `gpt-x` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."
            )
        );
        assert_eq!(
            codex_says(
                json!({"type": "item.completed", "item": {"type": "agent_message", "text": "Done."}})
            ),
            None
        );
    }

    #[test]
    fn a_codex_error_event_is_a_notice_and_turn_failed_the_failure() {
        assert_eq!(
            codex_says(json!({"type": "error", "message": "Reconnecting... 1/5"})),
            note("Reconnecting... 1/5")
        );
        assert_eq!(
            codex_says(json!({"type": "turn.failed", "error": {"message": "stream disconnected"}})),
            Some(Said::Failure("stream disconnected".into()))
        );
        assert_eq!(
            codex_says(json!({"type": "turn.failed"})),
            Some(Said::Failure("the engine reported a failed turn".into()))
        );
        assert_eq!(codex_says(json!({"type": "error"})), None);
        assert_eq!(codex_says(json!({"type": "turn.completed"})), None);
    }

    #[test]
    fn a_claude_result_with_is_error_is_the_failure_whatever_its_subtype() {
        assert_eq!(
            claude_says(
                json!({"type": "result", "subtype": "success", "is_error": true,
                "result": "API Error: 529 overloaded"})
            ),
            Some(Said::Failure("API Error: 529 overloaded".into()))
        );
        assert_eq!(
            claude_says(
                json!({"type": "result", "subtype": "error_during_execution",
                "is_error": true, "errors": ["first", {"code": 2}]})
            ),
            Some(Said::Failure("first; {\"code\":2}".into()))
        );
        assert_eq!(
            claude_says(json!({"type": "result", "subtype": "error_max_turns", "is_error": true})),
            Some(Said::Failure("error_max_turns".into()))
        );
        assert_eq!(
            claude_says(
                json!({"type": "result", "subtype": "success", "is_error": false,
                "result": "Done."})
            ),
            None
        );
    }

    #[test]
    fn claude_api_errors_and_retries_are_notices() {
        assert_eq!(
            claude_says(json!({"type": "assistant", "error": "rate_limit",
                "message": {"content": [{"type": "text", "text": "API Error"}]}})),
            note("The model's API answered with an error (rate_limit).")
        );
        assert_eq!(
            claude_says(
                json!({"type": "system", "subtype": "api_retry", "attempt": 2,
                "max_retries": 10, "retry_delay_ms": 1500, "error_status": 529,
                "error": "overloaded", "session_id": "s"})
            ),
            note(
                "An API request failed (overloaded, status 529); retrying in 1.5 s (attempt 2 of 10)."
            )
        );
        assert_eq!(
            claude_says(
                json!({"type": "system", "subtype": "api_retry", "attempt": 1,
                "max_retries": 10, "retry_delay_ms": 2000, "error_status": null,
                "error": "unknown"})
            ),
            note("An API request failed (unknown); retrying in 2 s (attempt 1 of 10).")
        );
    }

    #[test]
    fn claude_compactions_fallbacks_and_warnings_are_notices() {
        assert_eq!(
            claude_says(json!({"type": "system", "subtype": "compact_boundary",
                "compact_metadata": {"trigger": "auto", "pre_tokens": 167000, "post_tokens": 12000}})),
            note("The engine compacted its context by itself: 167000 tokens before, 12000 after.")
        );
        assert_eq!(
            claude_says(
                json!({"type": "system", "subtype": "status", "status": null,
                "compact_result": "failed", "compact_error": "Not enough messages"})
            ),
            note("Compacting the context failed: Not enough messages.")
        );
        assert_eq!(
            claude_says(json!({"type": "system", "subtype": "model_fallback",
                "trigger": "overloaded", "original_model": "opus", "fallback_model": "sonnet",
                "content": "Switched to sonnet: opus is overloaded"})),
            note("Switched to sonnet: opus is overloaded")
        );
        assert_eq!(
            claude_says(json!({"type": "system", "subtype": "informational",
                "content": "Auto-update failed", "level": "warning"})),
            note("Auto-update failed")
        );
        assert_eq!(
            claude_says(
                json!({"type": "system", "subtype": "instruction_size_warning",
                "total_chars": 60000, "total_limit_chars": 40000, "file_count": 3})
            ),
            note(
                "The instruction files (CLAUDE.md and what they include) are 60000 characters, over the 40000 recommended for this model."
            )
        );
        assert_eq!(
            claude_says(json!({"type": "system", "subtype": "session_writes_lost",
                "error_code": "ENOSPC", "lost": ["transcript"]})),
            note(
                "The engine could not save transcript (ENOSPC): a resume may miss part of the conversation."
            )
        );
        assert_eq!(
            claude_says(
                json!({"type": "system", "subtype": "hook_response", "hook_id": "h",
                "hook_name": "PreToolUse:Bash", "hook_event": "PreToolUse", "output": "",
                "stdout": "", "stderr": "refused 415", "outcome": "error"})
            ),
            note("The hook PreToolUse:Bash (PreToolUse) failed: refused 415")
        );
    }

    #[test]
    fn claude_progress_lines_are_skipped() {
        for line in [
            json!({"type": "system", "subtype": "init", "session_id": "s"}),
            json!({"type": "system", "subtype": "status", "status": "compacting"}),
            json!({"type": "system", "subtype": "hook_started", "hook_id": "h"}),
            json!({"type": "system", "subtype": "hook_response", "outcome": "success"}),
            json!({"type": "system", "subtype": "task_progress", "task_id": "t"}),
            json!({"type": "system", "subtype": "informational", "content": ""}),
            json!({"type": "system", "subtype": "some_future_subtype"}),
            json!({"type": "assistant", "message": {"content": []}}),
            json!({"type": "rate_limit_event"}),
        ] {
            assert_eq!(claude_says(line.clone()), None, "{line}");
        }
    }

    #[test]
    fn command_engines_have_no_lines_to_read() {
        assert_eq!(
            classify(EngineKind::Command, &json!({"type": "turn.failed"})),
            None
        );
    }
}
