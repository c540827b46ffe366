//! The store on a real database: trees in depth-first order with dense
//! positions through creates, moves and deletes; the value rules; lists and
//! accounts apart; reminders told once.

use time::Duration;

use super::support::{assert_dense, new, outline, setup, under};
use crate::{NewTask, ReminderReason, TaskError, TaskMove, TaskPatch, TaskState};

fn invalid<T: std::fmt::Debug>(result: Result<T, TaskError>) -> String {
    match result {
        Err(TaskError::Invalid(message)) => message,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn a_list_reads_depth_first_with_dense_positions() {
    let s = setup();
    let t = &s.tasks;
    let a = t.create("acc", new("a"), None).unwrap();
    let b = t.create("acc", new("b"), None).unwrap();
    let a1 = t.create("acc", under("a1", &a), None).unwrap();
    t.create("acc", under("a2", &a), None).unwrap();
    t.create("acc", under("a1x", &a1), None).unwrap();
    let first = NewTask {
        index: Some(0),
        ..under("a0", &a)
    };
    t.create("acc", first, None).unwrap();
    let top = NewTask {
        index: Some(1),
        ..new("between")
    };
    t.create("acc", top, Some("session-1")).unwrap();
    let list = t.list("acc", None).unwrap();
    assert_eq!(
        outline(&list),
        ["a", "  a0", "  a1", "    a1x", "  a2", "between", "b"]
    );
    assert_dense(&list);
    assert_eq!(list[5].source_session_id.as_deref(), Some("session-1"));
    assert_eq!(b.created_at, "2026-03-02T09:00:00.000Z");
    assert!(
        invalid(t.create(
            "acc",
            NewTask {
                index: Some(4),
                ..new("far")
            },
            None
        ))
        .contains("past the end")
    );
}

#[test]
fn values_are_cleaned_and_checked() {
    let s = setup();
    let t = &s.tasks;
    for (bad, says) in [
        (new("   "), "text"),
        (new(&"x".repeat(2001)), "text"),
        (
            NewTask {
                due: Some("2026-02-30".into()),
                ..new("x")
            },
            "due",
        ),
        (
            NewTask {
                due: Some("20260301".into()),
                ..new("x")
            },
            "due",
        ),
        (
            NewTask {
                notes: Some("n".repeat(20_001)),
                ..new("x")
            },
            "notes",
        ),
        (
            NewTask {
                workspace_id: Some(String::new()),
                ..new("x")
            },
            "workspaceId",
        ),
        (
            NewTask {
                parent_id: Some("nobody".into()),
                ..new("x")
            },
            "parentId",
        ),
    ] {
        assert!(invalid(t.create("acc", bad, None)).contains(says));
    }
    let task = t
        .create(
            "acc",
            NewTask {
                notes: Some("line one\r\nline two  \n\n".into()),
                due: Some("2026-03-01".into()),
                ..new("  two\nlines\tand a tab ")
            },
            None,
        )
        .unwrap();
    assert_eq!(task.text, "two lines and a tab");
    assert_eq!(task.notes, "line one\nline two");
    assert_eq!(task.due.as_deref(), Some("2026-03-01"));
    assert_eq!(
        t.create("acc", new(&"é".repeat(2000)), None)
            .unwrap()
            .text
            .chars()
            .count(),
        2000
    );
}

#[test]
fn an_update_changes_only_what_it_names() {
    let s = setup();
    let t = &s.tasks;
    let task = t
        .create(
            "acc",
            NewTask {
                due: Some("2026-03-05".into()),
                notes: Some("keep me".into()),
                ..new("write")
            },
            None,
        )
        .unwrap();
    s.clock.advance(Duration::minutes(5));
    let done = t
        .update(
            "acc",
            &task.id,
            TaskPatch {
                state: Some(TaskState::Done),
                snoozed_until: Some(Some("2026-03-03T10:30:00+02:00".into())),
                ..TaskPatch::default()
            },
        )
        .unwrap();
    assert_eq!(done.state, TaskState::Done);
    assert_eq!(done.done_at.as_deref(), Some("2026-03-02T09:05:00.000Z"));
    assert_eq!(
        done.snoozed_until.as_deref(),
        Some("2026-03-03T08:30:00.000Z")
    );
    assert_eq!(
        (done.text.as_str(), done.notes.as_str()),
        ("write", "keep me")
    );
    assert_eq!(done.due.as_deref(), Some("2026-03-05"));
    assert_eq!(done.updated_at, "2026-03-02T09:05:00.000Z");
    assert_eq!(done.created_at, "2026-03-02T09:00:00.000Z");

    // Done again keeps the first moment; reopening clears it; null clears.
    s.clock.advance(Duration::minutes(5));
    let again = TaskPatch {
        state: Some(TaskState::Done),
        ..TaskPatch::default()
    };
    let still = t.update("acc", &task.id, again).unwrap();
    assert_eq!(still.done_at, done.done_at);
    let reopened = t
        .update(
            "acc",
            &task.id,
            TaskPatch {
                state: Some(TaskState::Dropped),
                due: Some(None),
                snoozed_until: Some(None),
                text: Some(" rewritten ".into()),
                ..TaskPatch::default()
            },
        )
        .unwrap();
    assert_eq!(reopened.done_at, None);
    assert_eq!((reopened.due, reopened.snoozed_until), (None, None));
    assert_eq!(reopened.text, "rewritten");
    assert_eq!(t.get("acc", &task.id).unwrap().state, TaskState::Dropped);

    for bad in [
        TaskPatch {
            text: Some(String::new()),
            ..TaskPatch::default()
        },
        TaskPatch {
            due: Some(Some("tomorrow".into())),
            ..TaskPatch::default()
        },
        TaskPatch {
            snoozed_until: Some(Some("2026-03-03".into())),
            ..TaskPatch::default()
        },
    ] {
        invalid(t.update("acc", &task.id, bad));
    }
    assert!(matches!(
        t.update("other", &task.id, TaskPatch::default()),
        Err(TaskError::NotFound)
    ));
}

#[test]
fn a_patch_body_tells_null_from_absent() {
    let patch: TaskPatch = serde_json::from_str(r#"{"due": null, "text": "x"}"#).unwrap();
    assert_eq!(patch.due, Some(None));
    assert_eq!(patch.snoozed_until, None);
    assert!(serde_json::from_str::<TaskPatch>(r#"{"conflict": false}"#).is_err());
}

#[test]
fn delete_takes_the_subtree_and_closes_the_gap() {
    let s = setup();
    let t = &s.tasks;
    let a = t.create("acc", new("a"), None).unwrap();
    let b = t.create("acc", new("b"), None).unwrap();
    t.create("acc", new("c"), None).unwrap();
    let b1 = t.create("acc", under("b1", &b), None).unwrap();
    t.create("acc", under("b1x", &b1), None).unwrap();
    t.delete("acc", &b.id).unwrap();
    let list = t.list("acc", None).unwrap();
    assert_eq!(outline(&list), ["a", "c"]);
    assert_dense(&list);
    assert!(matches!(t.get("acc", &b1.id), Err(TaskError::NotFound)));
    assert!(matches!(t.delete("other", &a.id), Err(TaskError::NotFound)));
}

#[test]
fn moves_keep_the_tree_whole_and_refuse_loops_and_other_lists() {
    let s = setup();
    let t = &s.tasks;
    let a = t.create("acc", new("a"), None).unwrap();
    let b = t.create("acc", new("b"), None).unwrap();
    let c = t.create("acc", new("c"), None).unwrap();
    let a1 = t.create("acc", under("a1", &a), None).unwrap();
    let a1x = t.create("acc", under("a1x", &a1), None).unwrap();
    let mv = |id: &str, parent: Option<&str>, index| TaskMove {
        id: id.into(),
        parent_id: parent.map(str::to_owned),
        index,
    };

    let list = t.reorder("acc", &mv(&c.id, None, 0)).unwrap();
    assert_eq!(outline(&list), ["c", "a", "  a1", "    a1x", "b"]);
    let list = t.reorder("acc", &mv(&c.id, None, 2)).unwrap();
    assert_eq!(outline(&list), ["a", "  a1", "    a1x", "b", "c"]);
    let list = t.reorder("acc", &mv(&a.id, Some(&b.id), 0)).unwrap();
    assert_eq!(outline(&list), ["b", "  a", "    a1", "      a1x", "c"]);
    assert_dense(&list);
    let list = t.reorder("acc", &mv(&a1.id, None, 1)).unwrap();
    assert_eq!(outline(&list), ["b", "  a", "a1", "  a1x", "c"]);
    assert_dense(&list);

    assert!(invalid(t.reorder("acc", &mv(&a1.id, Some(&a1x.id), 0))).contains("under itself"));
    assert!(invalid(t.reorder("acc", &mv(&a1.id, Some(&a1.id), 0))).contains("under itself"));
    assert!(invalid(t.reorder("acc", &mv(&c.id, None, 4))).contains("past the end"));
    let elsewhere = t
        .create(
            "acc",
            NewTask {
                workspace_id: Some("ws".into()),
                ..new("in a workspace")
            },
            None,
        )
        .unwrap();
    assert!(invalid(t.reorder("acc", &mv(&c.id, Some(&elsewhere.id), 0))).contains("another list"));
    assert!(matches!(
        t.reorder("other", &mv(&c.id, None, 0)),
        Err(TaskError::NotFound)
    ));
    // A refused move changed nothing.
    assert_eq!(
        outline(&t.list("acc", None).unwrap()),
        ["b", "  a", "a1", "  a1x", "c"]
    );
}

#[test]
fn lists_and_accounts_stay_apart() {
    let s = setup();
    let t = &s.tasks;
    t.create("acc", new("mine"), None).unwrap();
    let ws = NewTask {
        workspace_id: Some("ws".into()),
        ..new("team")
    };
    let team = t.create("acc", ws, None).unwrap();
    t.create("other", new("theirs"), None).unwrap();
    assert_eq!(outline(&t.list("acc", None).unwrap()), ["mine"]);
    assert_eq!(outline(&t.list("acc", Some("ws")).unwrap()), ["team"]);
    assert_eq!(team.position, 0);
    assert!(t.list("other", Some("ws")).unwrap().is_empty());
    let wrong_list = NewTask {
        parent_id: Some(team.id.clone()),
        ..new("x")
    };
    assert!(invalid(t.create("acc", wrong_list, None)).contains("another list"));
    let lists: Vec<_> = t
        .lists()
        .unwrap()
        .into_iter()
        .map(|l| (l.account_id, l.workspace_id))
        .collect();
    assert_eq!(
        lists,
        [
            ("acc".into(), None),
            ("acc".into(), Some("ws".into())),
            ("other".into(), None)
        ]
    );
}

#[test]
fn reminders_are_told_once_per_due_date_and_snooze() {
    let s = setup();
    let t = &s.tasks;
    let due = |text: &str, day: &str| NewTask {
        due: Some(day.into()),
        ..new(text)
    };
    let today = t.create("acc", due("today", "2026-03-02"), None).unwrap();
    t.create("acc", due("tomorrow", "2026-03-03"), None)
        .unwrap();
    let finished = t
        .create("acc", due("finished", "2026-03-01"), None)
        .unwrap();
    t.update(
        "acc",
        &finished.id,
        TaskPatch {
            state: Some(TaskState::Done),
            ..TaskPatch::default()
        },
    )
    .unwrap();
    let snoozed = t
        .create("other", due("overdue but snoozed", "2026-02-01"), None)
        .unwrap();
    t.update(
        "other",
        &snoozed.id,
        TaskPatch {
            snoozed_until: Some(Some("2026-03-02T10:00:00Z".into())),
            ..TaskPatch::default()
        },
    )
    .unwrap();

    let now = t.reminders("2026-03-02").unwrap();
    assert_eq!(now.len(), 1);
    assert_eq!(now[0].task.id, today.id);
    assert_eq!(
        (now[0].reason(), now[0].account_id.as_str()),
        (ReminderReason::Due, "acc")
    );
    t.mark_reminded(&now[0]).unwrap();
    assert!(t.reminders("2026-03-02").unwrap().is_empty());

    // The snooze ends: told once, for the snooze, with the due date it covers.
    s.clock.advance(Duration::hours(1));
    let now = t.reminders("2026-03-02").unwrap();
    assert_eq!(now.len(), 1);
    assert_eq!(now[0].reason(), ReminderReason::SnoozeEnded);
    assert_eq!(now[0].due.as_deref(), Some("2026-02-01"));
    t.mark_reminded(&now[0]).unwrap();
    assert!(t.reminders("2026-03-02").unwrap().is_empty());

    // A new due date is a new reminder; the next day brings tomorrow's.
    t.update(
        "acc",
        &today.id,
        TaskPatch {
            due: Some(Some("2026-03-01".into())),
            ..TaskPatch::default()
        },
    )
    .unwrap();
    let texts: Vec<String> = t
        .reminders("2026-03-03")
        .unwrap()
        .into_iter()
        .map(|r| r.task.text)
        .collect();
    assert_eq!(texts, ["today", "tomorrow"]);
    invalid(t.reminders("3 March"));
    t.delete("acc", &today.id).unwrap();
    let gone = t.reminders("2026-03-03").unwrap();
    t.delete("acc", &gone[0].task.id).unwrap();
    assert!(matches!(
        t.mark_reminded(&gone[0]),
        Err(TaskError::NotFound)
    ));
}
