//! The rules on prepared transcripts, one friction each and a clean one; and
//! the scan on a real database, where a second scan finds nothing new.

use std::collections::HashMap;

use serde_json::json;
use sessions::{Entry, EntryBody, NoticeSource, Status};

use super::*;

fn entry(turn: i64, body: EntryBody) -> Entry {
    Entry {
        seq: 0,
        turn,
        at: None,
        body,
    }
}

fn bash(id: &str, command: &str) -> EntryBody {
    EntryBody::ToolCall {
        tool_id: Some(id.into()),
        name: "Bash".into(),
        input: json!({"command": command}),
    }
}

fn result(id: &str, is_error: bool) -> EntryBody {
    EntryBody::ToolResult {
        tool_id: Some(id.into()),
        output: "exit 1".into(),
        is_error,
    }
}

fn notice(text: &str) -> EntryBody {
    EntryBody::Notice {
        text: text.into(),
        source: NoticeSource::Switchboard,
    }
}

fn final_text() -> EntryBody {
    EntryBody::Final {
        text: "Done.".into(),
    }
}

fn kinds(found: &[Found]) -> Vec<Kind> {
    found.iter().map(|f| f.kind).collect()
}

#[test]
fn a_clean_session_shows_nothing() {
    let entries = vec![
        entry(1, bash("a", "cargo test")),
        entry(1, result("a", false)),
        entry(1, final_text()),
    ];
    assert!(frictions(Status::Finished, &entries, &[]).is_empty());
}

#[test]
fn the_same_command_failing_three_times_is_one_finding_whatever_its_seed() {
    let mut entries = Vec::new();
    for (n, seed) in ["41", "42", "43"].iter().enumerate() {
        let id = format!("t{n}");
        entries.push(entry(
            1,
            bash(&id, &format!("cargo test -- --seed {seed}  /tmp/run-{n}")),
        ));
        entries.push(entry(1, result(&id, true)));
    }
    entries.push(entry(1, final_text()));
    let found = frictions(Status::WaitingForInput, &entries, &[]);
    assert_eq!(kinds(&found), [Kind::RepeatedFailingCommand]);
    assert_eq!(found[0].count, 3);
    assert_eq!(found[0].subject, "cargo test -- --seed # /tmp/\u{2026}");
    assert!(
        found[0].detail.contains("failed 3 times"),
        "{}",
        found[0].detail
    );
    // Twice is not yet a pattern, and a success is not a failure.
    let twice = &entries[..4];
    assert!(frictions(Status::WaitingForInput, twice, &[]).is_empty());
}

#[test]
fn the_watchdogs_restarts_are_loops_and_stalls() {
    let entries = vec![
        entry(
            1,
            notice("The turn was restarted by the loop breaker: Read repeated."),
        ),
        entry(
            2,
            notice("The turn was restarted by the loop breaker: Read repeated."),
        ),
        entry(
            3,
            notice("The turn was restarted: no output and no CPU for 10 minutes."),
        ),
        entry(4, final_text()),
    ];
    let found = frictions(Status::WaitingForInput, &entries, &[]);
    assert_eq!(kinds(&found), [Kind::LoopBroken, Kind::Stall]);
    assert_eq!((found[0].subject.as_str(), found[0].count), ("Read", 2));
}

#[test]
fn denied_calls_and_long_waits_are_findings() {
    let entries = vec![
        entry(
            1,
            EntryBody::Permission {
                tool: "Bash".into(),
                target: Some("rm -rf build".into()),
                level: "guarded".into(),
                rule: "refused".into(),
                decision: "deny".into(),
            },
        ),
        entry(1, final_text()),
    ];
    let waits = [
        ApprovalWait {
            tool: "Bash".into(),
            waited_secs: 20,
            pending: false,
        },
        ApprovalWait {
            tool: "Write".into(),
            waited_secs: 9 * 60,
            pending: false,
        },
        ApprovalWait {
            tool: "Bash".into(),
            waited_secs: 30 * 60,
            pending: true,
        },
    ];
    let found = frictions(Status::WaitingForInput, &entries, &waits);
    assert_eq!(kinds(&found), [Kind::DeniedToolCall, Kind::SlowApproval]);
    assert_eq!(found[1].count, 2);
    assert!(
        found[1].detail.contains("longest 30 min, 1 still waiting"),
        "{}",
        found[1].detail
    );
}

#[test]
fn an_ended_session_without_a_final_message_is_a_finding_a_waiting_one_is_not() {
    let entries = vec![entry(1, final_text()), entry(2, bash("x", "make"))];
    assert_eq!(
        kinds(&frictions(Status::Failed, &entries, &[])),
        [Kind::NoFinalMessage]
    );
    assert!(frictions(Status::WaitingForInput, &entries, &[]).is_empty());
}

#[test]
fn a_second_scan_finds_nothing_new() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
    db.migrate(MIGRATIONS).unwrap();
    let now = time::macros::datetime!(2026-11-24 09:00 UTC);
    sessions::seed_demo(
        &db,
        &sessions::DemoSeed {
            account_id: "a",
            data_dir: dir.path(),
            engine: &sessions::engines::demo_spec(std::path::Path::new("switchboard")),
            now,
            max_dollars_per_session: 5.0,
            max_turns_per_session: 50,
        },
    )
    .unwrap();
    let since = "2026-01-01T00:00:00.000Z";
    let first = scan(&db, since, "2026-11-24T09:00:00.000Z", &HashMap::new()).unwrap();
    assert!(first.transcripts >= 5, "{}", first.transcripts);
    let found = first.new.get("a").cloned().unwrap_or_default();
    // The demo's failed session ends without a final message.
    assert!(
        found.iter().any(|f| f.kind == Kind::NoFinalMessage),
        "{found:?}"
    );
    let again = scan(&db, since, "2026-11-24T10:00:00.000Z", &HashMap::new()).unwrap();
    assert!(again.new.is_empty(), "{:?}", again.new);
    let kept = report(&db, "a").unwrap();
    assert_eq!(kept.findings.len(), found.len());
    assert_eq!(
        kept.last_scan_at.as_deref(),
        Some("2026-11-24T10:00:00.000Z")
    );
    assert_eq!(kept.findings[0].last_seen_at, "2026-11-24T10:00:00.000Z");
    assert!(report(&db, "b").unwrap().findings.is_empty());
}
