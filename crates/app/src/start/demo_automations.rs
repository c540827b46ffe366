//! The demo's automations, made through the `automations` and `drips`
//! crates as the user's own would be (so each is checked as theirs is):
//! two recipes on the demo engine, a weekly schedule of one (its next run
//! days away, never during a first look), a rule that runs the other when
//! an agent task enters "Ready for agent", a weekly scheduled message and a
//! drip of tips with items waiting.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use automations::{ItemFollowUp, NewRecipe, NewRule, NewSchedule, RuleAction, Trigger};
use drips::{NewDrip, NewItem, NewMessage};

/// What the automations are made for and in.
pub(super) struct DemoAutomations<'a> {
    pub(super) account_id: &'a str,
    /// The folder the recipes run in (a demo repository).
    pub(super) folder: &'a Path,
    /// The agent-tasks board, whose "Ready for agent" status the rule watches.
    pub(super) board_id: Option<&'a str>,
    /// An IANA zone the schedules run in.
    pub(super) time_zone: &'a str,
}

const TIPS: [(&str, &str); 3] = [
    (
        "Work in a worktree",
        "# Work in a worktree\nStart a session with **isolation: worktree** and its changes stay on a branch of their own until you land them.",
    ),
    (
        "Let a rule start the agent",
        "# Let a rule start the agent\nMove an agent task to *Ready for agent* and the demo's rule runs its recipe for it.",
    ),
    (
        "Find your work",
        "# Find your work\nThe Work page shows every branch an agent made: in progress, stranded, waiting on review, landed or turned down.",
    ),
];

/// Makes them all; the first thing refused stops the rest and says why.
pub(super) fn seed(
    db: &Arc<store::Db>,
    clock: &Arc<dyn clock::Clock>,
    data_dir: &Path,
    demo: &DemoAutomations<'_>,
) -> Result<(), String> {
    let automations = automations::Automations::new(db.clone(), clock.clone());
    let folder = demo.folder.to_string_lossy().into_owned();
    let recipe = |name: &str, prompt: &str| {
        automations
            .create_recipe(
                demo.account_id,
                &NewRecipe {
                    name: name.to_owned(),
                    engine: sessions::engines::DEMO_ENGINE.to_owned(),
                    prompt: prompt.to_owned(),
                    cwd: folder.clone(),
                    ..NewRecipe::default()
                },
            )
            .map_err(|e| e.to_string())
    };
    let weekly = recipe(
        "Weekly dependency check",
        "List the Go modules of this repository with a newer minor version and say which upgrades look {{risk}}.",
    )?;
    let task = recipe(
        "Work on an agent task",
        "Do the agent task \"{{item.name}}\" in this repository and summarise what you changed.",
    )?;
    automations
        .create_schedule(
            demo.account_id,
            &NewSchedule {
                recipe_id: weekly.id,
                cron: Some("0 7 * * 1".to_owned()),
                time_zone: demo.time_zone.to_owned(),
                values: BTreeMap::from([("risk".to_owned(), "safe".to_owned())]),
                ..NewSchedule::default()
            },
            false,
        )
        .map_err(|e| e.to_string())?;
    if let Some(board_id) = demo.board_id {
        automations
            .create_rule(
                demo.account_id,
                &NewRule {
                    name: "Ready for agent starts the agent".to_owned(),
                    when: Trigger::ItemStatus {
                        board_id: board_id.to_owned(),
                        status: "Ready for agent".to_owned(),
                        column: None,
                    },
                    then: vec![RuleAction::StartRecipe {
                        recipe_id: task.id,
                        values: BTreeMap::new(),
                        // The agent-tasks board's own statuses.
                        item: Some(ItemFollowUp {
                            running_status: Some("Running".to_owned()),
                            finished_status: Some("Review".to_owned()),
                            failed_status: Some("Failed".to_owned()),
                            ..ItemFollowUp::default()
                        }),
                    }],
                },
                false,
            )
            .map_err(|e| e.to_string())?;
    }
    let drips = drips::Drips::new(db.clone(), clock.clone(), vec![data_dir.to_path_buf()]);
    drips
        .create_message(
            demo.account_id,
            &NewMessage {
                markdown: "# Weekly review\nWhat landed this week, what is stranded, and what waits on review? The Work page has all three.".to_owned(),
                rrule: Some("FREQ=WEEKLY;BYDAY=FR;BYHOUR=16;BYMINUTE=0".to_owned()),
                time_zone: Some(demo.time_zone.to_owned()),
                ..NewMessage::default()
            },
            None,
        )
        .map_err(|e| e.to_string())?;
    let drip = drips
        .create_drip(
            demo.account_id,
            &NewDrip {
                name: "Switchboard tips".to_owned(),
                rrule: Some("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=30".to_owned()),
                time_zone: demo.time_zone.to_owned(),
                ..NewDrip::default()
            },
        )
        .map_err(|e| e.to_string())?;
    for (name, content) in TIPS {
        drips
            .add_item(
                demo.account_id,
                &drip.id,
                &NewItem {
                    name: name.to_owned(),
                    content: content.to_owned(),
                    kind: None,
                },
            )
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
