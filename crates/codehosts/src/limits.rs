//! The memory of rate limits: until when each host said to send nothing
//! more, kept apart per API and saved key (a host counts a token's requests,
//! and two hosts may share an API with different tokens).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Until when (seconds since the epoch) requests wait, per API and saved
/// key. Clones share one memory. [`crate::Client::new`] uses
/// [`Limits::process`], so every client of a host in the process respects
/// a limit one of them met; [`crate::Client::with_limits`] takes another
/// (a test's own, say).
#[derive(Debug, Clone, Default)]
pub struct Limits {
    until: Arc<Mutex<HashMap<(String, String), i64>>>,
}

impl Limits {
    /// An empty memory of its own.
    pub fn new() -> Limits {
        Limits::default()
    }

    /// The memory the whole process shares.
    pub fn process() -> Limits {
        static SHARED: OnceLock<Limits> = OnceLock::new();
        SHARED.get_or_init(Limits::new).clone()
    }

    /// Until when requests to `api` with `token_key`'s token wait, if that
    /// is after `now`.
    pub fn until(&self, api: &str, token_key: &str, now: i64) -> Option<i64> {
        self.lock()
            .get(&(api.to_owned(), token_key.to_owned()))
            .copied()
            .filter(|until| *until > now)
    }

    /// Remembers a limit; an earlier one than already known does not
    /// shorten the wait (a secondary limit may outlast the hourly reset).
    pub(crate) fn note(&self, api: &str, token_key: &str, until: i64) {
        let mut known = self.lock();
        let entry = known
            .entry((api.to_owned(), token_key.to_owned()))
            .or_insert(until);
        *entry = (*entry).max(until);
    }

    /// Forgets the limit of `api` with `token_key`: for a new token, which
    /// the host counts afresh.
    pub fn forget(&self, api: &str, token_key: &str) {
        self.lock().remove(&(api.to_owned(), token_key.to_owned()));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), i64>> {
        // A panic elsewhere while holding it leaves plain numbers behind.
        self.until.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_holds_until_its_moment_and_only_for_its_key() {
        let limits = Limits::new();
        limits.note("https://api.github.com", "GITHUB_TOKEN", 1_000);
        assert_eq!(
            limits.until("https://api.github.com", "GITHUB_TOKEN", 999),
            Some(1_000)
        );
        assert_eq!(
            limits.until("https://api.github.com", "GITHUB_TOKEN", 1_000),
            None
        );
        assert_eq!(limits.until("https://api.github.com", "OTHER", 999), None);
        limits.note("https://api.github.com", "GITHUB_TOKEN", 500);
        assert_eq!(
            limits
                .clone()
                .until("https://api.github.com", "GITHUB_TOKEN", 999),
            Some(1_000)
        );
        limits.forget("https://api.github.com", "GITHUB_TOKEN");
        assert_eq!(
            limits.until("https://api.github.com", "GITHUB_TOKEN", 999),
            None
        );
    }
}
