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

/// What each tool gets at `read_only`, `guarded`, `autonomous`, `full`
/// (plans and config files not auto-approved).
type Row = (&'static str, Value, [Verdict; 4]);

/// Every tool name Claude Code 2.1.330 offers a session, with the inputs
/// that change its class; then the rest of its `sdk-tools.d.ts` and the
/// older names.
fn the_tools() -> Vec<Row> {
    const INTERNAL: [Verdict; 4] = [Allow, Allow, Allow, Allow];
    const LIKE_SHELL: [Verdict; 4] = [Deny, Ask, Allow, Allow];
    const LIKE_WEB: [Verdict; 4] = [Deny, Allow, Allow, Allow];
    const READ: [Verdict; 4] = [Allow, Allow, Allow, Allow];
    const EDIT_INSIDE: [Verdict; 4] = [Deny, Allow, Allow, Allow];
    const CONFIG_FILE: [Verdict; 4] = [Deny, Ask, Ask, Allow];
    let agent = json!({"description": "Find it", "prompt": "look"});
    let mut in_worktree = agent.clone();
    in_worktree["isolation"] = json!("worktree");
    let mut remote = agent.clone();
    remote["isolation"] = json!("remote");
    let edit = json!({"file_path": "src/main.rs", "old_string": "a", "new_string": "b"});
    vec![
        // Offered to a session (its `init` line, and `Agent` as the API names it).
        ("Agent", agent.clone(), INTERNAL),
        ("Agent", in_worktree, LIKE_SHELL),
        ("Agent", remote, LIKE_SHELL),
        ("Task", agent, INTERNAL),
        ("Bash", json!({"command": "cargo test"}), LIKE_SHELL),
        (
            "CronCreate",
            json!({"cron": "*/5 * * * *", "prompt": "check"}),
            INTERNAL,
        ),
        (
            "CronCreate",
            json!({"cron": "0 9 * * 1", "prompt": "check", "durable": true}),
            CONFIG_FILE,
        ),
        ("CronDelete", json!({"id": "d3577d4b"}), INTERNAL),
        ("CronList", json!({}), INTERNAL),
        ("DesignSync", json!({}), LIKE_SHELL),
        ("Edit", edit.clone(), EDIT_INSIDE),
        (
            "Edit",
            json!({"file_path": "/nonexistent-sb/elsewhere/x.rs", "old_string": "a", "new_string": "b"}),
            LIKE_SHELL,
        ),
        ("EnterWorktree", json!({"name": "probe"}), LIKE_SHELL),
        ("ExitWorktree", json!({"action": "keep"}), INTERNAL),
        ("ExitWorktree", json!({"action": "remove"}), LIKE_SHELL),
        ("ListAgents", json!({}), INTERNAL),
        (
            "Monitor",
            json!({"description": "CI", "timeout_ms": 60000, "command": "tail -f ci.log"}),
            LIKE_SHELL,
        ),
        (
            "Monitor",
            json!({"description": "feed", "timeout_ms": 60000, "ws": {"url": "wss://example.com/feed"}}),
            LIKE_WEB,
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "nb.ipynb", "new_source": "x"}),
            EDIT_INSIDE,
        ),
        ("Read", json!({"file_path": "src/main.rs"}), READ),
        (
            "Read",
            json!({"file_path": "/nonexistent-sb/etc/hosts"}),
            READ,
        ),
        ("ReportFindings", json!({"findings": []}), INTERNAL),
        (
            "ScheduleWakeup",
            json!({"delaySeconds": 60, "reason": "CI", "prompt": "/loop", "noop": false}),
            INTERNAL,
        ),
        (
            "SendMessage",
            json!({"to": "helper", "message": "go"}),
            INTERNAL,
        ),
        ("Skill", json!({"skill": "simplify"}), INTERNAL),
        ("TaskStop", json!({"task_id": "b1"}), INTERNAL),
        ("ToolSearch", json!({"query": "select:WebFetch"}), INTERNAL),
        (
            "WebFetch",
            json!({"url": "https://example.com", "prompt": "sum"}),
            LIKE_WEB,
        ),
        ("WebSearch", json!({"query": "rust"}), LIKE_WEB),
        ("Workflow", json!({"name": "review"}), INTERNAL),
        (
            "Workflow",
            json!({"name": "review", "remote": true}),
            LIKE_SHELL,
        ),
        (
            "Write",
            json!({"file_path": "notes.md", "content": "x"}),
            EDIT_INSIDE,
        ),
        ("DeferredToolPlaceholder", json!({}), INTERNAL),
        ("mcp__switchboard__list_boards", json!({}), INTERNAL),
        (
            "mcp__switchboard__change_setting",
            json!({"key": "k", "value": 1}),
            [Deny, Allow, Allow, Allow],
        ),
        // The rest of sdk-tools.d.ts.
        (
            "ExitPlanMode",
            json!({"plan": "1. do it"}),
            [Ask, Ask, Ask, Ask],
        ),
        ("Glob", json!({"pattern": "**/*.rs"}), READ),
        ("Grep", json!({"pattern": "fn main", "path": "src"}), READ),
        ("ListMcpResourcesTool", json!({}), LIKE_WEB),
        (
            "ListMcpResourcesTool",
            json!({"server": "switchboard"}),
            INTERNAL,
        ),
        (
            "ReadMcpResourceTool",
            json!({"server": "docs", "uri": "docs://a"}),
            LIKE_WEB,
        ),
        (
            "ReadMcpResourceTool",
            json!({"server": "switchboard", "uri": "sb://a"}),
            INTERNAL,
        ),
        (
            "ReadMcpResourceDirTool",
            json!({"server": "docs", "uri": "docs://"}),
            LIKE_WEB,
        ),
        ("RefreshMcpTools", json!({}), INTERNAL),
        ("TodoWrite", json!({"todos": []}), INTERNAL),
        ("AskUserQuestion", json!({"questions": []}), INTERNAL),
        (
            "SendFeedback",
            json!({"type": "bug", "title": "t", "details": "d"}),
            LIKE_SHELL,
        ),
        (
            "ClaudeDesign",
            json!({"operation": "list", "arguments": {}}),
            LIKE_SHELL,
        ),
        ("Projects", json!({"method": "project_info"}), LIKE_SHELL),
        ("EnterPlanMode", json!({}), INTERNAL),
        (
            "TaskCreate",
            json!({"subject": "s", "description": "d"}),
            INTERNAL,
        ),
        ("TaskGet", json!({"taskId": "1"}), INTERNAL),
        (
            "TaskUpdate",
            json!({"taskId": "1", "status": "completed"}),
            INTERNAL,
        ),
        ("TaskList", json!({}), INTERNAL),
        ("RemoteTrigger", json!({"action": "list"}), LIKE_SHELL),
        ("ShowOnboardingRolePicker", json!({}), INTERNAL),
        ("OfferChromeSetup", json!({}), INTERNAL),
        ("ReadNotifications", json!({}), INTERNAL),
        ("ProposeSkills", json!({"skills": []}), INTERNAL),
        ("ProposeGoal", json!({"condition": "tests pass"}), INTERNAL),
        ("Artifact", json!({"file_path": "page.html"}), LIKE_SHELL),
        ("PushNotification", json!({"message": "done"}), INTERNAL),
        // Older names, and others the binary has.
        ("LS", json!({"path": "."}), READ),
        ("NotebookRead", json!({"notebook_path": "nb.ipynb"}), READ),
        (
            "LSP",
            json!({"operation": "hover", "filePath": "src/main.rs"}),
            READ,
        ),
        ("MultiEdit", edit, EDIT_INSIDE),
        ("BashOutput", json!({"bash_id": "b1"}), INTERNAL),
        ("KillShell", json!({"shell_id": "b1"}), INTERNAL),
        ("TaskOutput", json!({"task_id": "b1"}), INTERNAL),
        ("PowerShell", json!({"command": "dir"}), LIKE_SHELL),
        ("StructuredOutput", json!({}), INTERNAL),
        ("SendUserMessage", json!({"message": "hi"}), INTERNAL),
        // Unknown: another server's MCP tool, a tool newer than the table.
        ("mcp__github__create_issue", json!({}), LIKE_SHELL),
        ("mcp__switchboard__x__create_issue", json!({}), LIKE_SHELL),
        ("mcp__switchboard___list", json!({}), LIKE_SHELL),
        ("mcp__switchboardx__list_boards", json!({}), LIKE_SHELL),
        ("Teleport", json!({}), LIKE_SHELL),
    ]
}

#[test]
fn every_tool_of_the_pinned_cli_has_a_decision_per_level() {
    for (tool, input, wanted) in the_tools() {
        for (level, want) in [ReadOnly, Guarded, Autonomous, Full]
            .into_iter()
            .zip(wanted)
        {
            let (got, rule) = verdict(level, tool, input.clone());
            assert_eq!(got, want, "{level:?} {tool} {input} (rule {rule})");
        }
    }
}

#[test]
fn internal_tools_and_switchboards_own_are_never_asked_about() {
    let internal = |tool: &str, input: Value| {
        [ReadOnly, Guarded, Autonomous, Full].map(|level| verdict(level, tool, input.clone()).1)
    };
    assert_eq!(
        internal(
            "ToolSearch",
            json!({"query": "select:mcp__switchboard__list_boards"})
        ),
        ["internal"; 4]
    );
    assert_eq!(
        internal("mcp__switchboard__read_session", json!({"sessionId": "s"})),
        ["switchboard_mcp"; 4]
    );
    assert_eq!(
        internal("mcp__switchboard__spawn_session", json!({"prompt": "x"})),
        [
            "read_only",
            "switchboard_mcp",
            "switchboard_mcp",
            "switchboard_mcp"
        ]
    );
}

/// The table in the docs names every tool the test above decides.
#[test]
fn the_docs_state_the_decision_for_every_tool() {
    let docs = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/api-guide.md"
    ))
    .unwrap_or_default();
    let start = docs.find("| Tool | Class |").unwrap_or(docs.len());
    let table = &docs[start..];
    let mut names: Vec<&str> = the_tools()
        .into_iter()
        .map(|(tool, _, _)| tool)
        .filter(|tool| !tool.starts_with("mcp__") && *tool != "Teleport")
        .collect();
    names.extend(["mcp__switchboard__<tool>", "mcp__<server>__<tool>"]);
    for name in names {
        assert!(
            table.contains(&format!("`{name}`")),
            "docs/api-guide.md does not state {name}"
        );
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
        (
            "LSP",
            json!({"operation": "hover", "filePath": "~/.aws/config"}),
        ),
        (
            "Monitor",
            json!({"description": "d", "timeout_ms": 1000, "command": "tail -f ~/.ssh/log"}),
        ),
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

/// A worktree Claude Code made lives in `.claude/worktrees/<name>/`; its
/// files are the project's, and its own config is still config.
#[test]
fn a_worktree_under_dot_claude_is_not_config() {
    let write = |path: &str| json!({"file_path": path, "content": "x"});
    let wt = ".claude/worktrees/probe";
    assert_eq!(
        verdict(Guarded, "Write", write(&format!("{wt}/src/main.rs"))),
        (Allow, "guarded_edit_inside")
    );
    for config in [
        format!("{wt}/CLAUDE.md"),
        format!("{wt}/.claude/settings.json"),
        ".claude/settings.json".to_owned(),
    ] {
        assert_eq!(
            verdict(Guarded, "Write", write(&config)),
            (Ask, "config_file_needs_approval"),
            "{config}"
        );
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
    let settings = crate::claude_settings(Path::new("/opt/it's here/switchboard"), false);
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

#[test]
fn a_level_is_read_back_from_its_name() {
    for level in Level::ALL {
        assert_eq!(Level::from_name(level.as_str()), Some(level));
    }
    assert_eq!(Level::from_name("root"), None);
    assert_eq!(Level::from_name("Full"), None);
}
