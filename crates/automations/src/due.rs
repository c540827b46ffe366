//! What a schedule runs when its time has come: a pure function of its
//! rule, its missed-run policy, the `next_at` it was waiting for, and now.
//!
//! A tick noticed within [`ON_TIME`] of its moment is on time and runs.
//! Ticks noticed later than that (the server was down, or asleep) are
//! missed: with [`Missed::RunOnce`] they make one catch-up run however
//! many there were, with [`Missed::Skip`] none. Either way no tick gets a
//! second run, and the new `next_at` is the first tick strictly after now.

use jiff::{SignedDuration, Timestamp};

use crate::rule::Rule;
use crate::schedule::Missed;

/// How late a tick may be noticed and still count as on time: the
/// scheduler's own wake-ups lag by up to a minute on a busy machine.
pub const ON_TIME: SignedDuration = SignedDuration::from_mins(5);

/// One run to start now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Due {
    /// The tick it stands for: the latest that has come.
    pub tick: Timestamp,
    /// It stands for ticks noticed late (a catch-up after downtime).
    pub catch_up: bool,
}

/// What to do now, and what to wait for next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The run to start now, if any.
    pub run: Option<Due>,
    /// Ticks that come and go without a run of their own (folded into
    /// `run`, or skipped); counted up to [`crate::rule::MAX_COUNTED`].
    pub passed_over: u64,
    /// The first tick strictly after now; `None` when the rule has ended.
    pub next_at: Option<Timestamp>,
}

/// Decides what a schedule waiting for `next_at` does at `now`.
pub fn decide(rule: &Rule, missed: Missed, next_at: Timestamp, now: Timestamp) -> Decision {
    if next_at > now {
        return Decision {
            run: None,
            passed_over: 0,
            next_at: Some(next_at),
        };
    }
    let scan = rule.scan(next_at, now);
    let Some(latest) = scan.latest else {
        // `next_at` was no tick of the rule (it was changed): nothing is due.
        return Decision {
            run: None,
            passed_over: 0,
            next_at: scan.next,
        };
    };
    let on_time = now.duration_since(latest) <= ON_TIME;
    let (run, passed_over) = match (on_time, missed) {
        (true, _) => (
            Some(Due {
                tick: latest,
                catch_up: scan.due > 1 && missed == Missed::RunOnce,
            }),
            scan.due - 1,
        ),
        (false, Missed::RunOnce) => (
            Some(Due {
                tick: latest,
                catch_up: true,
            }),
            scan.due - 1,
        ),
        (false, Missed::Skip) => (None, scan.due),
    };
    Decision {
        run,
        passed_over,
        next_at: scan.next,
    }
}

#[cfg(test)]
mod tests {
    use jiff::tz::TimeZone;

    use super::*;

    fn ts(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    fn hourly() -> Rule {
        Rule::cron("0 * * * *", &TimeZone::get("Europe/Berlin").unwrap()).unwrap()
    }

    #[test]
    fn before_its_time_nothing_runs_and_the_wait_stays() {
        let next = ts("2026-01-05T10:00:00Z");
        let decision = decide(&hourly(), Missed::RunOnce, next, ts("2026-01-05T09:59:59Z"));
        assert_eq!(
            decision,
            Decision {
                run: None,
                passed_over: 0,
                next_at: Some(next)
            }
        );
    }

    #[test]
    fn on_time_a_tick_runs_once_whatever_the_policy() {
        let next = ts("2026-01-05T10:00:00Z");
        for missed in [Missed::RunOnce, Missed::Skip] {
            for now in [next, ts("2026-01-05T10:04:59Z")] {
                let decision = decide(&hourly(), missed, next, now);
                assert_eq!(
                    decision.run,
                    Some(Due {
                        tick: next,
                        catch_up: false
                    })
                );
                assert_eq!(decision.passed_over, 0);
                assert_eq!(decision.next_at, Some(ts("2026-01-05T11:00:00Z")));
            }
        }
    }

    #[test]
    fn three_ticks_missed_make_one_catch_up_run_or_none() {
        // Down from 09:30 to 12:30: the ticks of 10, 11 and 12 o'clock pass.
        let next = ts("2026-01-05T10:00:00Z");
        let now = ts("2026-01-05T12:30:00Z");
        let once = decide(&hourly(), Missed::RunOnce, next, now);
        assert_eq!(
            once.run,
            Some(Due {
                tick: ts("2026-01-05T12:00:00Z"),
                catch_up: true
            })
        );
        assert_eq!(once.passed_over, 2);
        assert_eq!(once.next_at, Some(ts("2026-01-05T13:00:00Z")));

        let skip = decide(&hourly(), Missed::Skip, next, now);
        assert_eq!(skip.run, None);
        assert_eq!(skip.passed_over, 3);
        assert_eq!(skip.next_at, Some(ts("2026-01-05T13:00:00Z")));
    }

    #[test]
    fn back_just_after_a_tick_it_runs_on_time_and_the_older_ones_fold_or_skip() {
        let next = ts("2026-01-05T10:00:00Z");
        let now = ts("2026-01-05T12:01:00Z");
        let once = decide(&hourly(), Missed::RunOnce, next, now);
        assert_eq!(
            once.run.map(|r| (r.tick, r.catch_up)),
            Some((ts("2026-01-05T12:00:00Z"), true))
        );
        let skip = decide(&hourly(), Missed::Skip, next, now);
        assert_eq!(
            skip.run.map(|r| (r.tick, r.catch_up)),
            Some((ts("2026-01-05T12:00:00Z"), false))
        );
        assert_eq!(skip.passed_over, 2);
    }

    #[test]
    fn the_next_tick_is_always_after_now() {
        let rule = hourly();
        let mut next = ts("2026-01-05T10:00:00Z");
        for minutes in [0, 1, 59, 60, 61, 600, 6_000] {
            let now = next + SignedDuration::from_mins(minutes);
            let decision = decide(&rule, Missed::RunOnce, next, now);
            let after = decision.next_at.unwrap();
            assert!(after > now, "{after} after {now}");
            next = after;
        }
    }
}
