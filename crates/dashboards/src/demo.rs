//! The dashboard of `switchboard serve --demo`: "Sprint overview" over the
//! demo's sprint boards, with a widget of each kind the Add widget menu
//! offers, laid out as a person would arrange them.
//!
//! Made through [`create`], so it passes every check a client's dashboard
//! does. The widget settings name the column ids the sprint-style presets
//! share (`sprint`, `effort`, `status`, `done_on`), which every board given
//! here has.

use serde_json::{Value, json};
use store::Db;

use crate::dashboards::create;
use crate::error::Result;
use crate::model::{Dashboard, NewDashboard};

/// The demo dashboard's name.
pub const DEMO_DASHBOARD: &str = "Sprint overview";

/// Makes the demo dashboard in `workspace_id`, connected to `board_ids`
/// (boards planned in sprints).
pub fn seed_demo(
    db: &Db,
    account_id: &str,
    workspace_id: &str,
    board_ids: &[&str],
) -> Result<Dashboard> {
    create(
        db,
        account_id,
        &NewDashboard {
            workspace_id: workspace_id.to_owned(),
            name: DEMO_DASHBOARD.to_owned(),
            config: config(board_ids),
        },
    )
}

fn config(board_ids: &[&str]) -> Value {
    let sprint = json!({
        "sprintColumn": "sprint",
        "effortColumn": "effort",
        "doneColumn": "status",
        "dateColumn": "done_on",
    });
    let widget = |id: &str, kind: &str, title: &str, at: [u32; 4], settings: Value| {
        let [x, y, w, h] = at;
        json!({
            "id": id,
            "type": kind,
            "title": title,
            "layout": { "x": x, "y": y, "w": w, "h": h },
            "settings": settings,
        })
    };
    json!({
        "boardIds": board_ids,
        "widgets": [
            widget("n1", "numbers", "Items", [0, 0, 3, 3], json!({ "function": "count" })),
            widget(
                "n2",
                "numbers",
                "Story points",
                [3, 0, 3, 3],
                json!({ "function": "sum", "column": "effort" }),
            ),
            widget(
                "c1",
                "chart",
                "Items by status",
                [6, 0, 6, 6],
                json!({ "chartType": "bar", "groupBy": "status", "function": "count" }),
            ),
            widget("v1", "velocity", "Velocity", [0, 3, 6, 6], sprint.clone()),
            widget("b1", "burndown", "Burndown", [6, 6, 6, 6], sprint.clone()),
            widget(
                "p1",
                "plannedVsUnplanned",
                "Planned vs unplanned",
                [0, 9, 6, 6],
                sprint,
            ),
        ],
        "filters": {},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_dashboard_passes_the_checks_and_shows_every_menu_widget() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        db.migrate(boards::MIGRATIONS).unwrap();
        db.migrate(crate::MIGRATIONS).unwrap();
        let workspace = boards::create_workspace(&db, "a", "Demo").unwrap().id;
        let board = boards::create_board(
            &db,
            "a",
            &boards::NewBoard {
                workspace_id: workspace.clone(),
                name: "Sprints".into(),
                preset: Some("engineering-jira".into()),
                ..Default::default()
            },
        )
        .unwrap();
        let made = seed_demo(&db, "a", &workspace, &[&board.id]).unwrap();
        assert_eq!(
            crate::list(&db, "a", &workspace).unwrap(),
            std::slice::from_ref(&made)
        );
        assert_eq!(made.config["boardIds"], json!([board.id]));
        let kinds: Vec<&str> = made.config["widgets"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|w| w["type"].as_str())
            .collect();
        for kind in [
            "numbers",
            "chart",
            "velocity",
            "plannedVsUnplanned",
            "burndown",
        ] {
            assert!(kinds.contains(&kind), "{kind} missing from {kinds:?}");
        }
        // Every column a widget names is one the sprint preset made.
        let columns: Vec<&str> = board.columns.iter().map(|c| c.id.as_str()).collect();
        let references = [
            "column",
            "groupBy",
            "sprintColumn",
            "effortColumn",
            "doneColumn",
            "dateColumn",
        ];
        for widget in made.config["widgets"].as_array().unwrap() {
            for key in references {
                if let Some(id) = widget["settings"][key].as_str() {
                    assert!(columns.contains(&id), "{id} is not a column of {columns:?}");
                }
            }
        }
    }
}
