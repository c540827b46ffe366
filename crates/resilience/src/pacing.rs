//! Spacing of starts when several sessions return together (a restore after
//! a crash, a refill batch, the end of a rate limit, a batch restart), so a
//! fleet does not stampede the engines, the API and the machine at once.
//!
//! A batch starts its first session at once and each next one a spacing
//! after the previous; during a warm-up counted from the batch's start the
//! spacing is the first one, after it the after-warm-up one (often shorter,
//! once the first sessions have settled). A single manual start is not a
//! batch and never comes here.

use std::time::Duration;

use time::OffsetDateTime;

/// The spacing used when the setting says 0: two seconds lets an engine
/// process start and send its first request before the next one starts,
/// while 500 returning sessions still all start within 17 minutes.
pub const DEFAULT_SPACING: Duration = Duration::from_secs(2);

/// The longest spacing the settings allow, in seconds.
const MAX_SPACING_SECONDS: f64 = 30.0;

/// The longest warm-up the settings allow, in minutes.
const MAX_WARMUP_MINUTES: i64 = 60;

/// How far apart the starts of one batch go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spacing {
    first: Duration,
    warmup: Duration,
    after: Duration,
}

impl Spacing {
    /// From the three settings' values: `sessionRestartSpacingSeconds`
    /// (0..30, 0 = [`DEFAULT_SPACING`]), `sessionRestartSpacingWarmupMinutes`
    /// (0..60, 0 = no warm-up, so the after-warm-up spacing from the start)
    /// and `sessionRestartSpacingAfterWarmupSeconds` (0..30, 0 = keep the
    /// first spacing). Values outside the ranges are clamped into them, and a
    /// non-number counts as 0, so a hand-edited settings file cannot stall a
    /// batch.
    pub fn from_settings(spacing_s: f64, warmup_min: i64, after_s: f64) -> Spacing {
        let first = seconds(spacing_s).unwrap_or(DEFAULT_SPACING);
        let warmup_minutes = u64::try_from(warmup_min.clamp(0, MAX_WARMUP_MINUTES)).unwrap_or(0);
        Spacing {
            first,
            warmup: Duration::from_secs(warmup_minutes * 60),
            after: seconds(after_s).unwrap_or(first),
        }
    }

    /// When the next session of a batch starts: `now` for the first
    /// (`previous_slot` is `None`); otherwise the previous slot plus the
    /// spacing that applies at the previous slot's time (the first spacing
    /// while it is within the warm-up from `batch_started`, then the
    /// after-warm-up one), but never earlier than `now`, since a slot in the
    /// past would start at once anyway and bunch up with the next.
    pub fn next_slot(
        &self,
        batch_started: OffsetDateTime,
        previous_slot: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> OffsetDateTime {
        let Some(previous) = previous_slot else {
            return now;
        };
        let in_warmup = time::Duration::try_from(self.warmup)
            .ok()
            .and_then(|warmup| batch_started.checked_add(warmup))
            .is_some_and(|warmup_ends| previous < warmup_ends);
        let gap = if in_warmup { self.first } else { self.after };
        let slot = time::Duration::try_from(gap)
            .ok()
            .and_then(|gap| previous.checked_add(gap))
            // Only at the end of time's range; the latest time known will do.
            .unwrap_or(previous);
        slot.max(now)
    }
}

/// A setting in seconds as a spacing, `None` for 0 (or not a number).
fn seconds(value: f64) -> Option<Duration> {
    if value.is_nan() || value <= 0.0 {
        return None;
    }
    Some(Duration::from_secs_f64(value.min(MAX_SPACING_SECONDS)))
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const STARTED: OffsetDateTime = datetime!(2026-11-22 03:10:00 UTC);

    /// The slots of `count` sessions queued at once, each computed when the
    /// previous one started (so `now` is the previous slot).
    fn slots(spacing: &Spacing, count: usize) -> Vec<OffsetDateTime> {
        let mut slots: Vec<OffsetDateTime> = Vec::new();
        for _ in 0..count {
            let previous = slots.last().copied();
            let now = previous.unwrap_or(STARTED);
            slots.push(spacing.next_slot(STARTED, previous, now));
        }
        slots
    }

    fn gaps(slots: &[OffsetDateTime]) -> Vec<f64> {
        slots
            .windows(2)
            .map(|pair| (pair[1] - pair[0]).as_seconds_f64())
            .collect()
    }

    #[test]
    fn the_first_start_of_a_batch_is_now() {
        let spacing = Spacing::from_settings(10.0, 5, 3.0);
        let now = datetime!(2026-11-22 03:10:07 UTC);
        assert_eq!(spacing.next_slot(STARTED, None, now), now);
    }

    #[test]
    fn the_spacing_changes_at_the_end_of_the_warm_up() {
        // 10 s apart for the first minute, then 3 s.
        let spacing = Spacing::from_settings(10.0, 1, 3.0);
        let slots = slots(&spacing, 10);
        assert_eq!(
            gaps(&slots),
            [10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 3.0, 3.0, 3.0]
        );
        // The slot at exactly one minute is past the warm-up: 3 s after it.
        assert_eq!(slots[6], datetime!(2026-11-22 03:11:00 UTC));
        assert_eq!(slots[7], datetime!(2026-11-22 03:11:03 UTC));
    }

    #[test]
    fn no_warm_up_uses_the_after_warm_up_spacing_from_the_start() {
        let spacing = Spacing::from_settings(10.0, 0, 3.0);
        assert_eq!(gaps(&slots(&spacing, 4)), [3.0, 3.0, 3.0]);
    }

    #[test]
    fn an_after_warm_up_spacing_of_zero_keeps_the_first() {
        let spacing = Spacing::from_settings(7.5, 1, 0.0);
        assert_eq!(gaps(&slots(&spacing, 12)), [7.5; 11]);
    }

    #[test]
    fn a_spacing_of_zero_uses_the_built_in_one() {
        let spacing = Spacing::from_settings(0.0, 0, 0.0);
        assert_eq!(gaps(&slots(&spacing, 4)), [2.0, 2.0, 2.0]);
    }

    #[test]
    fn a_slot_already_past_starts_now() {
        let spacing = Spacing::from_settings(5.0, 10, 0.0);
        let previous = datetime!(2026-11-22 03:10:00 UTC);
        // The previous start was held up (say by the memory guard) for a minute.
        let now = datetime!(2026-11-22 03:11:00 UTC);
        assert_eq!(spacing.next_slot(STARTED, Some(previous), now), now);
    }

    #[test]
    fn values_outside_the_ranges_are_clamped() {
        assert_eq!(
            Spacing::from_settings(600.0, 1_000, -4.0),
            Spacing::from_settings(30.0, 60, 30.0)
        );
        assert_eq!(
            Spacing::from_settings(f64::NAN, -5, f64::NAN),
            Spacing::from_settings(0.0, 0, 0.0)
        );
    }
}
