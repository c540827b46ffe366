//! The ports handed to sessions: each holder (a session, or a started app
//! of one) keeps its port until it lets go, so ten worktrees running the same
//! `npm run dev` never fight over 5173.

use std::collections::{HashMap, HashSet};
use std::net::{Ipv4Addr, TcpListener};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::AppsError;

/// An inclusive range of TCP ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortRange {
    pub start: u16,
    pub end: u16,
}

impl Default for PortRange {
    /// 4100-4999: clear of the defaults frameworks pick for themselves
    /// (3000, 4000, 5173, 8000, 8080), so a server that ignores `PORT` does
    /// not land on a port handed to another session, and below the
    /// ephemeral ports the kernel gives outgoing connections.
    fn default() -> Self {
        PortRange {
            start: 4100,
            end: 4999,
        }
    }
}

/// Which holder has which port; cheap to clone and share between threads.
#[derive(Clone, Debug)]
pub struct Ports {
    range: PortRange,
    held: Arc<Mutex<HashMap<String, u16>>>,
}

impl Ports {
    pub fn new(range: PortRange) -> Ports {
        Ports {
            range,
            held: Arc::default(),
        }
    }

    pub fn range(&self) -> PortRange {
        self.range
    }

    fn held_map(&self) -> MutexGuard<'_, HashMap<String, u16>> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The port of `holder`: the one it holds already, else the lowest of
    /// the range no one holds and (with `check_free`) that can be bound on
    /// 127.0.0.1 right now. `check_free` is for ports on this machine; a
    /// runner's ports cannot be tried from here.
    pub fn take(&self, holder: &str, check_free: bool) -> Result<u16, AppsError> {
        let mut held = self.held_map();
        if let Some(port) = held.get(holder) {
            return Ok(*port);
        }
        let PortRange { start, end } = self.range;
        let taken: HashSet<u16> = held.values().copied().collect();
        let port = (start..=end)
            .filter(|port| !taken.contains(port))
            .find(|port| !check_free || TcpListener::bind((Ipv4Addr::LOCALHOST, *port)).is_ok())
            .ok_or(AppsError::RangeExhausted { start, end })?;
        held.insert(holder.to_owned(), port);
        Ok(port)
    }

    /// Takes `holder`'s port from it but keeps it from the range until
    /// `holder`'s session gives its ports back: something outside
    /// Switchboard listens on it where it was to be used (a runner's host,
    /// whose ports cannot be tried from here). Says which port.
    pub fn set_aside(&self, holder: &str) -> Option<u16> {
        let mut held = self.held_map();
        let port = held.remove(holder)?;
        held.insert(format!("{holder}/set-aside-{port}"), port);
        Some(port)
    }

    /// Gives `holder`'s port back to the range.
    pub fn release(&self, holder: &str) -> Option<u16> {
        self.held_map().remove(holder)
    }

    /// Gives back the ports of session `session_id`: its own and those of
    /// its started apps, held as `<session>/<app>`.
    pub fn release_session(&self, session_id: &str) {
        let prefix = format!("{session_id}/");
        self.held_map()
            .retain(|holder, _| holder != session_id && !holder.starts_with(&prefix));
    }

    pub fn held(&self, holder: &str) -> Option<u16> {
        self.held_map().get(holder).copied()
    }
}
