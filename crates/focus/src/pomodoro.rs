//! A pomodoro run as a pure state machine: focus blocks and breaks of a
//! [`Plan`], each phase ending at a moment of the app clock (milliseconds
//! since the Unix epoch), every few blocks a long break, and the run over
//! after its last block.
//!
//! The next phase starts when the last one was due to end, not when the
//! clock was looked at, so a run keeps its rhythm whatever the ticker's
//! delay; after a long stop of the server, the phases that passed meanwhile
//! are stepped over in one [`Advance`] rather than announced one by one.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::FocusError;

const MINUTE_MS: i64 = 60_000;

/// What a run is doing now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Focus,
    ShortBreak,
    LongBreak,
}

impl Phase {
    pub fn is_break(self) -> bool {
        self != Phase::Focus
    }
}

/// The lengths of a run's phases, in minutes, and its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Plan {
    pub focus_minutes: u32,
    pub short_break_minutes: u32,
    pub long_break_minutes: u32,
    /// Focus blocks in the run; it ends when the last one does.
    pub blocks: u32,
    /// A long break follows every this many blocks.
    pub long_break_every: u32,
}

impl Default for Plan {
    /// The classic technique: 25-minute blocks, 5-minute breaks, a
    /// 15-minute break after the fourth block.
    fn default() -> Self {
        Plan {
            focus_minutes: 25,
            short_break_minutes: 5,
            long_break_minutes: 15,
            blocks: 4,
            long_break_every: 4,
        }
    }
}

impl Plan {
    /// Refuses lengths no one means: a zero-minute block, a day-long one.
    pub fn validate(&self) -> Result<(), FocusError> {
        let check = |field: &'static str, value: u32, max: u32| {
            if (1..=max).contains(&value) {
                Ok(())
            } else {
                Err(FocusError::Invalid {
                    field,
                    message: format!("must be from 1 to {max}, not {value}"),
                })
            }
        };
        check("focusMinutes", self.focus_minutes, 240)?;
        check("shortBreakMinutes", self.short_break_minutes, 120)?;
        check("longBreakMinutes", self.long_break_minutes, 120)?;
        check("blocks", self.blocks, 16)?;
        check("longBreakEvery", self.long_break_every, 16)
    }

    fn minutes(&self, phase: Phase) -> i64 {
        i64::from(match phase {
            Phase::Focus => self.focus_minutes,
            Phase::ShortBreak => self.short_break_minutes,
            Phase::LongBreak => self.long_break_minutes,
        })
    }
}

/// A run under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub plan: Plan,
    pub phase: Phase,
    /// The focus block this phase belongs to (a break belongs to the block
    /// before it), from 1.
    pub block: u32,
    pub phase_started_ms: i64,
    pub phase_ends_ms: i64,
    /// Whether the run turns focus mode on for blocks and off for breaks.
    /// Set at the start from the setting (or the request), and cleared for
    /// the rest of the run when the user toggles focus mode by hand.
    pub manages_focus: bool,
    /// The weekday rule that started it, if one did.
    pub rule_id: Option<String>,
}

/// Where a run went when its phase ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advance {
    /// A new phase began; `passed` phases ended unannounced before it
    /// (the server was not looking).
    Phase { run: Run, passed: u32 },
    /// The last block ended: the run is over.
    Finished,
}

impl Run {
    /// A run whose first block starts at `now_ms`.
    pub fn start(plan: Plan, now_ms: i64, manages_focus: bool, rule_id: Option<String>) -> Run {
        Run {
            plan,
            phase: Phase::Focus,
            block: 1,
            phase_started_ms: now_ms,
            phase_ends_ms: now_ms + plan.minutes(Phase::Focus) * MINUTE_MS,
            manages_focus,
            rule_id,
        }
    }

    /// The phase after this one, starting at `at_ms`; `None` after the
    /// last block.
    fn next(&self, at_ms: i64) -> Option<Run> {
        let (phase, block) = match self.phase {
            Phase::Focus if self.block >= self.plan.blocks => return None,
            Phase::Focus if self.block.is_multiple_of(self.plan.long_break_every) => {
                (Phase::LongBreak, self.block)
            }
            Phase::Focus => (Phase::ShortBreak, self.block),
            Phase::ShortBreak | Phase::LongBreak => (Phase::Focus, self.block + 1),
        };
        Some(Run {
            phase,
            block,
            phase_started_ms: at_ms,
            phase_ends_ms: at_ms + self.plan.minutes(phase) * MINUTE_MS,
            ..self.clone()
        })
    }

    /// Where the run is at `now_ms`: `None` while the phase goes on.
    pub fn advance(&self, now_ms: i64) -> Option<Advance> {
        if now_ms < self.phase_ends_ms {
            return None;
        }
        let (mut run, mut passed) = (self.clone(), 0);
        loop {
            let Some(next) = run.next(run.phase_ends_ms) else {
                return Some(Advance::Finished);
            };
            if now_ms < next.phase_ends_ms {
                return Some(Advance::Phase { run: next, passed });
            }
            run = next;
            passed += 1;
        }
    }

    /// Ends the phase now (the user skipped it).
    pub fn skip(&self, now_ms: i64) -> Advance {
        match self.next(now_ms) {
            Some(run) => Advance::Phase { run, passed: 0 },
            None => Advance::Finished,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: i64 = MINUTE_MS;

    fn phase_at(run: &Run, at: i64) -> Option<(Phase, u32)> {
        match run.advance(at) {
            None => Some((run.phase, run.block)),
            Some(Advance::Phase { run, .. }) => Some((run.phase, run.block)),
            Some(Advance::Finished) => None,
        }
    }

    #[test]
    fn blocks_and_breaks_follow_the_plan_and_the_run_ends_after_its_last_block() {
        let run = Run::start(Plan::default(), 0, true, None);
        assert_eq!(phase_at(&run, 24 * M), Some((Phase::Focus, 1)));
        assert_eq!(phase_at(&run, 25 * M), Some((Phase::ShortBreak, 1)));
        assert_eq!(phase_at(&run, 30 * M), Some((Phase::Focus, 2)));
        // Blocks 2 and 3 with their breaks: 30 + 30 + 30 = 90, block 4 until 115.
        assert_eq!(phase_at(&run, 114 * M), Some((Phase::Focus, 4)));
        assert_eq!(phase_at(&run, 115 * M), None);
    }

    #[test]
    fn a_long_break_comes_every_few_blocks() {
        let plan = Plan {
            blocks: 3,
            long_break_every: 2,
            ..Plan::default()
        };
        let run = Run::start(plan, 0, false, None);
        assert_eq!(phase_at(&run, 56 * M), Some((Phase::LongBreak, 2)));
        assert_eq!(phase_at(&run, 70 * M), Some((Phase::Focus, 3)));
    }

    #[test]
    fn a_late_look_keeps_the_rhythm_and_counts_what_it_stepped_over() {
        let run = Run::start(Plan::default(), 0, true, None);
        // Looked at 40 minutes in: the break ran 25–30, block 2 runs 30–55.
        let Some(Advance::Phase { run: now, passed }) = run.advance(40 * M) else {
            panic!("the run goes on");
        };
        assert_eq!((now.phase, now.block, passed), (Phase::Focus, 2, 1));
        assert_eq!((now.phase_started_ms, now.phase_ends_ms), (30 * M, 55 * M));
    }

    #[test]
    fn skipping_starts_the_next_phase_now() {
        let run = Run::start(Plan::default(), 0, true, None);
        let Advance::Phase { run: next, .. } = run.skip(10 * M) else {
            panic!("a break follows the first block");
        };
        assert_eq!(
            (next.phase, next.phase_ends_ms),
            (Phase::ShortBreak, 15 * M)
        );
        let last = Run {
            block: 4,
            ..run.clone()
        };
        assert_eq!(last.skip(10 * M), Advance::Finished);
    }

    #[test]
    fn lengths_out_of_range_name_their_field() {
        let plan = Plan {
            focus_minutes: 0,
            ..Plan::default()
        };
        let error = plan.validate().err().map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("focusMinutes: must be from 1 to 240, not 0")
        );
        assert!(Plan::default().validate().is_ok());
    }
}
