//! `switchboard work`: the account's agent work and what became of it
//! (docs/work.md), and the actions on one piece, over the control server.

use std::path::Path;
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::{Value, json};

use crate::client::Client;
use crate::settings_cmd::report;

#[derive(Subcommand)]
pub enum WorkCommand {
    /// Remove the worktree and local branch of landed work
    Prune { id: String },
    /// Throw stranded work away; --confirm must be its branch's name
    Discard {
        id: String,
        #[arg(long)]
        confirm: String,
    },
    /// Push its branch and set the upstream
    Push { id: String },
    /// Start a session that merges a repository's ready branches (pushed, not landed), oldest first
    Merge {
        repository: String,
        #[arg(long)]
        engine: Option<String>,
    },
    /// Start a follow-up session in its checkout
    Continue {
        id: String,
        #[arg(long)]
        prompt: Option<String>,
    },
}

fn line(entry: &Value) -> String {
    let text = |k: &str| entry[k].as_str().unwrap_or_default().to_owned();
    let mut parts = vec![
        text("id"),
        format!("{:<17}", text("state")),
        text("branch"),
        format!("({})", text("repository")),
    ];
    let (ahead, behind) = (entry["ahead"].as_u64(), entry["behind"].as_u64());
    if let (Some(ahead), Some(behind)) = (ahead, behind) {
        parts.push(format!("+{ahead}/-{behind}"));
    }
    if let Some(files) = entry["uncommitted"]["files"].as_u64()
        && files > 0
    {
        parts.push(format!("{files} files uncommitted"));
    }
    if let Some(reason) = entry["reason"].as_str() {
        parts.push(format!("· {reason}"));
    }
    parts.join("  ")
}

pub fn run(command: Option<WorkCommand>, data_dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let client = Client::discover(data_dir)?;
    match command {
        None => report(client.get("/work")?, json, |value| {
            let list = value["work"].as_array().cloned().unwrap_or_default();
            if list.is_empty() {
                println!("No agent work yet.");
            }
            for entry in list {
                println!("{}", line(&entry));
            }
        }),
        Some(WorkCommand::Prune { id }) => {
            let reply = client.send("POST", &format!("/work/{id}/prune"), None)?;
            report(reply, json, |_| println!("Pruned {id}."))
        }
        Some(WorkCommand::Discard { id, confirm }) => {
            let body = json!({ "confirm": confirm });
            let reply = client.send("POST", &format!("/work/{id}/discard"), Some(&body))?;
            report(reply, json, |_| println!("Discarded {id}."))
        }
        Some(WorkCommand::Push { id }) => {
            let reply = client.send("POST", &format!("/work/{id}/push"), None)?;
            report(reply, json, |entry| println!("{}", line(entry)))
        }
        Some(WorkCommand::Merge { repository, engine }) => {
            let body = json!({ "repository": repository, "engine": engine });
            let reply = client.send("POST", "/work/merge", Some(&body))?;
            report(reply, json, |v| {
                println!(
                    "Started merge session {}.",
                    v["session"]["id"].as_str().unwrap_or_default()
                )
            })
        }
        Some(WorkCommand::Continue { id, prompt }) => {
            let body = json!({ "prompt": prompt });
            let reply = client.send("POST", &format!("/work/{id}/continue"), Some(&body))?;
            report(reply, json, |v| {
                println!(
                    "Started session {}.",
                    v["session"]["id"].as_str().unwrap_or_default()
                )
            })
        }
    }
}
