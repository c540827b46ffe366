//! Focus mode and pomodoro (docs/focus.md), the domain only.
//!
//! - Focus mode is on or off per account, with when and by whom
//!   ([`FocusState`]). While it is on, the app holds notifications; when it
//!   goes off, [`FocusChange::released_since`] says since when, so they can
//!   be released as one summary.
//! - [`pomodoro`]: a run of focus blocks and breaks ([`Plan`]) as a pure
//!   state machine on the app clock.
//! - [`schedule`]: weekday rules that start runs, on wall time in their
//!   own zone.
//! - [`Focus`] keeps it all in SQLite ([`MIGRATIONS`]), so every open tab
//!   and a restarted server agree, and moves runs on when
//!   [`Focus::tick`] is called.
//!
//! Knows nothing of HTTP, settings or the inbox: the caller passes the
//! settings' values (whether rules may start runs, whether runs manage
//! focus mode) and turns each [`Transition`] into events.
//!
//! ```
//! # use std::sync::Arc;
//! # use focus::{Focus, Plan, Phase, TickSettings, MIGRATIONS};
//! # let dir = tempfile::tempdir().unwrap();
//! # let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
//! # db.migrate(MIGRATIONS).unwrap();
//! let clock = Arc::new(clock::ManualClock::new(time::macros::datetime!(2026-01-05 08:00 UTC)));
//! let focus = Focus::new(db, clock.clone());
//! focus.start("me", Plan::default(), true).unwrap();
//! assert!(focus.focus("me").unwrap().on);
//! clock.advance(time::Duration::minutes(25));
//! let settings = TickSettings { schedule: false, manages_focus: true, focus_allowed: true };
//! let moved = focus.tick(settings).unwrap();
//! assert_eq!(moved.transitions[0].pomodoro.run.as_ref().map(|r| r.phase), Some(Phase::ShortBreak));
//! assert!(!focus.focus("me").unwrap().on);
//! ```

mod error;
pub mod pomodoro;
pub mod schedule;
mod service;

pub use error::FocusError;
pub use pomodoro::{Phase, Plan};
pub use schedule::PomodoroRule;
pub use service::{
    Focus, FocusBy, FocusChange, FocusState, MIGRATIONS, PomodoroState, RunState, TickSettings,
    Ticked, Transition,
};

#[cfg(test)]
mod tests;
