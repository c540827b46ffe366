//! `switchboard recipes`: the account's recipes, and running one by name
//! with values for its placeholders (docs/automations.md), over the
//! control server.

use std::path::Path;
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::{Map, Value, json};

use crate::client::Client;
use crate::settings_cmd::report;

#[derive(Subcommand)]
pub enum RecipesCommand {
    /// List the recipes (the default)
    List,
    /// Run a recipe now, by its name (or id)
    Run {
        name: String,
        /// A value for one of the prompt's placeholders, KEY=VALUE; repeat it
        #[arg(long = "value", value_name = "KEY=VALUE")]
        values: Vec<String>,
    },
}

fn line(recipe: &Value) -> String {
    let text = |k: &str| recipe[k].as_str().unwrap_or_default().to_owned();
    let mut parts = vec![
        text("id"),
        text("name"),
        format!("[{}]", text("engine")),
        text("cwd"),
    ];
    let placeholders: Vec<&str> = recipe["placeholders"]
        .as_array()
        .map(|p| p.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if !placeholders.is_empty() {
        parts.push(format!("needs {}", placeholders.join(", ")));
    }
    parts.join("  ")
}

/// `KEY=VALUE` pairs as the run's `values` object.
fn values(pairs: &[String]) -> anyhow::Result<Map<String, Value>> {
    pairs
        .iter()
        .map(|pair| match pair.split_once('=') {
            Some((key, value)) if !key.trim().is_empty() => {
                Ok((key.trim().to_owned(), Value::String(value.to_owned())))
            }
            _ => Err(anyhow::anyhow!("--value {pair:?} is not KEY=VALUE")),
        })
        .collect()
}

pub fn run(
    command: Option<RecipesCommand>,
    data_dir: &Path,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let client = Client::discover(data_dir)?;
    match command.unwrap_or(RecipesCommand::List) {
        RecipesCommand::List => report(client.get("/recipes")?, json, |value| {
            let list = value["recipes"].as_array().cloned().unwrap_or_default();
            if list.is_empty() {
                println!("No recipes yet.");
            }
            for recipe in list {
                println!("{}", line(&recipe));
            }
        }),
        RecipesCommand::Run {
            name,
            values: pairs,
        } => {
            let body = json!({ "values": values(&pairs)? });
            let listed = match client.get("/recipes")? {
                Ok(listed) => listed,
                Err(refusal) => return report(Err(refusal), json, |_| {}),
            };
            let recipes = listed["recipes"].as_array().cloned().unwrap_or_default();
            let found = recipes.iter().find(|r| {
                r["id"].as_str() == Some(name.as_str())
                    || r["name"]
                        .as_str()
                        .is_some_and(|n| n.eq_ignore_ascii_case(&name))
            });
            let Some(id) = found.and_then(|r| r["id"].as_str()) else {
                eprintln!("switchboard: there is no recipe named {name:?}");
                return Ok(ExitCode::from(1));
            };
            let reply = client.send("POST", &format!("/recipes/{id}/runs"), Some(&body))?;
            report(reply, json, |v| {
                println!(
                    "Started session {} (run {}).",
                    v["sessionId"].as_str().unwrap_or_default(),
                    v["runId"].as_str().unwrap_or_default()
                )
            })
        }
    }
}
