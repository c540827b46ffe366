//! The state every handler shares: the running application (its services
//! one field away, through `Deref`) and what only HTTP needs.

use std::ops::Deref;
use std::sync::Arc;
use std::time::Duration;

pub use app::StopReason;

#[derive(Clone)]
pub struct AppState {
    /// Shared, not copied: every handler and middleware takes a clone of
    /// the state, and a copy of `App` is dozens of reference counts.
    pub app: Arc<app::App>,
    /// How often an idle stream sends a comment line, so proxies keep it open.
    pub stream_keep_alive: Duration,
}

impl Deref for AppState {
    type Target = app::App;

    fn deref(&self) -> &app::App {
        &self.app
    }
}
