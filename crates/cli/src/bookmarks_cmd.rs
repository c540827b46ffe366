//! `switchboard bookmarks`: list, add, remove, reorder and launch the
//! account's bookmarks over the control server.

use std::path::Path;
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::{Value, json};

use crate::client::Client;
use crate::settings_cmd::report;

#[derive(Subcommand)]
pub enum BookmarksCommand {
    /// Add a link (--url) or a session recipe (--prompt, with --engine and --cwd)
    Add {
        title: String,
        #[arg(long, conflicts_with_all = ["prompt", "engine", "cwd"])]
        url: Option<String>,
        #[arg(long, required_unless_present = "url")]
        prompt: Option<String>,
        #[arg(long)]
        engine: Option<String>,
        #[arg(long)]
        cwd: Option<String>,
    },
    /// Delete a bookmark
    Remove { id: String },
    /// Put the bookmarks in this order (every id, once)
    Reorder { ids: Vec<String> },
    /// Open a link in the web app, or start a recipe's session
    Launch { id: String },
}

pub fn run(
    command: Option<BookmarksCommand>,
    data_dir: &Path,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let client = Client::discover(data_dir)?;
    let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_owned();
    match command {
        None => report(client.get("/bookmarks")?, json, |value| {
            let list = value["bookmarks"].as_array().cloned().unwrap_or_default();
            if list.is_empty() {
                println!("No bookmarks.");
            }
            for b in list {
                let target = match b["kind"].as_str() {
                    Some("url") => text(&b, "url"),
                    _ => format!("session: {}", text(&b, "prompt")),
                };
                println!("{}  {}  {target}", text(&b, "id"), text(&b, "title"));
            }
        }),
        Some(BookmarksCommand::Add {
            title,
            url,
            prompt,
            engine,
            cwd,
        }) => {
            let body = match url {
                Some(url) => json!({"title": title, "kind": "url", "url": url}),
                None => {
                    json!({"title": title, "kind": "session", "prompt": prompt, "engine": engine, "cwd": cwd})
                }
            };
            let reply = client.send("POST", "/bookmarks", Some(&body))?;
            report(reply, json, |b| {
                println!("Added {} ({}).", text(b, "title"), text(b, "id"))
            })
        }
        Some(BookmarksCommand::Remove { id }) => {
            let reply = client.send("DELETE", &format!("/bookmarks/{id}"), None)?;
            report(reply, json, |_| println!("Removed {id}."))
        }
        Some(BookmarksCommand::Reorder { ids }) => {
            let reply = client.send("POST", "/bookmarks/reorder", Some(&json!({ "ids": ids })))?;
            report(reply, json, |_| println!("Reordered."))
        }
        Some(BookmarksCommand::Launch { id }) => {
            let reply = client.send("POST", &format!("/bookmarks/{id}/launch"), None)?;
            report(reply, json, |v| match v.get("session") {
                Some(session) => println!("Started session {}.", text(session, "id")),
                None => println!("Sent: {}.", text(v, "delivered")),
            })
        }
    }
}
