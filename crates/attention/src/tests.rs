//! The rule over hand-made sessions and entries: explicit and detected
//! questions, failures, routine turns hidden or shown, sub-agents, and the
//! one row per session.

use inbox::Category;
use serde_json::json;
use sessions::{Entry, EntryBody, Session, Status, Tokens};

use crate::*;

const DEFAULT: Rules = Rules {
    auto_detect_questions: true,
    hide_routine_updates: true,
};
const SHOW_ALL: Rules = Rules {
    auto_detect_questions: true,
    hide_routine_updates: false,
};

fn session(status: Status) -> Session {
    Session {
        id: "s1".into(),
        account_id: "acc".into(),
        engine: "claude".into(),
        engine_kind: "claude".into(),
        engine_version: Some("2.1.330".into()),
        title: Some("Fix the build".into()),
        title_source: None,
        title_history: Vec::new(),
        cwd: "/w".into(),
        prompt: "fix it".into(),
        status,
        archived: false,
        archived_at: None,
        runner: "local".into(),
        awaiting_approval: false,
        agent_driven: false,
        parent_id: None,
        forked_from: None,
        children: Vec::new(),
        turns: 2,
        turn_end: None,
        engine_turns: 0,
        cost_usd: None,
        tree_cost_usd: None,
        tokens: Tokens::default(),
        engine_session_id: None,
        starts_at: None,
        resume_at: None,
        error: None,
        pending_messages: 0,
        max_dollars_per_session: 0.0,
        max_turns_per_session: 0,
        created_at: "t".into(),
        updated_at: "t".into(),
        worktree: None,
        trigger: None,
        project: None,
        permission_level: None,
        stop_reason: None,
        activity: None,
        resources: None,
    }
}

fn entry(turn: i64, body: EntryBody) -> Entry {
    Entry {
        seq: 0,
        turn,
        at: None,
        body,
    }
}

fn reply(turn: i64, text: &str) -> Vec<Entry> {
    vec![
        entry(turn, EntryBody::Text { text: text.into() }),
        entry(turn, EntryBody::Final { text: text.into() }),
    ]
}

fn ask(turn: i64) -> Entry {
    entry(
        turn,
        EntryBody::ToolCall {
            tool_id: Some("toolu_9".into()),
            name: "AskUserQuestion".into(),
            input: json!({"questions": [{
                "question": "Which database should I use?",
                "header": "Database",
                "options": [{"label": "SQLite", "description": "one file"}, {"label": "Postgres"}],
                "multiSelect": false
            }]}),
        },
    )
}

#[test]
fn the_question_tool_asks_whatever_the_settings_say() {
    let mut entries = vec![ask(2)];
    entries.extend(reply(2, "I need a decision before going on."));
    for rules in [
        DEFAULT,
        SHOW_ALL,
        Rules {
            auto_detect_questions: false,
            hide_routine_updates: true,
        },
    ] {
        let notice = turn_ended(&session(Status::WaitingForInput), &entries, rules).unwrap();
        assert_eq!(notice.reason, Reason::Question);
        assert_eq!(
            notice.title,
            "Fix the build asks: Which database should I use?"
        );
        assert_eq!(
            notice.body.as_deref(),
            Some("Which database should I use?\n- SQLite\n- Postgres")
        );
    }
}

#[test]
fn a_question_of_an_earlier_turn_does_not_count() {
    let mut entries = vec![ask(1)];
    entries.extend(reply(2, "All done."));
    assert_eq!(
        turn_ended(&session(Status::WaitingForInput), &entries, DEFAULT),
        None
    );
}

#[test]
fn a_reply_that_asks_is_a_question_only_with_auto_detection() {
    let entries = reply(2, "I fixed the parser.\n\nShould I also update the docs");
    let notice = turn_ended(&session(Status::WaitingForInput), &entries, DEFAULT).unwrap();
    assert_eq!(notice.reason, Reason::Question);
    assert_eq!(
        notice.body.as_deref(),
        Some("Should I also update the docs")
    );
    let off = Rules {
        auto_detect_questions: false,
        hide_routine_updates: true,
    };
    assert_eq!(
        turn_ended(&session(Status::WaitingForInput), &entries, off),
        None
    );
    // Off, with routine updates shown, the same turn is a routine update.
    let off_shown = Rules {
        auto_detect_questions: false,
        hide_routine_updates: false,
    };
    let notice = turn_ended(&session(Status::WaitingForInput), &entries, off_shown).unwrap();
    assert_eq!(notice.reason, Reason::Routine);
}

#[test]
fn questions_are_read_from_the_last_paragraph_outside_code_and_quotes() {
    for asking in [
        "Done. Anything else?",
        "Here it is.\n\nDo you want me to push the branch?",
        "Options:\n\n- keep it\n- drop it\n\nWhich one do you prefer",
        "**Would you like a test too?**",
        "Plan:\n1. Read\n2. Fix\n\nShould I go ahead?\n\n```sh\ncargo test\n```",
        "Do you want `rm -rf target`",
    ] {
        assert!(asks_a_question(asking).is_some(), "{asking:?}");
    }
    for telling in [
        "Fixed it.",
        "What was wrong?\n\nThe test subtracted; it adds now.",
        "Run this:\n\n```\nwhy?\n```",
        "Done.\n\n> Why does it fail?",
        "Call `is_empty?` on it.",
        "",
    ] {
        assert_eq!(asks_a_question(telling), None, "{telling:?}");
    }
}

#[test]
fn a_question_row_is_titled_by_the_question_itself() {
    let entries = reply(
        2,
        "I looked at the failing migration. It drops a column that a view still reads.\n\n\
         I can rewrite the view first. Should I drop the column after that?",
    );
    let notice = turn_ended(&session(Status::WaitingForInput), &entries, DEFAULT).unwrap();
    assert_eq!(notice.reason, Reason::Question);
    assert_eq!(
        notice.title,
        "Fix the build asks: Should I drop the column after that?"
    );
    for (paragraph, question) in [
        ("Which one? The first or the second", "Which one?"),
        (
            "Two ways:\n- keep it\n- drop it\nWhich do you prefer",
            "Which do you prefer",
        ),
        ("Anything else?", "Anything else?"),
        ("Done. Anything else? Say so!", "Anything else?"),
    ] {
        assert_eq!(the_question(paragraph), question, "{paragraph:?}");
    }
}

#[test]
fn routine_turns_are_hidden_by_default_and_shown_when_asked() {
    let entries = reply(2, "Fixed `add`: it subtracted.");
    assert_eq!(
        turn_ended(&session(Status::WaitingForInput), &entries, DEFAULT),
        None
    );
    let notice = turn_ended(&session(Status::WaitingForInput), &entries, SHOW_ALL).unwrap();
    assert_eq!(notice.reason, Reason::Routine);
    assert_eq!(notice.title, "Fix the build finished a turn");
    assert_eq!(notice.body.as_deref(), Some("Fixed `add`: it subtracted."));
}

#[test]
fn a_command_engines_output_is_its_reply() {
    let entries = vec![
        entry(
            2,
            EntryBody::Stdout {
                text: "built\n".into(),
            },
        ),
        entry(
            2,
            EntryBody::Stdout {
                text: "deploy now? [y/n]?\n".into(),
            },
        ),
    ];
    let notice = turn_ended(&session(Status::WaitingForInput), &entries, DEFAULT).unwrap();
    assert_eq!(notice.reason, Reason::Question);
}

#[test]
fn a_failure_names_the_error() {
    let mut failed = session(Status::Failed);
    failed.error = Some("exit status 1\nstderr: boom".into());
    let notice = turn_ended(&failed, &[], DEFAULT).unwrap();
    assert_eq!(notice.reason, Reason::Failed);
    assert_eq!(notice.title, "Fix the build failed: exit status 1");
    assert_eq!(notice.body.as_deref(), Some("exit status 1\nstderr: boom"));
}

#[test]
fn sub_agents_reach_the_inbox_only_with_a_question_or_a_failure() {
    let mut child = session(Status::WaitingForInput);
    child.parent_id = Some("parent".into());
    child.agent_driven = true;
    assert_eq!(turn_ended(&child, &reply(2, "Step done."), SHOW_ALL), None);
    let asked = turn_ended(&child, &reply(2, "Should I continue?"), SHOW_ALL).unwrap();
    assert_eq!(asked.reason, Reason::Question);
    child.status = Status::Failed;
    assert_eq!(
        turn_ended(&child, &[], DEFAULT).unwrap().reason,
        Reason::Failed
    );
}

#[test]
fn other_statuses_and_archived_sessions_need_nothing() {
    for status in [
        Status::Running,
        Status::Finished,
        Status::Stopped,
        Status::Interrupted,
    ] {
        assert_eq!(
            turn_ended(&session(status), &reply(2, "Why?"), SHOW_ALL),
            None
        );
    }
    let mut archived = session(Status::Failed);
    archived.archived = true;
    assert_eq!(turn_ended(&archived, &[], SHOW_ALL), None);
}

#[test]
fn an_untitled_session_is_named_by_its_prompt() {
    let mut untitled = session(Status::Failed);
    untitled.title = None;
    untitled.prompt = format!("\n{}\nmore", "x".repeat(100));
    let notice = turn_ended(&untitled, &[], DEFAULT).unwrap();
    assert!(
        notice
            .title
            .starts_with(&format!("{}… failed", "x".repeat(59))),
        "{}",
        notice.title
    );
}

#[test]
fn every_notice_about_a_session_shares_one_row() {
    let s = session(Status::WaitingForInput);
    let question = turn_ended(&s, &[ask(2)], DEFAULT).unwrap();
    let mut failed = session(Status::Failed);
    failed.error = Some("boom".into());
    let failure = turn_ended(&failed, &[], DEFAULT).unwrap();
    let a = session_row(&s, Category::Session, &question);
    let b = session_row(&failed, Category::Session, &failure);
    assert!(a.dedup_key.is_some());
    assert_eq!(a.dedup_key, b.dedup_key);
    assert_eq!(a.reason.as_deref(), Some("question"));
    assert_eq!(b.reason.as_deref(), Some("failed"));
    assert_eq!(a.source.session_id.as_deref(), Some("s1"));
    assert_eq!(
        a.actions,
        [inbox::Action::OpenSession {
            session_id: "s1".into()
        }]
    );
    let mut other = s.clone();
    other.id = "s2".into();
    assert_ne!(
        session_row(&other, Category::Session, &question).dedup_key,
        a.dedup_key
    );
    // The permission broker's rows are another category: never merged with these.
    assert_ne!(
        session_row(&s, Category::CliPending, &question).dedup_key,
        a.dedup_key
    );
}

#[test]
fn needs_you_is_a_question_or_a_failure_and_never_a_turn_that_did_its_work() {
    let waiting = session(Status::WaitingForInput);
    let mut asked = vec![ask(2)];
    asked.extend(reply(2, "I need a decision before going on."));
    // (entries, rules, verdict): a routine turn needs nobody, even while the inbox shows routine turns.
    let table: [(Vec<Entry>, Rules, Option<Reason>); 6] = [
        (asked, DEFAULT, Some(Reason::Question)),
        (
            reply(2, "Shall I open the pull request?"),
            DEFAULT,
            Some(Reason::Question),
        ),
        (
            reply(2, "Shall I open the pull request?"),
            Rules {
                auto_detect_questions: false,
                hide_routine_updates: true,
            },
            None,
        ),
        (
            reply(2, "Done with the fix: the tests pass."),
            DEFAULT,
            None,
        ),
        (
            reply(2, "Done with the fix: the tests pass."),
            SHOW_ALL,
            None,
        ),
        // A question from an earlier turn is not this turn's.
        (reply(1, "Which one?"), DEFAULT, None),
    ];
    for (entries, rules, verdict) in table {
        assert_eq!(needs_you(&waiting, &entries, rules), verdict, "{entries:?}");
    }
    assert_eq!(
        needs_you(&session(Status::Failed), &[], DEFAULT),
        Some(Reason::Failed)
    );
    let mut archived = session(Status::Failed);
    archived.archived = true;
    assert_eq!(needs_you(&archived, &[], DEFAULT), None);
    for status in [Status::Running, Status::Finished, Status::Stopped] {
        assert_eq!(
            needs_you(&session(status), &reply(2, "Why?"), SHOW_ALL),
            None
        );
    }
}
