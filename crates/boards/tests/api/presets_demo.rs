//! Setup presets and the demo workspace.

use ::boards::*;

use crate::common::{ACCOUNT, OTHER, db, fixture, full_json, is_invalid};

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
    assert!(seed_demo(&db, ACCOUNT).unwrap());
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
    assert!(!seed_demo(&db, ACCOUNT).unwrap());
    assert_eq!(list_workspaces(&db, ACCOUNT).unwrap().len(), 1);
    let after: Vec<_> = boards
        .iter()
        .map(|b| board_etag(&db, ACCOUNT, &b.id).unwrap())
        .collect();
    assert_eq!(before, after);

    // An account with any board of its own is never seeded.
    let f = fixture(&db, OTHER);
    assert!(!seed_demo(&db, OTHER).unwrap());
    assert_eq!(list_workspaces(&db, OTHER).unwrap(), vec![f.workspace]);
}
