//! The one error type of the crate; the server maps each variant to a contract code.

use std::path::PathBuf;

use crate::model::Status;

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Missing, or another account's: the two are indistinguishable on purpose.
    #[error("No such session.")]
    NotFound,
    #[error("Agent-driven sessions are turned off (setting agentDrivenSessionsEnabled).")]
    AgentDrivenSessionsDisabled,
    #[error("Spawning with an agent's scoped token is turned off (setting allowAgentTokenSpawn).")]
    AgentTokenSpawnDisabled,
    #[error(
        "A spawn over the control server must name the requesting live session in X-App-Source-Session-Id (setting requireSpawnSourceSession)."
    )]
    SourceSessionRequired,
    #[error(
        "{max} agent-driven sessions are already active, the most allowed (setting agentDrivenMaxConcurrent)."
    )]
    ConcurrencyLimit { max: u32 },
    #[error("No engine named `{name}`; known engines: {known}.")]
    UnknownEngine { name: String, known: String },
    #[error("Sessions on other machines are turned off (setting cloudControlPlaneEnabled).")]
    RunnersOff,
    #[error("A session on a runner may not start sessions (setting cloudStartedSessionsEnabled).")]
    RemoteStartsOff,
    /// An approval for a session that is not waiting for one.
    #[error("That session is not waiting for approval to start.")]
    NotAwaitingApproval,
    #[error("No runner named `{name}`; the runners are: {known}.")]
    UnknownRunner { name: String, known: String },
    /// Past the reserve of descriptors the server keeps for its clients.
    #[error(
        "The server holds {open} of the {limit} open files it may, and keeps the rest for its clients; end some sessions, or raise the limit (`ulimit -n`, or LimitNOFILE= in a systemd unit)."
    )]
    OpenFileLimit { open: u64, limit: u64 },
    #[error("{path} is not a valid engines file: {detail}")]
    EnginesConfig { path: PathBuf, detail: String },
    #[error("{0}")]
    InvalidInput(String),
    /// A follow-up to a session that has ended (or was archived).
    #[error("The session has ended ({status}); it takes no more messages.", status = .status.as_str())]
    SessionEnded { status: Status },
    #[error("The session supervisor is shutting down.")]
    ShuttingDown,
    /// `forkFrom` names no session of the caller's account.
    #[error("There is no session {id} of yours to fork.")]
    ForkSourceNotFound { id: String },
    #[error(
        "Engine `{engine}` (kind {kind}) cannot fork a conversation; only claude and codex engines can."
    )]
    ForkUnsupported { engine: String, kind: String },
    #[error(
        "Session {id} has no engine conversation to fork yet; fork it once its engine has started its first turn."
    )]
    ForkNotReady { id: String },
    #[error(
        "The session does not run in a worktree of its own (it was not spawned with isolation: worktree)."
    )]
    NotIsolated,
    #[error(
        "The session's worktree folder is gone (archiving removes it once it is clean); its branch {branch} keeps what was committed."
    )]
    WorktreeRemoved { branch: String },
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// Making or removing a session's git worktree failed.
    #[error(transparent)]
    Worktree(#[from] worktrees::WorktreeError),
}

impl From<store::rusqlite::Error> for SessionError {
    fn from(e: store::rusqlite::Error) -> Self {
        SessionError::Store(store::StoreError::Sqlite(e))
    }
}

pub type Result<T, E = SessionError> = std::result::Result<T, E>;
