//! `switchboard apps`: the Running apps over the control server (docs/apps.md).
//! Inside a session, `--session` defaults to the session's own id
//! (`APP_SESSION_ID`), so an agent starts its dev server with
//! `switchboard apps start web -- npm run dev` and it outlives the turn.

use std::path::Path;
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::{Value, json};

use crate::client::Client;
use crate::settings_cmd::report;

#[derive(Subcommand)]
pub enum AppsCommand {
    /// Start an app: the command after `--`, or the one apps.toml declares under NAME
    Start {
        name: String,
        /// The session it belongs to (inside a session: that session)
        #[arg(long)]
        session: Option<String>,
        #[arg(last = true)]
        command: Vec<String>,
    },
    /// Stop an app and its whole process group
    Stop { name: String },
    /// Stop an app Switchboard started and start it again
    Restart { name: String },
    /// An app's last lines of output
    Output { name: String },
    /// Where the apps proxy listens
    Proxy,
}

pub fn run(command: Option<AppsCommand>, data_dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let client = Client::discover(data_dir)?;
    match command {
        None => {
            let path = match std::env::var("APP_SESSION_ID") {
                Ok(id) if !id.is_empty() => format!("/apps?sessionId={id}"),
                _ => "/apps".to_owned(),
            };
            report(client.get(&path)?, json, |value| {
                let list = value.as_array().cloned().unwrap_or_default();
                if list.is_empty() {
                    println!("No app is running.");
                }
                for app in &list {
                    println!("{}", line(app));
                }
            })
        }
        Some(AppsCommand::Start {
            name,
            session,
            command,
        }) => {
            let Some(session) = session.or_else(|| std::env::var("APP_SESSION_ID").ok()) else {
                anyhow::bail!("name the session the app belongs to: --session ID");
            };
            let command = (!command.is_empty()).then(|| command.join(" "));
            let body = json!({"sessionId": session, "name": name, "command": command});
            let reply = client.send("POST", "/apps", Some(&body))?;
            report(reply, json, |app| println!("Started {}", line(app)))
        }
        Some(AppsCommand::Stop { name }) => {
            let reply = client.send("POST", &format!("/apps/{name}/stop"), None)?;
            report(reply, json, |app| println!("Stopped {}", line(app)))
        }
        Some(AppsCommand::Restart { name }) => {
            let reply = client.send("POST", &format!("/apps/{name}/restart"), None)?;
            report(reply, json, |app| println!("Restarted {}", line(app)))
        }
        Some(AppsCommand::Output { name }) => report(
            client.get(&format!("/apps/{name}/output"))?,
            json,
            |value| {
                for line in value["lines"].as_array().into_iter().flatten() {
                    println!("{}", line.as_str().unwrap_or_default());
                }
            },
        ),
        Some(AppsCommand::Proxy) => report(client.get("/apps/proxy")?, json, |value| {
            println!("{}", value["url"].as_str().unwrap_or_default());
        }),
    }
}

fn line(app: &Value) -> String {
    let text = |key: &str| app[key].as_str().unwrap_or_default().to_owned();
    let state = match (text("state").as_str(), app["exitStatus"].as_i64()) {
        ("exited", Some(status)) => format!("exited ({status})"),
        (state, _) => state.to_owned(),
    };
    format!(
        "{}  {}  {state}  port {}  {}",
        text("name"),
        text("url"),
        app["port"],
        text("command")
    )
}
