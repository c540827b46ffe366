//! Agent sessions: real engine processes supervised turn by turn.
//!
//! [`Supervisor`] is the whole API. It spawns sessions on an engine named in
//! `DIR/engines.toml` (kinds `command`, `claude`, `codex`), applies the control
//! server's spawn rules ([`SpawnPolicy`], checked in the contract's order),
//! composes the first prompt from the prompt settings ([`PromptSettings`]),
//! runs one actor task per active session (follow-ups queue while a turn runs),
//! streams every turn into SQLite as it happens ([`Transcript`]), ends whole
//! process groups on stop (of one session, or of a session and everything it
//! spawned), sums what the engines reported per session, tree and day
//! ([`Tokens`], [`Usage`]), records which version of its engine each session
//! runs, and at start recovers what a dead server left. Beside it,
//! [`seed_demo`] writes `serve --demo`'s sessions before the supervisor
//! starts: finished, failed and waiting ones with their transcripts, and a queued one whose turn the supervisor runs on the demo engine as it starts.
//!
//! The crate knows nothing of HTTP, settings or accounts: the server hands in
//! the settings as plain structs at each call, says who is asking with
//! [`Caller`], and mints and revokes agent tokens through [`TokenIssuer`].
//! Time comes from the [`clock::Clock`] given at start: queued sessions wait
//! for their slot on it and every recorded time reads it, so tests drive it
//! with a `ManualClock` instead of waiting.
//!
//! ```no_run
//! # async fn demo(db: std::sync::Arc<store::Db>, issuer: std::sync::Arc<dyn sessions::TokenIssuer>,
//! #     policy: sessions::SpawnPolicy) -> Result<(), sessions::SessionError> {
//! use sessions::{Caller, PromptSettings, SpawnRequest, Supervisor, Via};
//! let clock = std::sync::Arc::new(clock::SystemClock);
//! let supervisor = Supervisor::start(db, clock, "/data".into(), None, issuer, Default::default(), true).await?;
//! let caller = Caller { account_id: "owner".into(), via: Via::Ui, source_session_header: None };
//! let spawned = supervisor
//!     .spawn(&caller, &policy, &PromptSettings::default(), SpawnRequest {
//!         engine: Some("echo".into()),
//!         prompt: "hello".into(),
//!         ..SpawnRequest::default()
//!     })
//!     .await?;
//! let transcript = supervisor.transcript("owner", &spawned.session.id).await?;
//! # let _ = transcript; Ok(()) }
//! ```

mod activity;
mod actor;
mod adapters;
mod app_launch;
mod census;
mod changes;
mod confine;
mod cost;
mod db;
mod demo;
pub mod engines;
mod entries;
#[cfg(test)]
mod entry_tests;
mod error;
mod fleet;
mod fork;
mod isolation;
mod listing;
mod log;
mod model;
mod notices;
mod output;
mod outside;
mod pages;
mod placement;
mod process;
mod prompts;
mod recent;
mod recovery;
mod remembered;
mod remote_turn;
mod returning;
mod schema;
mod session_query;
/// The sessions' tables, migrated by the supervisor apart from the start-up list;
/// the upgrade test (crates/app/tests/upgrades.rs) needs the whole schema.
pub use schema::MIGRATIONS;
mod state;
mod supervisor;
mod titles;
mod tree;
mod tree_usage;
mod turn;
mod turn_ends;
mod usage;
mod versions;
mod watchdog;
pub use watchdog::{LOOP_RESTART_REASON, STALL_RESTART_REASON};

pub use adapters::{Decoder, TurnMeta};
pub use app_launch::AppLaunch;
pub use census::Census;
pub use changes::{ChangeStatus, ChangedFile, ChangedFileDiff, SessionChanges};
pub use confine::port_of;
pub use demo::{DemoSeed, DemoSession, seed_demo};
pub use engines::{EngineKind, EngineSpec, Resume};
pub use error::{Result, SessionError};
pub use fleet::Dormant;
pub use model::{
    ASK_PROJECT, Activity, ActivityKind, Caller, EngineInfo, Entry, EntryBody, EntryPage,
    InputSource, Isolation, NoticeSource, PromptSettings, Session, SpawnPolicy, SpawnRequest,
    Spawned, Status, StatusEvent, StopReason, TitleSource, TodoItem, TodoStatus, Tokens,
    Transcript, Trigger, Turn, TurnEnd, Usage, UsageDay, Via, Worktree,
};
pub use output::{OutputAppended, OutputReceiver, StoredEntry};
pub use outside::confined_command;
pub use pages::{MAX_PAGE, PageFrom};
pub use recent::{RecentTranscript, recent_transcripts};
pub use returning::Governance;
pub use state::{
    AppEnv, BeforeTurn, Hooks, RemotePlace, SessionUpdate, TokenAccess, TokenIssuer, TurnArgs,
};
pub use supervisor::Supervisor;
pub use titles::MAX_TITLE_CHARS;
pub use usage::SessionHistory;
pub use versions::engine_version;
