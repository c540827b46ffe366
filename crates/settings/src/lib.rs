//! Switchboard's settings: the one schema of every user-settable key, and the
//! store that keeps their values.
//!
//! The catalog (`definitions()`, one [`SettingDef`] per key, in spec order) is
//! a static table. Everything about a key is derived from its row: validation
//! ([`SettingDef::validate`], whose refusal names what is accepted), the
//! default ([`SettingDef::default_value`]), the Markdown catalog
//! ([`catalog_markdown`], checked in as `docs/settings.md`) and the JSON Schema
//! ([`json_schema`]). [`SettingsStore`] keeps values in SQLite and serves them
//! from memory. This crate knows nothing of HTTP or tokens: it says which keys
//! are guarded, and the server decides who may write them.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! let db = Arc::new(store::Db::open(std::path::Path::new("switchboard.db"))?);
//! let settings = settings::SettingsStore::load(db)?;
//! settings.set("sessionCpuCapPercent", &serde_json::json!(55))?;
//! assert!(settings.set("sessionCpuCapPercent", &serde_json::json!(57)).is_err());
//! let body: bytes::Bytes = settings.all_json(); // the GET /settings body
//! # let _ = body;
//! # Ok(()) }
//! ```
//!
//! The choices made where the spec is silent follow; `docs/settings.md` repeats them.
//!
#![doc = include_str!("decisions.md")]

mod catalog;
mod generate;
mod kind;
mod schema;
mod store;

pub use generate::{catalog_markdown, json_schema, typescript};
pub use kind::{Field, Kind, NumberRange};
pub use schema::{Area, DefaultValue, SettingDef, TakesEffect, definitions, lookup};
pub use store::{MIGRATIONS, SettingView, SettingsStore};

/// Why a settings operation failed. The server maps `UnknownSetting` to 404
/// `unknown_setting` and `InvalidValue` to 400 `invalid_value`.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("there is no setting {key}")]
    UnknownSetting { key: String },
    /// `message` names what the key accepts, e.g. "sessionCpuCapPercent takes
    /// an integer from 25 to 90 in steps of 5".
    #[error("{message}")]
    InvalidValue { key: &'static str, message: String },
    #[error(transparent)]
    Store(#[from] ::store::StoreError),
}

impl From<::store::rusqlite::Error> for SettingsError {
    fn from(error: ::store::rusqlite::Error) -> Self {
        SettingsError::Store(error.into())
    }
}
