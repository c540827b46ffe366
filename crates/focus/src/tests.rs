//! The service on a real SQLite file and a manual clock: runs move focus
//! mode with their phases, a hand toggle takes it back for the run, rules
//! start one run a day, and the state survives a new service on the same
//! file (a restarted server, a second tab).

use std::sync::Arc;

use clock::ManualClock;
use time::macros::datetime;

use crate::{
    Focus, FocusBy, FocusError, MIGRATIONS, Phase, Plan, PomodoroRule, TickSettings, Ticked,
    Transition,
};

fn service() -> (Focus, Arc<ManualClock>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let db = store::Db::open(&dir.path().join("db.sqlite")).unwrap_or_else(|e| panic!("{e}"));
    db.migrate(MIGRATIONS).unwrap_or_else(|e| panic!("{e}"));
    // A Monday, 08:00 UTC (09:00 in Berlin).
    let clock = Arc::new(ManualClock::new(datetime!(2026-01-05 08:00 UTC)));
    (Focus::new(Arc::new(db), clock.clone()), clock, dir)
}

fn ticks(schedule: bool, manages_focus: bool) -> TickSettings {
    TickSettings {
        schedule,
        manages_focus,
        focus_allowed: true,
    }
}

/// A tick that must work: an error fails the test rather than reading as
/// "nothing moved".
fn ticked(focus: &Focus, settings: TickSettings) -> Ticked {
    focus.tick(settings).unwrap_or_else(|e| panic!("tick: {e}"))
}

fn moved(focus: &Focus, settings: TickSettings) -> Vec<Transition> {
    ticked(focus, settings).transitions
}

fn phase(focus: &Focus) -> Option<(Phase, u32)> {
    let state = focus.pomodoro("me").ok()?;
    state.run.map(|r| (r.phase, r.block))
}

#[test]
fn a_managing_run_turns_focus_on_for_blocks_and_off_for_breaks() {
    let (focus, clock, _dir) = service();
    let started = focus.start("me", Plan::default(), true).ok();
    assert_eq!(
        started.and_then(|t| t.focus).map(|f| f.state.by),
        Some(Some(FocusBy::Pomodoro))
    );
    clock.advance(time::Duration::minutes(25));
    let after = moved(&focus, ticks(false, true));
    let released = after.first().and_then(|t| t.focus.clone());
    assert_eq!(
        released.and_then(|f| f.released_since).as_deref(),
        Some("2026-01-05T08:00:00.000Z")
    );
    assert_eq!(phase(&focus), Some((Phase::ShortBreak, 1)));
    assert!(!focus.focus("me").map(|f| f.on).unwrap_or(true));
    clock.advance(time::Duration::minutes(5));
    moved(&focus, ticks(false, true));
    assert_eq!(phase(&focus), Some((Phase::Focus, 2)));
    assert!(focus.focus("me").map(|f| f.on).unwrap_or(false));
    // Nothing is due a minute later: no transition.
    clock.advance(time::Duration::minutes(1));
    assert!(moved(&focus, ticks(false, true)).is_empty());
}

#[test]
fn a_hand_toggle_hands_focus_back_to_the_user_for_the_rest_of_the_run() {
    let (focus, clock, _dir) = service();
    focus.start("me", Plan::default(), true).ok();
    let off = focus.set_focus("me", false).ok();
    assert!(off.is_some_and(|c| c.released_since.is_some()));
    clock.advance(time::Duration::minutes(30));
    moved(&focus, ticks(false, true));
    assert_eq!(phase(&focus), Some((Phase::Focus, 2)));
    assert!(
        !focus.focus("me").map(|f| f.on).unwrap_or(true),
        "the run no longer turns it on"
    );
    let run = focus.pomodoro("me").ok().and_then(|p| p.run);
    assert_eq!(run.map(|r| r.manages_focus), Some(false));
}

#[test]
fn a_run_that_does_not_manage_focus_leaves_it_alone() {
    let (focus, clock, _dir) = service();
    focus.set_focus("me", true).ok();
    focus.start("me", Plan::default(), false).ok();
    clock.advance(time::Duration::minutes(25));
    moved(&focus, ticks(false, false));
    let state = focus.focus("me").ok();
    assert_eq!(
        state.map(|s| (s.on, s.by)),
        Some((true, Some(FocusBy::User)))
    );
}

#[test]
fn stopping_ends_the_run_and_the_focus_it_turned_on_but_not_the_users() {
    let (focus, _clock, _dir) = service();
    focus.start("me", Plan::default(), true).ok();
    let stopped = focus.stop("me").ok();
    assert!(stopped.and_then(|t| t.focus).is_some_and(|f| !f.state.on));
    assert_eq!(phase(&focus), None);
    focus.set_focus("me", true).ok();
    focus.start("me", Plan::default(), true).ok();
    focus.stop("me").ok();
    assert!(
        focus.focus("me").map(|f| f.on).unwrap_or(false),
        "the user's own focus stays"
    );
}

#[test]
fn a_second_start_and_a_skip_without_a_run_are_refused() {
    let (focus, _clock, _dir) = service();
    assert!(matches!(focus.skip("me"), Err(FocusError::WrongState(_))));
    focus.start("me", Plan::default(), true).ok();
    assert!(matches!(
        focus.start("me", Plan::default(), true),
        Err(FocusError::WrongState(_))
    ));
    let bad = Plan {
        blocks: 0,
        ..Plan::default()
    };
    assert_eq!(focus.stop("me").ok().map(|t| t.phase_changed), Some(true));
    assert_eq!(
        focus.start("me", bad, true).err().and_then(|e| e.field()),
        Some("blocks")
    );
    assert_eq!(phase(&focus), None, "a refused start changes nothing");
}

#[test]
fn a_weekday_rule_starts_one_run_a_day_only_while_the_schedule_is_on() {
    let (focus, clock, _dir) = service();
    let rule = PomodoroRule {
        id: String::new(),
        weekdays: vec!["mon".into()],
        start: "09:05".into(),
        time_zone: "Europe/Berlin".into(),
        plan: Plan {
            blocks: 1,
            ..Plan::default()
        },
    };
    let rules = focus
        .set_rules("me", vec![rule])
        .map(|p| p.rules)
        .unwrap_or_default();
    assert!(
        rules.first().is_some_and(|r| !r.id.is_empty()),
        "a new rule gets an id"
    );
    clock.advance(time::Duration::minutes(6));
    assert!(
        moved(&focus, ticks(false, true)).is_empty(),
        "the schedule is off"
    );
    let started = moved(&focus, ticks(true, true));
    let run = started.first().and_then(|t| t.pomodoro.run.clone());
    assert_eq!(
        run.as_ref().map(|r| r.phase_started_at.as_str()),
        Some("2026-01-05T08:05:00.000Z")
    );
    assert_eq!(
        run.and_then(|r| r.rule_id),
        rules.first().map(|r| r.id.clone())
    );
    // The one-block run ends at 08:30; the rule does not start another today.
    clock.advance(time::Duration::minutes(25));
    moved(&focus, ticks(true, true));
    assert_eq!(phase(&focus), None);
    clock.advance(time::Duration::minutes(1));
    assert!(moved(&focus, ticks(true, true)).is_empty());
}

#[test]
fn the_state_is_the_files_so_a_new_service_sees_it() {
    let (focus, clock, dir) = service();
    focus.start("me", Plan::default(), true).ok();
    let db = store::Db::open(&dir.path().join("db.sqlite")).unwrap_or_else(|e| panic!("{e}"));
    let again = Focus::new(Arc::new(db), clock);
    assert_eq!(phase(&again), Some((Phase::Focus, 1)));
    assert!(again.focus("me").map(|f| f.on).unwrap_or(false));
    let ticked = ticked(&again, ticks(false, true));
    assert_eq!(ticked.next_phase_end, Some(datetime!(2026-01-05 08:25 UTC)));
}

#[test]
fn turning_the_feature_off_ends_focus_mode_and_keeps_runs_from_turning_it_on() {
    let (focus, clock, _dir) = service();
    focus.start("me", Plan::default(), true).ok();
    let off = TickSettings {
        focus_allowed: false,
        ..ticks(false, true)
    };
    let after = moved(&focus, off);
    let released = after.first().and_then(|t| t.focus.clone());
    assert!(released.is_some_and(|c| !c.state.on && c.released_since.is_some()));
    clock.advance(time::Duration::minutes(30));
    let next_block = moved(&focus, off);
    assert_eq!(phase(&focus), Some((Phase::Focus, 2)));
    assert!(!focus.focus("me").map(|f| f.on).unwrap_or(true));
    // Not turned on and straight off again: nothing to release, nothing said.
    assert!(
        next_block.iter().all(|t| t.focus.is_none()),
        "{next_block:?}"
    );
}
