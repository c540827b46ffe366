//! Where sessions run.
//!
//! The built-in runner `local` is this machine. Others are declared in
//! `DIR/runners.toml` ([`config`]) and reached with the system's OpenSSH
//! client ([`ssh`]), so `~/.ssh/config`, agents, `ProxyJump` and known
//! hosts work as the user expects; pool runners ([`pool`]) connect in over
//! TLS instead. On the far side the same `switchboard` binary runs as a
//! helper ([`helper`], `switchboard runner --stdio` or `--connect`),
//! speaking the framed protocol of [`wire`].
//!
//! Knows nothing of HTTP, settings or sessions: the application layer asks
//! it to probe, install and run, and maps what it says.

mod app_keeper;
mod channel;
pub mod config;
mod forward;
pub mod helper;
mod host;
mod hosts;
mod info;
mod keeper;
pub mod pool;
mod remote_apps;
mod remote_skills;
mod remote_work;
mod skills_here;
pub mod ssh;
mod turns;
pub mod wire;

pub use channel::RunnerStream;
pub use config::{AUTO, LOCAL, RunnersFile, SshRunner};
pub use host::{Hello, Ready};
pub use hosts::{LocalFacts, MB_PER_SESSION, Runners, TunnelPorts};
pub use info::{EngineVersion, Memory, RunnerInfo, RunnerKind, RunnerState};
pub use keeper::ISOLATION_ENV;
pub use turns::{Output, RECONNECT_GRACE, RemoteTurn};
pub use wire::{
    AppStart, AppStarted, AppState, Confine, Exit, MadeWorktree, ProbeEngine, Removal, TurnHeader,
    WorkDiff,
};
