//! The permission broker's rules: how much an engine may do before the user is asked.
//!
//! [`decide`] is a pure function of one tool call ([`Call`]: Claude Code's
//! `tool_name` and `tool_input`) and its [`Context`] (the session's [`Level`],
//! its folder, the home folder, `autoApprovePlans` and `autoApproveConfigFiles`).
//! It answers a [`Decision`]: allow, deny (with a reason the model reads) or
//! ask, the rule that chose it, and the grant key a "remember for this
//! session" answer covers. Sensitive files (the sandbox crate's
//! `sandbox::SENSITIVE`, the one list) ask below `full`. Every tool the
//! pinned Claude Code offers has a [`ToolClass`] ([`classify`]); tools that
//! only load schemas, keep lists or report are never asked about, and
//! Switchboard's own MCP tools ([`OWN_MCP_SERVER`]) are allowed, because
//! their routes apply the session token's rules (at `read_only`, only those
//! that read, [`OWN_MCP_READERS`]).
//!
//! [`Broker`] stores what was decided (`permission_decisions`), the approvals
//! an "ask" becomes (`approvals`) and the session grants a remembered approval
//! leaves (`permission_grants`), and lets a caller wait for an approval's
//! answer on the injected [`clock::Clock`], so tests move time instead of
//! waiting ten minutes.
//!
//! [`engine_args`] says what a turn's argv gains per engine kind: Claude
//! Code's `--settings` with the `PreToolUse` hook, Codex's sandbox flags.
//!
//! Knows nothing of HTTP, settings, sessions or the inbox: the server reads
//! the settings and the session, writes the inbox row and announces events.

mod broker;
mod engine;
mod find_batch;
mod rules;
#[cfg(test)]
mod tests;

pub use broker::{
    Approval, ApprovalState, Broker, MIGRATIONS, NewApproval, NewRecord, Outcome, PermissionError,
    PermissionRecord, Remember,
};
pub use engine::{HOOK_TIMEOUT_SECONDS, claude_settings, codex_args, engine_args};
pub use find_batch::batch_find;
pub use rules::{
    Call, Context, Decision, Level, OWN_MCP_READERS, OWN_MCP_SERVER, ToolClass, Verdict, classify,
    decide, is_sensitive,
};

/// How long a hook waits for the user's answer before the call is denied.
pub const APPROVAL_WAIT: std::time::Duration = std::time::Duration::from_secs(600);
