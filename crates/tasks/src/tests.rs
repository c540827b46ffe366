//! The crate's tests, by part: the store, the caught follow-ups, the
//! tasks.md format, the pure merge, and syncing real files.

mod caught;
mod markdown;
mod merge;
mod store;
mod support;
mod sync;
