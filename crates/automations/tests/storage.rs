//! Recipes, schedules and runs in SQLite: names unique per account, an
//! agent's schedule pending until approved, bad input refused naming its
//! field, a recipe whose folder is gone failing its run once with the
//! reason, an agent's recipe marked as such, and a run stalled once and
//! ended once.

mod common;

use std::collections::BTreeMap;

use automations::{AutomationError, Isolation, NewRecipe, NewSchedule, RunEnd, RunState, State};
use common::{ME, Rig, ts};

const OTHER: &str = "account-2";

#[test]
fn recipes_are_kept_per_account_with_unique_names() {
    let rig = Rig::new("2026-01-05T08:00:00Z");
    let recipe = rig.recipe("Nightly");
    assert_eq!(recipe.placeholders, vec!["project"]);
    assert_eq!(recipe.created_at, "2026-01-05T08:00:00.000Z");

    let same_name = NewRecipe {
        name: "nightly".into(),
        engine: "claude".into(),
        prompt: "p".into(),
        cwd: "/tmp".into(),
        ..NewRecipe::default()
    };
    let taken = rig.automations.create_recipe(ME, &same_name).unwrap_err();
    assert!(matches!(taken, AutomationError::NameTaken(_)), "{taken}");
    assert_eq!(taken.field(), Some("name"));
    // Another account may use the name.
    rig.automations.create_recipe(OTHER, &same_name).unwrap();
    assert_eq!(rig.automations.list_recipes(ME).unwrap().len(), 1);
    assert!(matches!(
        rig.automations.recipe(OTHER, &recipe.id),
        Err(AutomationError::RecipeNotFound)
    ));

    rig.clock.advance(time::Duration::minutes(5));
    let replaced = rig
        .automations
        .update_recipe(
            ME,
            &recipe.id,
            &NewRecipe {
                name: "Nightly".into(),
                prompt: "Review {{branch}} of {{project}}".into(),
                isolation: Some(Isolation::Worktree),
                spend_cap_usd: Some(3.0),
                permission_level: Some("guarded".into()),
                ..same_name.clone()
            },
        )
        .unwrap();
    assert_eq!(replaced.placeholders, vec!["branch", "project"]);
    assert_eq!(replaced.created_at, recipe.created_at);
    assert_eq!(replaced.updated_at, "2026-01-05T08:05:00.000Z");
    assert_eq!(rig.automations.recipe(ME, &recipe.id).unwrap(), replaced);

    let json = serde_json::to_value(&replaced).unwrap();
    assert_eq!(json["spendCapUsd"], 3.0);
    assert_eq!(json["isolation"], "worktree");
    assert!(json.get("accountId").is_none());

    rig.automations.delete_recipe(ME, &recipe.id).unwrap();
    assert!(rig.automations.list_recipes(ME).unwrap().is_empty());
}

#[test]
fn an_agents_recipe_stays_marked_as_its_through_a_replacement() {
    let rig = Rig::new("2026-01-05T08:00:00Z");
    let fields = NewRecipe {
        name: "Theirs".into(),
        engine: "claude".into(),
        prompt: "p".into(),
        cwd: "/tmp".into(),
        permission_level: Some("full".into()),
        ..NewRecipe::default()
    };
    let theirs = rig.automations.create_recipe_as(ME, &fields, true).unwrap();
    assert!(theirs.created_by_agent);
    assert!(!rig.recipe("Mine").created_by_agent);
    let replaced = rig
        .automations
        .update_recipe(ME, &theirs.id, &fields)
        .unwrap();
    assert!(replaced.created_by_agent);
    assert_eq!(rig.automations.recipe(ME, &theirs.id).unwrap(), replaced);
    let json = serde_json::to_value(&replaced).unwrap();
    assert_eq!(json["createdByAgent"], true);
    assert_eq!(json["permissionLevel"], "full");
}

#[test]
fn an_agents_schedule_waits_for_approval_and_the_users_is_active_at_once() {
    let rig = Rig::new("2026-01-05T08:00:00Z");
    let recipe = rig.recipe("Nightly");
    let fields = NewSchedule {
        cron: Some("0 9 * * *".into()),
        ..Rig::schedule_fields(&recipe, "Europe/Berlin")
    };
    let by_user = rig.automations.create_schedule(ME, &fields, false).unwrap();
    assert_eq!(by_user.state, State::Active);
    assert_eq!(by_user.next_at.as_deref(), Some("2026-01-06T08:00:00.000Z"));

    let by_agent = rig.automations.create_schedule(ME, &fields, true).unwrap();
    assert_eq!(by_agent.state, State::Pending);
    assert!(by_agent.created_by_agent);
    assert_eq!(by_agent.next_at, None);
    let json = serde_json::to_value(&by_agent).unwrap();
    assert_eq!(json["state"], "pending");
    assert_eq!(json["cron"], "0 9 * * *");
    assert_eq!(json["timeZone"], "Europe/Berlin");
    assert_eq!(json["missed"], "run_once");

    // A pending schedule never runs.
    rig.clock.set(common::at("2026-01-06T08:00:00Z"));
    let starts = rig.automations.due_schedules(rig.now()).unwrap();
    assert_eq!(starts.len(), 1);
    assert_eq!(
        starts[0].run.schedule_id.as_deref(),
        Some(by_user.id.as_str())
    );
    // Its session is titled by the tick it stands for, with its values.
    let berlin = jiff::tz::TimeZone::get("Europe/Berlin").unwrap();
    assert_eq!(
        starts[0].title(&berlin),
        "Nightly — project=switchboard, 6 Jan 09:00"
    );

    // Approved, it waits for its first tick after the approval.
    let approved = rig.automations.approve(ME, &by_agent.id).unwrap();
    assert_eq!(approved.state, State::Active);
    assert_eq!(
        approved.next_at.as_deref(),
        Some("2026-01-07T08:00:00.000Z")
    );
    let again = rig.automations.approve(ME, &by_agent.id).unwrap_err();
    assert!(
        matches!(again, AutomationError::WrongState { .. }),
        "{again}"
    );
    assert!(matches!(
        rig.automations.approve(OTHER, &by_agent.id),
        Err(AutomationError::ScheduleNotFound)
    ));

    // Paused, it stays quiet; resumed, it waits for the next tick.
    let paused = rig.automations.pause(ME, &approved.id).unwrap();
    assert_eq!((paused.state, paused.next_at), (State::Paused, None));
    rig.clock.set(common::at("2026-01-08T10:00:00Z"));
    assert!(
        rig.automations
            .due_schedules(rig.now())
            .unwrap()
            .iter()
            .all(|s| s.run.schedule_id.as_deref() != Some(approved.id.as_str()))
    );
    let resumed = rig.automations.resume(ME, &approved.id).unwrap();
    assert_eq!(resumed.next_at.as_deref(), Some("2026-01-09T08:00:00.000Z"));

    assert_eq!(rig.automations.list_schedules(ME).unwrap().len(), 2);
    rig.automations.delete_schedule(ME, &by_user.id).unwrap();
    assert_eq!(rig.automations.list_schedules(ME).unwrap().len(), 1);
    // Deleting the recipe deletes its schedules.
    rig.automations.delete_recipe(ME, &recipe.id).unwrap();
    assert!(rig.automations.list_schedules(ME).unwrap().is_empty());
}

#[test]
fn bad_schedules_are_refused_naming_the_field() {
    let rig = Rig::new("2026-01-05T08:00:00Z");
    let recipe = rig.recipe("Nightly");
    let base = Rig::schedule_fields(&recipe, "Europe/Berlin");
    let cases = [
        (
            NewSchedule {
                cron: Some("61 * * * *".into()),
                ..base.clone()
            },
            "cron",
        ),
        (
            NewSchedule {
                rrule: Some("FREQ=DAILY;BYDAY=XX".into()),
                ..base.clone()
            },
            "rrule",
        ),
        (
            NewSchedule {
                cron: Some("0 9 * * *".into()),
                time_zone: "Europe/Atlantis".into(),
                ..base.clone()
            },
            "timeZone",
        ),
        (
            NewSchedule {
                cron: Some("0 9 * * *".into()),
                recipe_id: "no-such-recipe".into(),
                ..base.clone()
            },
            "recipeId",
        ),
        (
            NewSchedule {
                cron: Some("0 9 * * *".into()),
                values: BTreeMap::new(),
                ..base.clone()
            },
            "values",
        ),
    ];
    for (fields, field) in cases {
        let error = rig
            .automations
            .create_schedule(ME, &fields, false)
            .unwrap_err();
        assert_eq!(error.field(), Some(field), "{error}");
    }
    assert!(rig.automations.list_schedules(ME).unwrap().is_empty());
    // An unknown JSON field is refused too (the server's 400).
    let unknown: Result<NewSchedule, _> = serde_json::from_value(serde_json::json!({
        "recipeId": recipe.id, "cron": "0 9 * * *", "timeZone": "UTC", "when": "now"
    }));
    assert!(unknown.is_err());
}

#[test]
fn a_recipe_whose_folder_is_gone_fails_its_run_once_with_the_reason() {
    let rig = Rig::new("2026-01-05T08:00:00Z");
    let recipe = rig.recipe("Nightly");
    let fields = NewSchedule {
        cron: Some("0 9 * * *".into()),
        ..Rig::schedule_fields(&recipe, "Europe/Berlin")
    };
    let schedule = rig.automations.create_schedule(ME, &fields, false).unwrap();
    std::fs::remove_dir_all(&recipe.cwd).unwrap();

    rig.clock.set(common::at("2026-01-06T08:00:00Z"));
    let starts = rig.automations.due_schedules(rig.now()).unwrap();
    assert_eq!(starts.len(), 1);
    let failed = &starts[0];
    assert_eq!(failed.prompt, None);
    assert_eq!(failed.run.state, RunState::Failed);
    assert!(failed.run.state.needs_attention());
    let reason = failed.run.reason.as_deref().unwrap();
    assert!(reason.contains("no longer exists"), "{reason}");
    assert!(reason.contains(&recipe.cwd), "{reason}");
    assert_eq!(
        failed.run.ended_at.as_deref(),
        Some("2026-01-06T08:00:00.000Z")
    );

    // Reported again (say, by a session watcher), it does not end twice.
    let twice = rig
        .automations
        .finish_run(&failed.run.id, RunEnd::Failed, Some("again"))
        .unwrap();
    assert_eq!(twice, None);
    let runs = rig.automations.list_runs(ME, &recipe.id, 10).unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].reason.as_deref(), Some(reason));
    // Nothing else is due until the next tick.
    assert!(rig.automations.due_schedules(rig.now()).unwrap().is_empty());
    let after = rig.automations.schedule(ME, &schedule.id).unwrap();
    assert_eq!(after.next_at.as_deref(), Some("2026-01-07T08:00:00.000Z"));

    // By hand too, the run is recorded failed with the reason.
    let values = [("project".to_owned(), "x".to_owned())].into();
    let by_hand = rig.automations.run_now(ME, &recipe.id, &values).unwrap();
    assert_eq!(by_hand.run.state, RunState::Failed);
    assert_eq!(by_hand.run.schedule_id, None);
}

#[test]
fn a_run_by_hand_fills_the_prompt_ties_its_session_and_ends_once() {
    let rig = Rig::new("2026-01-05T08:00:00Z");
    let recipe = rig.recipe("Nightly");
    let missing = rig
        .automations
        .run_now(ME, &recipe.id, &BTreeMap::new())
        .unwrap_err();
    assert_eq!(missing.field(), Some("values"));
    assert_eq!(
        missing.to_string(),
        "no value for the placeholder {{project}}"
    );
    assert!(
        rig.automations
            .list_runs(ME, &recipe.id, 10)
            .unwrap()
            .is_empty()
    );

    let values = [("project".to_owned(), "switchboard".to_owned())].into();
    let start = rig.automations.run_now(ME, &recipe.id, &values).unwrap();
    assert_eq!(start.prompt.as_deref(), Some("Look after switchboard"));
    assert_eq!(start.run.state, RunState::Started);
    assert_eq!(start.recipe, recipe);
    // Its session says which run it is, not only which recipe.
    assert_eq!(start.about.as_deref(), Some("project=switchboard"));
    assert_eq!(
        start.title(&jiff::tz::TimeZone::UTC),
        "Nightly — project=switchboard, 5 Jan 08:00"
    );

    let tied = rig
        .automations
        .attach_session(&start.run.id, "session-9", Some(2.5))
        .unwrap();
    assert_eq!(tied.session_id.as_deref(), Some("session-9"));
    assert_eq!(tied.spend_cap_usd, Some(2.5));
    assert_eq!(
        rig.automations.run_for_session("session-9").unwrap(),
        Some(tied.clone())
    );
    assert_eq!(rig.automations.started_runs().unwrap(), vec![tied]);

    // Stalled once, and not ended by it.
    rig.clock.advance(time::Duration::minutes(20));
    let stalled = rig
        .automations
        .mark_stalled(&start.run.id, "waited for you for 30 minutes")
        .unwrap()
        .unwrap();
    assert_eq!(stalled.state, RunState::Stalled);
    assert!(stalled.state.needs_attention());
    assert_eq!(stalled.ended_at, None);
    assert_eq!(
        rig.automations
            .mark_stalled(&start.run.id, "again")
            .unwrap(),
        None
    );
    assert!(rig.automations.started_runs().unwrap().is_empty());
    let json = serde_json::to_value(&stalled).unwrap();
    assert_eq!(json["state"], "stalled");
    assert_eq!(json["spendCapUsd"], 2.5);

    // A stalled run still finishes, keeping why it stalled, and ends once.
    rig.clock.advance(time::Duration::minutes(5));
    let ended = rig
        .automations
        .finish_run(&start.run.id, RunEnd::Finished, None)
        .unwrap()
        .unwrap();
    assert_eq!(ended.state, RunState::Finished);
    assert_eq!(
        ended.reason.as_deref(),
        Some("waited for you for 30 minutes")
    );
    assert_eq!(ended.ended_at.as_deref(), Some("2026-01-05T08:25:00.000Z"));
    assert_eq!(
        rig.automations
            .finish_run(&start.run.id, RunEnd::Failed, Some("late"))
            .unwrap(),
        None
    );
    assert_eq!(
        rig.automations
            .mark_stalled(&start.run.id, "after the end")
            .unwrap(),
        None
    );
    assert_eq!(rig.automations.run(ME, &start.run.id).unwrap(), ended);
    assert!(matches!(
        rig.automations.run(OTHER, &start.run.id),
        Err(AutomationError::RunNotFound)
    ));
    assert!(matches!(
        rig.automations
            .finish_run("no-such-run", RunEnd::Finished, None),
        Err(AutomationError::RunNotFound)
    ));
    assert!(matches!(
        rig.automations.mark_stalled("no-such-run", "x"),
        Err(AutomationError::RunNotFound)
    ));
    let json = serde_json::to_value(&ended).unwrap();
    assert_eq!(json["state"], "finished");
    assert_eq!(json["sessionId"], "session-9");
    assert_eq!(
        ts(json["startedAt"].as_str().unwrap()),
        ts("2026-01-05T08:00:00Z")
    );
}

#[test]
fn a_schedule_that_can_no_longer_be_read_fails_one_run_and_pauses() {
    let rig = Rig::new("2026-01-05T08:00:00Z");
    let recipe = rig.recipe("Nightly");
    let fields = NewSchedule {
        cron: Some("0 9 * * *".into()),
        ..Rig::schedule_fields(&recipe, "Europe/Berlin")
    };
    let schedule = rig.automations.create_schedule(ME, &fields, false).unwrap();
    // As if a newer time zone database had dropped the zone.
    let db = store::Db::open(&rig.dir.path().join("db.sqlite")).unwrap();
    db.write(|tx| {
        tx.execute(
            "UPDATE schedules SET time_zone = 'Gone/Zone' WHERE id = ?1",
            [&schedule.id],
        )
    })
    .unwrap();
    rig.clock.set(common::at("2026-01-06T08:00:00Z"));
    let starts = rig.automations.due_schedules(rig.now()).unwrap();
    assert_eq!(starts.len(), 1);
    assert_eq!(starts[0].run.state, RunState::Failed);
    let reason = starts[0].run.reason.as_deref().unwrap();
    assert!(reason.contains("Gone/Zone"), "{reason}");
    let paused = rig.automations.schedule(ME, &schedule.id).unwrap();
    assert_eq!((paused.state, paused.next_at), (State::Paused, None));
    rig.clock.advance(time::Duration::days(2));
    assert!(rig.automations.due_schedules(rig.now()).unwrap().is_empty());
}
