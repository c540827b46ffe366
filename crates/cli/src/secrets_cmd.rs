//! `switchboard request-input` and `propose-key`, run by a session (the
//! value it needs, or a key it holds, goes to the user, never through the
//! model), and `switchboard keys`, the user's saved keys.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use serde_json::{Value, json};

use crate::client::Client;
use crate::settings_cmd::report;

#[derive(Subcommand)]
pub enum KeysCommand {
    /// Save a key (a connector's token) read from stdin, so it is never in
    /// your shell's history or the process list
    Set { name: String },
    /// Forget a saved key
    Delete { name: String },
}

/// Asks the user for `name` and waits for the answer. Prints only where the
/// value went: this output is what the model reads.
pub fn request_input(
    data_dir: &Path,
    name: &str,
    prompt: &str,
    file: Option<&str>,
) -> anyhow::Result<ExitCode> {
    let client = Client::discover(data_dir)?;
    let session = std::env::var("APP_SESSION_ID")
        .ok()
        .filter(|s| !s.is_empty());
    let body = json!({ "name": name, "prompt": prompt, "file": file, "sessionId": session });
    let request = match client.send("POST", "/input-requests", Some(&body))? {
        Ok(request) => request,
        Err(refusal) => return report(Err(refusal), false, |_| {}),
    };
    let id = text(&request, "id");
    eprintln!("Waiting for the user to provide {name} (up to 10 minutes)…");
    // The server holds each read while the request is pending; its clock,
    // not ours, ends the wait.
    loop {
        let reply = client.get(&format!("/input-requests/{id}?wait=true"))?;
        let request = match reply {
            Ok(request) => request,
            Err(refusal) => return report(Err(refusal), false, |_| {}),
        };
        match text(&request, "state").as_str() {
            "pending" => continue,
            "saved" => {
                println!("The user saved {name} in {}.", text(&request, "file"));
                return Ok(ExitCode::SUCCESS);
            }
            "declined" => {
                println!("The user declined to provide {name}.");
                return Ok(ExitCode::from(1));
            }
            _ => {
                println!("Nobody provided {name} within 10 minutes.");
                return Ok(ExitCode::from(1));
            }
        }
    }
}

/// Offers the key in `from_file` for the user to review and save. A dotenv
/// file's `NAME=` line is taken when it has one; otherwise the whole file.
pub fn propose_key(data_dir: &Path, name: &str, from_file: &Path) -> anyhow::Result<ExitCode> {
    let contents = std::fs::read_to_string(from_file)
        .with_context(|| format!("cannot read {}", from_file.display()))?;
    let value = dotenv_value(&contents, name).unwrap_or_else(|| contents.trim().to_owned());
    let client = Client::discover(data_dir)?;
    let session = std::env::var("APP_SESSION_ID")
        .ok()
        .filter(|s| !s.is_empty());
    let body = json!({ "name": name, "value": value, "sessionId": session });
    let reply = client.send("POST", "/key-proposals", Some(&body))?;
    report(reply, false, |proposal| {
        println!(
            "Offered {name} to the user for review (proposal {}); nothing is saved until they press Save.",
            text(proposal, "id")
        );
    })
}

pub fn keys(command: Option<KeysCommand>, data_dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let client = Client::discover(data_dir)?;
    match command {
        None => report(client.get("/keys")?, json, |value| {
            let keys = value["keys"].as_array().cloned().unwrap_or_default();
            if keys.is_empty() {
                println!("No saved keys.");
            }
            for key in keys {
                println!(
                    "{}  (saved {})",
                    text(&key, "name"),
                    text(&key, "updatedAt")
                );
            }
        }),
        Some(KeysCommand::Set { name }) => {
            let mut value = String::new();
            std::io::stdin()
                .read_line(&mut value)
                .context("cannot read the key's value from stdin")?;
            let body = json!({ "value": value.trim_end_matches(['\r', '\n']) });
            let reply = client.send("PUT", &format!("/keys/{name}"), Some(&body))?;
            report(reply, json, |_| println!("Saved {name}."))
        }
        Some(KeysCommand::Delete { name }) => {
            let reply = client.send("DELETE", &format!("/keys/{name}"), None)?;
            report(reply, json, |_| println!("Deleted {name}."))
        }
    }
}

fn text(value: &Value, field: &str) -> String {
    value[field].as_str().unwrap_or_default().to_owned()
}

/// The value of `name=` (or `export name=`) in dotenv text, unquoted.
fn dotenv_value(contents: &str, name: &str) -> Option<String> {
    contents.lines().find_map(|line| {
        let line = line.trim_start();
        let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
        let value = line
            .strip_prefix(name)?
            .trim_start()
            .strip_prefix('=')?
            .trim();
        let unquoted = [('"', '"'), ('\'', '\'')]
            .iter()
            .find_map(|(open, close)| value.strip_prefix(*open)?.strip_suffix(*close));
        Some(unquoted.unwrap_or(value).to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::dotenv_value;

    #[test]
    fn a_dotenv_line_gives_its_value() {
        let text = "# keys\nexport TOKEN=\"abc 1\"\nTOKEN_2=x\nKEY = 'q'\n";
        assert_eq!(dotenv_value(text, "TOKEN").as_deref(), Some("abc 1"));
        assert_eq!(dotenv_value(text, "TOKEN_2").as_deref(), Some("x"));
        assert_eq!(dotenv_value(text, "KEY").as_deref(), Some("q"));
        assert_eq!(dotenv_value(text, "MISSING"), None);
        assert_eq!(dotenv_value("sk-plain\n", "TOKEN"), None);
    }
}
