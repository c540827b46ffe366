//! `switchboard settings …`: list, get, set and reset settings on the running
//! server, and print the catalog or JSON Schema generated from the schema.

use std::path::Path;
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::Value;

use crate::client::{Client, Refusal};

#[derive(Subcommand)]
pub enum SettingsCommand {
    /// Print every setting and its current value
    List {
        /// Print the server's JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Print one setting: value, default and type
    Get {
        key: String,
        #[arg(long)]
        json: bool,
    },
    /// Change a setting. VALUE is read as JSON (true, 30, ["a"]) and
    /// otherwise taken as a string
    Set {
        key: String,
        value: String,
        #[arg(long)]
        json: bool,
    },
    /// Restore a setting's default
    Reset {
        key: String,
        #[arg(long)]
        json: bool,
    },
    /// Print the settings catalog as Markdown (docs/settings.md)
    Catalog,
    /// Print the settings as a JSON Schema
    Schema,
}

pub fn run(command: SettingsCommand, data_dir: &Path) -> anyhow::Result<ExitCode> {
    match command {
        SettingsCommand::Catalog => {
            print!("{}", settings::catalog_markdown());
            Ok(ExitCode::SUCCESS)
        }
        SettingsCommand::Schema => {
            println!(
                "{}",
                serde_json::to_string_pretty(&settings::json_schema())?
            );
            Ok(ExitCode::SUCCESS)
        }
        SettingsCommand::List { json } => {
            let reply = Client::discover(data_dir)?.get("/settings")?;
            report(reply, json, |all| {
                if let Value::Object(map) = all {
                    let width = map.keys().map(String::len).max().unwrap_or(0);
                    for (key, value) in map {
                        println!("{key:width$}  {value}");
                    }
                }
            })
        }
        SettingsCommand::Get { key, json } => {
            let reply = Client::discover(data_dir)?.get(&format!("/settings/{key}"))?;
            report(reply, json, |view| {
                println!("{}", view["value"]);
                println!(
                    "  type: {}, default: {}",
                    view["type"].as_str().unwrap_or("?"),
                    view["default"]
                );
            })
        }
        SettingsCommand::Set { key, value, json } => {
            let value = serde_json::from_str(&value).unwrap_or(Value::String(value));
            let body = serde_json::json!({ "value": value });
            let reply = Client::discover(data_dir)?.send(
                "PATCH",
                &format!("/settings/{key}"),
                Some(&body),
            )?;
            report(reply, json, |set| println!("{} = {}", key, set["value"]))
        }
        SettingsCommand::Reset { key, json } => {
            let reply =
                Client::discover(data_dir)?.send("DELETE", &format!("/settings/{key}"), None)?;
            report(reply, json, |view| {
                println!("{} = {} (default)", key, view["value"])
            })
        }
    }
}

/// Prints a reply for people or, with `--json`, as the server sent it; a
/// refusal prints the server's message and fails the command.
pub fn report(
    reply: Result<Value, Refusal>,
    json: bool,
    human: impl FnOnce(&Value),
) -> anyhow::Result<ExitCode> {
    match reply {
        Ok(value) if json => {
            println!("{}", serde_json::to_string_pretty(&value)?);
            Ok(ExitCode::SUCCESS)
        }
        Ok(value) => {
            human(&value);
            Ok(ExitCode::SUCCESS)
        }
        Err(refusal) => {
            if json {
                let body = serde_json::json!({"error": {"code": refusal.code, "message": refusal.message}});
                println!("{body}");
            }
            eprintln!(
                "switchboard: {} ({}, HTTP {})",
                refusal.message, refusal.code, refusal.status
            );
            Ok(ExitCode::from(1))
        }
    }
}
