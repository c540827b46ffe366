//! The rules, pure: what one session's transcript (and the approvals it
//! waited on) shows of friction. Each finding has a subject that stays the
//! same across scans (a command with its volatile parts blanked, a tool's
//! name), so the same friction found again is the same finding.

use std::collections::BTreeMap;

use serde_json::Value;
use sessions::{Entry, EntryBody, Status};

use crate::Kind;

/// A shell command failing this many times in one session is a finding.
pub const REPEATED_FAILURES: u32 = 3;
/// An approval that waited longer than this for the user is a finding.
pub const SLOW_APPROVAL_SECS: i64 = 5 * 60;

// One source for the notices the watchdog's loop breaker and stall restart leave.
use sessions::{LOOP_RESTART_REASON as LOOP_NOTICE, STALL_RESTART_REASON as STALL_NOTICE};

/// How long one approval of a session waited, and whether it still waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalWait {
    pub tool: String,
    pub waited_secs: i64,
    pub pending: bool,
}

/// One friction found in one session, before it is compared with what was
/// found before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub kind: Kind,
    pub subject: String,
    pub detail: String,
    pub count: u32,
}

/// Everything `entries` (one session's transcript, oldest first) and its
/// approvals show; `status` is the session's now.
pub fn frictions(status: Status, entries: &[Entry], approvals: &[ApprovalWait]) -> Vec<Found> {
    let mut found = Vec::new();
    found.extend(failing_commands(entries));
    found.extend(watchdog(entries));
    found.extend(denied(entries));
    found.extend(slow_approvals(approvals));
    if let Some(missing) = no_final(status, entries) {
        found.push(missing);
    }
    found
}

fn failing_commands(entries: &[Entry]) -> Vec<Found> {
    let mut commands: BTreeMap<&str, String> = BTreeMap::new();
    let mut failures: BTreeMap<String, (u32, String)> = BTreeMap::new();
    for entry in entries {
        match &entry.body {
            EntryBody::ToolCall {
                tool_id: Some(id),
                input,
                ..
            } => {
                if let Some(command) = shell_command(input) {
                    commands.insert(id.as_str(), command);
                }
            }
            EntryBody::ToolResult {
                tool_id: Some(id),
                is_error: true,
                ..
            } => {
                if let Some(command) = commands.get(id.as_str()) {
                    let subject = normalize(command);
                    let seen = failures.entry(subject).or_insert((0, command.clone()));
                    seen.0 += 1;
                }
            }
            _ => {}
        }
    }
    failures
        .into_iter()
        .filter(|(_, (count, _))| *count >= REPEATED_FAILURES)
        .map(|(subject, (count, example))| Found {
            kind: Kind::RepeatedFailingCommand,
            detail: format!("`{}` failed {count} times", clip(&example, 120)),
            subject,
            count,
        })
        .collect()
}

/// Claude's `Bash` (`command`), Codex's `command` (a string or an argv).
fn shell_command(input: &Value) -> Option<String> {
    match input.get("command")? {
        Value::String(command) => Some(command.clone()),
        Value::Array(argv) => Some(
            argv.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    }
}

fn watchdog(entries: &[Entry]) -> Vec<Found> {
    let mut loops: BTreeMap<String, u32> = BTreeMap::new();
    let mut stalls = 0;
    for entry in entries {
        let EntryBody::Notice { text, .. } = &entry.body else {
            continue;
        };
        if let Some((_, rest)) = text.split_once(LOOP_NOTICE) {
            let tool = rest
                .split(" repeated")
                .next()
                .unwrap_or(rest)
                .trim()
                .to_owned();
            *loops.entry(tool).or_default() += 1;
        } else if text.contains(STALL_NOTICE) {
            stalls += 1;
        }
    }
    let mut found: Vec<Found> = loops
        .into_iter()
        .map(|(tool, count)| Found {
            kind: Kind::LoopBroken,
            detail: format!("the loop breaker restarted it {count}\u{d7}: {tool} repeated"),
            subject: tool,
            count,
        })
        .collect();
    if stalls > 0 {
        found.push(Found {
            kind: Kind::Stall,
            subject: String::new(),
            detail: format!("stalled {stalls}\u{d7} (no output and no CPU for 10 minutes)"),
            count: stalls,
        });
    }
    found
}

fn denied(entries: &[Entry]) -> Vec<Found> {
    let mut tools: BTreeMap<&str, u32> = BTreeMap::new();
    for entry in entries {
        if let EntryBody::Permission { tool, decision, .. } = &entry.body
            && decision == "deny"
        {
            *tools.entry(tool.as_str()).or_default() += 1;
        }
    }
    tools
        .into_iter()
        .map(|(tool, count)| Found {
            kind: Kind::DeniedToolCall,
            subject: tool.to_owned(),
            detail: format!("{tool} was denied {count}\u{d7}"),
            count,
        })
        .collect()
}

fn slow_approvals(approvals: &[ApprovalWait]) -> Option<Found> {
    let slow: Vec<&ApprovalWait> = approvals
        .iter()
        .filter(|a| a.waited_secs > SLOW_APPROVAL_SECS)
        .collect();
    let longest = slow.iter().map(|a| a.waited_secs).max()?;
    let count = u32::try_from(slow.len()).unwrap_or(u32::MAX);
    let pending = slow.iter().filter(|a| a.pending).count();
    let still = if pending > 0 {
        format!(", {pending} still waiting")
    } else {
        String::new()
    };
    Some(Found {
        kind: Kind::SlowApproval,
        subject: String::new(),
        detail: format!(
            "{count} approval{} waited over 5 minutes (longest {} min{still})",
            if count == 1 { "" } else { "s" },
            longest / 60
        ),
        count,
    })
}

/// A session that ended (finished, failed, stopped) whose last turn has no
/// final message: the agent stopped without saying where it got to.
fn no_final(status: Status, entries: &[Entry]) -> Option<Found> {
    if !matches!(status, Status::Finished | Status::Failed | Status::Stopped) {
        return None;
    }
    let last_turn = entries.iter().map(|e| e.turn).max()?;
    let has_final = entries
        .iter()
        .filter(|e| e.turn == last_turn)
        .any(|e| matches!(e.body, EntryBody::Final { .. }));
    (!has_final).then(|| Found {
        kind: Kind::NoFinalMessage,
        subject: String::new(),
        detail: format!(
            "ended ({}) without a final message in turn {last_turn}",
            status.as_str()
        ),
        count: 1,
    })
}

/// A command with what changes from run to run blanked: numbers, temporary
/// paths, hex ids, and runs of spaces, so `cargo test -- --seed 41` and
/// `cargo test -- --seed 42` are one command.
pub fn normalize(command: &str) -> String {
    let mut out = String::with_capacity(command.len());
    for word in command.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        if word.starts_with("/tmp/") || word.starts_with("/var/folders/") {
            out.push_str("/tmp/\u{2026}");
            continue;
        }
        let hexish = word.len() >= 8 && word.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
        if hexish {
            out.push('\u{2026}');
            continue;
        }
        let mut in_number = false;
        for c in word.chars() {
            if c.is_ascii_digit() {
                if !in_number {
                    out.push('#');
                }
                in_number = true;
            } else {
                in_number = false;
                out.push(c);
            }
        }
    }
    out
}

fn clip(text: &str, chars: usize) -> String {
    let mut clipped: String = text.chars().take(chars).collect();
    if text.chars().count() > chars {
        clipped.push('\u{2026}');
    }
    clipped
}
