//! Kept-alive HTTP/1.1 connections to apps, a few per target, so a request
//! through the proxy costs no new connection. A connection goes back only
//! once its response body has been read to the end.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::client::conn::http1::SendRequest;
use tokio::time::Instant;

/// Idle connections kept per target; more are closed.
const IDLE_PER_TARGET: usize = 16;

/// How long an idle connection is trusted. Node closes idle connections
/// after 5 s; one about to be closed by the app could take a request with
/// it, so connections are retired before that.
const IDLE_FOR_AT_MOST: Duration = Duration::from_secs(3);

/// A target as connections are kept: its runner (`None` here) and port.
pub type Key = (Option<String>, u16);

struct Idle {
    sender: SendRequest<Incoming>,
    since: Instant,
}

#[derive(Default)]
pub struct Pool {
    idle: Mutex<HashMap<Key, Vec<Idle>>>,
}

impl Pool {
    /// The most recently used live connection to `key`, if any.
    pub fn take(&self, key: &Key) -> Option<SendRequest<Incoming>> {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        let kept = idle.get_mut(key)?;
        let now = Instant::now();
        kept.retain(|entry| {
            !entry.sender.is_closed() && now.duration_since(entry.since) < IDLE_FOR_AT_MOST
        });
        let found = kept.pop().map(|entry| entry.sender);
        if kept.is_empty() {
            idle.remove(key);
        }
        found
    }

    fn give_back(&self, key: Key, sender: SendRequest<Incoming>) {
        if sender.is_closed() {
            return;
        }
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if !idle.contains_key(&key) {
            // A new target: forget the ones whose connections all closed (apps
            // that stopped), so targets do not pile up over a long run.
            idle.retain(|_, kept| {
                kept.retain(|entry| !entry.sender.is_closed());
                !kept.is_empty()
            });
        }
        let kept = idle.entry(key).or_default();
        if kept.len() >= IDLE_PER_TARGET {
            kept.remove(0);
        }
        kept.push(Idle {
            sender,
            since: Instant::now(),
        });
    }
}

/// A connection to hand back when the response it carries has been read.
pub struct Reuse {
    pub pool: Arc<Pool>,
    pub key: Key,
    pub sender: SendRequest<Incoming>,
}

impl Reuse {
    pub fn give_back(self) {
        self.pool.give_back(self.key, self.sender);
    }
}
