//! The decision table at each level, paths, sensitive files, plans, config
//! files, and the broker's approvals on a manual clock.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::{
    ApprovalState, Broker, Call, Context, Decision, Level, NewApproval, Outcome, Remember, Verdict,
    decide,
};

fn ctx(level: Level) -> Context {
    Context {
        level,
        cwd: PathBuf::from("/nonexistent-sb/home/u/project"),
        home: Some(PathBuf::from("/nonexistent-sb/home/u")),
        auto_approve_plans: false,
        auto_approve_config_files: false,
    }
}

fn decide_in(c: &Context, tool: &str, input: &Value) -> Decision {
    decide(Call { tool, input }, c)
}

fn verdict(level: Level, tool: &str, input: Value) -> (Verdict, &'static str) {
    let d = decide_in(&ctx(level), tool, &input);
    (d.verdict, d.rule)
}

use Level::{Autonomous, Full, Guarded, ReadOnly};
use Verdict::{Allow, Ask, Deny};

#[test]
fn the_decision_table() {
    let read = || json!({"file_path": "src/main.rs"});
    let edit_in = || json!({"file_path": "src/main.rs", "old_string": "a", "new_string": "b"});
    let edit_out = || json!({"file_path": "/nonexistent-sb/elsewhere/x.txt", "content": "x"});
    let bash = || json!({"command": "cargo test"});
    let web = || json!({"url": "https://example.com"});
    let mcp = || json!({});
    let rows: &[(Level, &str, Value, Verdict)] = &[
        (ReadOnly, "Read", read(), Allow),
        (ReadOnly, "Grep", json!({"pattern": "x"}), Allow),
        (ReadOnly, "Edit", edit_in(), Deny),
        (ReadOnly, "Write", edit_in(), Deny),
        (ReadOnly, "Bash", bash(), Deny),
        (ReadOnly, "WebFetch", web(), Deny),
        (ReadOnly, "TodoWrite", json!({"todos": []}), Allow),
        (
            Guarded,
            "Read",
            json!({"file_path": "/nonexistent-sb/etc/hosts"}),
            Allow,
        ),
        (Guarded, "Edit", edit_in(), Allow),
        (Guarded, "Write", edit_out(), Ask),
        (Guarded, "Bash", bash(), Ask),
        (Guarded, "WebSearch", json!({"query": "rust"}), Allow),
        (Guarded, "mcp__x__y", mcp(), Ask),
        (Autonomous, "Bash", bash(), Allow),
        (Autonomous, "Write", edit_out(), Allow),
        (Full, "Bash", bash(), Allow),
    ];
    for (level, tool, input, want) in rows {
        let (got, rule) = verdict(*level, tool, input.clone());
        assert_eq!(got, *want, "{level:?} {tool} {input} (rule {rule})");
    }
}

#[test]
fn a_relative_path_that_climbs_out_of_the_folder_is_an_edit_elsewhere() {
    let input = json!({"file_path": "src/../../other/x.rs", "content": ""});
    assert_eq!(verdict(Guarded, "Write", input).0, Ask);
    let input = json!({"file_path": "./src/../lib.rs", "content": ""});
    assert_eq!(verdict(Guarded, "Write", input).0, Allow);
}

#[test]
fn sensitive_files_ask_below_full_and_are_allowed_at_full() {
    let cases = [
        ("Read", json!({"file_path": "~/.ssh/id_ed25519"})),
        (
            "Read",
            json!({"file_path": "/nonexistent-sb/home/u/.aws/credentials"}),
        ),
        ("Read", json!({"file_path": "../.netrc"})),
        (
            "Edit",
            json!({"file_path": "/etc/sudoers", "old_string": "", "new_string": ""}),
        ),
        ("Bash", json!({"command": "cat ~/.docker/config.json"})),
        ("Bash", json!({"command": "cp $HOME/.kube/config /tmp"})),
        ("Grep", json!({"pattern": "x", "path": "/etc/shadow"})),
    ];
    for (tool, input) in cases {
        for level in [ReadOnly, Guarded, Autonomous] {
            let (got, rule) = verdict(level, tool, input.clone());
            assert_eq!(
                (got, rule),
                (Ask, "sensitive_path"),
                "{level:?} {tool} {input}"
            );
        }
        assert_eq!(
            verdict(Full, tool, input.clone()).0,
            Allow,
            "{tool} {input}"
        );
    }
    // A name that only starts like one is not one.
    assert_eq!(
        verdict(Guarded, "Read", json!({"file_path": "~/.sshfoo"})).0,
        Allow
    );
}

#[test]
fn plans_follow_auto_approve_plans_at_every_level() {
    let plan = json!({"plan": "1. do it"});
    for level in [ReadOnly, Guarded, Autonomous, Full] {
        let mut c = ctx(level);
        assert_eq!(decide_in(&c, "ExitPlanMode", &plan).verdict, Ask);
        c.auto_approve_plans = true;
        assert_eq!(decide_in(&c, "ExitPlanMode", &plan).verdict, Allow);
    }
}

#[test]
fn config_files_follow_auto_approve_config_files() {
    let inputs = [
        json!({"file_path": ".claude/settings.json", "content": "{}"}),
        json!({"file_path": "CLAUDE.md", "content": ""}),
        json!({"file_path": "~/.claude/settings.json", "content": "{}"}),
    ];
    for input in inputs {
        for level in [Guarded, Autonomous] {
            let mut c = ctx(level);
            let verdict = |c: &Context| decide_in(c, "Write", &input).verdict;
            assert_eq!(verdict(&c), Ask, "{level:?} {input}");
            c.auto_approve_config_files = true;
            assert_eq!(verdict(&c), Allow, "{level:?} {input}");
        }
        // Read-only stays read-only.
        let mut c = ctx(ReadOnly);
        c.auto_approve_config_files = true;
        assert_eq!(decide_in(&c, "Write", &input).verdict, Deny);
    }
}

#[test]
fn grant_keys_cover_a_program_or_a_folder() {
    let c = ctx(Guarded);
    let key = |tool: &str, input: Value| decide_in(&c, tool, &input).grant_key;
    assert_eq!(
        key("Bash", json!({"command": "cargo test"})),
        key("Bash", json!({"command": "cargo build --release"}))
    );
    assert_ne!(
        key("Bash", json!({"command": "cargo test"})),
        key("Bash", json!({"command": "rm -rf /"}))
    );
    assert_eq!(
        key("Write", json!({"file_path": "/nonexistent-sb/o/a.txt"})),
        key("Write", json!({"file_path": "/nonexistent-sb/o/b.txt"}))
    );
}

#[test]
fn the_claude_settings_quote_the_program() {
    let settings = crate::claude_settings(Path::new("/opt/it's here/switchboard"));
    let parsed: Value = serde_json::from_str(&settings).unwrap_or_default();
    let command = &parsed["hooks"]["PreToolUse"][0]["hooks"][0]["command"];
    assert_eq!(
        command,
        r"'/opt/it'\''s here/switchboard' hook pre-tool-use"
    );
}

fn broker() -> (Broker, Arc<clock::ManualClock>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let db = Arc::new(
        store::Db::open(&dir.path().join("db.sqlite")).unwrap_or_else(|e| panic!("db: {e}")),
    );
    let clock = Arc::new(clock::ManualClock::starting_now());
    let broker = Broker::open(db, clock.clone()).unwrap_or_else(|e| panic!("open: {e}"));
    (broker, clock, dir)
}

fn ask(broker: &Broker, key: &str) -> String {
    let input = json!({"command": "make"});
    broker
        .open_approval(&NewApproval {
            account_id: "a",
            session_id: "s",
            tool: "Bash",
            target: Some("make"),
            input: &input,
            reason: "asks",
            rule: "guarded_ask",
            grant_key: key,
        })
        .unwrap_or_else(|e| panic!("open: {e}"))
        .id
}

#[tokio::test]
async fn an_approval_waits_for_the_answer_and_remembers_for_the_session() {
    let (broker, _clock, _dir) = broker();
    let id = ask(&broker, "Bash:make");
    let waiting = tokio::spawn({
        let (broker, id) = (broker.clone(), id.clone());
        async move { broker.wait("a", &id).await }
    });
    tokio::task::yield_now().await;
    assert!(
        broker.decide("b", &id, true, Remember::Session).is_err(),
        "another account"
    );
    let answered = broker.decide("a", &id, true, Remember::Session);
    assert_eq!(answered.map(|a| a.state).ok(), Some(ApprovalState::Allowed));
    assert_eq!(
        waiting.await.ok().and_then(Result::ok),
        Some(Outcome::Allowed)
    );
    assert!(broker.is_granted("s", "Bash:make").unwrap_or(false));
    assert!(!broker.is_granted("s", "Bash:rm").unwrap_or(true));
    assert!(
        broker.decide("a", &id, false, Remember::Once).is_err(),
        "answered once"
    );
}

#[tokio::test]
async fn an_unanswered_approval_expires_after_ten_minutes_on_the_clock() {
    let (broker, clock, _dir) = broker();
    let id = ask(&broker, "Bash:make");
    let waiting = tokio::spawn({
        let (broker, id) = (broker.clone(), id.clone());
        async move { broker.wait("a", &id).await }
    });
    while clock.sleepers() == 0 {
        tokio::task::yield_now().await;
    }
    clock.advance(time::Duration::seconds(599));
    tokio::task::yield_now().await;
    assert!(!waiting.is_finished());
    clock.advance(time::Duration::seconds(1));
    assert_eq!(
        waiting.await.ok().and_then(Result::ok),
        Some(Outcome::TimedOut)
    );
    let state = broker.get("a", &id).map(|a| a.state).ok();
    assert_eq!(state, Some(ApprovalState::Expired));
}
