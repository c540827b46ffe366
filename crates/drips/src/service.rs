//! [`Drips`]: the handle the server keeps, over the database and the clock.
//! Its methods live beside the tables they touch: `messages.rs`,
//! `queues.rs`, `deliveries.rs`.

use std::path::PathBuf;
use std::sync::Arc;

use clock::Clock;
use jiff::Timestamp;
use store::Db;

/// Scheduled messages and drips, stored per account.
pub struct Drips {
    pub(crate) db: Arc<Db>,
    pub(crate) clock: Arc<dyn Clock>,
    /// Folders no drip may read (Switchboard's data directory), canonical.
    pub(crate) protected: Vec<PathBuf>,
}

impl Drips {
    /// The caller has applied [`crate::MIGRATIONS`] to `db`. No drip may
    /// take its items from inside a `protected` folder.
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>, protected: Vec<PathBuf>) -> Self {
        // Made canonical once: every read of a folder compares with them.
        let protected = protected
            .into_iter()
            .map(|path| path.canonicalize().unwrap_or(path))
            .collect();
        Self {
            db,
            clock,
            protected,
        }
    }

    pub(crate) fn now(&self) -> Timestamp {
        automations::to_jiff(self.clock.now())
    }
}
