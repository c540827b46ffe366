//! The polite polling policy, as pure functions of what a feed and its
//! server said: how often a feed is polled (from how often it published in
//! the last week, between 5 minutes and 24 hours, raised to its own `<ttl>`,
//! `Cache-Control: max-age` or `Expires`), how long a 429 or 503 asks to
//! wait (`Retry-After`), how far a failing feed is backed off, and a jitter
//! drawn from the feed's id (stable, so tests and restarts agree) that keeps
//! feeds added together from being polled together forever.

use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime, PrimitiveDateTime};

/// The most often a feed is polled.
pub const MIN_INTERVAL: Duration = Duration::minutes(5);
/// The least often a feed is polled, whatever it or its server says.
pub const MAX_INTERVAL: Duration = Duration::hours(24);
/// A failing feed's first wait; each further failure doubles it.
pub const FIRST_BACKOFF: Duration = Duration::minutes(5);
/// The largest jitter added to a poll's moment.
pub const MAX_JITTER: Duration = Duration::minutes(10);

/// What a feed's answer says about its own pace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hints {
    /// RSS `<ttl>`, minutes.
    pub ttl_minutes: Option<u32>,
    /// `Cache-Control: max-age`.
    pub max_age: Option<Duration>,
    /// `Expires`.
    pub expires: Option<OffsetDateTime>,
}

/// A week over the number of entries published in it, clamped: a feed that
/// published nothing in the last week is polled daily.
pub fn publishing_interval(published_last_week: usize) -> Duration {
    if published_last_week == 0 {
        return MAX_INTERVAL;
    }
    let count = i64::try_from(published_last_week).unwrap_or(i64::MAX);
    let every = Duration::seconds(Duration::weeks(1).whole_seconds() / count);
    every.clamp(MIN_INTERVAL, MAX_INTERVAL)
}

/// The interval until the next poll: the publishing interval raised to
/// what the feed and its server ask, never past [`MAX_INTERVAL`].
pub fn interval(published_last_week: usize, hints: Hints, now: OffsetDateTime) -> Duration {
    let mut interval = publishing_interval(published_last_week);
    if let Some(ttl) = hints.ttl_minutes {
        interval = interval.max(Duration::minutes(i64::from(ttl)));
    }
    if let Some(max_age) = hints.max_age {
        interval = interval.max(max_age);
    }
    if let Some(expires) = hints.expires {
        interval = interval.max(expires - now);
    }
    interval.min(MAX_INTERVAL)
}

/// `max-age` of a `Cache-Control` value (`s-maxage` is a shared cache's).
pub fn max_age(cache_control: &str) -> Option<Duration> {
    cache_control.split(',').find_map(|directive| {
        let (name, value) = directive.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("max-age")
            .then(|| value.trim().trim_matches('"').parse::<i64>().ok())
            .flatten()
            .filter(|seconds| *seconds >= 0)
            .map(Duration::seconds)
    })
}

/// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`, the only form servers
/// send today).
pub fn http_date(value: &str) -> Option<OffsetDateTime> {
    let format = time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    PrimitiveDateTime::parse(value.trim(), format)
        .ok()
        .map(PrimitiveDateTime::assume_utc)
}

/// How long a `Retry-After` (seconds, or an HTTP date) asks to wait; a date
/// in the past asks for nothing.
pub fn retry_after(value: &str, now: OffsetDateTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<i64>() {
        return (seconds >= 0).then(|| Duration::seconds(seconds));
    }
    http_date(value).map(|at| (at - now).max(Duration::ZERO))
}

/// The wait after the `failures`-th failure in a row: 5 minutes, doubled
/// for each further one, at most [`MAX_INTERVAL`].
pub fn backoff(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(20);
    (FIRST_BACKOFF * 2_i32.pow(doublings)).min(MAX_INTERVAL)
}

/// A share of `interval` (a tenth, at most [`MAX_JITTER`]) drawn from the
/// feed's id: the same feed always gets the same jitter.
pub fn jitter(feed_id: &str, interval: Duration) -> Duration {
    let span = (interval / 10_i32).min(MAX_JITTER).whole_seconds();
    if span <= 0 {
        return Duration::ZERO;
    }
    let digest = Sha256::digest(feed_id.as_bytes());
    let mut first = [0_u8; 8];
    first.copy_from_slice(&digest[..8]);
    let draw = u64::from_le_bytes(first) % u64::try_from(span).unwrap_or(1);
    Duration::seconds(i64::try_from(draw).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-03-10 12:00 UTC);

    #[test]
    fn the_interval_follows_the_publishing_rate_within_bounds() {
        assert_eq!(publishing_interval(0), MAX_INTERVAL);
        assert_eq!(publishing_interval(7), Duration::days(1));
        assert_eq!(publishing_interval(14), Duration::hours(12));
        assert_eq!(publishing_interval(100_000), MIN_INTERVAL);
    }

    #[test]
    fn ttl_max_age_and_expires_raise_the_interval_but_never_past_a_day() {
        let busy = 10_000;
        assert_eq!(interval(busy, Hints::default(), NOW), MIN_INTERVAL);
        let ttl = Hints {
            ttl_minutes: Some(60),
            ..Hints::default()
        };
        assert_eq!(interval(busy, ttl, NOW), Duration::hours(1));
        let cached = Hints {
            max_age: Some(Duration::minutes(30)),
            ..Hints::default()
        };
        assert_eq!(interval(busy, cached, NOW), Duration::minutes(30));
        let expires = Hints {
            expires: Some(NOW + Duration::hours(2)),
            ..Hints::default()
        };
        assert_eq!(interval(busy, expires, NOW), Duration::hours(2));
        let week = Hints {
            ttl_minutes: Some(7 * 24 * 60),
            ..Hints::default()
        };
        assert_eq!(interval(busy, week, NOW), MAX_INTERVAL);
        // A hint never makes a slow feed polled more often.
        assert_eq!(interval(7, ttl, NOW), Duration::days(1));
    }

    #[test]
    fn cache_headers_and_retry_after_are_read() {
        assert_eq!(
            max_age("public, max-age=600, must-revalidate"),
            Some(Duration::minutes(10))
        );
        assert_eq!(max_age("no-cache"), None);
        assert_eq!(max_age("max-age=-4"), None);
        assert_eq!(
            http_date("Tue, 10 Mar 2026 14:00:00 GMT"),
            Some(datetime!(2026-03-10 14:00 UTC))
        );
        assert_eq!(http_date("yesterday"), None);
        assert_eq!(retry_after("120", NOW), Some(Duration::minutes(2)));
        assert_eq!(
            retry_after("Tue, 10 Mar 2026 13:00:00 GMT", NOW),
            Some(Duration::hours(1))
        );
        assert_eq!(
            retry_after("Tue, 10 Mar 2026 11:00:00 GMT", NOW),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon", NOW), None);
    }

    #[test]
    fn failures_back_off_exponentially_up_to_a_day() {
        assert_eq!(backoff(1), Duration::minutes(5));
        assert_eq!(backoff(2), Duration::minutes(10));
        assert_eq!(backoff(4), Duration::minutes(40));
        assert_eq!(backoff(12), MAX_INTERVAL);
        assert_eq!(backoff(u32::MAX), MAX_INTERVAL);
    }

    #[test]
    fn jitter_is_stable_per_feed_and_bounded() {
        let a = jitter("feed-a", Duration::hours(1));
        assert_eq!(a, jitter("feed-a", Duration::hours(1)));
        assert!(a < Duration::minutes(6), "{a}");
        assert!(jitter("feed-b", Duration::days(1)) < MAX_JITTER);
        let spread: std::collections::HashSet<i64> = (0..50)
            .map(|i| jitter(&format!("feed-{i}"), Duration::days(1)).whole_seconds())
            .collect();
        assert!(spread.len() > 40, "{spread:?}");
    }
}
