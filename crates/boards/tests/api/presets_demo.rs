//! Setup presets and the demo workspace.

use std::collections::{BTreeMap, HashSet};

use ::boards::*;
use serde_json::Value;
use time::macros::date;
use time::{Date, Duration};

use crate::common::{ACCOUNT, OTHER, db, fixture, full_json, is_invalid};

const TODAY: Date = date!(2026 - 03 - 10);

/// Three sessions as the application hands them in: one done, one failed, one waiting.
fn runs() -> Vec<AgentRun> {
    [
        ("s-done", RunOutcome::Done, -3),
        ("s-failed", RunOutcome::Failed, -1),
        ("s-review", RunOutcome::NeedsReview, 0),
    ]
    .into_iter()
    .map(|(id, outcome, days)| AgentRun {
        session_id: id.into(),
        title: format!("Task of {id}"),
        prompt: format!("Prompt of {id}"),
        outcome,
        day: TODAY + Duration::days(days),
    })
    .collect()
}

#[test]
fn every_preset_builds_and_sprint_presets_share_column_ids() {
    let (_dir, db) = db();
    let w = create_workspace(&db, ACCOUNT, "Presets").unwrap();
    let sprint_style = [
        "first-agent-board",
        "jira",
        "linear",
        "clickup",
        "engineering-linear",
        "engineering-jira",
    ];
    for name in presets::PRESETS {
        let board = create_board(
            &db,
            ACCOUNT,
            &NewBoard {
                workspace_id: w.id.clone(),
                name: name.into(),
                preset: Some(name.into()),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !board.views.is_empty() && !board.groups.is_empty(),
            "{name}"
        );
        let status = board
            .columns
            .iter()
            .find(|c| c.id == "status")
            .unwrap_or_else(|| panic!("{name} has no status"));
        let labels = status.settings["labels"].as_array().unwrap();
        assert!(
            labels.iter().any(|l| l["done"] == true),
            "{name} has no done label"
        );
        if sprint_style.contains(&name) {
            for (id, kind) in [
                ("sprint", ColumnType::Text),
                ("effort", ColumnType::Number),
                ("status", ColumnType::Status),
                ("done_on", ColumnType::Date),
                ("owner", ColumnType::People),
                ("due", ColumnType::Date),
            ] {
                let c = board
                    .columns
                    .iter()
                    .find(|c| c.id == id)
                    .unwrap_or_else(|| panic!("{name} lacks {id}"));
                assert_eq!(c.kind, kind, "{name}.{id}");
            }
        }
    }
    let jira = presets::preset("jira").unwrap();
    let status = jira
        .columns
        .iter()
        .find(|c| c.id.as_deref() == Some("status"))
        .unwrap();
    let names: Vec<&str> = status.settings.as_ref().unwrap()["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["To Do", "In Progress", "In Review", "Done"]);
    let titles: Vec<&str> = jira.columns.iter().map(|c| c.title.as_str()).collect();
    for t in ["Story points", "Sprint", "Assignee", "Due date"] {
        assert!(titles.contains(&t), "jira lacks {t}");
    }
    is_invalid(create_board(
        &db,
        ACCOUNT,
        &NewBoard {
            workspace_id: w.id.clone(),
            name: "x".into(),
            preset: Some("monday".into()),
            ..Default::default()
        },
    ));
}

#[test]
fn demo_seeding_fills_an_empty_account_once() {
    let (_dir, db) = db();
    assert!(!has_boards(&db, ACCOUNT).unwrap());
    assert!(seed_demo(&db, ACCOUNT, TODAY, &runs()).unwrap());
    assert!(has_boards(&db, ACCOUNT).unwrap());
    let workspaces = list_workspaces(&db, ACCOUNT).unwrap();
    assert_eq!(workspaces.len(), 1);
    let boards = list_boards(&db, ACCOUNT, &workspaces[0].id).unwrap();
    assert!(boards.len() >= 6);
    let presets: std::collections::HashSet<Vec<String>> = boards
        .iter()
        .map(|b| b.views.iter().map(|v| v.name.clone()).collect())
        .collect();
    assert_eq!(
        presets.len(),
        boards.len(),
        "boards come from different presets"
    );
    let mut sprints = std::collections::HashSet::new();
    let mut dollars = false;
    for b in &boards {
        let body = full_json(&db, ACCOUNT, &b.id);
        let items = body["items"].as_array().unwrap();
        assert!(
            (40..=100).contains(&items.len()),
            "{}: {} items",
            b.name,
            items.len()
        );
        for i in items {
            if let (Some(s), Some(_)) = (
                i["values"]["sprint"].as_str(),
                i["values"]["effort"].as_f64(),
            ) {
                sprints.insert(s.to_owned());
            }
        }
        dollars |= b.columns.iter().any(|c| c.settings["unit"] == "$");
        assert!(
            items.iter().any(|i| i["values"]["done_on"].is_string())
                || !b.columns.iter().any(|c| c.id == "done_on")
        );
    }
    assert!(sprints.len() >= 3 && dollars);
    assert!(list_members(&db, ACCOUNT).unwrap().len() >= 5);
    let before: Vec<_> = boards
        .iter()
        .map(|b| board_etag(&db, ACCOUNT, &b.id).unwrap())
        .collect();
    assert!(!seed_demo(&db, ACCOUNT, TODAY, &runs()).unwrap());
    assert_eq!(list_workspaces(&db, ACCOUNT).unwrap().len(), 1);
    let after: Vec<_> = boards
        .iter()
        .map(|b| board_etag(&db, ACCOUNT, &b.id).unwrap())
        .collect();
    assert_eq!(before, after);

    // An account with any board of its own is never seeded.
    let f = fixture(&db, OTHER);
    assert!(!seed_demo(&db, OTHER, TODAY, &runs()).unwrap());
    assert_eq!(list_workspaces(&db, OTHER).unwrap(), vec![f.workspace]);
}

/// `^(Sprint|Cycle) \d+$`.
fn is_sprint_name(text: &str) -> bool {
    text.split_once(' ').is_some_and(|(word, n)| {
        matches!(word, "Sprint" | "Cycle") && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
    })
}

fn day(value: &Value) -> Option<Date> {
    let text = value.as_str()?;
    Date::parse(
        text.get(..10)?,
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .ok()
}

#[test]
fn the_demo_gives_sprint_widgets_sprints_and_the_inbox_a_handful_of_rows() {
    let (_dir, db) = db();
    let me = ensure_self_member(&db, ACCOUNT, "Me").unwrap();
    assert!(seed_demo(&db, ACCOUNT, TODAY, &runs()).unwrap());

    // The inbox's due-date scan: what is dated on or before today and not done.
    let dated = dated_items(&db, "2026-03-10", None).unwrap();
    let open: Vec<&DatedItem> = dated.iter().filter(|i| !i.done).collect();
    let overdue: Vec<&&DatedItem> = open
        .iter()
        .filter(|i| i.date.as_str() < "2026-03-10")
        .collect();
    assert!(
        (1..=3).contains(&overdue.len()),
        "{} overdue: {overdue:#?}",
        overdue.len()
    );
    assert!(overdue.iter().all(|i| i.people.contains(&me.id)));
    assert_eq!(open.len(), overdue.len(), "nothing is due today");

    let workspace = &list_workspaces(&db, ACCOUNT).unwrap()[0];
    let members: HashSet<String> = list_members(&db, ACCOUNT)
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    let mut sprint_boards = 0;
    let (mut open_dated, mut open_later) = (0, 0);
    let mut links = Vec::new();
    for board in list_boards(&db, ACCOUNT, &workspace.id).unwrap() {
        let body = full_json(&db, ACCOUNT, &board.id);
        let items = body["items"].as_array().unwrap();
        let done_labels: Vec<&str> = board
            .columns
            .iter()
            .find(|c| c.id == "status")
            .unwrap()
            .settings["labels"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["done"] == true)
            .map(|l| l["name"].as_str().unwrap())
            .collect();
        // Per sprint: its first done day and its items' creation days.
        let mut sprints: BTreeMap<String, (Option<Date>, Vec<Date>)> = BTreeMap::new();
        for item in items {
            let values = &item["values"];
            for person in values["owner"].as_array().into_iter().flatten() {
                assert!(members.contains(person.as_str().unwrap()));
            }
            let done = done_labels.contains(&values["status"].as_str().unwrap_or_default());
            if let (false, Some(due)) = (done, day(&values["due"])) {
                open_dated += 1;
                open_later += usize::from(due > TODAY);
            }
            if let Some(session) = values.get("session") {
                links.push((
                    session.as_str().unwrap().to_owned(),
                    item["name"].as_str().unwrap().to_owned(),
                    values["status"].as_str().unwrap().to_owned(),
                ));
            }
            let Some(sprint) = values.get("sprint") else {
                continue;
            };
            let sprint = sprint.as_str().unwrap();
            assert!(is_sprint_name(sprint), "{}: {sprint:?}", board.name);
            let entry = sprints.entry(sprint.to_owned()).or_default();
            if let Some(done_on) = day(&values["done_on"]) {
                entry.0 = Some(entry.0.map_or(done_on, |d: Date| d.min(done_on)));
            }
            entry.1.push(day(&item["createdAt"]).unwrap());
        }
        if sprints.is_empty() {
            assert!(!board.columns.iter().any(|c| c.id == "sprint"));
            continue;
        }
        sprint_boards += 1;
        assert!(sprints.len() >= 5, "{}: {sprints:?}", board.name);
        // The Planned-vs-unplanned widget's rule: made on or before the sprint's first day.
        let (mut planned, mut all) = (0, 0);
        for (first, created) in sprints.values() {
            let first = first.unwrap();
            planned += created.iter().filter(|c| **c <= first).count();
            all += created.len();
        }
        let share = planned as f64 / all as f64;
        assert!(
            (0.70..=0.85).contains(&share),
            "{}: {share} planned",
            board.name
        );
    }
    assert_eq!(sprint_boards, 4);
    assert!(
        open_later * 10 >= open_dated * 9,
        "{open_later} of {open_dated} open items are due later"
    );

    // Each session is linked from one agent task named after it, in its state.
    links.sort();
    let expected: Vec<(String, String, String)> = runs()
        .iter()
        .map(|r| {
            let status = match r.outcome {
                RunOutcome::Done => "Done",
                RunOutcome::Failed => "Failed",
                RunOutcome::NeedsReview => "Review",
            };
            (
                session_link(&r.session_id),
                r.title.clone(),
                status.to_owned(),
            )
        })
        .collect();
    assert_eq!(links, expected);
}
