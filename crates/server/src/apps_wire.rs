//! The Running apps' request and reply bodies (docs/apps.md), beside
//! `wire.rs`, which re-exports them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

/// One dev server a session runs.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunningApp {
    /// Its name under `.localhost` (`web.fix-login`).
    pub name: String,
    /// Where the proxy serves it: `http://<name>.localhost:<proxy port>/`.
    pub url: String,
    pub session_id: String,
    /// `local` or the runner the session runs on.
    pub runner: String,
    pub command: String,
    /// The port it listens on, where it runs.
    pub port: u16,
    pub pid: Option<u32>,
    pub state: RunningAppState,
    pub started_at: String,
    /// How it ended (128 + the signal for one a signal ended); `null` while
    /// it runs and for a found one that went.
    pub exit_status: Option<i32>,
    /// `started` by Switchboard (`POST /apps`), or `detected`: found
    /// listening among the session's processes.
    pub origin: RunningAppOrigin,
    pub session_title: Option<String>,
    /// The session's folder.
    pub worktree: Option<String>,
    /// The branch of the session's worktree, when it has one.
    pub branch: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum RunningAppState {
    Running,
    Exited,
    /// It kept exiting within seconds of each start and is no longer restarted.
    Failing,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum RunningAppOrigin {
    Started,
    Detected,
}

/// `GET /apps/proxy`: where the proxy listens.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct AppsProxy {
    pub port: u16,
    /// `http://localhost:<port>`.
    pub url: String,
}

/// `GET /apps/{name}/output`: its last lines, oldest first.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct AppOutput {
    pub name: String,
    pub lines: Vec<String>,
}

/// An app `apps.toml` declares for a session's folder.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct DeclaredApp {
    pub name: String,
    pub command: String,
}

/// `POST /apps`.
#[derive(Debug, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StartApp {
    pub session_id: String,
    /// The app's name (`[a-z0-9-]`, at most 40): the declared one's, or a
    /// new one with `command`.
    pub name: String,
    /// What to run (`sh -c`); omitted, the command `apps.toml` declares.
    #[serde(default)]
    #[ts(optional)]
    pub command: Option<String>,
}

/// `GET /apps` and `GET /apps/declared`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AppsQuery {
    /// Only this session's.
    pub session_id: Option<String>,
}
