//! Where the application keeps the runner listener it bound, and what
//! `GET /runners/listener` says of it: apart from the loop that binds it,
//! so the application's services can hold it without importing that loop.

use std::sync::{Arc, Mutex};

use runners::config::Listener;
use runners::pool::listener::RunnerListener;

/// The listener's state, as `GET /runners/listener` shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListenerState {
    /// Where it listens, while it does.
    pub address: Option<String>,
    /// Its certificate's SHA-256, which runners pin (`--ca-fingerprint`).
    pub fingerprint: Option<String>,
    /// Why it does not listen, when it should.
    pub error: Option<String>,
    /// Whether `[listener]` is in `runners.toml`.
    pub configured: bool,
}

#[derive(Default)]
pub(crate) struct Bound {
    pub(crate) state: ListenerState,
    pub(crate) config: Option<Listener>,
    pub(crate) listener: Option<RunnerListener>,
}

pub(crate) type Shared = Arc<Mutex<Bound>>;
