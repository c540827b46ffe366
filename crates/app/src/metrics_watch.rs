//! Counts agent turns for `GET /metrics` as they happen: a session's move to
//! `running` is a turn's start (its engine runs), its next move is the
//! turn's end, `failed` or otherwise, and the time between the two on the
//! application's clock is the turn's duration.
//!
//! The broadcasts, not the `session_turns` table: a scrape would have to
//! walk every turn ever run to count them, and a turn's row opens before its
//! engine starts (sandbox, spawn), so its times are not the engine's run.
//! Only the end of a turn whose start this process saw is counted: a status
//! move alone cannot tell a turn's end from archiving a waiting session.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use metrics::TurnOutcome;
use sessions::Status;
use time::OffsetDateTime;

use crate::publish;
use crate::services::App;

/// Starts the task; it ends when the server is asked to stop. Updates a
/// burst outran are lost to it as to every listener (the log says so): their
/// turns are not counted.
pub(crate) fn start(app: &App) {
    let running = Arc::new(Mutex::new(Running::default()));
    publish::on_session_updates(
        app,
        "metrics",
        |update| update.moved,
        move |app, update| {
            let running = Arc::clone(&running);
            async move {
                let seen = running
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .moved(&update.session_id, update.status, app.clock.now());
                match seen {
                    Some(Seen::Started) => app.metrics.turn_started(),
                    Some(Seen::Ended(outcome, took)) => app.metrics.turn_ended(outcome, took),
                    None => {}
                }
            }
        },
    );
}

/// What a status move was to the turn counts.
#[derive(Debug, PartialEq)]
enum Seen {
    Started,
    Ended(TurnOutcome, Duration),
}

/// The sessions whose engine runs now, with when it started.
#[derive(Default)]
struct Running(HashMap<String, OffsetDateTime>);

impl Running {
    fn moved(&mut self, session_id: &str, to: Status, now: OffsetDateTime) -> Option<Seen> {
        if to == Status::Running {
            self.0.insert(session_id.to_owned(), now);
            return Some(Seen::Started);
        }
        let started = self.0.remove(session_id)?;
        let outcome = if to == Status::Failed {
            TurnOutcome::Failed
        } else {
            TurnOutcome::Finished
        };
        // A manual clock set back is no negative duration.
        let took = Duration::try_from(now - started).unwrap_or_default();
        Some(Seen::Ended(outcome, took))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> OffsetDateTime {
        OffsetDateTime::UNIX_EPOCH + time::Duration::seconds(seconds)
    }

    #[test]
    fn a_turn_runs_from_its_move_to_running_to_its_next_move() {
        let mut running = Running::default();
        assert_eq!(running.moved("a", Status::Starting, at(0)), None);
        assert_eq!(
            running.moved("a", Status::Running, at(1)),
            Some(Seen::Started)
        );
        assert_eq!(
            running.moved("a", Status::WaitingForInput, at(31)),
            Some(Seen::Ended(TurnOutcome::Finished, Duration::from_secs(30)))
        );
        // Archiving the waiting session ends no turn.
        assert_eq!(running.moved("a", Status::Finished, at(40)), None);
        running.moved("a", Status::Running, at(50));
        assert_eq!(
            running.moved("a", Status::Failed, at(45)),
            Some(Seen::Ended(TurnOutcome::Failed, Duration::ZERO))
        );
    }

    #[test]
    fn sessions_are_timed_apart() {
        let mut running = Running::default();
        running.moved("a", Status::Running, at(0));
        running.moved("b", Status::Running, at(10));
        assert_eq!(
            running.moved("b", Status::Starting, at(12)),
            Some(Seen::Ended(TurnOutcome::Finished, Duration::from_secs(2)))
        );
        assert_eq!(
            running.moved("a", Status::Stopped, at(20)),
            Some(Seen::Ended(TurnOutcome::Finished, Duration::from_secs(20)))
        );
    }
}
