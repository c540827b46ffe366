//! `switchboard hook pre-tool-use` (Claude Code's `PreToolUse` hook, run by
//! the engine for every tool call) and `switchboard approvals` (the user's
//! answers from a terminal).

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::{Value, json};

use crate::client::Client;
use crate::settings_cmd::report;

#[derive(Subcommand)]
pub enum HookCommand {
    /// Claude Code's PreToolUse hook: reads the hook's JSON on stdin, asks the
    /// server (waiting while the user decides) and prints the decision
    PreToolUse {
        /// Batch an allowed `find … -exec CMD {} \;` Bash command as
        /// `-exec CMD {} +` where that cannot change it
        /// (agentFindBatchingEnabled, docs/sessions.md)
        #[arg(long)]
        batch_find: bool,
    },
}

#[derive(Subcommand)]
pub enum ApprovalsCommand {
    /// Allow a waiting tool call
    Allow {
        id: String,
        /// `session`: also allow the same tool and target class for the rest of the session
        #[arg(long, default_value = "once", value_parser = ["once", "session"])]
        remember: String,
    },
    /// Deny a waiting tool call
    Deny {
        id: String,
        #[arg(long, default_value = "once", value_parser = ["once", "session"])]
        remember: String,
    },
}

pub fn hook(command: HookCommand, data_dir: &Path) -> anyhow::Result<ExitCode> {
    match command {
        HookCommand::PreToolUse { batch_find } => {
            // Whatever goes wrong, the engine gets a decision it understands:
            // a deny whose reason says why, never a silent allow. That covers
            // a panic too: its exit code 101 is to Claude Code a non-blocking
            // error, after which the tool call runs.
            let checked = std::panic::catch_unwind(|| pre_tool_use(data_dir))
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the hook failed unexpectedly")));
            let (decision, reason, hook) = checked.unwrap_or_else(|error| {
                (
                    "deny".to_owned(),
                    format!("Switchboard could not check this tool call: {error:#}"),
                    Value::Null,
                )
            });
            let mut output = json!({
                "hookEventName": "PreToolUse",
                "permissionDecision": decision,
                "permissionDecisionReason": reason,
            });
            if batch_find
                && decision == "allow"
                && let Some(input) = batched_input(&hook)
            {
                output["updatedInput"] = input;
            }
            let answer = json!({ "hookSpecificOutput": output });
            println!("{answer}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The Bash call's input with its command batched, when
/// [`permissions::batch_find`] rewrites it. Claude Code runs an allowed
/// call with the hook's `updatedInput` in place of the model's.
fn batched_input(hook: &Value) -> Option<Value> {
    if hook["tool_name"] != "Bash" {
        return None;
    }
    let batched = permissions::batch_find(hook["tool_input"]["command"].as_str()?)?;
    let mut input = hook["tool_input"].clone();
    input["command"] = Value::String(batched);
    Some(input)
}

/// The decision, its reason, and the hook's input it was made on.
fn pre_tool_use(data_dir: &Path) -> anyhow::Result<(String, String, Value)> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let hook: Value = serde_json::from_str(&input)
        .map_err(|e| anyhow::anyhow!("the hook's input is not JSON: {e}"))?;
    let session = std::env::var("APP_SESSION_ID")
        .ok()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            anyhow::anyhow!("APP_SESSION_ID is not set: not inside a Switchboard session")
        })?;
    let client = Client::discover(data_dir)?;
    let mut path = format!("/sessions/{session}/permission-check");
    let mut body = Some(hook.clone());
    // While the user decides the server answers `pending` every few
    // seconds; its clock, not ours, ends the wait after ten minutes.
    loop {
        let answer = match client.send("POST", &path, body.as_ref())? {
            Ok(answer) => answer,
            Err(refusal) => anyhow::bail!("{} ({})", refusal.message, refusal.code),
        };
        let text = |name: &str| answer[name].as_str().unwrap_or_default().to_owned();
        match text("decision").as_str() {
            "pending" => {
                path = format!(
                    "/sessions/{session}/permission-check/{}",
                    text("approvalId")
                );
                body = None;
            }
            "allow" => return Ok(("allow".into(), text("reason"), hook)),
            _ => return Ok(("deny".into(), text("reason"), hook)),
        }
    }
}

pub fn approvals(
    command: Option<ApprovalsCommand>,
    data_dir: &Path,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let client = Client::discover(data_dir)?;
    let (id, decision, remember) = match command {
        None => {
            let reply = client.get("/approvals")?;
            return report(reply, json, |value| {
                let list = value["approvals"].as_array().cloned().unwrap_or_default();
                if list.is_empty() {
                    println!("No tool call is waiting for approval.");
                }
                for a in list {
                    let s = |k: &str| a[k].as_str().unwrap_or("").to_owned();
                    let target = a["target"].as_str().unwrap_or("");
                    println!(
                        "{}  {}  {}  {target}  ({})",
                        s("id"),
                        s("sessionId"),
                        s("tool"),
                        s("reason")
                    );
                }
            });
        }
        Some(ApprovalsCommand::Allow { id, remember }) => (id, "allow", remember),
        Some(ApprovalsCommand::Deny { id, remember }) => (id, "deny", remember),
    };
    let body = json!({ "decision": decision, "remember": remember });
    let reply = client.send("POST", &format!("/approvals/{id}"), Some(&body))?;
    report(reply, json, |a| {
        println!(
            "{} {}",
            a["id"].as_str().unwrap_or("?"),
            a["state"].as_str().unwrap_or("?")
        );
    })
}
