//! A loop's wait for a change of the settings it reads, not of any setting.
//!
//! `PATCH /settings` counts every change on `App::settings_changed`. A loop
//! that looked again at each of them (a database read or two on the
//! blocking pool per loop) took the cores a burst of writes needed: ten
//! loops woke for each `PATCH` of a key none of them reads. A [`Watched`]
//! is woken by every change as before, but only compares what its loop
//! reads (a few accessors, no I/O) and goes back to waiting when that is
//! unchanged.

use settings::SettingsStore;
use tokio::sync::watch;

use crate::services::App;

/// What a loop reads of the settings, as one comparable value.
pub(crate) type Reads<T> = fn(&SettingsStore) -> T;

/// Waits for a change of what `read` returns.
pub(crate) struct Watched<T> {
    changes: watch::Receiver<u64>,
    read: Reads<T>,
    seen: T,
}

impl<T: PartialEq> Watched<T> {
    /// Starts from the values as they are now: a change after this call wakes
    /// [`Watched::changed`], one before it is what the loop's first look reads.
    pub(crate) fn new(app: &App, read: Reads<T>) -> Self {
        let changes = app.settings_changed.subscribe();
        let seen = read(&app.settings);
        Self {
            changes,
            read,
            seen,
        }
    }

    /// Resolves once a change moved what the loop reads. Cancel-safe (its
    /// only await is the watch's), so it may stand in a `select!`. Never
    /// resolves once the application is gone.
    pub(crate) async fn changed(&mut self, settings: &SettingsStore) {
        loop {
            if self.changes.changed().await.is_err() {
                return std::future::pending().await;
            }
            let now = (self.read)(settings);
            if now != self.seen {
                self.seen = now;
                return;
            }
        }
    }
}
