//! The rules that keep agent sessions alive, as pure functions of their
//! inputs, for the fleet governor and the session runner to apply.
//!
//! - [`classify`] reads an engine's error text as a transient
//!   [`Failure::Overloaded`], a plan's [`Failure::UsageLimit`] (with when it
//!   resets, when the text says) or a [`Failure::Genuine`] error.
//! - [`retry_delay`] is the growing gap before relaunching after an overload.
//! - [`Spacing`] spaces the starts of sessions that return together.
//! - [`used_percent`] reads memory in use, from the enclosing cgroup's limit
//!   or `/proc/meminfo`, through a [`MemorySource`].
//! - [`LoopDetector`] notices a turn repeating one tool call or re-reading an
//!   unchanged file, and says what it was repeating.
//! - [`context_window`] (the engine's stated window, else [`window`]'s
//!   table) and [`threshold_crossed`] tell when a session's context passes
//!   75 % and 90 % of its model's window.
//!
//! Knows nothing of HTTP, settings, the database, sessions or tokio: callers
//! pass the settings' values, the clock's time and the engine's text in.

mod backoff;
mod context;
mod failure;
mod loops;
mod memory;
mod pacing;

pub use backoff::{MAX_RETRY_DELAY, retry_delay};
pub use context::{Threshold, context_window, note, threshold_crossed, window};
pub use failure::{Failure, classify};
pub use loops::{FileFingerprint, Loop, LoopDetector, LoopKind, REPEAT_LIMIT, REREAD_LIMIT};
pub use memory::{MemorySource, ProcFs, used_percent};
pub use pacing::{DEFAULT_SPACING, Spacing};
