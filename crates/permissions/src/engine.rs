//! What a turn's argv gains for the broker: Claude Code's hook settings and
//! Codex's sandbox flags.

use std::path::Path;

use serde_json::json;

use crate::rules::Level;

/// Claude Code's hook timeout (its default is 60 s): the user has ten
/// minutes to answer, and the hook needs a little longer to hear the server
/// deny on time.
pub const HOOK_TIMEOUT_SECONDS: u64 = 660;

/// The `--settings` value for Claude Code: inline JSON (Claude Code takes a
/// file path or a JSON string), so nothing is written to disk and no file
/// has to be readable by the engine inside its sandbox. Every tool call goes
/// through `<program> hook pre-tool-use`, which with `find_batching` also
/// batches a `find … -exec` command where that cannot change it
/// ([`crate::batch_find`]).
pub fn claude_settings(program: &Path, find_batching: bool) -> String {
    let command = format!(
        "{} hook pre-tool-use{}",
        shell_quote(&program.display().to_string()),
        if find_batching { " --batch-find" } else { "" }
    );
    json!({
        "hooks": {
            "PreToolUse": [{
                "matcher": "*",
                "hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECONDS}]
            }]
        }
    })
    .to_string()
}

/// Codex cannot ask in `exec` mode (its approval policy there is `never`), so
/// each level is the sandbox that comes closest without asking: `guarded`
/// keeps writes and commands inside the workspace without network,
/// `autonomous` adds network, `full` lifts the sandbox.
pub fn codex_args(level: Level) -> Vec<String> {
    let args: &[&str] = match level {
        Level::ReadOnly => &["--sandbox", "read-only"],
        Level::Guarded => &["--sandbox", "workspace-write"],
        Level::Autonomous => &[
            "--sandbox",
            "workspace-write",
            "-c",
            "sandbox_workspace_write.network_access=true",
        ],
        Level::Full => &["--sandbox", "danger-full-access"],
    };
    args.iter().map(|a| (*a).to_owned()).collect()
}

/// The arguments a turn of an engine of `kind` gains; `command` engines gain none.
pub fn engine_args(kind: &str, level: Level, program: &Path, find_batching: bool) -> Vec<String> {
    match kind {
        "claude" => vec![
            "--settings".to_owned(),
            claude_settings(program, find_batching),
        ],
        "codex" => codex_args(level),
        _ => Vec::new(),
    }
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}
