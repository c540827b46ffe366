//! The decision table: levels, Claude Code's tools by class, paths resolved
//! against the session's folder, sensitive files, plans and config files.
//!
//! Every tool Claude Code 2.1.330 offers a session (its `init` line: `Agent`
//! (listed as `Task`), `Bash`, `CronCreate`, `CronDelete`, `CronList`,
//! `DesignSync`, `Edit`, `EnterWorktree`, `ExitWorktree`, `ListAgents`,
//! `Monitor`, `NotebookEdit`, `Read`, `ReportFindings`, `ScheduleWakeup`,
//! `SendMessage`, `Skill`, `TaskStop`, `ToolSearch`, `WebFetch`, `WebSearch`,
//! `Workflow`, `Write`, and `mcp__switchboard__*`), every tool its
//! `sdk-tools.d.ts` types an input for, and the older names (`LS`,
//! `MultiEdit`, `NotebookRead`, `BashOutput`, `KillShell`) has a class in
//! [`classify`]; the decision per class and level is [`decide`]'s table,
//! written out per tool in docs/api-guide.md ("Permissions").

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `agentPermissionLevel`, plus what an email trigger forces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    ReadOnly,
    Guarded,
    Autonomous,
    Full,
}

impl Level {
    pub const ALL: [Level; 4] = [
        Level::ReadOnly,
        Level::Guarded,
        Level::Autonomous,
        Level::Full,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::ReadOnly => "read_only",
            Level::Guarded => "guarded",
            Level::Autonomous => "autonomous",
            Level::Full => "full",
        }
    }

    /// The level [`Level::as_str`] names; `None` for any other text.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.as_str() == name)
    }
}

/// The name Switchboard gives its own MCP server in a session's
/// `--mcp-config`, which Claude Code prefers to a server of the user's of
/// the same name: its tools reach the hook as `mcp__switchboard__<tool>`.
pub const OWN_MCP_SERVER: &str = "switchboard";

/// Switchboard's own MCP tools that only read (their routes are `GET`): the
/// only ones a `read_only` session may call, since the others change state
/// (start sessions, change settings and items) beyond what `read_only`
/// allows its engine. The server's tool table is checked against this list.
pub const OWN_MCP_READERS: &[&str] = &[
    "list_sessions",
    "read_session",
    "read_setting",
    "list_boards",
    "read_board",
    "read_inbox",
    "wait_input_request",
    "list_bookmarks",
    "list_recipes",
    "list_rules",
];

/// What a Claude Code tool does, which is what the levels are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolClass {
    /// Read, Glob, Grep, LSP (and the older LS, NotebookRead): reads files.
    Read,
    /// Edit, Write, NotebookEdit (and the older MultiEdit), and a durable
    /// CronCreate, which writes `.claude/scheduled_tasks.json`: writes one file.
    Edit,
    /// Bash, PowerShell, a Monitor that runs a command: runs a command.
    Shell,
    /// WebFetch, WebSearch, a Monitor on a WebSocket, another MCP server's
    /// resources: reads from outside the machine.
    Web,
    /// ExitPlanMode: proposes a plan.
    Plan,
    /// Loads tool schemas or a skill's instructions, keeps the to-do or task
    /// list, reports, asks the user, schedules a prompt in this process, or
    /// starts a local agent or workflow: touches nothing the hook does not
    /// see, since every call that work leads to comes through the hook again.
    Internal,
    /// Switchboard's own MCP tools: each is one route of the HTTP API, which
    /// applies the session token's own rules.
    OwnMcp,
    /// Does work the hook will not see call by call: git worktrees made or
    /// removed, an agent or workflow in the cloud, files or data sent to
    /// claude.ai or Anthropic.
    Unchecked,
    /// Anything else: other servers' MCP tools, tools newer than this table.
    Other,
}

/// The tools of [`ToolClass::Internal`] whatever their input.
const INTERNAL: &[&str] = &[
    "ToolSearch",
    "DeferredToolPlaceholder",
    "Skill",
    "TodoWrite",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskUpdate",
    "TaskStop",
    "TaskOutput",
    "BashOutput",
    "KillShell",
    "KillBash",
    "AskUserQuestion",
    "EnterPlanMode",
    "SendMessage",
    "ListAgents",
    "ReportFindings",
    "StructuredOutput",
    "CronDelete",
    "CronList",
    "ScheduleWakeup",
    "RefreshMcpTools",
    "ReadNotifications",
    "PushNotification",
    "SendUserMessage",
    "ProposeGoal",
    "ProposeSkills",
    "OfferChromeSetup",
    "ShowOnboardingRolePicker",
];

/// The tools of [`ToolClass::Unchecked`] whatever their input.
const UNCHECKED: &[&str] = &[
    "EnterWorktree",
    "DesignSync",
    "ClaudeDesign",
    "Projects",
    "Artifact",
    "RemoteTrigger",
    "SendFeedback",
];

/// Where a durable `CronCreate` keeps its job, relative to the session's folder.
const SCHEDULED_TASKS: &str = ".claude/scheduled_tasks.json";

pub fn classify(call: Call<'_>) -> ToolClass {
    let input = call.input;
    let says = |key: &str, value: &str| str_field(input, key) == Some(value);
    let set = |key: &str| {
        input
            .get(key)
            .is_some_and(|v| !v.is_null() && v != &Value::Bool(false))
    };
    match call.tool {
        "Read" | "Glob" | "Grep" | "LSP" | "LS" | "NotebookRead" => ToolClass::Read,
        "Edit" | "Write" | "NotebookEdit" | "MultiEdit" => ToolClass::Edit,
        "Bash" | "PowerShell" => ToolClass::Shell,
        "Monitor" if str_field(input, "command").is_some() => ToolClass::Shell,
        "WebFetch" | "WebSearch" | "Monitor" => ToolClass::Web,
        "ListMcpResourcesTool" | "ReadMcpResourceTool" | "ReadMcpResourceDirTool" => {
            if says("server", OWN_MCP_SERVER) {
                ToolClass::OwnMcp
            } else {
                ToolClass::Web
            }
        }
        "ExitPlanMode" => ToolClass::Plan,
        // A worktree of its own is made with git; a remote one runs beyond the hook.
        "Agent" | "Task" if set("isolation") => ToolClass::Unchecked,
        "Workflow" if set("remote") => ToolClass::Unchecked,
        "Agent" | "Task" | "Workflow" => ToolClass::Internal,
        // A session-only job dies with the process, which ends with the turn.
        "CronCreate" if input.get("durable") == Some(&Value::Bool(true)) => ToolClass::Edit,
        "CronCreate" => ToolClass::Internal,
        "ExitWorktree" if says("action", "keep") => ToolClass::Internal,
        "ExitWorktree" => ToolClass::Unchecked,
        tool if INTERNAL.contains(&tool) => ToolClass::Internal,
        tool if UNCHECKED.contains(&tool) => ToolClass::Unchecked,
        tool if is_own_mcp_tool(tool) => ToolClass::OwnMcp,
        _ => ToolClass::Other,
    }
}

/// `mcp__switchboard__<tool>`, where `<tool>` is one of this server's names
/// (`snake_case`, none with `__` or a leading `_`): Claude Code joins server
/// and tool with `__`, so `mcp__switchboard__x__y` is a tool `y` of another
/// server called `switchboard__x`.
fn is_own_mcp_tool(tool: &str) -> bool {
    tool.strip_prefix("mcp__")
        .and_then(|rest| rest.strip_prefix(OWN_MCP_SERVER))
        .and_then(|rest| rest.strip_prefix("__"))
        .is_some_and(|name| !name.is_empty() && !name.starts_with('_') && !name.contains("__"))
}

/// One tool call as Claude Code's `PreToolUse` hook sends it.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    pub tool: &'a str,
    pub input: &'a Value,
}

/// What the decision depends on besides the call.
#[derive(Debug, Clone)]
pub struct Context {
    pub level: Level,
    /// The session's folder: relative paths resolve against it, and edits
    /// inside it are what `guarded` allows.
    pub cwd: PathBuf,
    pub home: Option<PathBuf>,
    pub auto_approve_plans: bool,
    pub auto_approve_config_files: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Allow,
    Deny,
    Ask,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Deny => "deny",
            Verdict::Ask => "ask",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    /// The table row that chose it (`guarded_shell`, `sensitive_path`, ...).
    pub rule: &'static str,
    /// Said to the model on a deny, and shown with an approval.
    pub reason: String,
    /// The path, command or address the call touches, for the record.
    pub target: Option<String>,
    /// What "always for this session" covers: the tool and its target's class
    /// (a command's program, a file's folder).
    pub grant_key: String,
}

pub fn decide(call: Call<'_>, ctx: &Context) -> Decision {
    let class = classify(call);
    let path = tool_path(call, class).map(|p| resolve(&ctx.cwd, ctx.home.as_deref(), p));
    let command = (class == ToolClass::Shell)
        .then(|| str_field(call.input, "command"))
        .flatten();
    let first_of = |keys: &[&str]| keys.iter().find_map(|key| str_field(call.input, key));
    let target = match (&path, command, class) {
        (Some(path), _, _) => Some(path.display().to_string()),
        (None, Some(command), _) => Some(command.to_owned()),
        (None, None, ToolClass::Web) => first_of(&["url", "query", "uri", "server"])
            .or_else(|| call.input.get("ws").and_then(|ws| str_field(ws, "url")))
            .map(str::to_owned),
        (None, None, ToolClass::Unchecked) => {
            first_of(&["name", "path", "description", "action"]).map(str::to_owned)
        }
        _ => None,
    };
    let grant_key = grant_key(call.tool, path.as_deref(), command);
    let made = |verdict, rule, reason: String| Decision {
        verdict,
        rule,
        reason,
        target: target.clone(),
        grant_key: grant_key.clone(),
    };

    // Plans come first: the setting is about plans whatever the level.
    if class == ToolClass::Plan {
        return if ctx.auto_approve_plans {
            made(
                Verdict::Allow,
                "plan_auto_approved",
                "plans are approved automatically".into(),
            )
        } else {
            made(
                Verdict::Ask,
                "plan_needs_approval",
                "the plan waits for the user's approval".into(),
            )
        };
    }
    if class == ToolClass::Internal {
        return made(
            Verdict::Allow,
            "internal",
            format!("{} acts only through calls this hook checks", call.tool),
        );
    }
    if class == ToolClass::OwnMcp {
        // The class holds `mcp__switchboard__<tool>` and the resource tools
        // (which only read) pointed at Switchboard.
        let reads = match call.tool.strip_prefix("mcp__") {
            Some(rest) => rest
                .rsplit("__")
                .next()
                .is_some_and(|name| OWN_MCP_READERS.contains(&name)),
            None => true,
        };
        if ctx.level == Level::ReadOnly && !reads {
            return made(
                Verdict::Deny,
                "read_only",
                format!(
                    "{} changes Switchboard's state; the read_only level only reads",
                    call.tool
                ),
            );
        }
        return made(
            Verdict::Allow,
            "switchboard_mcp",
            "Switchboard's own tool: its route applies this session's token rules".into(),
        );
    }
    let sensitive = match (&path, command) {
        (Some(path), _) => is_sensitive(path, ctx.home.as_deref()),
        (None, Some(command)) => mentions_sensitive(command, ctx.home.as_deref()),
        _ => false,
    };
    if ctx.level == Level::Full {
        return made(
            Verdict::Allow,
            "full",
            "the full level allows every call".into(),
        );
    }
    if sensitive {
        return made(
            Verdict::Ask,
            "sensitive_path",
            "the call touches a sensitive file (credentials or system secrets)".into(),
        );
    }
    if class == ToolClass::Edit
        && let Some(path) = &path
        && ctx.level != Level::ReadOnly
        && is_engine_config(path, ctx.home.as_deref())
    {
        return if ctx.auto_approve_config_files {
            made(
                Verdict::Allow,
                "config_file_auto_approved",
                "edits of the engine's own config files are approved automatically".into(),
            )
        } else {
            made(
                Verdict::Ask,
                "config_file_needs_approval",
                "an edit of the engine's own config files waits for the user's approval".into(),
            )
        };
    }
    match (ctx.level, class) {
        (Level::ReadOnly, ToolClass::Read) => made(
            Verdict::Allow,
            "read_only_reads",
            "reading is allowed".into(),
        ),
        (Level::ReadOnly, _) => made(
            Verdict::Deny,
            "read_only",
            format!(
                "This session is read-only: {} is not allowed. Only reading tools (Read, Grep, Glob, LS) may be used.",
                call.tool
            ),
        ),
        (Level::Guarded, ToolClass::Read | ToolClass::Web) => {
            made(Verdict::Allow, "guarded_reads", "reading is allowed".into())
        }
        (Level::Guarded, ToolClass::Edit) => match &path {
            Some(path) if inside(path, &ctx.cwd) => made(
                Verdict::Allow,
                "guarded_edit_inside",
                "edits inside the session's folder are allowed".into(),
            ),
            _ => made(
                Verdict::Ask,
                "guarded_edit_outside",
                "an edit outside the session's folder waits for the user's approval".into(),
            ),
        },
        (Level::Guarded, _) => made(
            Verdict::Ask,
            "guarded_ask",
            format!("{} waits for the user's approval", call.tool),
        ),
        (Level::Autonomous | Level::Full, _) => made(
            Verdict::Allow,
            "autonomous",
            "the autonomous level allows this call".into(),
        ),
    }
}

fn str_field<'a>(input: &'a Value, key: &str) -> Option<&'a str> {
    input
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The file a tool reads or writes; Grep, Glob and LS default to the folder.
fn tool_path<'a>(call: Call<'a>, class: ToolClass) -> Option<&'a str> {
    let input = call.input;
    match class {
        ToolClass::Edit if call.tool == "CronCreate" => Some(SCHEDULED_TASKS),
        ToolClass::Read | ToolClass::Edit => str_field(input, "file_path")
            .or_else(|| str_field(input, "notebook_path"))
            .or_else(|| str_field(input, "path"))
            .or_else(|| str_field(input, "filePath"))
            .or(Some(".")),
        _ => None,
    }
}

/// `~` and relative paths made absolute, `.` and `..` folded away, and
/// symbolic links followed as far as the path exists (the sandbox crate's
/// `resolve`), so a link into `~/.ssh` is judged by where it leads.
fn resolve(cwd: &Path, home: Option<&Path>, raw: &str) -> PathBuf {
    let joined = match (raw.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ if raw == "~" && home.is_some() => home.map(Path::to_path_buf).unwrap_or_default(),
        _ => cwd.join(raw),
    };
    sandbox::resolve(&sandbox::normalize(&joined))
}

fn inside(path: &Path, folder: &Path) -> bool {
    let folder = folder
        .canonicalize()
        .unwrap_or_else(|_| sandbox::normalize(folder));
    path.starts_with(folder)
}

/// Whether `path` (resolved) is or lies inside one of the sandbox crate's
/// `sandbox::SENSITIVE` entries: the one list the OS sandbox hides and the
/// broker asks about.
pub fn is_sensitive(path: &Path, home: Option<&Path>) -> bool {
    let home = home.map(|home| home.canonicalize().unwrap_or_else(|_| home.to_path_buf()));
    sandbox::sensitive_paths(home.as_deref())
        .iter()
        .any(|entry| path.starts_with(entry))
}

/// A command's words are not paths we can resolve, so any spelling of a
/// sensitive location in it counts (`~/.ssh`, `$HOME/.aws`, the absolute path).
fn mentions_sensitive(command: &str, home: Option<&Path>) -> bool {
    let home_text = home.map(|h| h.display().to_string());
    sandbox::SENSITIVE
        .iter()
        .any(|entry| match entry.strip_prefix("~/") {
            Some(rest) => {
                ["~/", "$HOME/", "${HOME}/"]
                    .iter()
                    .any(|prefix| command.contains(&format!("{prefix}{rest}")))
                    || home_text
                        .as_ref()
                        .is_some_and(|home| command.contains(&format!("{home}/{rest}")))
            }
            None => command.contains(entry),
        })
}

/// Claude Code's own configuration: any `.claude` folder, `CLAUDE.md`,
/// `CLAUDE.local.md`, `.mcp.json`, and `~/.claude.json`. A worktree Claude
/// Code made (`EnterWorktree`, an agent's `isolation: "worktree"`) lives in
/// `.claude/worktrees/<name>/`: its files are the project's, judged from
/// inside it.
fn is_engine_config(path: &Path, home: Option<&Path>) -> bool {
    let parts: Vec<Component<'_>> = path.components().collect();
    let in_worktree = parts
        .windows(2)
        .rposition(|pair| pair[0].as_os_str() == ".claude" && pair[1].as_os_str() == "worktrees")
        .map_or(0, |at| (at + 3).min(parts.len()));
    let in_claude_dir = parts[in_worktree..]
        .iter()
        .any(|c| c.as_os_str() == ".claude");
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    in_claude_dir
        || matches!(name, "CLAUDE.md" | "CLAUDE.local.md" | ".mcp.json")
        || home.is_some_and(|home| path == home.join(".claude.json"))
}

fn grant_key(tool: &str, path: Option<&Path>, command: Option<&str>) -> String {
    match (path, command) {
        (Some(path), _) => {
            let folder = path.parent().unwrap_or(path);
            format!("{tool}:{}", folder.display())
        }
        (None, Some(command)) => {
            let program = command.split_whitespace().next().unwrap_or("");
            format!("{tool}:{program}")
        }
        _ => tool.to_owned(),
    }
}
