//! `switchboard messages`: scheduled messages (docs/automations.md), a
//! Markdown note put in the inbox once or on a rule, over the control
//! server: list them, add one, delete one.

use std::path::Path;
use std::process::ExitCode;

use clap::{ArgGroup, Subcommand};
use serde_json::{Value, json};

use crate::client::Client;
use crate::settings_cmd::report;

#[derive(Subcommand)]
pub enum MessagesCommand {
    /// List the scheduled messages (the default)
    List,
    /// Schedule a Markdown note for the inbox: once (--at) or recurring (--rrule, --cron)
    #[command(group(ArgGroup::new("when").required(true).args(["at", "rrule", "cron"])))]
    Add {
        /// The note; its first line is the inbox row's title
        #[arg(long)]
        markdown: String,
        /// Once: RFC 3339 with an offset (2026-01-05T09:00:00+01:00), or a
        /// local YYYY-MM-DDTHH:MM read in --time-zone
        #[arg(long)]
        at: Option<String>,
        /// Recurring: an RFC 5545 RRULE, such as FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0
        #[arg(long)]
        rrule: Option<String>,
        /// Recurring: five cron fields, such as "0 9 * * MON-FRI"
        #[arg(long)]
        cron: Option<String>,
        /// The IANA zone the time or rule is read in, such as Europe/Berlin
        #[arg(long)]
        time_zone: Option<String>,
    },
    /// Delete a scheduled message by its id
    Delete { id: String },
}

/// One message as a line: id, state, next delivery, title, timing.
fn line(message: &Value) -> String {
    let text = |k: &str| message[k].as_str().unwrap_or_default().to_owned();
    let timing = ["at", "cron", "rrule"]
        .into_iter()
        .find_map(|k| {
            message[k]
                .as_str()
                .map(|v| format!("{k} {}", v.replace('\n', " ")))
        })
        .unwrap_or_default();
    let next = message["nextAt"].as_str().unwrap_or("-");
    format!(
        "{}  [{}]  next {next}  {}  ({timing}, {})",
        text("id"),
        text("state"),
        text("title"),
        text("timeZone")
    )
}

pub fn run(
    command: Option<MessagesCommand>,
    data_dir: &Path,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let client = Client::discover(data_dir)?;
    match command.unwrap_or(MessagesCommand::List) {
        MessagesCommand::List => report(client.get("/scheduled-messages")?, json, |value| {
            let list = value["messages"].as_array().cloned().unwrap_or_default();
            if list.is_empty() {
                println!("No scheduled messages.");
            }
            for message in list {
                println!("{}", line(&message));
            }
        }),
        MessagesCommand::Add {
            markdown,
            at,
            rrule,
            cron,
            time_zone,
        } => {
            // A field left out goes as `null`, which the server reads as not given.
            let body = json!({
                "markdown": markdown, "at": at, "rrule": rrule, "cron": cron, "timeZone": time_zone,
            });
            let reply = client.send("POST", "/scheduled-messages", Some(&body))?;
            report(reply, json, |v| println!("Scheduled: {}", line(v)))
        }
        MessagesCommand::Delete { id } => {
            let reply = client.send("DELETE", &format!("/scheduled-messages/{id}"), None)?;
            report(reply, json, |_| println!("Deleted {id}."))
        }
    }
}
