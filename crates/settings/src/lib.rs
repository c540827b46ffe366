//! Switchboard's settings: the one schema of every user-settable key, and the
//! store that keeps their values.
//!
//! The catalog (`definitions()`, one [`SettingDef`] per key, in spec order) is
//! a static table; beside it, `labels.rs` gives each key the name people
//! read ([`SettingDef::label`]), and `summaries.rs` a plain-language
//! description where the spec's text is shorthand ([`SettingDef::summary`]).
//! Everything else about a key is derived from its row: validation ([`SettingDef::validate`], whose refusal names what is
//! accepted), the default ([`SettingDef::default_value`]), the Markdown
//! catalog ([`catalog_markdown`], checked in as `docs/settings.md`) and the
//! JSON Schema ([`json_schema`]), the TypeScript ([`typescript`]) and the typed accessors
//! ([`rust_accessors`], checked in as `src/accessors.rs`): one method per key
//! on [`SettingsStore`], returning the key's type (`bool`, `u32`, `f64`,
//! `String`, an enum per select), so no code outside this crate reads a
//! setting by a string key. The catalog also says whether this version acts on
//! a key or only stores it ([`SettingDef::in_effect`]), and for a stored key,
//! why it has no effect ([`SettingDef::why_no_effect`]: not built yet, or
//! meant for a desktop app or for Windows). [`SettingsStore`] keeps
//! values in SQLite and serves them from memory. This crate knows nothing of HTTP or tokens: it says which keys
//! are guarded, and the server decides who may write them.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! let db = Arc::new(store::Db::open(std::path::Path::new("switchboard.db"))?);
//! let settings = settings::SettingsStore::load(db)?;
//! settings.set("sessionCpuCapPercent", &serde_json::json!(55))?;
//! assert!(settings.set("sessionCpuCapPercent", &serde_json::json!(57)).is_err());
//! assert_eq!(settings.session_cpu_cap_percent(), 55);
//! let body: bytes::Bytes = settings.all_json(); // the GET /settings body
//! # let _ = body;
//! # Ok(()) }
//! ```
//!
//! The choices made where the spec is silent follow; `docs/settings.md` repeats them.
//!
#![doc = include_str!("decisions.md")]

#[rustfmt::skip]
mod accessors;
mod catalog;
mod error;
mod generate;
mod index;
mod kind;
mod labels;
mod rust_api;
mod schema;
mod store;
mod summaries;

pub use accessors::*;
pub use error::SettingsError;
pub use generate::{catalog_markdown, json_schema, typescript};
pub use index::{definitions, lookup};
pub use kind::{Field, Kind, NumberRange, TextFormat, parse_time_of_day};
pub use rust_api::rust_accessors;
pub use schema::{Area, DefaultValue, NoEffect, SettingDef, TakesEffect};
pub use store::{MESSENGER_BOT_ALLOWED_USER_IDS, MIGRATIONS, SettingView, SettingsStore};
