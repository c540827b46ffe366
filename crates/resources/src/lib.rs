//! Fair share on one machine (docs/resources.md): each session's process
//! tree in a cgroup of its own under a parent of this server's, so the
//! server's threads outweigh every engine together and the API answers at
//! its idle speed however busy the engines are.
//!
//! [`Trees::open`] finds what this machine gives: a delegated cgroup v2
//! subtree, the v1 hierarchies, or neither, when engines get nice, an idle
//! I/O class and a process rlimit instead ([`Mode`]). [`Limits`] are the
//! settings as plain values, applied to running trees at once. A tree is
//! the unit of a session: joined before its engine's `exec`, killed whole
//! (a double fork does not escape it), and read for what it used.
//!
//! [`short_slice_for_this_thread`] asks the scheduler to let the server's
//! threads preempt engines as soon as they wake. [`raise_limit`] and
//! [`OpenFiles`] keep the open-file limit from stopping sessions early;
//! [`release_startup_pages`] gives back the code only start-up ran.
//!
//! Knows nothing of sessions, settings or HTTP.

mod boost;
mod latency;
mod limits;
pub mod mode;
mod open_files;
mod startup_pages;
mod trees;
mod usage;

pub use boost::{BOOSTED_NICE, set_own_nice};
pub use latency::{SERVER_SLICE_NS, short_slice_for_this_thread};
pub use limits::{CpuCap, Limits, MAX_PROCESSES};
pub use open_files::{OpenFiles, is_exhausted, raise_limit, restore_inherited_limit};
pub use startup_pages::release_startup_pages;
pub use trees::{Hook, Mode, Trees};
pub use usage::Usage;
