//! At most so many deliveries a minute per hook, over a sliding window read
//! from the injected clock (so tests move time instead of waiting for it).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use clock::Clock;
use time::{Duration, OffsetDateTime};

pub const PER_MINUTE: usize = 60;

pub struct RateLimiter {
    clock: Arc<dyn Clock>,
    per_minute: usize,
    /// Per hook id, the moments of the deliveries admitted within the last minute.
    admitted: Mutex<HashMap<String, VecDeque<OffsetDateTime>>>,
}

impl RateLimiter {
    pub fn new(clock: Arc<dyn Clock>, per_minute: usize) -> Self {
        Self {
            clock,
            per_minute,
            admitted: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a delivery to `hook` and says whether it is within the limit;
    /// one refused is not counted, so a flood does not extend itself.
    pub fn admit(&self, hook: &str) -> bool {
        let now = self.clock.now();
        // A panic elsewhere cannot leave the map half-changed in a way that matters.
        let mut admitted = self.admitted.lock().unwrap_or_else(|e| e.into_inner());
        let moments = admitted.entry(hook.to_owned()).or_default();
        while moments
            .front()
            .is_some_and(|t| now - *t >= Duration::MINUTE)
        {
            moments.pop_front();
        }
        if moments.len() >= self.per_minute {
            return false;
        }
        moments.push_back(now);
        true
    }

    /// Drops what is kept for a deleted hook.
    pub fn forget(&self, hook: &str) {
        self.admitted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(hook);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixty_first_in_a_minute_waits_for_the_window_to_move() {
        let clock = Arc::new(clock::ManualClock::starting_now());
        let limiter = RateLimiter::new(clock.clone(), PER_MINUTE);
        for _ in 0..60 {
            assert!(limiter.admit("h"));
            clock.advance(Duration::milliseconds(500));
        }
        assert!(!limiter.admit("h"));
        assert!(limiter.admit("other hook"));
        // 60 s after the first delivery, its slot is free again (and only its).
        clock.advance(Duration::seconds(30));
        assert!(limiter.admit("h"));
        assert!(!limiter.admit("h"));
        limiter.forget("h");
        assert!(limiter.admit("h"));
    }
}
