//! The latest use read of each session's tree, kept for lists
//! (`listing.rs`): what it holds and how long it answers.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use time::{Duration, OffsetDateTime};

/// How old a tree's use may be in a list.
pub(crate) const USAGE_FRESH: Duration = Duration::seconds(1);

/// The latest use read of each session's tree, and when.
#[derive(Default)]
pub(crate) struct UsageCache {
    read: Mutex<HashMap<String, (OffsetDateTime, Option<resources::Usage>)>>,
}

impl UsageCache {
    pub(crate) fn lock(
        &self,
    ) -> MutexGuard<'_, HashMap<String, (OffsetDateTime, Option<resources::Usage>)>> {
        // A map of plain values stays consistent between statements.
        self.read.lock().unwrap_or_else(|p| p.into_inner())
    }
}
