//! The server down across three scheduled times, on a manual clock and a
//! database reopened as after a restart: one catch-up run with
//! `missed: run_once`, none with `missed: skip`, never three; and the next
//! tick always ahead of now.

mod common;

use automations::{Missed, RunState, Schedule, State};
use common::{ME, Rig, ts};

fn hourly(rig: &Rig, name: &str, missed: Missed) -> Schedule {
    let recipe = rig.recipe(name);
    let fields = automations::NewSchedule {
        cron: Some("0 * * * *".into()),
        missed: Some(missed),
        ..Rig::schedule_fields(&recipe, "Europe/Berlin")
    };
    rig.automations.create_schedule(ME, &fields, false).unwrap()
}

#[test]
fn down_across_three_scheduled_times_makes_one_catch_up_run_or_none() {
    let mut rig = Rig::new("2026-01-05T09:30:00Z");
    let once = hourly(&rig, "run once", Missed::RunOnce);
    let skip = hourly(&rig, "skip", Missed::Skip);
    assert_eq!(once.next_at.as_deref(), Some("2026-01-05T10:00:00.000Z"));

    // Down from 09:30 to 12:30: 10:00, 11:00 and 12:00 pass unseen.
    rig.restart_at("2026-01-05T12:30:00Z");
    let starts = rig.automations.due_schedules(rig.now()).unwrap();
    assert_eq!(starts.len(), 1, "{starts:#?}");
    let start = &starts[0];
    assert_eq!(start.run.schedule_id.as_deref(), Some(once.id.as_str()));
    assert_eq!(start.run.state, RunState::Started);
    assert!(start.run.catch_up);
    assert_eq!(
        start.run.scheduled_for.as_deref(),
        Some("2026-01-05T12:00:00.000Z")
    );
    assert_eq!(start.passed_over, 2);
    assert_eq!(start.prompt.as_deref(), Some("Look after switchboard"));

    // Asked again at once, nothing more is due, and both wait for 13:00.
    assert!(rig.automations.due_schedules(rig.now()).unwrap().is_empty());
    for schedule in [&once, &skip] {
        let now = rig.automations.schedule(ME, &schedule.id).unwrap();
        assert_eq!(now.next_at.as_deref(), Some("2026-01-05T13:00:00.000Z"));
        assert_eq!(now.state, State::Active);
    }
    let once_now = rig.automations.schedule(ME, &once.id).unwrap();
    assert_eq!(
        once_now.last_run_at.as_deref(),
        Some("2026-01-05T12:30:00.000Z")
    );
    let skip_now = rig.automations.schedule(ME, &skip.id).unwrap();
    assert_eq!(skip_now.last_run_at, None);

    // Back on time, each runs its 13:00 tick once.
    rig.clock.set(common::at("2026-01-05T13:00:00Z"));
    let on_time = rig.automations.due_schedules(rig.now()).unwrap();
    assert_eq!(on_time.len(), 2);
    assert!(
        on_time
            .iter()
            .all(|s| !s.run.catch_up && s.passed_over == 0)
    );
}

#[test]
fn a_long_downtime_of_a_frequent_schedule_still_makes_one_run() {
    let mut rig = Rig::new("2026-01-05T09:30:00Z");
    let recipe = rig.recipe("every minute");
    let fields = automations::NewSchedule {
        rrule: Some("FREQ=MINUTELY".into()),
        ..Rig::schedule_fields(&recipe, "America/New_York")
    };
    let schedule = rig.automations.create_schedule(ME, &fields, false).unwrap();
    // Three months down: over a hundred thousand ticks.
    rig.restart_at("2026-04-08T09:30:30Z");
    let starts = rig.automations.due_schedules(rig.now()).unwrap();
    assert_eq!(starts.len(), 1);
    assert_eq!(
        starts[0].run.scheduled_for.as_deref(),
        Some("2026-04-08T09:30:00.000Z")
    );
    assert_eq!(starts[0].passed_over, automations::rule::MAX_COUNTED - 1);
    let after = rig.automations.schedule(ME, &schedule.id).unwrap();
    assert_eq!(after.next_at.as_deref(), Some("2026-04-08T09:31:00.000Z"));
}

#[test]
fn the_next_tick_is_always_ahead_of_now() {
    let rig = Rig::new("2026-01-05T09:30:00Z");
    let schedule = hourly(&rig, "hourly", Missed::RunOnce);
    for (minutes, expected_runs) in [(30, 1), (59, 0), (1, 1), (185, 1), (0, 0), (600, 1)] {
        rig.clock.advance(time::Duration::minutes(minutes));
        let starts = rig.automations.due_schedules(rig.now()).unwrap();
        assert_eq!(starts.len(), expected_runs, "after {minutes} more minutes");
        let next = rig.automations.schedule(ME, &schedule.id).unwrap().next_at;
        assert!(ts(next.as_deref().unwrap()) > rig.now());
    }
}

#[test]
fn a_run_recorded_but_never_given_a_session_ends_incomplete_at_start_up() {
    let mut rig = Rig::new("2026-01-05T09:30:00Z");
    hourly(&rig, "hourly", Missed::RunOnce);
    rig.clock.set(common::at("2026-01-05T10:00:00Z"));
    let started = rig.automations.due_schedules(rig.now()).unwrap();
    assert_eq!(started.len(), 1);
    // The server stops before the session starts.
    rig.restart_at("2026-01-05T10:05:00Z");
    let abandoned = rig.automations.abandon_unlaunched().unwrap();
    assert_eq!(abandoned.len(), 1);
    assert_eq!(abandoned[0].id, started[0].run.id);
    assert_eq!(abandoned[0].state, RunState::Incomplete);
    assert_eq!(
        abandoned[0].reason.as_deref(),
        Some(automations::UNLAUNCHED)
    );
    // Once only.
    assert!(rig.automations.abandon_unlaunched().unwrap().is_empty());
}
