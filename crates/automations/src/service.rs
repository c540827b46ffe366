//! [`Automations`]: the handle the server keeps, over the database and the
//! clock. Its methods live beside the tables they touch: `recipes.rs`,
//! `schedules.rs`, `runs.rs`.

use std::sync::Arc;

use clock::Clock;
use jiff::Timestamp;
use store::Db;

use crate::stamp::to_jiff;

/// Recipes, their schedules and their runs, stored per account.
pub struct Automations {
    pub(crate) db: Arc<Db>,
    pub(crate) clock: Arc<dyn Clock>,
}

impl Automations {
    /// The caller has applied [`crate::MIGRATIONS`] to `db`.
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    pub(crate) fn now(&self) -> Timestamp {
        to_jiff(self.clock.now())
    }
}
