//! The public value types: statuses, sessions, transcripts, callers and the settings snapshots
//! the server hands in at each call.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a session stands. `Interrupted` is only ever set by crash recovery with
/// auto-resume off. `archived` is a separate flag on [`Session`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Queued,
    Starting,
    Running,
    WaitingForInput,
    Finished,
    Failed,
    Stopped,
    Interrupted,
    /// The user paused it: its process ended, and `resume` (or a refill with
    /// `sessionRefillIncludePaused`) continues it with a nudge.
    Paused,
}

impl Status {
    /// Every status, in the order a session usually passes through them.
    pub const ALL: [Status; 9] = [
        Status::Queued,
        Status::Starting,
        Status::Running,
        Status::WaitingForInput,
        Status::Finished,
        Status::Failed,
        Status::Stopped,
        Status::Interrupted,
        Status::Paused,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Starting => "starting",
            Status::Running => "running",
            Status::WaitingForInput => "waiting_for_input",
            Status::Finished => "finished",
            Status::Failed => "failed",
            Status::Stopped => "stopped",
            Status::Interrupted => "interrupted",
            Status::Paused => "paused",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL
            .into_iter()
            .find(|status| status.as_str() == text)
    }

    /// Active sessions hold a token, count against the concurrency ceiling and
    /// accept follow-ups.
    pub fn is_active(self) -> bool {
        matches!(
            self,
            Status::Queued | Status::Starting | Status::Running | Status::WaitingForInput
        )
    }
}

/// Who wrote a session's title.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TitleSource {
    User,
    Ai,
}

impl TitleSource {
    pub(crate) fn parse(text: &str) -> Option<TitleSource> {
        match text {
            "user" => Some(TitleSource::User),
            "ai" => Some(TitleSource::Ai),
            _ => None,
        }
    }
}

/// One session as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub id: String,
    pub account_id: String,
    pub engine: String,
    pub engine_kind: String,
    /// The version its engine's `--version` printed (`2.1.330` for Claude
    /// Code, `0.169.0` for Codex), read once per binary; `None` until read,
    /// when it cannot be read, and for `command` engines.
    pub engine_version: Option<String>,
    pub title: Option<String>,
    /// Whose the title is: `user` (typed at spawn or with `PATCH`, never
    /// replaced) or `ai` (the utility model's); `None` while untitled.
    pub title_source: Option<TitleSource>,
    /// The AI titles this one replaced, oldest first.
    pub title_history: Vec<String>,
    pub cwd: String,
    pub prompt: String,
    pub status: Status,
    pub archived: bool,
    /// When it was archived; `null` while it is not.
    pub archived_at: Option<String>,
    /// Where its engine runs, for life: `local` or a runner named in
    /// `runners.toml` (docs/runners.md).
    pub runner: String,
    /// Started by a session on a runner (`cloudStartedSessionsEnabled`):
    /// queued until the user approves it from its inbox card.
    pub awaiting_approval: bool,
    /// What its process tree used, from its cgroup (docs/resources.md):
    /// on `GET /sessions/{id}`, for a session run here while cgroups are
    /// in force; `null` otherwise.
    pub resources: Option<resources::Usage>,
    pub agent_driven: bool,
    /// The session that spawned this one: the agent token's own session, or
    /// the live session `X-App-Source-Session-Id` named.
    pub parent_id: Option<String>,
    /// The session whose conversation this one continued as a copy (`forkFrom`).
    pub forked_from: Option<String>,
    /// The sessions this one spawned (direct children only), oldest first.
    pub children: Vec<String>,
    /// Turns run so far (the first prompt is turn 1).
    pub turns: i64,
    /// How its latest turn ended, while it waits for input: `asked` (it
    /// asked the user something: "Needs you") or `done` (it did its work:
    /// answerable, nobody is waited on), as the attention rule read the
    /// turn (docs/sessions.md, "Needs you"); `null` in any other status and
    /// until the rule has read the turn.
    pub turn_end: Option<TurnEnd>,
    /// Turns the engine itself reports (Claude's `num_turns`, summed).
    pub engine_turns: i64,
    /// What the engine conversation cost so far, as the engine reported it
    /// (Claude Code's total is cumulative across `--resume`: taken, not
    /// added); `None` until an engine reports a cost (Codex and `command`
    /// engines never do).
    pub cost_usd: Option<f64>,
    /// The session's and all its descendants' cost; `None` when none of them reported one.
    pub tree_cost_usd: Option<f64>,
    /// Summed over the session's turns; zero while no engine reported any.
    pub tokens: Tokens,
    pub engine_session_id: Option<String>,
    /// When a queued session starts (or started); `None` for the user's own sessions.
    pub starts_at: Option<String>,
    /// When an interrupted session resumes by itself (a usage limit's reset),
    /// when that is known.
    pub resume_at: Option<String>,
    /// The last failure's message, as the engine gave it.
    pub error: Option<String>,
    /// Follow-ups accepted and not yet started.
    pub pending_messages: i64,
    /// The ceilings in force when the session was spawned: stored and shown;
    /// this crate never enforces them (the application stops a recipe run's
    /// session at its dollar ceiling, docs/automations.md).
    pub max_dollars_per_session: f64,
    pub max_turns_per_session: i64,
    pub created_at: String,
    pub updated_at: String,
    /// The git worktree the session runs in, when it was spawned with `isolation: worktree`.
    pub worktree: Option<Worktree>,
    /// Why the session is not working now; `None` while it is.
    pub stop_reason: Option<StopReason>,
    /// What it is doing now (or did last), from its transcript's entries.
    pub activity: Option<Activity>,
    /// What started it from outside, when not a person or a script: `email`
    /// sessions run read-only whatever the level and may not spawn or write
    /// settings, boards or dashboards; `messenger` (a chat with the bot) and
    /// `bug_intake` (a bug report's triage) run as any agent-driven session.
    pub trigger: Option<Trigger>,
    /// The project it belongs to: `ask` for a conversation with the Ask
    /// tutor (kept off the agent board), `null` for every other session.
    pub project: Option<String>,
    /// The permission level its starter pinned at spawn (a recipe's
    /// `permissionLevel`): `read_only`, `guarded`, `autonomous` or `full`,
    /// in force for its whole life whatever `agentPermissionLevel` says;
    /// `null`: its engine's own level, else `agentPermissionLevel`. An
    /// `email` session is read-only whatever this says.
    #[schema(value_type = Option<String>)]
    pub permission_level: Option<permissions::Level>,
}

/// How a turn ended, as the attention rule read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnEnd {
    /// A question in words, `AskUserQuestion`: the user is waited on.
    Asked,
    /// The turn did its work and asked nothing.
    Done,
}

impl TurnEnd {
    /// `turnEnd` as a session's row gives it: only while it waits for input
    /// and the rule has read the turn it is on (`judged`), `asked` when that
    /// turn is the last that asked.
    pub(crate) fn of(
        status: Status,
        turns: i64,
        judged: Option<i64>,
        asked: Option<i64>,
    ) -> Option<TurnEnd> {
        if status != Status::WaitingForInput || judged != Some(turns) {
            return None;
        }
        Some(if asked == Some(turns) {
            TurnEnd::Asked
        } else {
            TurnEnd::Done
        })
    }
}

/// The project of the Ask tutor's sessions ([`Trigger::Ask`]).
pub const ASK_PROJECT: &str = "ask";

/// What started a session from outside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    Email,
    Messenger,
    BugIntake,
    /// A question to the Ask tutor (docs/ask.md): its session is in the
    /// `ask` project and its token may only read.
    Ask,
}

impl Trigger {
    pub fn as_str(self) -> &'static str {
        match self {
            Trigger::Email => "email",
            Trigger::Messenger => "messenger",
            Trigger::BugIntake => "bug_intake",
            Trigger::Ask => "ask",
        }
    }

    /// The trigger a session's row stored, if any.
    pub(crate) fn parse_stored(text: Option<String>) -> Option<Trigger> {
        text.as_deref().and_then(Trigger::parse)
    }

    /// The project a session so started belongs to: `ask` for the Ask
    /// tutor's, none for the rest.
    pub fn project(self) -> Option<String> {
        (self == Trigger::Ask).then(|| ASK_PROJECT.to_owned())
    }

    pub fn parse(text: &str) -> Option<Trigger> {
        [
            Trigger::Email,
            Trigger::Messenger,
            Trigger::BugIntake,
            Trigger::Ask,
        ]
        .into_iter()
        .find(|trigger| trigger.as_str() == text)
    }
}

/// Why a session is not working: `closed` once archived, else its status's reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    Finished,
    WaitingForUser,
    Stopped,
    Closed,
    Failed,
    Interrupted,
}

impl StopReason {
    pub fn of(status: Status, archived: bool) -> Option<StopReason> {
        if archived {
            return Some(StopReason::Closed);
        }
        match status {
            Status::Queued | Status::Starting | Status::Running => None,
            Status::WaitingForInput => Some(StopReason::WaitingForUser),
            Status::Finished => Some(StopReason::Finished),
            Status::Failed => Some(StopReason::Failed),
            // The contract's reasons: a pause is the user's stop, which the
            // status (`paused`) tells apart for resume and refill.
            Status::Stopped | Status::Paused => Some(StopReason::Stopped),
            Status::Interrupted => Some(StopReason::Interrupted),
        }
    }
}

/// A session's own git worktree (`isolation: worktree`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Worktree {
    pub path: String,
    /// `switchboard/<short id>`; it stays after the worktree is removed.
    pub branch: String,
    /// The commit the branch started from (the repository's `HEAD` at spawn).
    pub base: String,
    /// The root of the checkout the session was asked to run in.
    pub repository: String,
    /// True once archiving removed the folder (it had no uncommitted changes).
    pub removed: bool,
    /// Why archiving kept the folder (uncommitted changes, or git refused); `null` when removed or not yet archived.
    pub kept_reason: Option<String>,
}

/// How a session is kept apart from the user's own working tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Isolation {
    /// A git worktree of its own under `DIR/worktrees/<session id>`.
    Worktree,
}

/// Token counts in one meaning for every engine: `input` is every input
/// token the model read, `cached_input` the part of it read from the engine's
/// prompt cache (so never more than `input`). Claude's cache writes count as
/// input, not as cached.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tokens {
    pub input: i64,
    pub output: i64,
    pub cached_input: i64,
}

/// `GET /usage`: what an account's sessions spent, per day and engine.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
pub struct Usage {
    pub days: Vec<UsageDay>,
}

/// One engine's totals on one day: the turns that ended that day (UTC).
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UsageDay {
    /// `YYYY-MM-DD`, UTC.
    pub date: String,
    /// The engine's name in `engines.toml`.
    pub engine: String,
    /// Sessions with at least one turn ending that day.
    pub sessions: i64,
    pub turns: i64,
    /// `None` when no turn of that day and engine reported a price (Codex never does).
    pub cost_usd: Option<f64>,
    pub tokens: Tokens,
}

/// Everything a session said and heard, turn by turn, plus every status move.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Transcript {
    pub session_id: String,
    pub turns: Vec<Turn>,
    pub events: Vec<StatusEvent>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Turn {
    pub turn: i64,
    /// `prompt` (the first), `message` (a follow-up) or `nudge` (crash recovery).
    pub kind: String,
    /// What the caller sent.
    pub input: String,
    /// What Switchboard put in front of it (the composed prompt presets); `None` when nothing.
    pub added: Option<String>,
    /// The reply as it streams (for `command` engines, stdout verbatim).
    pub output: String,
    pub stderr: String,
    /// `running`, `done`, `failed` or `stopped`.
    pub status: String,
    pub error: Option<String>,
    pub exit_code: Option<i64>,
    pub engine_session_id: Option<String>,
    /// What this turn itself spent: how much its conversation's reported
    /// total grew (the whole total when it started a new conversation).
    pub cost_usd: Option<f64>,
    pub started_at: String,
    pub ended_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusEvent {
    pub at: String,
    pub from: Option<Status>,
    pub to: Status,
    pub reason: String,
}

/// What `POST /sessions` carries.
#[derive(Debug, Clone, Default, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct SpawnRequest {
    /// Defaults to `primary`.
    pub engine: Option<String>,
    pub prompt: String,
    pub cwd: Option<String>,
    pub title: Option<String>,
    /// Absent: the session runs in `cwd` itself.
    pub isolation: Option<Isolation>,
    /// `email`: the session is locked down (cli token or the user only).
    /// The other triggers are the application's own: a request that names
    /// one is refused.
    pub trigger: Option<Trigger>,
    /// A session of the caller's to fork: the new session starts with a
    /// copy of that session's engine conversation (which stays as it was),
    /// on its engine and in its folder (its repository, isolated again,
    /// when it ran in a worktree) unless `engine`, `cwd` or `isolation` say
    /// otherwise. The engine must be of the source's kind.
    pub fork_from: Option<String>,
    /// `local`, a runner of `runners.toml`, or `auto` (the connected runner
    /// with room and the most memory free). Defaults to `local`.
    pub runner: Option<String>,
    /// The level the session runs at for life (a recipe's). Never read from
    /// a request: only the application's own starts pin a level, so no
    /// caller of `POST /sessions` (an agent least of all) can raise its own.
    #[serde(skip)]
    #[ts(skip)]
    #[schema(ignore)]
    pub permission_level: Option<permissions::Level>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Spawned {
    pub session: Session,
    /// Set when spawn spacing queued the session (the 202 path): when it starts.
    pub queued: Option<String>,
}

/// How a request reached the supervisor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// The UI server: the user's own sessions, never held back by the spawn rules.
    Ui,
    /// The control server with an account's cli token.
    ControlCli,
    /// The control server with the scoped token of `session_id`.
    ControlAgent { session_id: String },
    /// The user's own automation: a rule or schedule the user made or
    /// approved. `agentDrivenSessionsEnabled` is about external scripts, so
    /// it does not hold these back; the rest of the spawn rules do (spacing,
    /// `agentDrivenMaxConcurrent`, the spend caps), as for any spawn that
    /// no person is watching start.
    Automation,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub account_id: String,
    pub via: Via,
    /// `X-App-Source-Session-Id`, as sent.
    pub source_session_header: Option<String>,
}

/// The Sessions & Agents spawn settings, read by the server at each call.
#[derive(Debug, Clone, PartialEq)]
pub struct SpawnPolicy {
    pub agent_driven_sessions_enabled: bool,
    pub allow_agent_token_spawn: bool,
    pub require_spawn_source_session: bool,
    pub agent_driven_max_concurrent: u32,
    pub cli_spawn_spacing_seconds: u32,
    pub max_dollars_per_session: f64,
    pub max_turns_per_session: u32,
    /// `cloudControlPlaneEnabled`: sessions may run on the runners of
    /// `runners.toml`; off, everything runs here.
    pub remote_runners: bool,
    /// `cloudStartedSessionsEnabled`: a session on a runner may start
    /// helper sessions, each held for the user's approval.
    pub remote_started_sessions: bool,
}

/// The prompt settings, read by the server at each spawn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PromptSettings {
    pub default_instructions_enabled: bool,
    pub default_instructions_custom: String,
    pub app_awareness: bool,
    pub audience_style: bool,
    pub engineering_principles: bool,
    pub execution_bias: bool,
    pub key_reminders: bool,
    pub persona: bool,
    /// `shellCwdPersistNudgeEnabled`: tell the agent its shell keeps its folder.
    pub shell_cwd_persist_nudge: bool,
}

/// An engine as `engines.toml` (or the PATH defaults) names it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EngineInfo {
    pub name: String,
    pub kind: String,
    pub command: Vec<String>,
    /// Whether a session may be forked on it (`forkFrom`): `claude` and
    /// `codex` can copy a conversation, `command` engines have none.
    pub can_fork: bool,
    /// How to show it, when its name and kind would mislead: the built-in
    /// demo engine is kind `claude` but runs no model.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub label: Option<String>,
}

/// One entry of a turn's typed transcript, as `GET /sessions/<id>/transcript?format=json`
/// pages them and the `output` event carries them.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// The entry's place in the session's transcript: it only grows.
    #[ts(type = "number")]
    pub seq: i64,
    #[ts(type = "number")]
    pub turn: i64,
    /// When the entry was stored (RFC 3339, UTC); `null` for entries stored
    /// before entries had times.
    pub at: Option<String>,
    #[serde(flatten)]
    pub body: EntryBody,
}

/// What an engine wrote, in one meaning for every engine. `command` engines
/// write only `stdout` and `stderr` (whole lines); the `claude` and `codex`
/// adapters write the rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum EntryBody {
    /// What started the turn, as the caller sent it: the first prompt, a
    /// follow-up, or crash recovery's nudge.
    Input {
        text: String,
        source: InputSource,
    },
    Stdout {
        text: String,
    },
    Stderr {
        text: String,
    },
    /// The assistant's prose, Markdown.
    Text {
        text: String,
    },
    Thinking {
        text: String,
    },
    /// A tool the engine called: Claude's `tool_use` (`name` and `input` as
    /// sent: `Edit`'s `file_path`/`old_string`/`new_string` make a diff), a
    /// Codex command (`name: "command"`, `input: {"command"}`), file change
    /// (`name: "file_change"`, `input: {"changes": [{"path", "kind"}]}`),
    /// MCP call or web search.
    ToolCall {
        tool_id: Option<String>,
        name: String,
        input: serde_json::Value,
    },
    /// What the tool answered; `tool_id` names its call.
    ToolResult {
        tool_id: Option<String>,
        output: String,
        is_error: bool,
    },
    /// The engine's to-do list as it now stands (Claude's `TodoWrite`, Codex's `todo_list`).
    Todo {
        items: Vec<TodoItem>,
    },
    Error {
        message: String,
    },
    /// The turn's final message by the engine's own boundary: Claude's
    /// `result`, Codex's last `agent_message` of the turn.
    Final {
        text: String,
    },
    /// What the permission broker told the engine about one tool call:
    /// `decision` is `allow` or `deny`; `rule` names the table row (or
    /// `approved`, `refused`, `timed_out`, `remembered` when the user decided).
    Permission {
        tool: String,
        target: Option<String>,
        level: String,
        rule: String,
        decision: String,
    },
    /// Something to know that is not a failure. From Switchboard itself:
    /// what it did to the session (a retry, a restart, a compaction) or a
    /// warning (the context filling up). From the engine: what it reports
    /// along the way (a retried API call, a compacted context, a warning
    /// such as Codex's fallback model metadata). Only a failed turn has an
    /// `error` entry.
    Notice {
        text: String,
        /// Who wrote it; entries stored before engines had notices read as
        /// Switchboard's.
        #[serde(default)]
        source: NoticeSource,
    },
}

/// Who wrote a `notice` entry.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum NoticeSource {
    #[default]
    Switchboard,
    Engine,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InputSource {
    Prompt,
    Message,
    Nudge,
}

impl InputSource {
    /// The `kind` a turn records; anything unknown reads as a follow-up.
    pub fn of_turn_kind(kind: &str) -> InputSource {
        match kind {
            "prompt" => InputSource::Prompt,
            "nudge" | "revive" => InputSource::Nudge,
            _ => InputSource::Message,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TodoItem {
    pub text: String,
    pub status: TodoStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
}

/// `GET /sessions/<id>/transcript?format=json`: one page, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryPage {
    pub entries: Vec<Entry>,
    /// Whether entries exist beyond this page in the direction read: with
    /// `after` (the default), later ones (ask again with `after` = the last
    /// `seq`); with `before` or `tail=true`, earlier ones (ask again with
    /// `before` = the first `seq`).
    pub more: bool,
}

/// What a session is doing now, for the agent board: the current item of its
/// to-do list when the engine keeps one, else its latest step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Activity {
    pub kind: ActivityKind,
    /// The to-do item, the file, the command or the tool, shortened for one line.
    pub text: String,
    pub at: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActivityKind {
    Todo,
    Thinking,
    Writing,
    Reading,
    Editing,
    Running,
    Searching,
    Tool,
}
