//! The project-board module: workspaces, the member directory, typed boards and items.
//!
//! `boards` knows nothing about HTTP. Every public function takes the [`store::Db`]
//! and then the caller's `account_id`, and treats a resource of another account
//! exactly like a missing one: [`BoardsError::NotFound`] with a message that names
//! only the kind of resource, never the id, so ids cannot be probed.
//!
//! - [`workspaces`]: workspaces and the account's member directory.
//! - [`boards`]: boards with their ordered, typed columns and ordered groups.
//! - [`items`]: items with values validated against their column ([`columns`]).
//! - [`full`]: the full-board read, streamed from one query, and its ETag.
//! - [`columnar`]: the same read in columns (one array per field, a dictionary
//!   per values key), the compact form a client asks for by media type.
//! - [`built`]: the columns form of the boards read lately, kept built and
//!   compressed while their version holds.
//! - [`presets`] and [`demo`]: board templates and a believable demo workspace
//!   (what its items hold: `demo_items`).
//! - [`import`]: full-board JSON and CSV import.
//! - [`events`]: the domain events item changes record for the inbox.
//! - [`due`]: items by their dates, for due-today and overdue notices.
//! - [`calendar_overlay`]: each board's items on their due dates and its
//!   sprints' spans, in the board's color, for the calendar.
//! - [`activity`]: each board's items added, changed and moved on in a period,
//!   for the weekly summary.
//!
//! Modules never import each other in a cycle: the error type and the shared
//! name check are in `error`, what item values are checked against
//! (`BoardRules`) in `rules`, and the SQL several modules share (a column's
//! JSON path, the version bump) in `tables`; nothing imports the crate root.
//!
//! Every change to a board, its columns, groups or items bumps the board's
//! `version` in the same transaction; the ETag is derived from it.

pub mod activity;
pub mod boards;
pub mod built;
pub mod calendar_overlay;
pub mod columnar;
pub mod columns;
pub mod demo;
mod demo_items;
pub mod due;
mod error;
pub mod events;
pub mod full;
pub mod import;
pub mod items;
pub mod model;
pub mod presets;
mod rules;
mod schema;
pub mod shared_dicts;
mod tables;
pub mod workspaces;

pub use activity::{BoardActivity, activity_between};
pub use boards::{
    add_column, add_group, change_column, check_board, create_board, delete_board, get_board,
    list_boards, remove_column, remove_group, rename_board, rename_column, rename_group,
    reorder_columns, reorder_groups, set_column_settings,
};
pub use built::{BuiltBoard, BuiltBoards, Compressed, SharedBuilt};
pub use calendar_overlay::{
    DueEntry, Overlay, OverlayBoard, SprintSpan, calendar_overlay, due_columns,
};
pub use columnar::{
    COLUMNAR_MEDIA_TYPE, Codes, ColumnsForm, ItemFields, columnar_board, columnar_etag,
};
pub use columns::ColumnType;
pub use demo::{AgentRun, RunOutcome, has_boards, seed_demo, session_link};
pub use due::{DatedItem, dated_items};
pub use error::{BoardsError, Result};
pub use events::{AccountEvent, events_after, events_since, last_event_seq, prune_events};
pub use full::{board_etag, full_board, stream_full_board};
pub use import::{CsvImport, JsonImport, import_board_json, import_csv, plan_board_json, plan_csv};
pub use items::{
    MAX_BATCH_ITEMS, batch_refusal, create_item, create_items, delete_item, get_item, import_items,
    move_item, update_item,
};
pub use model::*;
pub use schema::{MIGRATIONS, migrate};
pub use shared_dicts::{SharedDicts, share_dicts};
pub use workspaces::check_workspace;
pub use workspaces::{
    create_member, create_workspace, delete_member, delete_workspace, ensure_self_member,
    list_members, list_workspaces, rename_workspace, self_member_id, update_member,
};
