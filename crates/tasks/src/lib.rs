//! Tasks: an account's task lists (a personal one, and one per workspace),
//! trees of tasks kept in the user's order, with due dates, snoozes and the
//! inbox reminders they lead to; the follow-ups the utility model catches in
//! sessions, staged until the user keeps or dismisses them; and tasks.md,
//! each list mirrored as a Markdown file a person (or an agent) can edit,
//! merged back three ways.
//!
//! - `service.rs`: [`Tasks`], the store (create, update, delete, reorder,
//!   reminders); `rows.rs` its SQL, `model.rs` the types and value rules;
//! - `caught.rs`: the caught follow-ups and the one-scan-per-session claim;
//! - `markdown.rs`: the tasks.md format (docs/tasks-md.md);
//! - `merge.rs`: the pure three-way merge;
//! - `mirror.rs`: syncing a list with its files.
//!
//! Knows nothing of HTTP, settings or sessions: the caller passes the
//! session ids, the local day and the data directory.

mod caught;
pub mod demo;
pub mod markdown;
pub mod merge;
mod mirror;
mod model;
mod rows;
mod schema;
mod service;

pub use markdown::{Entry, Parsed, Warning, parse, render, render_tasks};
pub use merge::{Conflict, Item, Merged, MergedItem, merge};
pub use mirror::{FILE_NAME, MirrorSync, SyncReport, default_mirror_path};
pub use model::{
    Caught, Fields, ListRef, MAX_NOTES_CHARS, MAX_TEXT_CHARS, Mirror, MirrorFolder, NewTask,
    Reminder, ReminderReason, Task, TaskError, TaskMove, TaskPatch, TaskState,
};
pub use schema::MIGRATIONS;
pub use service::Tasks;

#[cfg(test)]
mod tests;
