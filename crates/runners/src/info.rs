//! What `GET /runners`, the Runners page and `doctor` say of each runner.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunnerKind {
    /// This machine: engines run as children of the server.
    Local,
    /// A host reached with the system's `ssh`.
    Ssh,
    /// A runner that connected in over TLS (`switchboard runner --connect`).
    Pool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunnerState {
    Connected,
    /// Declared, not yet reached (the first probe is under way).
    Connecting,
    /// The last attempt failed; `reason` has what ssh or the helper said.
    Unreachable,
    /// Its declaration in `runners.toml` cannot be used; `reason` says why.
    Invalid,
}

impl RunnerState {
    pub fn as_str(self) -> &'static str {
        match self {
            RunnerState::Connected => "connected",
            RunnerState::Connecting => "connecting",
            RunnerState::Unreachable => "unreachable",
            RunnerState::Invalid => "invalid",
        }
    }
}

/// The runner host's memory, from its `/proc/meminfo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Memory {
    pub total_mb: u64,
    pub available_mb: u64,
}

/// An engine as the runner host has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "RunnerEngine")]
#[schema(as = RunnerEngine)]
pub struct EngineVersion {
    pub name: String,
    /// What `<program> --version` printed there; `null` when the program
    /// is missing or said nothing.
    pub version: Option<String>,
}

/// One runner, as `GET /runners` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "Runner")]
#[schema(as = Runner)]
pub struct RunnerInfo {
    pub name: String,
    pub kind: RunnerKind,
    pub state: RunnerState,
    /// Why it is not connected (ssh's own message, the file's line and
    /// column); `null` when it is.
    pub reason: Option<String>,
    /// Running sessions placed on it.
    pub sessions: u32,
    /// `max_sessions` from `runners.toml`; `null` for no limit.
    pub max_sessions: Option<u32>,
    /// The host's one-minute load average, when last seen.
    pub load: Option<f64>,
    pub memory: Option<Memory>,
    pub engines: Vec<EngineVersion>,
    /// How engines are confined there: `namespaces`, `landlock` or
    /// `unavailable`; `null` until reached.
    pub sandbox: Option<String>,
    /// The helper's version on that host.
    pub switchboard_version: Option<String>,
    pub labels: Vec<String>,
    /// The `ssh` destination; `null` for `local`.
    pub destination: Option<String>,
    /// When it was last reached (RFC 3339); `null` when never.
    pub last_seen: Option<String>,
}

impl RunnerInfo {
    /// A runner known only by its declaration: no host facts, `reason`
    /// saying why (its file's line and column, or ssh's words).
    pub fn unreached(name: &str, state: RunnerState, reason: &str) -> RunnerInfo {
        RunnerInfo {
            name: name.to_owned(),
            kind: RunnerKind::Ssh,
            state,
            reason: Some(reason.to_owned()),
            sessions: 0,
            max_sessions: None,
            load: None,
            memory: None,
            engines: Vec::new(),
            sandbox: None,
            switchboard_version: None,
            labels: Vec::new(),
            destination: None,
            last_seen: None,
        }
    }
}
