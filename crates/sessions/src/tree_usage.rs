//! The latest use read of each session's tree, kept for lists
//! (`listing.rs`): what it holds and how long it answers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use time::{Duration, OffsetDateTime};

/// How old a tree's use may be in a list before it is read again.
pub(crate) const USAGE_FRESH: Duration = Duration::seconds(1);

/// How old a tree's use may still be shown while a new read is under way.
/// A list of 1,024 sessions that found them all past [`USAGE_FRESH`] read
/// 4,096 cgroup files before it answered, once a second: the slowest lists
/// by far. It answers with the last use instead, and the read goes on
/// beside it, one at a time.
pub(crate) const USAGE_KEPT: Duration = Duration::seconds(10);

/// The latest use read of each session's tree, and when.
#[derive(Default)]
pub(crate) struct UsageCache {
    read: Mutex<HashMap<String, (OffsetDateTime, Option<resources::Usage>)>>,
    /// A read of stale uses is under way beside the lists.
    refreshing: AtomicBool,
}

impl UsageCache {
    pub(crate) fn lock(
        &self,
    ) -> MutexGuard<'_, HashMap<String, (OffsetDateTime, Option<resources::Usage>)>> {
        // A map of plain values stays consistent between statements.
        self.read.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Claims the one refresh that may run beside the lists; `false` when
    /// one already runs.
    pub(crate) fn start_refresh(&self) -> bool {
        !self.refreshing.swap(true, Ordering::AcqRel)
    }

    /// Ends the claimed refresh when dropped, however the read ended.
    pub(crate) fn ends_refresh(&self) -> EndsRefresh<'_> {
        EndsRefresh(self)
    }
}

/// [`UsageCache::ends_refresh`].
pub(crate) struct EndsRefresh<'a>(&'a UsageCache);

impl Drop for EndsRefresh<'_> {
    fn drop(&mut self) {
        self.0.refreshing.store(false, Ordering::Release);
    }
}
