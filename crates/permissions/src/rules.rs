//! The decision table: levels, Claude Code's tools by class, paths resolved
//! against the session's folder, sensitive files, plans and config files.

use std::path::{Path, PathBuf};

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
    pub fn as_str(self) -> &'static str {
        match self {
            Level::ReadOnly => "read_only",
            Level::Guarded => "guarded",
            Level::Autonomous => "autonomous",
            Level::Full => "full",
        }
    }
}

/// What a Claude Code tool does, which is what the levels are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolClass {
    /// Read, Grep, Glob, LS, NotebookRead: reads files.
    Read,
    /// Edit, MultiEdit, Write, NotebookEdit: writes one file.
    Edit,
    /// Bash: runs a command.
    Shell,
    /// WebFetch, WebSearch: reaches the network.
    Web,
    /// ExitPlanMode: proposes a plan.
    Plan,
    /// TodoWrite, Task, AskUserQuestion and the like: touch nothing themselves
    /// (a sub-agent's own tool calls come through this hook again).
    Harmless,
    /// Anything else (MCP tools, tools newer than this table).
    Other,
}

pub fn classify(tool: &str) -> ToolClass {
    match tool {
        "Read" | "Grep" | "Glob" | "LS" | "NotebookRead" => ToolClass::Read,
        "Edit" | "MultiEdit" | "Write" | "NotebookEdit" => ToolClass::Edit,
        "Bash" => ToolClass::Shell,
        "WebFetch" | "WebSearch" => ToolClass::Web,
        "ExitPlanMode" => ToolClass::Plan,
        "TodoWrite" | "Task" | "AskUserQuestion" | "BashOutput" | "KillShell" | "KillBash" => {
            ToolClass::Harmless
        }
        _ => ToolClass::Other,
    }
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
    let class = classify(call.tool);
    let path = tool_path(call, class).map(|p| resolve(&ctx.cwd, ctx.home.as_deref(), p));
    let command = (class == ToolClass::Shell)
        .then(|| str_field(call.input, "command"))
        .flatten();
    let target = match (&path, command, class) {
        (Some(path), _, _) => Some(path.display().to_string()),
        (None, Some(command), _) => Some(command.to_owned()),
        (None, None, ToolClass::Web) => str_field(call.input, "url")
            .or_else(|| str_field(call.input, "query"))
            .map(str::to_owned),
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
    if class == ToolClass::Harmless {
        return made(
            Verdict::Allow,
            "harmless",
            format!("{} touches nothing itself", call.tool),
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
        ToolClass::Read | ToolClass::Edit => str_field(input, "file_path")
            .or_else(|| str_field(input, "notebook_path"))
            .or_else(|| str_field(input, "path"))
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
/// `CLAUDE.local.md`, `.mcp.json`, and `~/.claude.json`.
fn is_engine_config(path: &Path, home: Option<&Path>) -> bool {
    let in_claude_dir = path.components().any(|c| c.as_os_str() == ".claude");
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
