//! Open-file descriptors: the server's limit raised to what the system
//! allows, the headroom a new session may take, and the inherited limit
//! given back to the engines.
//!
//! A running session holds three descriptors (its output pipes and its
//! pidfd), so the usual soft limit of 1,024 would stop the server near 300
//! sessions while the hard limit allows far more. The server raises its own
//! soft limit, as Go's runtime does; its engines get the limit they would
//! have had, since programs built on `select` break on descriptors past
//! 1,024.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

/// The soft limit this process started with; 0 until [`raise_limit`] ran.
static INHERITED_SOFT: AtomicU64 = AtomicU64::new(0);

/// The descriptors a new session may not take: what HTTP clients, event
/// streams and the database need beside the sessions.
const RESERVE_MIN: u64 = 64;
const RESERVE_MAX: u64 = 1024;

/// Raises this process's soft limit on open files to its hard limit and
/// returns the limit now in force.
pub fn raise_limit() -> io::Result<u64> {
    let mut limit = current()?;
    INHERITED_SOFT.store(limit.rlim_cur, Ordering::Relaxed);
    if limit.rlim_cur < limit.rlim_max {
        limit.rlim_cur = limit.rlim_max;
        // SAFETY: one system call with a valid pointer to a local.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(limit.rlim_cur)
}

/// For `pre_exec`: gives the child the soft limit this process started
/// with. Async-signal-safe: one atomic load and one system call.
pub fn restore_inherited_limit() {
    let soft = INHERITED_SOFT.load(Ordering::Relaxed);
    if soft == 0 {
        return;
    }
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: two system calls with a valid pointer to a local.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && soft < limit.rlim_cur {
            limit.rlim_cur = soft;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// How many descriptors this process holds and may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenFiles {
    pub open: u64,
    pub limit: u64,
}

impl OpenFiles {
    /// This process's, counted in `/proc/self/fd`; `None` where that cannot
    /// be read (not Linux), which never stops a session. With no descriptor
    /// left to open the directory with, every one is held.
    pub fn now() -> Option<Self> {
        let limit = current().ok()?.rlim_cur;
        // The directory's own descriptor is counted too: one more than held,
        // on the safe side.
        let open = match std::fs::read_dir("/proc/self/fd") {
            Ok(entries) => entries.count() as u64,
            Err(error) if is_exhausted(&error) => limit,
            Err(_) => return None,
        };
        Some(Self { open, limit })
    }

    /// Whether one more session leaves the reserve: an eighth of the limit,
    /// between 64 and 1,024 descriptors.
    pub fn room_for_a_session(&self) -> bool {
        let reserve = (self.limit / 8).clamp(RESERVE_MIN, RESERVE_MAX);
        self.open.saturating_add(reserve) < self.limit
    }
}

/// Whether `error` is the process (EMFILE) or the system (ENFILE) out of
/// descriptors.
pub fn is_exhausted(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
}

fn current() -> io::Result<libc::rlimit> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: one system call with a valid pointer to a local.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_may_start_only_while_the_reserve_stays_free() {
        let at = |open, limit| OpenFiles { open, limit }.room_for_a_session();
        // An eighth of 20,000 is 2,500, held to 1,024.
        assert!(at(18_975, 20_000));
        assert!(!at(18_976, 20_000));
        // An eighth of 200 is 25, raised to 64.
        assert!(at(135, 200));
        assert!(!at(136, 200));
        // An eighth of 1,024 is 128.
        assert!(at(895, 1_024));
        assert!(!at(896, 1_024));
    }

    #[test]
    fn exhaustion_is_told_from_other_failures() {
        assert!(is_exhausted(&io::Error::from_raw_os_error(libc::EMFILE)));
        assert!(is_exhausted(&io::Error::from_raw_os_error(libc::ENFILE)));
        assert!(!is_exhausted(&io::Error::from_raw_os_error(libc::ENOENT)));
    }
}
