//! The boards module through its public API, on a temporary database: one file per concern, in
//! one test binary to keep link time down.

mod common;

mod activity;
mod boards_columns;
mod columnar;
mod events;
mod full_read;
mod import;
mod isolation;
mod items;
mod presets_demo;
mod workspaces_members;
