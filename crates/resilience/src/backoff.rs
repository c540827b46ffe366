//! The gaps between relaunches of a turn that failed from a transient
//! overload: short at first, since most overloads pass within a minute, then
//! doubling so a long outage is not hammered, capped so a session never waits
//! much longer than the outage itself.

use std::time::Duration;

/// The first gap; each later one doubles it.
const FIRST_RETRY_DELAY: Duration = Duration::from_secs(30);

/// The longest gap between two relaunches.
pub const MAX_RETRY_DELAY: Duration = Duration::from_secs(15 * 60);

/// How long to wait before relaunching after an overload, where `attempt`
/// counts the relaunches already made for this turn (0 before the first):
///
/// | `attempt` | gap        |
/// |-----------|------------|
/// | 0         | 30 s       |
/// | 1         | 1 min      |
/// | 2         | 2 min      |
/// | 3         | 4 min      |
/// | 4         | 8 min      |
/// | 5 and on  | 15 min     |
pub fn retry_delay(attempt: u32) -> Duration {
    // 2^5 × 30 s is already past the cap, so larger shifts need not be computed
    // (and could not overflow).
    let doublings = attempt.min(5);
    FIRST_RETRY_DELAY
        .saturating_mul(1 << doublings)
        .min(MAX_RETRY_DELAY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gaps_double_from_thirty_seconds() {
        let gaps: Vec<u64> = (0..5)
            .map(|attempt| retry_delay(attempt).as_secs())
            .collect();
        assert_eq!(gaps, [30, 60, 120, 240, 480]);
    }

    #[test]
    fn the_gaps_stop_growing_at_fifteen_minutes() {
        for attempt in [5, 6, 10, 31, 32, 64, 1_000] {
            assert_eq!(retry_delay(attempt), MAX_RETRY_DELAY, "attempt {attempt}");
        }
    }

    #[test]
    fn the_largest_attempt_does_not_overflow() {
        assert_eq!(retry_delay(u32::MAX), Duration::from_secs(900));
    }
}
