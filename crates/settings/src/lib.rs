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
//! # Guarded keys
//!
//! The contract's list, plus these, which also widen what an agent may do:
//! - `agentDrivenMaxDollarsPerSession`, `agentDrivenMaxTurnsPerSession`: raise
//!   the budget of agent-driven sessions.
//! - `defaultAgentInstructionsEnabled`: off removes the safety presets from every session.
//! - `defaultAgentInstructionsCustom`: text injected into every spawned session;
//!   an agent could instruct all later agents.
//! - `sessionStrictMcpConfig`: off hands sessions every tool server of the global config.
//! - `cloudControlPlaneEnabled`: starts paid cloud machines.
//! - `cloudHardenedSessionEnabled`: governs the isolation of cloud sessions.
//! - `cloudStartedSessionsEnabled`: lets cloud sessions start more sessions.
//! - `sessionRefillIncludePaused`, `sessionRefillAllowReopenUserClosed`: revive
//!   sessions the user paused or closed.
//! - `emailInboundEnabled`, `emailInboundApprovedSenders`,
//!   `emailInboundPrescreenPrompt`, `spamFilterAgentEmailEnabled`: decide whose
//!   email reaches an assistant that acts and replies.
//! - `messengerBotEnabled`, `messengerBotAllowedGroupIds`,
//!   `messengerBotAllowedUserIds`, `messengerBotDmPolicy`,
//!   `messengerBotGroupRequireMention`: decide who may drive agents through the bot.
//! - `chatAppPersonalEnabled`: agent team-chat messages would go out as the user.
//! - `bugIntakeEnabled`: outside reports start agent sessions;
//!   `bugIntakeAppendPrompt`: instructions injected into them.
//! - `trustedSheets`: which spreadsheets and columns may be edited.
//!
//! # Defaults the spec does not state
//!
//! - Toggles are on, except those that: widen what agents may do or
//!   auto-approve; spend money on their own (AI digests, summaries,
//!   forensics, task catches); need an outside account or send data off the
//!   machine (mail, chat, SMS, messenger, drive, sync, sheets, docs export,
//!   calendar, webhooks, bug intake, telemetry); tune OS scheduling (priority,
//!   affinity, CPU caps, process ceilings, memory paging); take the user's
//!   focus or destroy data (auto focus, auto switch, deleting invites,
//!   archiving mail, mail cards); pause or batch (drip pause, quiet hours,
//!   digest mode); or are opt-in styles and layouts (audience style, persona,
//!   classic cleanup layout, isolated view, spoken labels, hide completed).
//! - Numbers: a moderate value inside the range; `0` where the spec gives 0 a
//!   "built-in behaviour" meaning (restart spacings); small budgets for spend caps.
//! - Selects: the least surprising option (often the first; `guarded` for
//!   `agentPermissionLevel`, `manual` and `off` for anything that spends).
//! - Text: empty (the spec's "blank uses the built-in default"), except
//!   times of day (`22:00`/`08:00` quiet hours, `08:00` digest),
//!   `webmailDefaultQuery` (`in:inbox`) and `alarmsDefaultSound` (`default`).
//! - Lists and maps: empty, except `postSendNavigation` (`["stay"]`) and
//!   `agentInstructionsSyncMirrors` (`["AGENTS.md"]`); `dailyDigestSources`
//!   has every source on; `initialTitleModel` is `null` (inherit).

mod catalog;
mod generate;
mod kind;
mod schema;
mod store;

pub use generate::{catalog_markdown, json_schema};
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
