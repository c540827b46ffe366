//! The one source of wall time: everything that reads the time or waits for
//! a moment asks a [`Clock`], so tests control time instead of waiting for it.
//!
//! - [`SystemClock`] is the real clock the server runs on.
//! - [`ManualClock`] stands still until a test moves it ([`ManualClock::advance`],
//!   [`ManualClock::set`]); every task asleep until a moment now past wakes.
//!
//! A clock is shared as `Arc<dyn Clock>`. Time is a UTC
//! [`time::OffsetDateTime`]; [`timestamp`] is the stored form (RFC 3339 with
//! milliseconds, `Z`), so stored times sort as text.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use std::sync::Arc;
//! use clock::{Clock, ManualClock};
//! let manual = Arc::new(ManualClock::new(time::macros::datetime!(2026-01-05 09:00 UTC)));
//! let clock: Arc<dyn Clock> = manual.clone();
//! let later = clock.now() + time::Duration::minutes(5);
//! let sleeper = tokio::spawn(async move { clock.sleep_until(later).await });
//! manual.advance(time::Duration::minutes(5));
//! sleeper.await.unwrap();
//! # });
//! ```

use std::future::Future;
use std::pin::Pin;

use time::{Duration, OffsetDateTime};
use tokio::sync::watch;

/// A future a clock returns; boxed so that `Clock` stays object-safe.
pub type Sleep<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// Wall time, and waiting for a moment of it.
pub trait Clock: Send + Sync + 'static {
    /// Now, in UTC.
    fn now(&self) -> OffsetDateTime;

    /// Resolves once [`Clock::now`] has reached `deadline` (at once when it has).
    fn sleep_until(&self, deadline: OffsetDateTime) -> Sleep<'_>;

    /// Resolves once `duration` has passed on this clock.
    fn sleep(&self, duration: Duration) -> Sleep<'_> {
        self.sleep_until(self.now() + duration)
    }

    /// Now, in the stored form ([`timestamp`]).
    fn timestamp(&self) -> String {
        timestamp(self.now())
    }
}

/// RFC 3339 in UTC with milliseconds: `2026-01-05T09:00:00.000Z`.
pub fn timestamp(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        at.millisecond()
    )
}

/// The operating system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

/// The longest single timer: a wall clock can jump (a suspend, an NTP step),
/// so a long wait re-reads it now and then instead of trusting one timer.
const LONGEST_TIMER: std::time::Duration = std::time::Duration::from_secs(60);

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }

    fn sleep_until(&self, deadline: OffsetDateTime) -> Sleep<'_> {
        Box::pin(async move {
            loop {
                let left = deadline - self.now();
                if left <= Duration::ZERO {
                    return;
                }
                tokio::time::sleep(left.unsigned_abs().min(LONGEST_TIMER)).await;
            }
        })
    }
}

/// A clock that moves only when told to: for tests.
#[derive(Debug)]
pub struct ManualClock {
    now: watch::Sender<OffsetDateTime>,
}

impl ManualClock {
    pub fn new(start: OffsetDateTime) -> Self {
        Self {
            now: watch::Sender::new(start),
        }
    }

    /// A manual clock that starts at the system's now (so stored times look real).
    pub fn starting_now() -> Self {
        Self::new(OffsetDateTime::now_utc())
    }

    /// Moves the clock forward by `by`, waking every sleeper whose moment has come.
    pub fn advance(&self, by: Duration) {
        self.now.send_modify(|now| *now += by);
    }

    /// Moves the clock to `at` (backwards too), waking every sleeper whose moment has come.
    pub fn set(&self, at: OffsetDateTime) {
        self.now.send_replace(at);
    }

    /// How many tasks are waiting in [`Clock::sleep_until`] right now, so a
    /// test can wait for a sleeper to be in place before it moves the clock.
    pub fn sleepers(&self) -> usize {
        self.now.receiver_count()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> OffsetDateTime {
        *self.now.borrow()
    }

    fn sleep_until(&self, deadline: OffsetDateTime) -> Sleep<'_> {
        let mut now = self.now.subscribe();
        Box::pin(async move {
            // The sender lives as long as `self`, which outlives this future.
            let _ = now.wait_for(|now| *now >= deadline).await;
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use time::macros::datetime;

    use super::*;

    #[tokio::test]
    async fn a_manual_clock_wakes_only_the_sleepers_whose_moment_came() {
        let manual = Arc::new(ManualClock::new(datetime!(2026-01-05 09:00 UTC)));
        let start = manual.now();
        let spawn = |minutes| {
            let clock = Arc::clone(&manual);
            tokio::spawn(async move { clock.sleep_until(start + Duration::minutes(minutes)).await })
        };
        let (soon, later) = (spawn(1), spawn(10));
        while manual.sleepers() < 2 {
            tokio::task::yield_now().await;
        }
        manual.advance(Duration::minutes(1));
        soon.await.unwrap();
        assert!(!later.is_finished());
        manual.set(start + Duration::hours(1));
        later.await.unwrap();
        manual.sleep_until(start).await;
        assert_eq!(manual.timestamp(), "2026-01-05T10:00:00.000Z");
    }

    #[tokio::test]
    async fn the_system_clock_sleeps_until_a_moment() {
        let clock = SystemClock;
        let deadline = clock.now() + Duration::milliseconds(20);
        clock.sleep_until(deadline).await;
        assert!(clock.now() >= deadline);
        clock.sleep_until(deadline - Duration::hours(1)).await;
    }
}
